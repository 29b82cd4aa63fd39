import { repoFor } from './access.js';
import { notFound } from './errors.js';
import type { CodeHost } from './host.js';
import type { ChPull, ChUser } from './model.js';
import { storeOf } from './store-access.js';
import type { RepoAccess } from './views.js';

/**
 * Objects named by their ids (GraphQL's `node(id:)`, ARCHITECTURE §23): the same access rule as by
 * name (access.ts repoFor), so a repository or pull request the caller may not read is not found.
 */

export async function repoById(host: CodeHost, user: ChUser, id: number): Promise<RepoAccess> {
  const repo = Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? await storeOf(host).repos.byId(id) : undefined;
  if (!repo) throw notFound();
  return repoFor(host, user, repo.owner, repo.name, 'read');
}

export async function pullById(host: CodeHost, user: ChUser, id: number): Promise<{ access: RepoAccess; pull: ChPull }> {
  const pull = Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? await storeOf(host).pulls.byId(id) : undefined;
  if (!pull) throw notFound();
  return { access: await repoById(host, user, pull.repo_id), pull };
}
