import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onRefsUpdated, type RefUpdate, type RefsUpdatedVia } from '../../src/codehost/domain/pushes.js';
import { FIXTURE_GIT_ENV, git } from '../../../../test/support/repo.js';
import { storeKinds } from '../../../../test/support/tracker.js';
import { CH_TOKENS, OWNER, REPO, startCodehostServer, type ChWho, type CodehostServer } from './support.js';

/**
 * ARCHITECTURE §14 "Refs from the database": every ref git updates — an accepted push through
 * the git front (only the refs git took), a merge of the code host's own — is recorded in the
 * database, moves the repository's pushed_at, dismisses stale approvals (§21) and is told once to
 * the "refs updated" listeners.
 */
const o = { owner: OWNER, repo: REPO };
const ZERO = '0'.repeat(40);

function tryGit(cwd: string, ...args: string[]): Promise<{ status: number; out: string }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env: FIXTURE_GIT_ENV, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: `${stdout}${stderr}` });
    });
  });
}

interface Told {
  login: string | null;
  updates: RefUpdate[];
  via: RefsUpdatedVia;
}

describe.each(await storeKinds())('ARCHITECTURE §14: refs recorded when git updates them (%s)', (kind) => {
  let ch: CodehostServer;
  let tmp: string;
  let dir: string;
  const told: Told[] = [];
  const remote = (who: ChWho) => {
    const u = new URL(`${ch.url}/${OWNER}/${REPO}.git`);
    u.username = 'x-access-token';
    u.password = CH_TOKENS[who];
    return u.toString();
  };
  const repoId = async () => (await ch.server.codehost.store.repos.byName(OWNER, REPO))!.id;
  const recorded = async () => new Map((await ch.server.codehost.store.refs.all(await repoId())).map((r) => [r.ref, r.sha]));
  const commitIn = (file: string, text: string) => {
    writeFileSync(join(dir, file), text);
    git(dir, 'add', '-A');
    git(dir, 'commit', '--quiet', '-m', `${file}: ${text.trim()}`);
    return git(dir, 'rev-parse', 'HEAD');
  };
  const pushedAt = async () => (await ch.as('ada').rest.repos.get(o)).data.pushed_at;

  beforeAll(async () => {
    ch = await startCodehostServer(kind);
    onRefsUpdated(ch.server.codehost.host, (_host, _repo, pusher, updates, via) => {
      told.push({ login: pusher?.login ?? null, updates, via });
    });
    tmp = mkdtempSync(join(tmpdir(), 'jst-codehost-pushes-'));
    dir = join(tmp, 'clone');
    expect((await tryGit(tmp, 'clone', '--quiet', remote('ada'), dir)).status).toBe(0);
    git(dir, 'config', 'user.name', 'Ada');
    git(dir, 'config', 'user.email', 'ada@example.test');
  });
  afterAll(async () => {
    await ch?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('a push creating a branch is recorded, pushed_at moves, and the listener is told once with the update', async () => {
    const before = await pushedAt();
    // pushed_at is answered to the second, as GitHub sends it: the push lands in a later second than `before`.
    const second = Math.floor(Date.parse(before) / 1000);
    while (Math.floor(Date.now() / 1000) <= second) await new Promise((r) => setTimeout(r, 50));
    git(dir, 'checkout', '--quiet', '-b', 'topic', 'origin/main');
    const sha = commitIn('a.txt', 'one\n');
    told.length = 0;
    expect((await tryGit(dir, 'push', '--quiet', 'origin', 'topic')).status).toBe(0);
    expect((await recorded()).get('refs/heads/topic')).toBe(sha);
    expect(told).toEqual([{ login: 'ada', updates: [{ ref: 'refs/heads/topic', old: ZERO, new: sha }], via: 'push' }]);
    const after = await pushedAt();
    expect(Date.parse(after)).toBeGreaterThanOrEqual(Date.parse(before));
    expect(after).not.toBe(before);
  });

  it('a push of two refs at once is one call with both; a fast-forward names the old commit', async () => {
    const old = git(dir, 'rev-parse', 'HEAD');
    const sha = commitIn('a.txt', 'two\n');
    git(dir, 'tag', 'v1');
    told.length = 0;
    expect((await tryGit(dir, 'push', '--quiet', 'origin', 'topic', 'refs/tags/v1')).status).toBe(0);
    expect(told).toHaveLength(1);
    expect(told[0]!.updates).toEqual(
      expect.arrayContaining([
        { ref: 'refs/heads/topic', old, new: sha },
        { ref: 'refs/tags/v1', old: ZERO, new: sha },
      ]),
    );
    const refs = await recorded();
    expect(refs.get('refs/heads/topic')).toBe(sha);
    expect(refs.get('refs/tags/v1')).toBe(sha);
  });

  it('a force push is recorded from the commit it replaced', async () => {
    const old = git(dir, 'rev-parse', 'HEAD');
    git(dir, 'reset', '--quiet', '--hard', 'HEAD~1');
    const sha = commitIn('b.txt', 'rewritten\n');
    told.length = 0;
    expect((await tryGit(dir, 'push', '--quiet', '--force', 'origin', 'topic')).status).toBe(0);
    expect((await recorded()).get('refs/heads/topic')).toBe(sha);
    expect(told).toEqual([{ login: 'ada', updates: [{ ref: 'refs/heads/topic', old, new: sha }], via: 'push' }]);
  });

  it('a deletion removes the row and is told with an all-zero new commit', async () => {
    const old = git(dir, 'rev-parse', 'v1');
    told.length = 0;
    expect((await tryGit(dir, 'push', '--quiet', 'origin', ':refs/tags/v1')).status).toBe(0);
    expect((await recorded()).has('refs/tags/v1')).toBe(false);
    expect(told).toEqual([{ login: 'ada', updates: [{ ref: 'refs/tags/v1', old, new: ZERO }], via: 'push' }]);
  });

  it('a push git refuses (a protected branch, GH006) records nothing and tells nobody', async () => {
    await ch.as('rey').request('PUT /repos/{owner}/{repo}/branches/{branch}/protection', {
      ...o,
      branch: 'topic',
      required_status_checks: null,
      enforce_admins: true,
      required_pull_request_reviews: { required_approving_review_count: 1 },
      restrictions: null,
    } as never);
    const before = await recorded();
    const pushedBefore = await pushedAt();
    commitIn('c.txt', 'refused\n');
    git(dir, 'checkout', '--quiet', '-b', 'also', 'HEAD');
    told.length = 0;
    // Both refs in one push: pre-receive refuses the whole push, so neither is recorded.
    const r = await tryGit(dir, 'push', 'origin', 'topic', 'also');
    expect(r.status).not.toBe(0);
    expect(r.out).toContain('GH006');
    expect(await recorded()).toEqual(before);
    expect(await pushedAt()).toBe(pushedBefore);
    expect(told).toEqual([]);
  });

  it('a merge of the code host is recorded on the base and told as a merge', async () => {
    const head = ch.commit('feature/M-1', { 'm.txt': 'merge me\n' });
    const old = git(ch.bare, 'rev-parse', 'main');
    const { data: pr } = await ch.as('ada').rest.pulls.create({ ...o, title: 'merge me', head: 'feature/M-1', base: 'main' });
    told.length = 0;
    const { data } = await ch.as('rey').rest.pulls.merge({ ...o, pull_number: pr.number });
    expect(data.merged).toBe(true);
    expect((await recorded()).get('refs/heads/main')).toBe(data.sha);
    expect(git(ch.bare, 'rev-parse', 'main')).toBe(data.sha);
    expect(told).toEqual([{ login: 'rey', updates: [{ ref: 'refs/heads/main', old, new: data.sha }], via: 'merge' }]);
    expect(head).not.toBe(data.sha);
  });

  it('ARCHITECTURE §21: a push to the head dismisses stale approvals at the push, not at the next read', async () => {
    ch.commit('stale-base', { 's.txt': 'base\n' });
    await ch.as('rey').request('PUT /repos/{owner}/{repo}/branches/{branch}/protection', {
      ...o,
      branch: 'stale-base',
      required_status_checks: null,
      enforce_admins: true,
      required_pull_request_reviews: { required_approving_review_count: 1, dismiss_stale_reviews: true },
      restrictions: null,
    } as never);
    ch.commit('feature/S-1', { 'h.txt': 'head\n' }, 'head', 'stale-base');
    const { data: pr } = await ch.as('ada').rest.pulls.create({ ...o, title: 'stale', head: 'feature/S-1', base: 'stale-base' });
    await ch.as('rey').rest.pulls.createReview({ ...o, pull_number: pr.number, event: 'APPROVE' });
    expect((await tryGit(dir, 'fetch', '--quiet', 'origin')).status).toBe(0);
    git(dir, 'checkout', '--quiet', '-B', 'feature/S-1', 'origin/feature/S-1');
    commitIn('h.txt', 'new head\n');
    expect((await tryGit(dir, 'push', '--quiet', 'origin', 'feature/S-1')).status).toBe(0);
    // Read from the store, not through a route: nothing but the push changed the review.
    const pull = await ch.server.codehost.store.pulls.byNumber(await repoId(), pr.number);
    const reviews = await ch.server.codehost.store.reviews.all(pull!.id);
    expect(reviews.map((r) => r.state)).toEqual(['DISMISSED']);
  });
});
