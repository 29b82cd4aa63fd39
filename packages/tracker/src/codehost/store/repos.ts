import type { ChRepo, Permission } from '../model.js';
import type { ChContext } from './context.js';
import type { ChTx } from './schema.js';

const REPO = ['id', 'owner', 'name', 'default_branch', 'pull_counter', 'created_at', 'updated_at', 'pushed_at'] as const;

/** Repositories and their collaborators' permissions. */
export function reposRepository({ kysely, keep }: ChContext) {
  const byKeys = keep((db, owner: string, name: string) => db.selectFrom('ch_repos').select(REPO).where('owner_key', '=', owner).where('name_key', '=', name));
  const permission = keep((db, repoId: number, userId: number) =>
    db.selectFrom('ch_collaborators').select('permission').where('repo_id', '=', repoId).where('user_id', '=', userId),
  );
  return {
    /** A repository by owner and name, case-insensitively (as GitHub's names are). */
    byName(owner: string, name: string, tx?: ChTx): Promise<ChRepo | undefined> {
      if (tx)
        return tx
          .selectFrom('ch_repos')
          .select(REPO)
          .where('owner_key', '=', owner.toLowerCase())
          .where('name_key', '=', name.toLowerCase())
          .executeTakeFirst();
      return byKeys.first(owner.toLowerCase(), name.toLowerCase());
    },

    /** A repository by its id (GraphQL's node ids name repositories by it). */
    byId(id: number): Promise<ChRepo | undefined> {
      return kysely.selectFrom('ch_repos').select(REPO).where('id', '=', id).executeTakeFirst();
    },

    list(tx: ChTx = kysely): Promise<ChRepo[]> {
      return tx.selectFrom('ch_repos').select(REPO).orderBy('id').execute();
    },

    insert(tx: ChTx, owner: string, name: string, defaultBranch: string, now: string): Promise<ChRepo> {
      return tx
        .insertInto('ch_repos')
        .values({ owner, name, owner_key: owner.toLowerCase(), name_key: name.toLowerCase(), default_branch: defaultBranch, created_at: now, updated_at: now })
        .returning(REPO)
        .executeTakeFirstOrThrow();
    },

    async update(tx: ChTx, id: number, set: { owner: string; name: string; default_branch: string }, now: string): Promise<void> {
      await tx
        .updateTable('ch_repos')
        .set({ ...set, updated_at: now })
        .where('id', '=', id)
        .execute();
    },

    /** A collaborator's permission (the owner's is the domain's rule, not a row). */
    async permissionOf(repoId: number, userId: number): Promise<Permission | undefined> {
      return (await permission.first(repoId, userId))?.permission as Permission | undefined;
    },

    async collaborators(repoId: number, tx: ChTx = kysely): Promise<{ user_id: number; permission: Permission }[]> {
      return (await tx.selectFrom('ch_collaborators').select(['user_id', 'permission']).where('repo_id', '=', repoId).execute()) as {
        user_id: number;
        permission: Permission;
      }[];
    },

    async upsertCollaborator(tx: ChTx, repoId: number, userId: number, permission: Permission): Promise<void> {
      const found = await tx.selectFrom('ch_collaborators').select('permission').where('repo_id', '=', repoId).where('user_id', '=', userId).executeTakeFirst();
      if (!found) await tx.insertInto('ch_collaborators').values({ repo_id: repoId, user_id: userId, permission }).execute();
      else if (found.permission !== permission)
        await tx.updateTable('ch_collaborators').set({ permission }).where('repo_id', '=', repoId).where('user_id', '=', userId).execute();
    },
  };
}

export type Repos = ReturnType<typeof reposRepository>;
