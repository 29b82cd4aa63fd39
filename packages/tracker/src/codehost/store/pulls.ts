import { sql } from 'kysely';
import type { ChPull, NewPull, PullListQuery, PullPatch } from '../model.js';
import type { ChContext } from './context.js';
import { isUniqueViolation } from './races.js';

/** A pull request's row with its repository's names (the board's question, across repositories). */
export type PullOfRepo = ChPull & { owner: string; repo_name: string };

/**
 * Pull requests, their numbers and their merge claims. One open pull request per head and base is
 * the database's own rule (a unique `open_key`); a write that meets another request's pull
 * request answers 'exists'.
 */
export function pullsRepository(context: ChContext) {
  return { ...pullReads(context), ...pullWrites(context), ...mergeClaims(context) };
}

export type Pulls = ReturnType<typeof pullsRepository>;

const changed = (r: { numUpdatedRows: bigint }) => Number(r.numUpdatedRows) > 0;

/** Opening a pull request and changing it. */
function pullWrites({ kysely }: ChContext) {
  return {
    /**
     * Opens a pull request: its number is the repository's counter advanced in the same transaction
     * (on PostgreSQL the row lock serialises creators across processes; on SQLite the write lock
     * does). 'exists' when the database refused a second open pull request for the head and base.
     */
    async create(pull: NewPull, now: string): Promise<ChPull | 'exists'> {
      try {
        return await kysely.transaction().execute(async (tx) => {
          const { pull_counter: number } = await tx
            .updateTable('ch_repos')
            .set({ pull_counter: sql`pull_counter + 1` })
            .where('id', '=', pull.repo_id)
            .returning('pull_counter')
            .executeTakeFirstOrThrow();
          const { draft, ...rest } = pull;
          return (await tx
            .insertInto('ch_pulls')
            .values({
              ...rest,
              number,
              draft: draft ? 1 : 0,
              state: 'open',
              open_key: `${pull.head_ref}\n${pull.base_ref}`,
              merged: 0,
              created_at: now,
              updated_at: now,
            })
            .returningAll()
            .executeTakeFirstOrThrow()) as ChPull;
        });
      } catch (e) {
        if (isUniqueViolation(e)) return 'exists';
        throw e;
      }
    },

    /** Applies a change to an open or closed pull request: false when it was not there, 'exists' when a new base meets another open one. */
    async update(id: number, patch: PullPatch, now: string): Promise<boolean | 'exists'> {
      const set: Record<string, unknown> = { updated_at: now };
      if (patch.title !== undefined) set.title = patch.title;
      if (patch.body !== undefined) set.body = patch.body;
      if (patch.base_ref !== undefined) set.base_ref = patch.base_ref;
      if (patch.base_sha !== undefined) set.base_sha = patch.base_sha;
      try {
        return await kysely.transaction().execute(async (tx) => {
          const r = await tx.updateTable('ch_pulls').set(set).where('id', '=', id).executeTakeFirst();
          // A new base moves the open key with it (still one open pull request per head and base).
          if (patch.base_ref !== undefined) {
            await tx
              .updateTable('ch_pulls')
              .set({ open_key: sql`head_ref || ${'\n'} || base_ref` })
              .where('id', '=', id)
              .where('state', '=', 'open')
              .execute();
          }
          return changed(r);
        });
      } catch (e) {
        if (isUniqueViolation(e)) return 'exists';
        throw e;
      }
    },

    /** Keeps a pull request's figures for the commits they were computed for (`base\nhead`). */
    async setStats(id: number, key: string, stats: string): Promise<void> {
      await kysely.updateTable('ch_pulls').set({ stats_key: key, stats }).where('id', '=', id).execute();
    },

    /** Closes an open pull request that is not being merged, recording the branches' commits; false when it was not open. */
    async close(id: number, headSha: string, baseSha: string, now: string): Promise<boolean> {
      const r = await kysely
        .updateTable('ch_pulls')
        .set({ state: 'closed', open_key: null, head_sha: headSha, base_sha: baseSha, closed_at: now, updated_at: now })
        .where('id', '=', id)
        .where('state', '=', 'open')
        .where('merge_claim', 'is', null)
        .executeTakeFirst();
      return changed(r);
    },

    /** Reopens a closed, unmerged pull request; 'exists' when another one is open for its head and base. */
    async reopen(id: number, headSha: string, baseSha: string, now: string): Promise<boolean | 'exists'> {
      try {
        const r = await kysely
          .updateTable('ch_pulls')
          .set({ state: 'open', open_key: sql`head_ref || ${'\n'} || base_ref`, head_sha: headSha, base_sha: baseSha, closed_at: null, updated_at: now })
          .where('id', '=', id)
          .where('state', '=', 'closed')
          .where('merged', '=', 0)
          .executeTakeFirst();
        return changed(r);
      } catch (e) {
        if (isUniqueViolation(e)) return 'exists';
        throw e;
      }
    },
  };
}

