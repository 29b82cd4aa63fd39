import type { ChContext } from './context.js';
import type { ChTx } from './schema.js';

/** A repository's protected branches (`ch_protections`): the rules are the domain's JSON text. */
export function protectionsRepository({ kysely }: ChContext) {
  return {
    async get(repoId: number, branch: string, tx: ChTx = kysely): Promise<string | undefined> {
      return (await tx.selectFrom('ch_protections').select('rules').where('repo_id', '=', repoId).where('branch', '=', branch).executeTakeFirst())?.rules;
    },

    /** Every protected branch of a repository, by name. */
    async all(repoId: number): Promise<{ branch: string; rules: string }[]> {
      return kysely.selectFrom('ch_protections').select(['branch', 'rules']).where('repo_id', '=', repoId).orderBy('branch').execute();
    },

    /** Sets a branch's rules (made or replaced in one statement, so two writers leave one row). */
    async put(repoId: number, branch: string, rules: string, now: string, tx: ChTx = kysely): Promise<void> {
      await tx
        .insertInto('ch_protections')
        .values({ repo_id: repoId, branch, rules, updated_at: now })
        .onConflict((oc) => oc.columns(['repo_id', 'branch']).doUpdateSet({ rules, updated_at: now }))
        .execute();
    },

    /** Whether there was a row to remove. */
    async remove(repoId: number, branch: string): Promise<boolean> {
      const r = await kysely.deleteFrom('ch_protections').where('repo_id', '=', repoId).where('branch', '=', branch).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}

export type Protections = ReturnType<typeof protectionsRepository>;
