import { SeedError } from '../../kit/seed-checks.js';
import type { CodehostStore } from '../store/codehost-store.js';
import type { CodeHost } from './codehost.js';
import type { GitRepos } from './git-port.js';
import type { CodehostSeed } from './seed.js';

/**
 * Writes the seed's code-host section into the store, declaratively (as the tracker's applySeed):
 * what exists is left, what differs is updated, what is missing is added, nothing is deleted.
 * Loading the same seed twice changes nothing. Tokens are stored hashed. A listed repository that
 * does not exist on disk is created empty (ARCHITECTURE §14).
 */
export async function applyCodehostSeed(
  host: CodeHost,
  store: CodehostStore,
  git: GitRepos | null,
  seed: CodehostSeed,
  file = '<seed>',
  now = new Date().toISOString(),
): Promise<void> {
  await store.transaction(async (tx) => {
    await store.lockForSeed(tx);
    const ids = new Map<string, number>();
    for (const [ui, u] of seed.users.entries()) {
      let user = await store.userByLogin(u.login, tx);
      if (!user) user = await store.insertUser(tx, u.login, u.name, now);
      else if (user.login !== u.login || user.name !== u.name) await store.updateUser(tx, user.id, u.login, u.name);
      ids.set(u.login.toLowerCase(), user.id);
      for (const [ti, token] of u.tokens.entries()) {
        if ((await store.insertTokenIfAbsent(tx, user.id, host.hash(token))) === 'taken') {
          throw new SeedError(
            file,
            `$.codehost.users[${ui}].tokens[${ti}].token`,
            'is already the token of another code-host user (stored earlier); each token names one user',
          );
        }
      }
    }
    for (const r of seed.repos) {
      let repo = await store.repoByName(r.owner, r.name, tx);
      if (!repo) repo = await store.insertRepo(tx, r.owner, r.name, r.defaultBranch, now);
      else if (repo.owner !== r.owner || repo.name !== r.name || repo.default_branch !== r.defaultBranch) {
        await store.updateRepo(tx, repo.id, { owner: r.owner, name: r.name, default_branch: r.defaultBranch }, now);
      }
      for (const c of r.collaborators) await store.upsertCollaborator(tx, repo.id, ids.get(c.login.toLowerCase())!, c.permission);
    }
  });
  // After the rows are in: a repository that is not on disk yet is made empty (idempotent in git).
  if (git) for (const r of seed.repos) await git.ensure(r.owner, r.name, r.defaultBranch);
}
