import type { ChRepo, ChUser, Permission } from './model.js';
import { storeOf } from './store-access.js';
import type { CodeHost } from './host.js';

/** The caller's permission on a repository, or undefined when it may not even read it (access.ts, protection.ts). */
export async function permissionOn(host: CodeHost, user: ChUser | null, repo: ChRepo): Promise<Permission | undefined> {
  if (!user) return undefined;
  // The owner of a repository administers it, as on GitHub.
  if (user.login.toLowerCase() === repo.owner.toLowerCase()) return 'admin';
  return storeOf(host).repos.permissionOf(repo.id, user.id);
}
