import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git } from '../../../../test/support/repo.js';
import { storeKinds } from '../../../../test/support/tracker.js';
import { CH_TOKENS, octokitFor, OWNER, REPO, refusal, startCodehostServer, type CodehostServer } from './support.js';

/**
 * ARCHITECTURE §14 "REST operations": the code host driven by GitHub's own client (Octokit)
 * unchanged, every answer checked against GitHub's description (test/support/github-openapi.ts).
 */
const o = { owner: OWNER, repo: REPO };

describe.each(await storeKinds())("ARCHITECTURE §14: the code host's REST interface (%s)", (kind) => {
  let ch: CodehostServer;
  beforeAll(async () => {
    ch = await startCodehostServer(kind);
  });
  afterAll(async () => {
    await ch?.close();
  });

  describe('authentication', () => {
    it("GET /user answers the token's user (private-user)", async () => {
      const { data, status, headers } = await ch.as('ada').rest.users.getAuthenticated();
      expect(status).toBe(200);
      expect(data.login).toBe('ada');
      expect(data.name).toBe('Ada Author');
      expect(data.html_url).toBe(`${ch.url}/ada`);
      expect(headers['x-github-media-type']).toBe('github.v3; format=json');
      expect(headers['x-github-request-id']).toMatch(/^[0-9A-F]+$/);
    });

    it('takes `Authorization: token <t>` as well as Bearer', async () => {
      const res = await fetch(`${ch.api}/user`, { headers: { authorization: `token ${CH_TOKENS.rey}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { login: string }).login).toBe('rey');
    });

    it("no credential or a bad one: 401 Bad credentials, GitHub's body", async () => {
      const tries: Record<string, string>[] = [
        {},
        { authorization: 'Bearer not-a-token' },
        { authorization: 'token ' },
        { authorization: `Bearer ${CH_TOKENS.ada}x` },
      ];
      for (const headers of tries) {
        const res = await fetch(`${ch.api}/repos/${OWNER}/${REPO}`, { headers });
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual({ message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });
      }
      const r = await refusal(octokitFor(ch.api, 'wrong').rest.users.getAuthenticated());
      expect(r.status).toBe(401);
    });

    it('no error echoes the token it was given', async () => {
      const secret = 'Zz9-secret-token-value';
      const res = await fetch(`${ch.api}/user`, { headers: { authorization: `Bearer ${secret}` } });
      expect(await res.text()).not.toContain(secret);
    });
  });

  describe('repositories and masking', () => {
    it("GET /repos/{o}/{r}: GHES layout, clone_url and the caller's permissions", async () => {
      const { data } = await ch.as('vic').rest.repos.get(o);
      expect(data.full_name).toBe('acme/app');
      expect(data.default_branch).toBe('main');
      expect(data.clone_url).toBe(`${ch.url}/acme/app.git`);
      expect(data.html_url).toBe(`${ch.url}/acme/app`);
      expect(data.url).toBe(`${ch.api}/repos/acme/app`);
      expect(data.permissions).toMatchObject({ pull: true, push: false, admin: false });
      expect((await ch.as('rey').rest.repos.get(o)).data.permissions).toMatchObject({ pull: true, push: true, admin: true });
    });

    it('a repository the token may not read is 404 Not Found, like one that does not exist', async () => {
      const hidden = await refusal(ch.as('olga').rest.repos.get(o));
      const missing = await refusal(ch.as('ada').rest.repos.get({ owner: OWNER, repo: 'nope' }));
      for (const r of [hidden, missing]) {
        expect(r.status).toBe(404);
        expect(r.data.message).toBe('Not Found');
        expect(r.data.documentation_url).toMatch(/^https:\/\/docs\.github\.com\/rest/);
      }
      expect((await refusal(ch.as('olga').rest.pulls.list(o))).status).toBe(404);
    });

    it("an unknown path under /api/v3 is GitHub's 404", async () => {
      const res = await fetch(`${ch.api}/nothing/here`, { headers: { authorization: `Bearer ${CH_TOKENS.ada}` } });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { message: string }).message).toBe('Not Found');
    });
  });

  describe('pull requests', () => {
    let first: number;
    beforeAll(async () => {
      ch.commit('feature/ABC-1-login', { 'src/login.ts': 'export const login = 1;\n' }, 'Add login');
      ch.commit('feature/ABC-1-login', { 'src/login.ts': 'export const login = 2;\nexport const two = 2;\n' }, 'Refine login');
    });

    it('POST /pulls opens one: 201, number 1, html_url /<o>/<r>/pull/<n>, head and base shas', async () => {
      const { status, data } = await ch.as('ada').rest.pulls.create({ ...o, title: 'Login', head: 'feature/ABC-1-login', base: 'main', body: 'Adds login' });
      expect(status).toBe(201);
      first = data.number;
      expect(data.number).toBe(1);
      expect(data.html_url).toBe(`${ch.url}/acme/app/pull/1`);
      expect(data.url).toBe(`${ch.api}/repos/acme/app/pulls/1`);
      expect(data.state).toBe('open');
      expect(data.head.ref).toBe('feature/ABC-1-login');
      expect(data.head.sha).toBe(git(ch.bare, 'rev-parse', 'feature/ABC-1-login'));
      expect(data.base.sha).toBe(git(ch.bare, 'rev-parse', 'main'));
      expect(data.user.login).toBe('ada');
      expect(data.merged).toBe(false);
      expect(data.commits).toBe(2);
      expect(data.changed_files).toBe(1);
      expect(data.additions).toBe(2);
    });

    it('GET /pulls/{n}: merged, mergeable, mergeable_state, figures', async () => {
      const { data } = await ch.as('vic').rest.pulls.get({ ...o, pull_number: first });
      expect(data).toMatchObject({
        number: 1,
        merged: false,
        mergeable: true,
        mergeable_state: 'clean',
        commits: 2,
        additions: 2,
        deletions: 0,
        changed_files: 1,
        merged_by: null,
        merge_commit_sha: null,
      });
      expect((await refusal(ch.as('vic').rest.pulls.get({ ...o, pull_number: 999 }))).status).toBe(404);
    });

    it('422 Validation Failed: an open pull request already exists for the head and base', async () => {
      const r = await refusal(ch.as('ada').rest.pulls.create({ ...o, title: 'Again', head: 'acme:feature/ABC-1-login', base: 'main' }));
      expect(r.status).toBe(422);
      expect(r.data.message).toBe('Validation Failed');
      expect(r.data.errors).toEqual([{ resource: 'PullRequest', code: 'custom', message: 'A pull request already exists for acme:feature/ABC-1-login.' }]);
    });

    it('422: an unknown head or base branch is `invalid`', async () => {
      const r = await refusal(ch.as('ada').rest.pulls.create({ ...o, title: 'x', head: 'no-such', base: 'main' }));
      expect(r.status).toBe(422);
      expect(r.data.errors).toEqual([{ resource: 'PullRequest', field: 'head', code: 'invalid' }]);
      const b = await refusal(ch.as('ada').rest.pulls.create({ ...o, title: 'x', head: 'feature/ABC-1-login', base: 'gone' }));
      expect(b.data.errors).toEqual([{ resource: 'PullRequest', field: 'base', code: 'invalid' }]);
      const other = await refusal(ch.as('ada').rest.pulls.create({ ...o, title: 'x', head: 'someone:feature/ABC-1-login', base: 'main' }));
      expect(other.data.errors).toEqual([{ resource: 'PullRequest', field: 'head', code: 'invalid' }]);
    });

    it('422: no commits between base and head', async () => {
      ch.commit('feature/ABC-2-same', { 'x.txt': 'x\n' });
      git(ch.work, 'push', '--quiet', '--force', 'origin', 'main:feature/ABC-2-same');
      const r = await refusal(ch.as('ada').rest.pulls.create({ ...o, title: 'x', head: 'feature/ABC-2-same', base: 'main' }));
      expect(r.status).toBe(422);
      expect(r.data.errors).toEqual([{ resource: 'PullRequest', code: 'custom', message: 'No commits between main and feature/ABC-2-same' }]);
    });

    it("limits like GitHub's: title 256 characters, body 65,536, each refusal a 422 naming the field", async () => {
      ch.commit('feature/ABC-3-limits', { 'l.txt': 'l\n' });
      const long = await refusal(ch.as('ada').rest.pulls.create({ ...o, title: 't'.repeat(257), head: 'feature/ABC-3-limits', base: 'main' }));
      expect(long.status).toBe(422);
      expect(long.data.errors).toEqual([{ resource: 'PullRequest', field: 'title', code: 'custom', message: 'title is too long (maximum is 256 characters)' }]);
      const body = await refusal(ch.as('ada').rest.pulls.create({ ...o, title: 'ok', head: 'feature/ABC-3-limits', base: 'main', body: 'b'.repeat(65_537) }));
      expect(body.data.errors).toEqual([{ resource: 'PullRequest', field: 'body', code: 'custom', message: 'body is too long (maximum is 65536 characters)' }]);
      const missing = await refusal(ch.as('ada').rest.pulls.create({ ...o, title: '', head: 'feature/ABC-3-limits', base: 'main' }));
      expect(missing.data.errors).toEqual([{ resource: 'PullRequest', field: 'title', code: 'missing_field' }]);
      // At the limit it is taken.
      const ok = await ch.as('ada').rest.pulls.create({ ...o, title: 't'.repeat(256), head: 'feature/ABC-3-limits', base: 'main', body: 'b'.repeat(65_536) });
      expect(ok.status).toBe(201);
      await ch.as('ada').rest.pulls.update({ ...o, pull_number: ok.data.number, state: 'closed' });
    });

    it("a write without write permission is 403; a stranger's is 404 (masked)", async () => {
      const r = await refusal(ch.as('vic').rest.pulls.create({ ...o, title: 'x', head: 'feature/ABC-1-login', base: 'main' }));
      expect(r.status).toBe(403);
      expect(r.data.message).toBe('Must have push access to repository');
      expect((await refusal(ch.as('vic').rest.pulls.update({ ...o, pull_number: first, title: 'y' }))).status).toBe(403);
      expect((await refusal(ch.as('vic').rest.issues.createComment({ ...o, issue_number: first, body: 'y' }))).status).toBe(403);
      expect((await refusal(ch.as('vic').rest.pulls.merge({ ...o, pull_number: first }))).status).toBe(403);
      expect((await refusal(ch.as('vic').rest.pulls.createReview({ ...o, pull_number: first, event: 'COMMENT', body: 'b' }))).status).toBe(403);
      expect((await refusal(ch.as('olga').rest.pulls.create({ ...o, title: 'x', head: 'feature/ABC-1-login', base: 'main' }))).status).toBe(404);
    });

    it('GET /pulls filters by state, head `owner:branch` and base', async () => {
      const open = await ch.as('vic').rest.pulls.list({ ...o, state: 'open' });
      expect(open.data.map((p) => p.number)).toEqual([first]);
      const byHead = await ch.as('vic').rest.pulls.list({ ...o, head: 'acme:feature/ABC-1-login', base: 'main', state: 'all' });
      expect(byHead.data.map((p) => p.number)).toEqual([first]);
      expect((await ch.as('vic').rest.pulls.list({ ...o, head: 'other:feature/ABC-1-login', state: 'all' })).data).toEqual([]);
      expect((await ch.as('vic').rest.pulls.list({ ...o, base: 'develop', state: 'all' })).data).toEqual([]);
      const closed = await ch.as('vic').rest.pulls.list({ ...o, state: 'closed' });
      expect(closed.data.map((p) => p.title)).toContain('t'.repeat(256));
      const bad = await refusal(ch.as('vic').rest.pulls.list({ ...o, state: 'merged' as 'open' }));
      expect(bad.status).toBe(422);
    });

    it('PATCH /pulls/{n} edits title and body, closes and reopens', async () => {
      const { data } = await ch.as('ada').rest.pulls.update({ ...o, pull_number: first, title: 'Login v2', body: null as unknown as string });
      expect(data.title).toBe('Login v2');
      expect(data.body).toBeNull();
      const closed = await ch.as('ada').rest.pulls.update({ ...o, pull_number: first, state: 'closed' });
      expect(closed.data.state).toBe('closed');
      expect(closed.data.closed_at).not.toBeNull();
      const reopened = await ch.as('ada').rest.pulls.update({ ...o, pull_number: first, state: 'open' });
      expect(reopened.data.state).toBe('open');
      const bad = await refusal(ch.as('ada').rest.pulls.update({ ...o, pull_number: first, title: 'x'.repeat(300) }));
      expect(bad.status).toBe(422);
      expect(bad.data.errors[0]).toMatchObject({ field: 'title' });
    });

    it('GET /pulls/{n}/commits and /files list the change', async () => {
      const commits = await ch.as('vic').rest.pulls.listCommits({ ...o, pull_number: first });
      expect(commits.data.map((c) => c.commit.message)).toEqual(['Add login', 'Refine login']);
      expect(commits.data[1]!.sha).toBe(git(ch.bare, 'rev-parse', 'feature/ABC-1-login'));
      const files = await ch.as('vic').rest.pulls.listFiles({ ...o, pull_number: first });
      expect(files.data).toHaveLength(1);
      expect(files.data[0]).toMatchObject({ filename: 'src/login.ts', status: 'added', additions: 2, deletions: 0 });
      expect(files.data[0]!.patch).toContain('+export const two = 2;');
    });

    it("reviews: COMMENT on one's own pull request is taken; APPROVE and REQUEST_CHANGES on it are 422 as on GitHub", async () => {
      const mine = await ch.as('ada').rest.pulls.createReview({ ...o, pull_number: first, event: 'COMMENT', body: 'APPROVED — looks fine' });
      expect(mine.status).toBe(200);
      expect(mine.data.state).toBe('COMMENTED');
      expect(mine.data.user!.login).toBe('ada');
      const approve = await refusal(ch.as('ada').rest.pulls.createReview({ ...o, pull_number: first, event: 'APPROVE' }));
      expect(approve.status).toBe(422);
      expect(approve.data.errors).toEqual(['Can not approve your own pull request']);
      const changes = await refusal(ch.as('ada').rest.pulls.createReview({ ...o, pull_number: first, event: 'REQUEST_CHANGES', body: 'no' }));
      expect(changes.data.errors).toEqual(['Can not request changes on your own pull request']);
      const empty = await refusal(ch.as('rey').rest.pulls.createReview({ ...o, pull_number: first, event: 'COMMENT' }));
      expect(empty.status).toBe(422);
      const noReason = await refusal(ch.as('rey').rest.pulls.createReview({ ...o, pull_number: first, event: 'REQUEST_CHANGES', body: ' ' }));
      expect(noReason.data.errors).toEqual(['You need to leave a comment indicating the requested changes.']);
      const long = await refusal(ch.as('rey').rest.pulls.createReview({ ...o, pull_number: first, event: 'COMMENT', body: 'x'.repeat(65_537) }));
      expect(long.status).toBe(422);
      const odd = await refusal(ch.as('rey').rest.pulls.createReview({ ...o, pull_number: first, event: 'MERGE' as 'APPROVE', body: 'x' }));
      expect(odd.status).toBe(422);
      expect(odd.data.errors).toEqual(['event must be one of APPROVE, REQUEST_CHANGES, COMMENT']);
      const approved = await ch.as('rey').rest.pulls.createReview({ ...o, pull_number: first, event: 'APPROVE' });
      expect(approved.data.state).toBe('APPROVED');
      const list = await ch.as('vic').rest.pulls.listReviews({ ...o, pull_number: first });
      expect(list.data.map((r) => [r.user!.login, r.state, r.body])).toEqual([
        ['ada', 'COMMENTED', 'APPROVED — looks fine'],
        ['rey', 'APPROVED', ''],
      ]);
    });

    it("issue comments on the pull request's number: 201, listed in order; a body over 65,536 is 422", async () => {
      const c = await ch.as('ada').rest.issues.createComment({ ...o, issue_number: first, body: 'Run report\n<script>' });
      expect(c.status).toBe(201);
      expect(c.data.body).toBe('Run report\n<script>');
      expect(c.data.html_url).toBe(`${ch.url}/acme/app/pull/${first}#issuecomment-${c.data.id}`);
      await ch.as('rey').rest.issues.createComment({ ...o, issue_number: first, body: 'second' });
      const list = await ch.as('vic').rest.issues.listComments({ ...o, issue_number: first });
      expect(list.data.map((x) => x.body)).toEqual(['Run report\n<script>', 'second']);
      const long = await refusal(ch.as('ada').rest.issues.createComment({ ...o, issue_number: first, body: 'x'.repeat(65_537) }));
      expect(long.status).toBe(422);
      expect((await refusal(ch.as('ada').rest.issues.createComment({ ...o, issue_number: 4242, body: 'x' }))).status).toBe(404);
    });

    it('PUT /merge: 409 when sha is not the head; GET /merge 404 before, 204 after; then 405 on a second merge', async () => {
      expect((await refusal(ch.as('vic').rest.pulls.checkIfMerged({ ...o, pull_number: first }))).status).toBe(404);
      const stale = await refusal(ch.as('rey').rest.pulls.merge({ ...o, pull_number: first, sha: '0'.repeat(40) }));
      expect(stale.status).toBe(409);
      expect(stale.data.message).toBe('Head branch was modified. Review and try the merge again.');
      const head = git(ch.bare, 'rev-parse', 'feature/ABC-1-login');
      const merged = await ch.as('rey').rest.pulls.merge({ ...o, pull_number: first, sha: head, merge_method: 'merge' });
      expect(merged.status).toBe(200);
      expect(merged.data).toEqual({ sha: merged.data.sha, merged: true, message: 'Pull Request successfully merged' });
      expect(git(ch.bare, 'rev-parse', 'main')).toBe(merged.data.sha);
      expect(git(ch.bare, 'merge-base', '--is-ancestor', head, 'main')).toBe('');
      expect((await ch.as('vic').rest.pulls.checkIfMerged({ ...o, pull_number: first })).status).toBe(204);
      const after = await ch.as('vic').rest.pulls.get({ ...o, pull_number: first });
      expect(after.data).toMatchObject({ state: 'closed', merged: true, merge_commit_sha: merged.data.sha, commits: 2, changed_files: 1 });
      expect(after.data.merged_by!.login).toBe('rey');
      const again = await refusal(ch.as('rey').rest.pulls.merge({ ...o, pull_number: first }));
      expect(again.status).toBe(405);
      expect(again.data.message).toBe('Pull Request is not mergeable');
    });

    it('squash and rebase merges land the change on the base', async () => {
      for (const method of ['squash', 'rebase'] as const) {
        ch.commit(`feature/ABC-4-${method}`, { [`${method}.txt`]: `${method}\n` }, `Add ${method}`);
        const pr = await ch.as('ada').rest.pulls.create({ ...o, title: method, head: `feature/ABC-4-${method}`, base: 'main' });
        const m = await ch.as('ada').rest.pulls.merge({ ...o, pull_number: pr.data.number, merge_method: method });
        expect(m.status).toBe(200);
        expect(git(ch.bare, 'rev-parse', 'main')).toBe(m.data.sha);
        expect(git(ch.bare, 'show', `main:${method}.txt`)).toBe(method);
      }
    });

    it('a conflict is mergeable false and a 405; a closed pull request is a 405', async () => {
      ch.commit('feature/ABC-5-a', { 'README.md': 'from a\n' });
      ch.commit('feature/ABC-5-b', { 'README.md': 'from b\n' });
      const a = await ch.as('ada').rest.pulls.create({ ...o, title: 'a', head: 'feature/ABC-5-a', base: 'main' });
      const b = await ch.as('ada').rest.pulls.create({ ...o, title: 'b', head: 'feature/ABC-5-b', base: 'main' });
      await ch.as('ada').rest.pulls.merge({ ...o, pull_number: a.data.number });
      const got = await ch.as('ada').rest.pulls.get({ ...o, pull_number: b.data.number });
      expect(got.data.mergeable).toBe(false);
      expect(got.data.mergeable_state).toBe('dirty');
      const before = git(ch.bare, 'rev-parse', 'main');
      const r = await refusal(ch.as('ada').rest.pulls.merge({ ...o, pull_number: b.data.number }));
      expect(r.status).toBe(405);
      expect(r.data.message).toBe('Pull Request is not mergeable');
      expect(git(ch.bare, 'rev-parse', 'main')).toBe(before);
      await ch.as('ada').rest.pulls.update({ ...o, pull_number: b.data.number, state: 'closed' });
      expect((await refusal(ch.as('ada').rest.pulls.merge({ ...o, pull_number: b.data.number }))).status).toBe(405);
    });

    it('paging: per_page is clamped to 100 and Link carries next, last, prev and first as on GitHub', async () => {
      const whole = await ch.as('vic').rest.pulls.list({ ...o, state: 'all', per_page: 100 });
      const count = whole.data.length;
      // One page with room left (no count asked of the database) and one exactly full (counted): no Link either way.
      expect(whole.headers.link).toBeUndefined();
      const exact = await ch.as('vic').rest.pulls.list({ ...o, state: 'all', per_page: count });
      expect(exact.data).toHaveLength(count);
      expect(exact.headers.link).toBeUndefined();
      const page1 = await ch.as('vic').rest.pulls.list({ ...o, state: 'all', per_page: 2, page: 1 });
      expect(page1.data).toHaveLength(2);
      const last = Math.ceil(count / 2);
      expect(page1.headers.link).toBe(
        `<${ch.api}/repos/acme/app/pulls?state=all&per_page=2&page=2>; rel="next", <${ch.api}/repos/acme/app/pulls?state=all&per_page=2&page=${last}>; rel="last"`,
      );
      const page2 = await ch.as('vic').rest.pulls.list({ ...o, state: 'all', per_page: 2, page: 2 });
      expect(page2.headers.link).toContain('rel="prev"');
      expect(page2.headers.link).toContain('rel="first"');
      const all = await ch.as('vic').paginate(ch.as('vic').rest.pulls.list, { ...o, state: 'all', per_page: 2 });
      expect(all).toHaveLength(count);
      expect(new Set(all.map((p) => p.number)).size).toBe(count);
      const clamped = await fetch(`${ch.api}/repos/acme/app/pulls?state=all&per_page=1000`, { headers: { authorization: `Bearer ${CH_TOKENS.vic}` } });
      expect(((await clamped.json()) as unknown[]).length).toBe(Math.min(count, 100));
    });

    it("the board's one function: pullsForIssueKey finds a key's pull requests by head branch, the key whole", async () => {
      const found = await ch.server.codehost.pullsForIssueKey('abc-1');
      expect(found).toEqual([
        {
          repo: 'acme/app',
          number: first,
          title: 'Login v2',
          state: 'closed',
          merged: true,
          head: 'feature/ABC-1-login',
          base: 'main',
          htmlUrl: `${ch.url}/acme/app/pull/${first}`,
        },
      ]);
      expect(await ch.server.codehost.pullsForIssueKey('ABC-')).toEqual([]);
      ch.commit('hotfix/ABC-12-fix', { 'fix.txt': 'f\n' });
      const fix = await ch.as('ada').rest.pulls.create({ ...o, title: 'fix', head: 'hotfix/ABC-12-fix', base: 'main' });
      expect((await ch.server.codehost.pullsForIssueKey('ABC-12')).map((p) => p.number)).toEqual([fix.data.number]);
      expect((await ch.server.codehost.pullsForIssueKey('ABC-1')).map((p) => p.number)).toEqual([first]);
      await ch.as('ada').rest.pulls.update({ ...o, pull_number: fix.data.number, state: 'closed' });
      expect((await ch.server.codehost.pullsForIssueKey('ABC-4')).map((p) => p.head).sort()).toEqual(['feature/ABC-4-rebase', 'feature/ABC-4-squash']);
    });

    it('hostile input ends in 4xx, never 500: a NUL in a body, a number past any pull request, a huge page', async () => {
      const auth = { authorization: `Bearer ${CH_TOKENS.ada}`, 'content-type': 'application/json' };
      const nul = await fetch(`${ch.api}/repos/acme/app/pulls/1/reviews`, { method: 'POST', headers: auth, body: '{"event":"COMMENT","body":"a\\u0000b"}' });
      expect(nul.status).toBe(400);
      for (const path of ['/pulls/99999999999', '/pulls/2147483648', '/pulls/0', '/pulls/-1', '/pulls/1e3']) {
        const res = await fetch(`${ch.api}/repos/acme/app${path}`, { headers: auth });
        expect(res.status).toBe(404);
      }
      const far = await fetch(`${ch.api}/repos/acme/app/pulls?state=all&page=999999999&per_page=100`, { headers: auth });
      expect(far.status).toBe(200);
      expect(await far.json()).toEqual([]);
      const odd = await refusal(ch.as('ada').rest.pulls.create({ ...o, title: 'x', head: 'feature/../../etc', base: 'main' }));
      expect(odd.status).toBe(422);
    });

    it('a draft pull request is mergeable_state draft and cannot be merged (405)', async () => {
      ch.commit('feature/ABC-6-draft', { 'draft.txt': 'd\n' });
      const pr = await ch.as('ada').rest.pulls.create({ ...o, title: 'draft', head: 'feature/ABC-6-draft', base: 'main', draft: true });
      expect(pr.data.draft).toBe(true);
      expect((await ch.as('ada').rest.pulls.get({ ...o, pull_number: pr.data.number })).data.mergeable_state).toBe('draft');
      expect((await refusal(ch.as('ada').rest.pulls.merge({ ...o, pull_number: pr.data.number }))).status).toBe(405);
      await ch.as('ada').rest.pulls.update({ ...o, pull_number: pr.data.number, state: 'closed' });
    });

    it('PATCH base moves the pull request to another branch; an unknown base is 422', async () => {
      git(ch.work, 'push', '--quiet', 'origin', 'origin/main:refs/heads/develop');
      ch.commit('feature/ABC-7-rebase', { 'moved.txt': 'm\n' });
      const pr = await ch.as('ada').rest.pulls.create({ ...o, title: 'moved', head: 'feature/ABC-7-rebase', base: 'main' });
      const moved = await ch.as('ada').rest.pulls.update({ ...o, pull_number: pr.data.number, base: 'develop' });
      expect(moved.data.base.ref).toBe('develop');
      expect(moved.data.base.sha).toBe(git(ch.bare, 'rev-parse', 'develop'));
      const bad = await refusal(ch.as('ada').rest.pulls.update({ ...o, pull_number: pr.data.number, base: 'nowhere' }));
      expect(bad.status).toBe(422);
      expect(bad.data.errors).toEqual([{ resource: 'PullRequest', field: 'base', code: 'invalid' }]);
      await ch.as('ada').rest.pulls.update({ ...o, pull_number: pr.data.number, state: 'closed' });
    });

    it('files are paged with Link, and a file whose diff is over 512 KiB is listed without its patch', async () => {
      const files: Record<string, string> = { 'big.txt': `${'x'.repeat(99)}\n`.repeat(6 * 1024) };
      for (let i = 0; i < 4; i++) files[`small-${i}.txt`] = `line ${i}\n`;
      ch.commit('feature/ABC-8-files', files);
      const pr = await ch.as('ada').rest.pulls.create({ ...o, title: 'files', head: 'feature/ABC-8-files', base: 'main' });
      expect(pr.data.changed_files).toBe(5);
      const page = await ch.as('vic').rest.pulls.listFiles({ ...o, pull_number: pr.data.number, per_page: 2 });
      expect(page.data).toHaveLength(2);
      expect(page.headers.link).toContain('rel="last"');
      const all = await ch.as('vic').paginate(ch.as('vic').rest.pulls.listFiles, { ...o, pull_number: pr.data.number, per_page: 2 });
      expect(all.map((f) => f.filename).sort()).toEqual(['big.txt', 'small-0.txt', 'small-1.txt', 'small-2.txt', 'small-3.txt']);
      const big = all.find((f) => f.filename === 'big.txt')!;
      expect(big.additions).toBe(6 * 1024);
      expect(big.patch).toBeUndefined();
      expect(all.find((f) => f.filename === 'small-0.txt')!.patch).toBe('@@ -0,0 +1 @@\n+line 0');
      await ch.as('ada').rest.pulls.update({ ...o, pull_number: pr.data.number, state: 'closed' });
    });

    it('one pull request carries at most 5,000 comments and 5,000 reviews; the next is a 422', async () => {
      ch.commit('feature/ABC-9-many', { 'many.txt': 'm\n' });
      const pr = await ch.as('ada').rest.pulls.create({ ...o, title: 'many', head: 'feature/ABC-9-many', base: 'main' });
      const store = ch.server.codehost.store;
      const repo = (await store.repos.byName(OWNER, REPO))!;
      const pull = (await store.pulls.byNumber(repo.id, pr.data.number))!;
      const now = new Date().toISOString();
      const user = (await store.users.byLogin('rey'))!;
      for (let i = 0; i < 5; i++) {
        await store.kysely
          .insertInto('ch_comments')
          .values(
            Array.from({ length: 1000 }, () => ({ repo_id: repo.id, number: pull.number, user_id: user.id, body: 'c', created_at: now, updated_at: now })),
          )
          .execute();
        await store.kysely
          .insertInto('ch_reviews')
          .values(
            Array.from({ length: 1000 }, () => ({
              pull_id: pull.id,
              user_id: user.id,
              state: 'COMMENTED',
              body: 'r',
              commit_id: pull.head_sha,
              submitted_at: now,
            })),
          )
          .execute();
      }
      const comment = await refusal(ch.as('ada').rest.issues.createComment({ ...o, issue_number: pull.number, body: 'one more' }));
      expect(comment.status).toBe(422);
      expect(comment.data.errors[0].message).toContain('5000 comments');
      const review = await refusal(ch.as('rey').rest.pulls.createReview({ ...o, pull_number: pull.number, event: 'COMMENT', body: 'one more' }));
      expect(review.status).toBe(422);
      const last = await ch.as('vic').rest.issues.listComments({ ...o, issue_number: pull.number, per_page: 100, page: 50 });
      expect(last.data).toHaveLength(100);
      expect(last.headers.link).toContain('rel="first"');
      await ch.as('ada').rest.pulls.update({ ...o, pull_number: pull.number, state: 'closed' });
    });

    it('request bodies: bad JSON is 400 Problems parsing JSON; a body over the cap is refused before it is read', async () => {
      const bad = await fetch(`${ch.api}/repos/acme/app/pulls`, {
        method: 'POST',
        headers: { authorization: `Bearer ${CH_TOKENS.ada}`, 'content-type': 'application/json' },
        body: '{"title":',
      });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { message: string }).message).toBe('Problems parsing JSON');
      const huge = await fetch(`${ch.api}/repos/acme/app/pulls`, {
        method: 'POST',
        headers: { authorization: `Bearer ${CH_TOKENS.ada}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'x', body: 'y'.repeat(2 * 1024 * 1024) }),
      });
      expect(huge.status).toBe(413);
      expect(((await huge.json()) as { message: string }).message).toMatch(/too large/);
    });
  });
});
