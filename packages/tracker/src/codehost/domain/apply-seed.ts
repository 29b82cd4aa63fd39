import { SeedError } from '../../kit/seed-checks.js';
import type { CodeHost } from './host.js';
import { GIT, storeOf } from './store-access.js';
import { setTrackerLink } from './integration.js';
import { seedProtections } from './protection.js';
import type { CodehostSeed } from './seed.js';

/**
 * Writes the seed's code-host section into the store, declaratively (as the tracker's applySeed):
 * what exists is left, what differs is updated, what is missing is added, nothing is deleted.
 * Loading the same seed twice changes nothing. Tokens are stored hashed. A listed repository that
 * does not exist on disk is created empty (ARCHITECTURE §14).
 */
export async function applyCodehostSeed(host: CodeHost, seed: CodehostSeed, file = '<seed>', now = new Date().toISOString()): Promise<void> {
  const store = storeOf(host);
  await store.transaction(async (tx) => {
    await store.lockForSeed(tx);
    const ids = new Map<string, number>();
    for (const [ui, u] of seed.users.entries()) {
      let user = await store.users.byLogin(u.login, tx);
      if (!user) user = await store.users.insert(tx, u.login, u.name, now);
      else if (user.login !== u.login || user.name !== u.name) await store.users.update(tx, user.id, u.login, u.name);
      ids.set(u.login.toLowerCase(), user.id);
      for (const [ti, token] of u.tokens.entries()) {
        if ((await store.users.addToken(tx, user.id, host.hash(token))) === 'taken') {
          throw new SeedError(
            file,
            `$.codehost.users[${ui}].tokens[${ti}].token`,
            'is already the token of another code-host user (stored earlier); each token names one user',
          );
        }
      }
    }
    for (const r of seed.repos) {
      let repo = await store.repos.byName(r.owner, r.name, tx);
      if (!repo) repo = await store.repos.insert(tx, r.owner, r.name, r.defaultBranch, now);
      else if (repo.owner !== r.owner || repo.name !== r.name || repo.default_branch !== r.defaultBranch) {
        await store.repos.update(tx, repo.id, { owner: r.owner, name: r.name, default_branch: r.defaultBranch }, now);
      }
      for (const c of r.collaborators) await store.repos.upsertCollaborator(tx, repo.id, ids.get(c.login.toLowerCase())!, c.permission);
      await seedProtections(store, tx, repo.id, r.protect, now);
    }
  });
  for (const r of seed.repos) {
    const repo = r.tracker ? await store.repos.byName(r.owner, r.name) : undefined;
    if (repo && r.tracker) await setTrackerLink(host, repo.id, r.tracker);
  }
  // After the rows are in: a repository that is not on disk yet is made empty (idempotent in git).
  const git = host[GIT];
  if (git) for (const r of seed.repos) await git.ensure(r.owner, r.name, r.defaultBranch);
}
