import { AsyncLocalStorage } from 'node:async_hooks';
import { gitOf, type CodeHost } from './host.js';
import type { ChRepo } from './model.js';
import { refsUpdated } from './pushes.js';
import { storeOf } from './store-access.js';

/**
 * The branches' commits from the database (ARCHITECTURE §14 "Refs from the database"), in place
 * of `git rev-parse`: ch_refs is kept in step by every update git makes (pushes.ts). Before a
 * repository's rows are first used they are filled from git itself once (a repository made before
 * they were recorded); pushes made straight into the repository's folder are taken from its
 * hook's spool (a rename that fails when there is none: no git process).
 */

const synced = new WeakMap<CodeHost, Set<number>>();

/**
 * The repositories whose spool this call chain is taking: a "refs updated" listener that reads
 * branches (the webhooks' push event does) runs inside refsUpdated, and taking the spool again
 * there would wait for its own caller's claim until takeSpool's staleness (10 s), then take the
 * same lines over and tell them twice. Nested, the rows are already written: nothing to take.
 */
const taking = new AsyncLocalStorage<ReadonlySet<number>>();

async function catchUp(host: CodeHost, repo: ChRepo): Promise<void> {
  const git = gitOf(host);
  const store = storeOf(host);
  let done = synced.get(host);
  if (!done) synced.set(host, (done = new Set()));
  if (!done.has(repo.id)) {
    if ((await store.refs.syncedAt(repo.id)) === null) {
      // What the spool holds is in git's answer already.
      const spool = await git.takeOutsidePushes(repo.owner, repo.name);
      try {
        await store.refs.replaceAll(repo.id, await git.refs(repo.owner, repo.name), host.now());
      } finally {
        await spool.done();
      }
    }
    done.add(repo.id);
  }
  const held = taking.getStore();
  if (held?.has(repo.id)) return;
  const outside = await git.takeOutsidePushes(repo.owner, repo.name);
  try {
    if (outside.updates.length > 0) {
      await taking.run(new Set([...(held ?? []), repo.id]), () => refsUpdated(host, repo, null, outside.updates, 'outside'));
    }
  } finally {
    await outside.done();
  }
}

/** The commits of these branches (null: no such branch), from the database. */
export async function branchShas(host: CodeHost, repo: ChRepo, branches: string[]): Promise<Map<string, string | null>> {
  await catchUp(host, repo);
  const rows = await storeOf(host).refs.shas(
    repo.id,
    branches.map((b) => `refs/heads/${b}`),
  );
  return new Map(branches.map((b) => [b, rows.get(`refs/heads/${b}`) ?? null]));
}

/** One branch's commit (null: no such branch), from the database. */
export async function branchSha(host: CodeHost, repo: ChRepo, branch: string): Promise<string | null> {
  return (await branchShas(host, repo, [branch])).get(branch) ?? null;
}
