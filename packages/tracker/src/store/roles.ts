import type { Store, Tx } from './store.js';

/**
 * The toolkit's roles in a project (migration 0005, ARCHITECTURE §5 `"roles"`): which user holds
 * each of `assigner`, `executor`, `reviewer`. Written by a seed, read by the issue page. Its own
 * statements, apart from store.ts; no rule is decided here.
 */

/** The project's named roles: role → user id (empty when the seed named none). */
export async function projectRoles(store: Store, projectId: number): Promise<Map<string, number>> {
  const rows = await store.kysely.selectFrom('project_roles').select(['role', 'user_id']).where('project_id', '=', projectId).execute();
  return new Map(rows.map((r) => [r.role, r.user_id]));
}

/** The project roles `userId` holds in the project (a workflow condition's project roles, spec §3 rule 5). */
export async function rolesHeldBy(store: Store, projectId: number, userId: number): Promise<string[]> {
  const rows = await store.kysely.selectFrom('project_roles').select('role').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
  return rows.map((r) => r.role);
}

/** Names `userId` as the project's `role`, replacing whoever held it; nothing when already so. True when that changed anything. */
export async function setProjectRole(tx: Tx, projectId: number, role: string, userId: number): Promise<boolean> {
  const current = await tx.selectFrom('project_roles').select('user_id').where('project_id', '=', projectId).where('role', '=', role).executeTakeFirst();
  if (current === undefined) await tx.insertInto('project_roles').values({ project_id: projectId, role, user_id: userId }).execute();
  else if (current.user_id !== userId)
    await tx.updateTable('project_roles').set({ user_id: userId }).where('project_id', '=', projectId).where('role', '=', role).execute();
  return current?.user_id !== userId;
}
