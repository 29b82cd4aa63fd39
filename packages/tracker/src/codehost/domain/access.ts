import { sameHash } from '../../kit/tokens.js';
import { notFound, noPush } from './errors.js';
import type { CodeHost } from './host.js';
import type { ChRepo, ChUser } from './model.js';
import { refRulesFor, type RefRule } from './protection.js';
import { permissionOn } from './permission.js';
import { storeOf } from './store-access.js';
import type { RepoAccess } from './views.js';

/** Who may read and write which repository (ARCHITECTURE §14): tokens, owners, collaborators. */

/** The user of a token, or null (compared in constant time against the stored hash). */
export async function userOfToken(host: CodeHost, token: string): Promise<ChUser | null> {
  if (token.length === 0 || token.length > 1024) return null;
  const hash = host.hash(token);
  const row = await storeOf(host).users.byTokenHash(hash);
  if (!row || !sameHash(row.token_hash, hash)) return null;
  const { token_hash: _, ...user } = row;
  return user;
}

/**
 * A repository no row has (id 0), asked about in place of a missing one: a missing repository and
 * one the caller may not see then cost the same lookups, so the time of the 404 does not tell them
 * apart (docs/codehost.md "Authentication").
 */
const NO_REPO: ChRepo = { id: 0, owner: '', name: '', default_branch: '', pull_counter: 0, created_at: '', updated_at: '', pushed_at: null };

export { permissionOn };

/**
 * The repository for a caller who needs `need` on it: not found when it does not exist or the
 * caller may not read it (masked, as GitHub), no push for a write without write permission.
 */
export async function repoFor(host: CodeHost, user: ChUser, owner: string, name: string, need: 'read' | 'write'): Promise<RepoAccess> {
  const store = storeOf(host);
  const repo = await store.repos.byName(owner, name);
  const permission = await permissionOn(host, user, repo ?? NO_REPO);
  if (!repo || !permission) throw notFound();
  if (need === 'write' && permission === 'read') throw noPush();
  return { repo, owner: (await store.users.byLogin(repo.owner)) ?? null, permission, user };
}

export type GitDecision = 'unauthenticated' | 'not_found' | 'forbidden' | { decision: 'ok'; owner: string; repo: string; login: string; protect?: RefRule[] };

/**
 * Git over HTTP's question (http-backend's access callback): may this token read or write the
 * repository? `ok` names it as stored (names are case-insensitive) and the signed-in login.
 */
export async function gitAccess(host: CodeHost, token: string | null, owner: string, name: string, need: 'read' | 'write'): Promise<GitDecision> {
  const user = token === null ? null : await userOfToken(host, token);
  if (!user) return 'unauthenticated';
  const repo = await storeOf(host).repos.byName(owner, name);
  const permission = await permissionOn(host, user, repo ?? NO_REPO);
  if (!repo || !permission) return 'not_found';
  if (need === 'write' && permission === 'read') return 'forbidden';
  // ARCHITECTURE §21: a push meets the protected branches' rules in git's pre-receive hook.
  const protect = need === 'write' ? await refRulesFor(host, repo, permission) : [];
  return { decision: 'ok', owner: repo.owner, repo: repo.name, login: user.login, ...(protect.length > 0 ? { protect } : {}) };
}