/** Reading pull requests: by number, by head and base, a repository's listing, an issue key's. */
function pullReads({ kysely, keep }: ChContext) {
  const byNumber = keep((db, repoId: number, number: number) =>
    db.selectFrom('ch_pulls').selectAll().where('repo_id', '=', repoId).where('number', '=', number),
  );
  return {
    async byNumber(repoId: number, number: number): Promise<ChPull | undefined> {
      return (await byNumber.first(repoId, number)) as ChPull | undefined;
    },

    /** A pull request by its id (GraphQL's node ids name pull requests by it). */
    async byId(id: number): Promise<ChPull | undefined> {
      return (await kysely.selectFrom('ch_pulls').selectAll().where('id', '=', id).executeTakeFirst()) as ChPull | undefined;
    },

    /** The open pull requests whose head is one of these branches (a push to them makes their approvals stale). */
    async openWithHeads(repoId: number, heads: string[]): Promise<Pick<ChPull, 'id' | 'head_ref' | 'base_ref'>[]> {
      if (heads.length === 0) return [];
      return kysely
        .selectFrom('ch_pulls')
        .select(['id', 'head_ref', 'base_ref'])
        .where('repo_id', '=', repoId)
        .where('state', '=', 'open')
        .where('head_ref', 'in', heads.slice(0, 1000))
        .execute();
    },

    async openFor(repoId: number, head: string, base: string): Promise<ChPull | undefined> {
      return (await kysely.selectFrom('ch_pulls').selectAll().where('repo_id', '=', repoId).where('open_key', '=', `${head}\n${base}`).executeTakeFirst()) as
        ChPull | undefined;
    },

    async list(repoId: number, q: PullListQuery): Promise<{ rows: ChPull[]; total: number }> {
      let query = kysely.selectFrom('ch_pulls').where('repo_id', '=', repoId);
      if (q.state !== 'all') query = query.where('state', '=', q.state);
      if (q.head !== undefined) query = query.where('head_ref', '=', q.head);
      if (q.base !== undefined) query = query.where('base_ref', '=', q.base);
      const column = q.sort === 'updated' ? 'updated_at' : 'created_at';
      const rows = (await query.selectAll().orderBy(column, q.direction).orderBy('id', q.direction).offset(q.offset).limit(q.limit).execute()) as ChPull[];
      // A first page with room left holds every match: the count would say what the page says.
      if (q.offset === 0 && rows.length < q.limit) return { rows, total: rows.length };
      const { n } = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return { rows, total: Number(n) };
    },

    /** Pull requests of any repository whose head branch carries an issue key, oldest first (at most 200). */
    async forIssueKey(issueKey: string): Promise<PullOfRepo[]> {
      const rows = await kysely
        .selectFrom('ch_pulls')
        .innerJoin('ch_repos', 'ch_repos.id', 'ch_pulls.repo_id')
        .selectAll('ch_pulls')
        .select(['ch_repos.owner as owner', 'ch_repos.name as repo_name'])
        .where('ch_pulls.issue_key', '=', issueKey)
        .orderBy('ch_pulls.id')
        .limit(200)
        .execute();
      return rows as PullOfRepo[];
    },
  };
}

/** One merge of a pull request at a time, across processes: a claim with a time, taken over when stale. */
function mergeClaims({ kysely }: ChContext) {
  return {
    /**
     * Claims the merge of an open pull request for one caller: true when no other merge of it is in
     * progress (or the other one's claim is older than `staleBefore`, its process gone).
     */
    async claimMerge(id: number, claim: string, now: string, staleBefore: string): Promise<boolean> {
      const r = await kysely
        .updateTable('ch_pulls')
        .set({ merge_claim: claim, merge_claim_at: now })
        .where('id', '=', id)
        .where('state', '=', 'open')
        .where((eb) => eb.or([eb('merge_claim', 'is', null), eb('merge_claim_at', '<', staleBefore)]))
        .executeTakeFirst();
      return changed(r);
    },

    async releaseMerge(id: number, claim: string): Promise<void> {
      await kysely.updateTable('ch_pulls').set({ merge_claim: null, merge_claim_at: null }).where('id', '=', id).where('merge_claim', '=', claim).execute();
    },

    /** Records a merge git has published, only while the caller still holds the claim (compare-and-set). */
    async markMerged(id: number, claim: string, m: { sha: string; headSha: string; baseSha: string; mergedBy: number }, now: string): Promise<boolean> {
      const r = await kysely
        .updateTable('ch_pulls')
        .set({
          state: 'closed',
          open_key: null,
          merged: 1,
          merged_at: now,
          merged_by_id: m.mergedBy,
          merge_commit_sha: m.sha,
          head_sha: m.headSha,
          base_sha: m.baseSha,
          closed_at: now,
          updated_at: now,
          merge_claim: null,
          merge_claim_at: null,
        })
        .where('id', '=', id)
        .where('state', '=', 'open')
        .where('merge_claim', '=', claim)
        .executeTakeFirst();
      return changed(r);
    },
  };
}
