import type { ChContext } from './context.js';
import type { ChTx } from './schema.js';

/** One ref as git moved it: `old`/`new` are all zeros for a ref created/deleted (git's own notation). */
export interface StoredRefUpdate {
  ref: string;
  old: string;
  new: string;
}

export const isZeroSha = (sha: string) => /^0+$/.test(sha);

const CHUNK = 400;

/**
 * Each ref's commit as git last updated it (`ch_refs`, migration 0009): written when the code host
 * learns of an update (domain/pushes.ts), read in place of `git rev-parse`.
 */
export function refsRepository({ kysely }: ChContext) {
  return {
    /** The commits of these refs of a repository (refs it has no row for are absent from the map). */
    async shas(repoId: number, refs: string[]): Promise<Map<string, string>> {
      const out = new Map<string, string>();
      const wanted = [...new Set(refs)];
      for (let i = 0; i < wanted.length; i += CHUNK) {
        const rows = await kysely
          .selectFrom('ch_refs')
          .select(['ref', 'sha'])
          .where('repo_id', '=', repoId)
          .where('ref', 'in', wanted.slice(i, i + CHUNK))
          .execute();
        for (const r of rows) out.set(r.ref, r.sha);
      }
      return out;
    },

    /** Every ref of a repository, by name. */
    all(repoId: number): Promise<{ ref: string; sha: string }[]> {
      return kysely.selectFrom('ch_refs').select(['ref', 'sha']).where('repo_id', '=', repoId).orderBy('ref').execute();
    },

    /**
     * Applies git's updates, each only from the value it started from (compare-and-set: a row
     * equal to `old`, or no row for a creation), so two pushes recorded out of order cannot leave
     * the older commit. Returns the refs whose row was not at `old` (the caller asks git for them).
     */
    async apply(repoId: number, updates: StoredRefUpdate[], now: string): Promise<string[]> {
      const missed: string[] = [];
      await kysely.transaction().execute(async (tx) => {
        for (const u of updates) {
          let done: boolean;
          if (isZeroSha(u.new)) {
            const r = await tx.deleteFrom('ch_refs').where('repo_id', '=', repoId).where('ref', '=', u.ref).where('sha', '=', u.old).executeTakeFirst();
            done = Number(r.numDeletedRows) > 0 || isZeroSha(u.old);
          } else if (isZeroSha(u.old)) {
            const r = await tx
              .insertInto('ch_refs')
              .values({ repo_id: repoId, ref: u.ref, sha: u.new, updated_at: now })
              .onConflict((oc) => oc.columns(['repo_id', 'ref']).doNothing())
              .executeTakeFirst();
            done = Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
          } else {
            const r = await tx
              .updateTable('ch_refs')
              .set({ sha: u.new, updated_at: now })
              .where('repo_id', '=', repoId)
              .where('ref', '=', u.ref)
              .where('sha', '=', u.old)
              .executeTakeFirst();
            done = Number(r.numUpdatedRows) > 0;
          }
          if (!done) missed.push(u.ref);
        }
      });
      return missed;
    },

    /** Sets refs to what git answered (null: no such ref), whatever the rows said. */
    async put(repoId: number, refs: { ref: string; sha: string | null }[], now: string): Promise<void> {
      await kysely.transaction().execute(async (tx) => {
        for (const { ref, sha } of refs) {
          if (sha === null) await tx.deleteFrom('ch_refs').where('repo_id', '=', repoId).where('ref', '=', ref).execute();
          else
            await tx
              .insertInto('ch_refs')
              .values({ repo_id: repoId, ref, sha, updated_at: now })
              .onConflict((oc) => oc.columns(['repo_id', 'ref']).doUpdateSet({ sha, updated_at: now }))
              .execute();
        }
      });
    },

    /** Replaces a repository's rows with git's whole answer (`for-each-ref`) and notes when. */
    async replaceAll(repoId: number, refs: { ref: string; sha: string }[], now: string): Promise<void> {
      await kysely.transaction().execute(async (tx: ChTx) => {
        await tx.deleteFrom('ch_refs').where('repo_id', '=', repoId).execute();
        for (let i = 0; i < refs.length; i += CHUNK) {
          const rows = refs.slice(i, i + CHUNK).map((r) => ({ repo_id: repoId, ref: r.ref, sha: r.sha, updated_at: now }));
          await tx.insertInto('ch_refs').values(rows).execute();
        }
        await tx.updateTable('ch_repos').set({ refs_synced_at: now }).where('id', '=', repoId).execute();
      });
    },

    /** When the repository's rows were last filled from git (null: never). */
    async syncedAt(repoId: number): Promise<string | null> {
      return (await kysely.selectFrom('ch_repos').select('refs_synced_at').where('id', '=', repoId).executeTakeFirst())?.refs_synced_at ?? null;
    },

    /** GitHub's `pushed_at` moves with an accepted push. */
    async markPushed(repoId: number, now: string): Promise<void> {
      await kysely.updateTable('ch_repos').set({ pushed_at: now }).where('id', '=', repoId).execute();
    },
  };
}

export type Refs = ReturnType<typeof refsRepository>;
