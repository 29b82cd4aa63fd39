import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_GIT_ENV, git } from '../../../../test/support/repo.js';
import { storeKinds } from '../../../../test/support/tracker.js';
import { CH_TOKENS, codehostSection, codehostTestSeed, OWNER, REPO, refusal, startCodehostServer, type ChWho, type CodehostServer } from './support.js';

/**
 * ARCHITECTURE §21 "The code host: one identity per role, real reviews, branch protection":
 * GitHub's branch protection REST (every answer and refusal checked against GitHub's description),
 * enforced in git (GH006) and in merges (405, `mergeable_state: "blocked"`).
 */
const o = { owner: OWNER, repo: REPO };

function tryGit(cwd: string, ...args: string[]): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env: FIXTURE_GIT_ENV, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: `${stdout}${stderr}` });
    });
  });
}

const fullBody = (over: Record<string, unknown> = {}) => ({
  required_status_checks: null,
  enforce_admins: true,
  required_pull_request_reviews: { required_approving_review_count: 1, dismiss_stale_reviews: false },
  restrictions: null,
  ...over,
});

describe.each(await storeKinds())('ARCHITECTURE §21: branch protection on the code host (%s)', (kind) => {
  let ch: CodehostServer;
  let tmp: string;
  let n = 0;
  const remote = (who: ChWho) => {
    const u = new URL(`${ch.url}/${OWNER}/${REPO}.git`);
    u.username = 'x-access-token';
    u.password = CH_TOKENS[who];
    return u.toString();
  };
  const protect = (branch: string, over: Record<string, unknown> = {}) =>
    ch.as('rey').request('PUT /repos/{owner}/{repo}/branches/{branch}/protection', { ...o, branch, ...fullBody(over) } as never);
  /** A branch `base` made from main, protected, and a pull request by ada from a fresh head. */
  async function protectedPull(over: Record<string, unknown> = {}) {
    n += 1;
    const base = `base-${n}`;
    ch.commit(base, { [`base-${n}.txt`]: 'base\n' });
    await protect(base, over);
    const head = `feature/P-${n}`;
    const sha = ch.commit(head, { [`head-${n}.txt`]: 'head\n' }, 'head', base);
    const { data: pr } = await ch.as('ada').rest.pulls.create({ ...o, title: `pull ${n}`, head, base });
    return { base, head, sha, number: pr.number };
  }

  beforeAll(async () => {
    ch = await startCodehostServer(kind);
    tmp = mkdtempSync(join(tmpdir(), 'jst-codehost-protect-'));
  });
  afterAll(async () => {
    await ch?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  describe('the REST operations, in GitHub shape', () => {
    it('PUT sets, GET reads and DELETE removes a protection (admin)', async () => {
      ch.commit('rest-1', { 'r.txt': '1\n' });
      const put = await protect('rest-1', {
        required_status_checks: { strict: true, contexts: ['ci'] },
        required_pull_request_reviews: { required_approving_review_count: 2, dismiss_stale_reviews: true },
        required_linear_history: true,
        allow_force_pushes: false,
        allow_deletions: true,
      });
      expect(put.status).toBe(200);
      const got = await ch.as('rey').rest.repos.getBranchProtection({ ...o, branch: 'rest-1' });
      expect(got.data.required_pull_request_reviews).toMatchObject({ required_approving_review_count: 2, dismiss_stale_reviews: true });
      expect(got.data.enforce_admins?.enabled).toBe(true);
      expect(got.data.allow_deletions?.enabled).toBe(true);
      expect(got.data.allow_force_pushes?.enabled).toBe(false);
      expect(got.data.required_linear_history?.enabled).toBe(true);
      expect(got.data.required_status_checks).toMatchObject({ strict: true, contexts: ['ci'] });
      expect(got.data.url).toBe(`${ch.api}/repos/${OWNER}/${REPO}/branches/rest-1/protection`);
      const del = await ch.as('rey').rest.repos.deleteBranchProtection({ ...o, branch: 'rest-1' });
      expect(del.status).toBe(204);
      const after = await refusal(ch.as('rey').rest.repos.getBranchProtection({ ...o, branch: 'rest-1' }));
      expect(after.status).toBe(404);
      expect(after.data.message).toBe('Branch not protected');
    });

    it('admin only: a writer may not set or remove (403), nor read (404); a stranger is told Not Found', async () => {
      ch.commit('rest-2', { 'r.txt': '2\n' });
      await protect('rest-2');
      const put = await refusal(
        ch
          .as('ada')
          .request('PUT /repos/{owner}/{repo}/branches/{branch}/protection', { ...o, branch: 'rest-2', ...fullBody({ enforce_admins: false }) } as never),
      );
      expect(put.status).toBe(403);
      expect(put.data.message).toBe('Must have admin rights to Repository.');
      const del = await refusal(ch.as('ada').rest.repos.deleteBranchProtection({ ...o, branch: 'rest-2' }));
      expect(del.status).toBe(403);
      const get = await refusal(ch.as('ada').rest.repos.getBranchProtection({ ...o, branch: 'rest-2' }));
      expect(get.status).toBe(404);
      const stranger = await refusal(ch.as('olga').rest.repos.getBranchProtection({ ...o, branch: 'rest-2' }));
      expect(stranger.status).toBe(404);
      expect((await ch.as('rey').rest.repos.getBranchProtection({ ...o, branch: 'rest-2' })).data.enforce_admins?.enabled).toBe(true);
    });

    it('bad input: no credential 401, an unknown branch 404, a missing field or restrictions 422; nothing written', async () => {
      const noAuth = await fetch(`${ch.api}/repos/${OWNER}/${REPO}/branches/main/protection`);
      expect(noAuth.status).toBe(401);
      const unknown = await refusal(protect('no-such-branch'));
      expect(unknown.status).toBe(404);
      expect(unknown.data.message).toBe('Branch not found');
      const missing = await fetch(`${ch.api}/repos/${OWNER}/${REPO}/branches/main/protection`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${CH_TOKENS.rey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ enforce_admins: true, required_pull_request_reviews: null, restrictions: null }),
      });
      expect(missing.status).toBe(422);
      expect(((await missing.json()) as { errors: string[] }).errors).toEqual([
        'Invalid request. "required_status_checks" must be null or an object with strict and contexts.',
      ]);
      const restricted = await refusal(protect('main', { restrictions: { users: ['ada'], teams: [] } }));
      expect(restricted.status).toBe(422);
      expect(restricted.data.errors).toEqual(['Only organization repositories can have users and team restrictions']);
      const count = await refusal(protect('main', { required_pull_request_reviews: { required_approving_review_count: 7 } }));
      expect(count.status).toBe(422);
      expect((await refusal(ch.as('rey').rest.repos.getBranchProtection({ ...o, branch: 'main' }))).status).toBe(404);
    });
  });

  describe('enforced in git: GH006', () => {
    let dir: string;
    beforeAll(async () => {
      ch.commit('guarded', { 'g.txt': 'one\n' });
      await protect('guarded', { enforce_admins: false, required_pull_request_reviews: { required_approving_review_count: 1 } });
      dir = join(tmp, 'clone');
      expect((await tryGit(tmp, 'clone', '--quiet', remote('ada'), dir)).status).toBe(0);
      git(dir, 'config', 'user.name', 'Ada');
      git(dir, 'config', 'user.email', 'ada@example.test');
      git(dir, 'checkout', '--quiet', 'guarded');
    });

    it('a direct push to a protected branch is refused with GitHub words, and the branch stays', async () => {
      const before = git(ch.bare, 'rev-parse', 'guarded');
      writeFileSync(join(dir, 'g.txt'), 'two\n');
      git(dir, 'commit', '--quiet', '-am', 'direct');
      const r = await tryGit(dir, 'push', 'origin', 'guarded');
      expect(r.status).not.toBe(0);
      expect(r.out).toContain('remote: error: GH006: Protected branch update failed for refs/heads/guarded.');
      expect(r.out).toContain('remote: error: At least 1 approving review is required by reviewers with write access.');
      expect(git(ch.bare, 'rev-parse', 'guarded')).toBe(before);
    });

    it('a force push is refused ("Cannot force-push to this branch")', async () => {
      await protect('guarded', { required_pull_request_reviews: null });
      git(dir, 'reset', '--quiet', '--hard', 'origin/guarded~1');
      writeFileSync(join(dir, 'g.txt'), 'rewritten\n');
      git(dir, 'add', '-A');
      git(dir, 'commit', '--quiet', '-m', 'rewrite');
      const before = git(ch.bare, 'rev-parse', 'guarded');
      const r = await tryGit(dir, 'push', '--force', 'origin', 'guarded');
      expect(r.status).not.toBe(0);
      expect(r.out).toContain('remote: error: GH006: Protected branch update failed for refs/heads/guarded.');
      expect(r.out).toContain('remote: error: Cannot force-push to this branch');
      expect(git(ch.bare, 'rev-parse', 'guarded')).toBe(before);
    });

    it('a deletion is refused ("Cannot delete this branch")', async () => {
      const r = await tryGit(dir, 'push', 'origin', ':guarded');
      expect(r.status).not.toBe(0);
      expect(r.out).toContain('remote: error: Cannot delete this branch');
      expect(git(ch.bare, 'rev-parse', '--verify', '--quiet', 'refs/heads/guarded')).not.toBe('');
    });

    it('what the rules allow goes through: a fast-forward with no review rule, a force push and a deletion when allowed', async () => {
      expect((await tryGit(dir, 'fetch', '--quiet', 'origin')).status).toBe(0);
      git(dir, 'reset', '--quiet', '--hard', 'origin/guarded');
      writeFileSync(join(dir, 'g.txt'), 'three\n');
      git(dir, 'commit', '--quiet', '-am', 'fast-forward');
      expect((await tryGit(dir, 'push', '--quiet', 'origin', 'guarded')).status).toBe(0);
      expect(git(ch.bare, 'rev-parse', 'guarded')).toBe(git(dir, 'rev-parse', 'HEAD'));
      await protect('guarded', { required_pull_request_reviews: null, allow_force_pushes: true, allow_deletions: true });
      git(dir, 'reset', '--quiet', '--hard', 'HEAD~1');
      expect((await tryGit(dir, 'push', '--quiet', '--force', 'origin', 'guarded')).status).toBe(0);
      expect((await tryGit(dir, 'push', '--quiet', 'origin', ':guarded')).status).toBe(0);
      expect(git(ch.bare, 'branch', '--list', 'guarded')).toBe('');
    });

    it('an unprotected branch takes pushes as before', async () => {
      git(dir, 'checkout', '--quiet', '-b', 'free');
      expect((await tryGit(dir, 'push', '--quiet', 'origin', 'free')).status).toBe(0);
    });
  });

  describe('enforced in merges', () => {
    it('405 and mergeable_state "blocked" until a non-author with write approves; then the merge goes through', async () => {
      const p = await protectedPull();
      const pull = await ch.as('ada').rest.pulls.get({ ...o, pull_number: p.number });
      expect(pull.data.mergeable_state).toBe('blocked');
      const blocked = await refusal(ch.as('ada').rest.pulls.merge({ ...o, pull_number: p.number }));
      expect(blocked.status).toBe(405);
      expect(blocked.data.message).toBe('At least 1 approving review is required by reviewers with write access.');
      // The author's own approval does not exist (422), and a reader's review is refused (403).
      expect((await refusal(ch.as('ada').rest.pulls.createReview({ ...o, pull_number: p.number, event: 'APPROVE' }))).status).toBe(422);
      expect((await refusal(ch.as('vic').rest.pulls.createReview({ ...o, pull_number: p.number, event: 'APPROVE' }))).status).toBe(403);
      expect(git(ch.bare, 'rev-parse', p.base)).not.toBe(p.sha);
      await ch.as('rey').rest.pulls.createReview({ ...o, pull_number: p.number, event: 'APPROVE', body: 'APPROVED — fine' });
      expect((await ch.as('ada').rest.pulls.get({ ...o, pull_number: p.number })).data.mergeable_state).toBe('clean');
      const merged = await ch.as('ada').rest.pulls.merge({ ...o, pull_number: p.number });
      expect(merged.data.merged).toBe(true);
      expect(git(ch.bare, 'rev-parse', p.base)).toBe(merged.data.sha);
    });

    it("the review page says merging is blocked, in GitHub's words, and offers no Merge button", async () => {
      const p = await protectedPull();
      const page = await fetch(`${ch.url}/${OWNER}/${REPO}/pull/${p.number}`, {
        headers: { authorization: `Basic ${Buffer.from(`x:${CH_TOKENS.ada}`).toString('base64')}` },
      });
      expect(page.status).toBe(200);
      const text = await page.text();
      expect(text).toContain('Merging is blocked');
      expect(text).toContain('At least 1 approving review is required by reviewers with write access.');
      expect(text).not.toContain('merge-button');
    });

    it('a request-changes after an approval by the same reviewer blocks again; a COMMENT does not change it', async () => {
      const p = await protectedPull();
      await ch.as('rey').rest.pulls.createReview({ ...o, pull_number: p.number, event: 'APPROVE', body: 'ok' });
      await ch.as('rey').rest.pulls.createReview({ ...o, pull_number: p.number, event: 'REQUEST_CHANGES', body: 'on second thought' });
      expect((await ch.as('ada').rest.pulls.get({ ...o, pull_number: p.number })).data.mergeable_state).toBe('blocked');
      expect((await refusal(ch.as('ada').rest.pulls.merge({ ...o, pull_number: p.number }))).status).toBe(405);
      await ch.as('rey').rest.pulls.createReview({ ...o, pull_number: p.number, event: 'APPROVE', body: 'ok now' });
      await ch.as('rey').rest.pulls.createReview({ ...o, pull_number: p.number, event: 'COMMENT', body: 'a note' });
      expect((await ch.as('ada').rest.pulls.get({ ...o, pull_number: p.number })).data.mergeable_state).toBe('clean');
    });

    it('dismiss_stale_reviews: a new head commit dismisses the approval (DISMISSED) and blocks again', async () => {
      const p = await protectedPull({ required_pull_request_reviews: { required_approving_review_count: 1, dismiss_stale_reviews: true } });
      await ch.as('rey').rest.pulls.createReview({ ...o, pull_number: p.number, event: 'APPROVE', body: 'ok' });
      expect((await ch.as('ada').rest.pulls.get({ ...o, pull_number: p.number })).data.mergeable_state).toBe('clean');
      ch.commit(p.head, { 'more.txt': 'more\n' }, 'more');
      expect((await ch.as('ada').rest.pulls.get({ ...o, pull_number: p.number })).data.mergeable_state).toBe('blocked');
      const reviews = await ch.as('ada').rest.pulls.listReviews({ ...o, pull_number: p.number });
      expect(reviews.data.map((r) => r.state)).toEqual(['DISMISSED']);
      expect((await refusal(ch.as('ada').rest.pulls.merge({ ...o, pull_number: p.number }))).status).toBe(405);
    });

    it('without dismiss_stale_reviews a new head commit keeps the approval', async () => {
      const p = await protectedPull();
      await ch.as('rey').rest.pulls.createReview({ ...o, pull_number: p.number, event: 'APPROVE', body: 'ok' });
      ch.commit(p.head, { 'more.txt': 'more\n' }, 'more');
      expect((await ch.as('ada').rest.pulls.listReviews({ ...o, pull_number: p.number })).data.map((r) => r.state)).toEqual(['APPROVED']);
      expect((await ch.as('ada').rest.pulls.merge({ ...o, pull_number: p.number })).data.merged).toBe(true);
    });

    it('an admin merges past the rule when enforce_admins is off, as on GitHub; not when it is on', async () => {
      const on = await protectedPull();
      expect((await refusal(ch.as('rey').rest.pulls.merge({ ...o, pull_number: on.number }))).status).toBe(405);
      const off = await protectedPull({ enforce_admins: false });
      expect((await ch.as('rey').rest.pulls.merge({ ...o, pull_number: off.number })).data.merged).toBe(true);
    });
  });
});

describe.each(await storeKinds())("ARCHITECTURE §21: the seed's repos[].protect (%s)", (kind) => {
  it('protects the listed branch as GitHub would show it (loading twice: seed.test.ts)', async () => {
    const section = codehostSection();
    (section.repos[0] as Record<string, unknown>).protect = [{ branch: 'main', requiredApprovals: 1, dismissStaleReviews: true, enforceAdmins: true }];
    const seed = { ...codehostTestSeed(), codehost: section };
    const ch = await startCodehostServer(kind, { seed });
    try {
      const first = await ch.as('rey').rest.repos.getBranchProtection({ ...o, branch: 'main' });
      expect(first.data.required_pull_request_reviews).toMatchObject({ required_approving_review_count: 1, dismiss_stale_reviews: true });
      expect(first.data.enforce_admins?.enabled).toBe(true);
      expect(first.data.allow_force_pushes?.enabled).toBe(false);
      expect(first.data.allow_deletions?.enabled).toBe(false);
    } finally {
      await ch.close();
    }
  });
});
