import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../../src/kit/layout.js';
import { basic, storeKinds } from '../../../../test/support/tracker.js';
import { CH_TOKENS, OWNER, REPO, startCodehostServer, type ChWho, type CodehostServer } from './support.js';

/**
 * ARCHITECTURE §22 "Pages" and "Forms" over HTTP, as a browser asks for them: the repository page,
 * the pull request list, the conversation's verdict badges and merge box, and its forms (review,
 * comment, close, reopen), each doing what its REST operation does, refusing what it refuses and
 * guarded as the Merge button is. ada writes (the author), rey is admin (the reviewer), vic reads,
 * olga is a stranger.
 */
const o = { owner: OWNER, repo: REPO };
const X = {
  title: '<script>window.pwned=1</script> ABC-7 title',
  body: '<img src=x onerror="window.pwned=2"> [x](javascript:window.pwned=4)',
  review: '"><svg onload=window.pwned=5> review',
  subject: 'Subject <b onmouseover=alert(1)>bold</b>',
};
type Headers = Record<string, string>;
const auth = (who: ChWho): Headers => ({ authorization: basic('anyone', CH_TOKENS[who]) });
const sameSite = { 'sec-fetch-site': 'same-origin' };

describe.each(await storeKinds())('ARCHITECTURE §22: the code host pages and forms over HTTP (%s)', (kind) => {
  let ch: CodehostServer;
  let branchNo = 0;
  const page = async (path: string, headers: Headers = {}) => {
    const res = await fetch(`${ch.url}${path}`, { headers: { accept: 'text/html', ...headers }, redirect: 'manual' });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const post = async (path: string, fields: Record<string, string>, headers: Headers) => {
    const res = await fetch(`${ch.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const openPull = async (title = `Pull ${branchNo + 1}`, base = 'main', body?: string) => {
    const branch = `topic-${++branchNo}`;
    ch.commit(branch, { [`f${branchNo}.txt`]: 'one\n' }, `commit ${branchNo}`, base);
    const { data } = await ch.as('ada').rest.pulls.create({ ...o, title, head: branch, base, ...(body ? { body } : {}) });
    return { n: data.number, branch };
  };
  const pullUrl = (n: number) => `/${OWNER}/${REPO}/pull/${n}`;
  /** The hidden token of one of the page's forms, as `who` is shown it. */
  const tokenOf = async (n: number, who: ChWho, form: 'review' | 'comment' | 'close' | 'reopen') => {
    const r = await page(pullUrl(n), auth(who));
    expect(r.status).toBe(200);
    const m = new RegExp(
      `action="${pullUrl(n)}/${form === 'review' ? 'reviews' : form === 'comment' ? 'comments' : form}">[\\s\\S]*?name="token" value="([^"]+)"`,
    ).exec(r.text);
    return m?.[1] ?? '';
  };
  const reviews = async (n: number) => (await ch.as('vic').rest.pulls.listReviews({ ...o, pull_number: n })).data;
  const comments = async (n: number) => (await ch.as('vic').rest.issues.listComments({ ...o, issue_number: n })).data;

  beforeAll(async () => {
    ch = await startCodehostServer(kind);
  });
  afterAll(async () => {
    await ch?.close();
  });

  describe('the repository page and the pull request list', () => {
    it('/<o>/<r>: default branch, clone URL, branches with their latest commit, open pull requests, the tabs with the open count; all escaped', async () => {
      const hostileBranch = 'feature/ABC-3-"><svg_onload=alert(2)>';
      ch.commit(hostileBranch, { 'h.txt': 'h\n' }, X.subject);
      await ch.as('ada').rest.pulls.create({ ...o, title: X.title, head: hostileBranch, base: 'main' });
      const r = await page(`/${OWNER}/${REPO}`, auth('vic'));
      expect(r.status).toBe(200);
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(r.headers.get(name), name).toBe(value);
      const t = r.text;
      expect(t).toContain('Default branch <code class="branch default-branch">main</code>');
      expect(t).toContain(`value="${ch.url}/${OWNER}/${REPO}.git"`);
      expect(t).toContain(
        '<code class="branch">feature/ABC-3-&quot;&gt;&lt;svg_onload=alert(2)&gt;</code> <a class="issue-key" href="/browse/ABC-3">ABC-3</a>',
      );
      expect(t).toContain('<td class="message">Subject &lt;b onmouseover=alert(1)&gt;bold&lt;/b&gt;</td>');
      expect(t).toContain('&lt;script&gt;window.pwned=1&lt;/script&gt; ABC-7 title</a>');
      expect(t).toMatch(/<a class="tab" href="\/acme\/app\/pulls">Pull requests <span class="counter">\d+<\/span><\/a>/);
      expect(t).toContain('<a class="tab selected" href="/acme/app" aria-current="page">Code</a>');
      expect(t).not.toMatch(/<[a-z]+[^>]*\son[a-z]+=/i);
      expect([...t.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])).toEqual(['<script src="/_board/assets/board.js" defer>']);
    });

    it('/<o>/<r>/pulls: open by default, ?state=closed and all, GitHub review badges (a marker verdict counts), 25 a page', async () => {
      const a = await openPull('Listed A');
      const b = await openPull('Listed B');
      await ch.as('rey').rest.pulls.createReview({ ...o, pull_number: a.n, event: 'COMMENT', body: 'CHANGES REQUESTED — fix the tests' });
      await ch.as('rey').rest.pulls.createReview({ ...o, pull_number: b.n, event: 'APPROVE', body: 'fine' });
      const c = await openPull('Listed C');
      await ch.as('ada').rest.pulls.update({ ...o, pull_number: c.n, state: 'closed' });
      const open = await page(`/${OWNER}/${REPO}/pulls`, auth('vic'));
      expect(open.status).toBe(200);
      const row = (text: string, title: string) =>
        new RegExp(`<li class="pull-row"[^>]*>(?:(?!</li>).)*${title}(?:(?!</li>).)*</li>`, 's').exec(text)?.[0] ?? '';
      expect(row(open.text, 'Listed A')).toContain('<span class="verdict verdict-changes_requested">Changes requested</span>');
      expect(row(open.text, 'Listed B')).toContain('<span class="verdict verdict-approved">Approved</span>');
      expect(row(open.text, 'Listed B')).toMatch(
        /#\d+ opened <time[^>]*>[^<]*<\/time> by <span class="author">ada<\/span> · <code class="head">topic-\d+<\/code> → <code class="base">main<\/code>/,
      );
      expect(row(open.text, 'Listed C')).toBe('');
      const closed = await page(`/${OWNER}/${REPO}/pulls?state=closed`, auth('vic'));
      expect(row(closed.text, 'Listed C')).toContain('<span class="state state-closed">Closed</span>');
      expect(row(closed.text, 'Listed A')).toBe('');
      const all = await page(`/${OWNER}/${REPO}/pulls?state=all`, auth('vic'));
      for (const t of ['Listed A', 'Listed B', 'Listed C']) expect(row(all.text, t)).not.toBe('');
      // Paging: a page past the end is an empty list, never an error.
      const far = await page(`/${OWNER}/${REPO}/pulls?state=all&page=40`, auth('vic'));
      expect(far.status).toBe(200);
      expect(far.text).toContain('There are no pull requests.');
    });

    it('the list refuses a state or page it does not know: 400, naming the parameter', async () => {
      for (const [q, word] of [
        ['state=merged', 'state must be open, closed or all'],
        ['page=0', 'page must be a whole number from 1 to 1000'],
        ['page=1001', 'page must be a whole number from 1 to 1000'],
        ['page=x', 'page must be a whole number'],
      ] as const) {
        const r = await page(`/${OWNER}/${REPO}/pulls?${q}`, auth('vic'));
        expect(r.status, q).toBe(400);
        expect(r.text).toContain(word);
      }
    });

    it('a stranger gets the same 404 for every page as for a repository that does not exist; no credential is 401', async () => {
      const { n } = await openPull('Hidden');
      const missing = await page(`/${OWNER}/nope`, auth('olga'));
      expect(missing.status).toBe(404);
      for (const path of [`/${OWNER}/${REPO}`, `/${OWNER}/${REPO}/pulls`, `/${OWNER}/${REPO}/pulls?state=all`, pullUrl(n), `/${OWNER}/nope/pulls`]) {
        const r = await page(path, auth('olga'));
        expect(r.status, path).toBe(404);
        expect(r.text, path).toBe(missing.text);
        expect((await page(path)).status, path).toBe(401);
      }
    });

    it("the tracker's own paths stay the tracker's: /rest/api, /api/x and /_edge/x are its 404, never a code-host sign-in", async () => {
      for (const path of ['/rest/api', '/api/nope', '/_edge/x', '/browse/x/pulls']) {
        const r = await page(path, { accept: 'application/json' });
        expect(r.status, path).toBe(404);
        expect(r.headers.get('www-authenticate'), path).toBeNull();
      }
    });
  });

  describe('the conversation', () => {
    it('the frame: repository header, title with its issue key linked, state, "ada wants to merge 1 commit into main from topic-N", tabs with counts', async () => {
      const { n, branch } = await openPull('Fix ABC-12 and abc-13, not step-1');
      const t = (await page(pullUrl(n), auth('vic'))).text;
      expect(t).toContain('<span class="title">Fix <a class="issue-key" href="/browse/ABC-12">ABC-12</a> and abc-13, not step-1</span>');
      expect(t).toContain(
        `<span class="state state-open">Open</span> <span class="author">ada</span> wants to merge 1 commit into <code class="base">main</code> from <code class="head">${branch}</code>`,
      );
      expect(t).toContain(`<a class="tab selected" href="${pullUrl(n)}" aria-current="page">Conversation <span class="counter">0</span></a>`);
      expect(t).toContain(`<a class="tab" href="${pullUrl(n)}/commits">Commits <span class="counter">1</span></a>`);
      expect(t).toContain(`<a class="tab" href="${pullUrl(n)}/files">Files changed <span class="counter">1</span></a>`);
    });

    it('Markdown in the description, reviews and comments is rendered; raw HTML and javascript: links stay text', async () => {
      const { n } = await openPull('Markdown', 'main', `# Heading\n\n* **bold** [ok](https://example.test/) ${X.body}`);
      await ch.as('ada').rest.issues.createComment({ ...o, issue_number: n, body: '`code <b>` and <script>alert(1)</script>' });
      const t = (await page(pullUrl(n), auth('vic'))).text;
      expect(t).toContain('<h1>Heading</h1>');
      expect(t).toContain(
        '<strong>bold</strong> <a href="https://example.test/" rel="noopener noreferrer nofollow">ok</a> &lt;img src=x onerror=&quot;window.pwned=2&quot;&gt; x',
      );
      expect(t).toContain('<code>code &lt;b&gt;</code> and &lt;script&gt;alert(1)&lt;/script&gt;');
      expect(t).not.toMatch(/href="javascript:/i);
    });

    it('docs/limits.md: a page converts at most 32,768 characters of Markdown, in the order it shows them; the rest is text, saying so', async () => {
      const { n } = await openPull('Budget', 'main', `**desc** ${'a '.repeat(14_000)}`);
      await ch.as('ada').rest.issues.createComment({ ...o, issue_number: n, body: `**first** ${'b '.repeat(1_000)}` });
      await ch.as('ada').rest.issues.createComment({ ...o, issue_number: n, body: `**second** ${'c '.repeat(2_500)}` });
      const t = (await page(pullUrl(n), auth('vic'))).text;
      expect(t).toContain('<strong>desc</strong>');
      expect(t).toContain('<strong>first</strong>');
      expect(t).not.toContain('<strong>second</strong>');
      expect(t).toContain('<div class="text">**second** c c');
      expect(t).toContain('Shown as written, not as Markdown: this page renders at most 32768 characters of Markdown.');
    });

    it('verdict badges: APPROVE, REQUEST_CHANGES, and COMMENT reviews with a marker; the merge box names the latest request for changes, never "Ready to merge" under it', async () => {
      const { n } = await openPull('Verdicts');
      await ch.as('rey').rest.pulls.createReview({ ...o, pull_number: n, event: 'COMMENT', body: 'CHANGES REQUESTED — the tests fail' });
      let t = (await page(pullUrl(n), auth('rey'))).text;
      expect(t).toMatch(
        /<span class="author">rey<\/span> <span class="review-state">requested changes<\/span> <span class="verdict verdict-changes_requested">Changes requested<\/span>/,
      );
      expect(t).toContain('data-block="changes"><div class="block changes" data-block="changes"><h2>Changes requested</h2>');
      expect(t).not.toContain('Ready to merge');
      // The writer may still merge (no protection binds it), as on GitHub.
      expect(t).toContain('<form class="merge-form"');
      await ch.as('rey').rest.pulls.createReview({ ...o, pull_number: n, event: 'COMMENT', body: 'APPROVED — all good now' });
      t = (await page(pullUrl(n), auth('rey'))).text;
      expect(t).toContain('<section class="merge-box mergeable" data-block="none"><h2>Ready to merge</h2>');
      expect(t).toMatch(/<span class="verdict verdict-approved">Approved<\/span>/);
      await ch.as('rey').rest.pulls.createReview({ ...o, pull_number: n, event: 'REQUEST_CHANGES', body: 'one more thing' });
      t = (await page(pullUrl(n), auth('vic'))).text;
      expect(t).toContain('<h2>Changes requested</h2>');
      expect(t).not.toContain('Ready to merge');
      // A plain COMMENT review is Commented, and changes no verdict.
      await ch.as('rey').rest.pulls.createReview({ ...o, pull_number: n, event: 'COMMENT', body: 'a remark' });
      t = (await page(pullUrl(n), auth('vic'))).text;
      expect(t).toContain('<span class="verdict verdict-commented">Commented</span>');
      expect(t).toContain('<h2>Changes requested</h2>');
    });

    it('ARCHITECTURE §21: a protected base without its approval says "Merging is blocked" with GitHub\'s sentence; the approval makes it ready', async () => {
      ch.commit('guarded', { 'g.txt': 'g\n' });
      await ch.as('rey').request('PUT /repos/{owner}/{repo}/branches/{branch}/protection', {
        ...o,
        branch: 'guarded',
        required_status_checks: null,
        enforce_admins: true,
        required_pull_request_reviews: { required_approving_review_count: 1 },
        restrictions: null,
      } as never);
      const { n } = await openPull('Into guarded', 'guarded');
      let t = (await page(pullUrl(n), auth('rey'))).text;
      expect(t).toContain('<section class="merge-box conflict" data-block="approvals"><h2>Merging is blocked</h2>');
      expect(t).toContain('At least 1 approving review is required by reviewers with write access.');
      expect(t).not.toContain('Ready to merge');
      expect(t).not.toContain('<form class="merge-form"');
      await ch.as('rey').rest.pulls.createReview({ ...o, pull_number: n, event: 'APPROVE' });
      t = (await page(pullUrl(n), auth('rey'))).text;
      expect(t).toContain('<h2>Ready to merge</h2>');
    });

    it('"Changes since your last review" links /pull/<n>/files/<old>..<new> for a viewer who reviewed an older head, and not for others', async () => {
      const { n, branch } = await openPull('Moving head');
      const first = (await ch.as('vic').rest.pulls.get({ ...o, pull_number: n })).data.head.sha;
      await ch.as('rey').rest.pulls.createReview({ ...o, pull_number: n, event: 'COMMENT', body: 'first look' });
      expect((await page(pullUrl(n), auth('rey'))).text).not.toContain('Changes since your last review');
      const second = ch.commit(branch, { 'more.txt': 'more\n' });
      const t = (await page(pullUrl(n), auth('rey'))).text;
      expect(t).toContain(`<a href="${pullUrl(n)}/files/${first}..${second}">Changes since your last review</a>`);
      expect((await page(pullUrl(n), auth('vic'))).text).not.toContain('Changes since your last review');
    });
  });

  describe('the forms', () => {
    it('a writer comments: 303 back to the comment (Post/Redirect/Get), and REST lists it', async () => {
      const { n } = await openPull('Comment here');
      const token = await tokenOf(n, 'rey', 'comment');
      const r = await post(`${pullUrl(n)}/comments`, { token, body: X.body }, { ...auth('rey'), ...sameSite });
      expect(r.status).toBe(303);
      const list = await comments(n);
      expect(list.map((c) => [c.user?.login, c.body])).toEqual([['rey', X.body]]);
      expect(r.headers.get('location')).toBe(`${pullUrl(n)}#issuecomment-${list[0]!.id}`);
    });

    it('a writer reviews (approve, request changes, comment) and the review is the REST one, on the head the page showed', async () => {
      const { n } = await openPull('Review here');
      const head = (await ch.as('vic').rest.pulls.get({ ...o, pull_number: n })).data.head.sha;
      for (const [event, state] of [
        ['APPROVE', 'APPROVED'],
        ['REQUEST_CHANGES', 'CHANGES_REQUESTED'],
        ['COMMENT', 'COMMENTED'],
      ] as const) {
        const token = await tokenOf(n, 'rey', 'review');
        const r = await post(`${pullUrl(n)}/reviews`, { token, event, body: `${X.review} ${event}`, sha: head }, { ...auth('rey'), ...sameSite });
        expect(r.status, event).toBe(303);
        const last = (await reviews(n)).at(-1)!;
        expect([last.state, last.body, last.commit_id, last.user?.login]).toEqual([state, `${X.review} ${event}`, head, 'rey']);
        expect(r.headers.get('location')).toBe(`${pullUrl(n)}#pullrequestreview-${last.id}`);
      }
    });

    it("the domain's refusals come back on the page (422) in GitHub's words, escaped, with the form as it was sent, and nothing written", async () => {
      const { n } = await openPull('Refusals');
      const token = await tokenOf(n, 'ada', 'review');
      const cases = [
        [{ event: 'APPROVE', body: X.review }, 'Can not approve your own pull request'],
        [{ event: 'REQUEST_CHANGES', body: 'x' }, 'Can not request changes on your own pull request'],
        [{ event: 'OCTOPUS', body: 'x' }, 'event must be one of APPROVE, REQUEST_CHANGES, COMMENT'],
        [{ event: 'COMMENT', body: 'x'.repeat(65_537) }, 'Body is too long (maximum is 65536 characters)'],
      ] as const;
      for (const [fields, words] of cases) {
        const r = await post(`${pullUrl(n)}/reviews`, { token, ...fields }, { ...auth('ada'), ...sameSite });
        expect(r.status, words).toBe(422);
        expect(r.text).toContain(`<section class="refusal" role="alert"><h2>Not done</h2><p>${words}</p></section>`);
      }
      // The refused review's body is back in the form, escaped.
      const again = await post(`${pullUrl(n)}/reviews`, { token, event: 'APPROVE', body: X.review }, { ...auth('ada'), ...sameSite });
      expect(again.text).toContain('<textarea name="body" rows="6" maxlength="65536">&quot;&gt;&lt;svg onload=window.pwned=5&gt; review</textarea>');
      expect(again.text).not.toContain('<svg');
      const reviewer = await tokenOf(n, 'rey', 'review');
      const empty = await post(`${pullUrl(n)}/reviews`, { token: reviewer, event: 'REQUEST_CHANGES', body: '  ' }, { ...auth('rey'), ...sameSite });
      expect(empty.status).toBe(422);
      expect(empty.text).toContain('You need to leave a comment indicating the requested changes.');
      expect(await reviews(n)).toEqual([]);
      const ctoken = await tokenOf(n, 'ada', 'comment');
      for (const [body, words] of [
        ['', 'Body cannot be blank'],
        ['y'.repeat(65_537), 'Body is too long (maximum is 65536 characters)'],
      ] as const) {
        const r = await post(`${pullUrl(n)}/comments`, { token: ctoken, body }, { ...auth('ada'), ...sameSite });
        expect(r.status).toBe(422);
        expect(r.text).toContain(words);
      }
      expect(await comments(n)).toEqual([]);
    });

    it('close and reopen: each 303, the state is the REST one; a merged pull request cannot be closed or reopened, and shows no such form', async () => {
      const { n } = await openPull('Close me');
      const close = await post(`${pullUrl(n)}/close`, { token: await tokenOf(n, 'ada', 'close') }, { ...auth('ada'), ...sameSite });
      expect(close.status).toBe(303);
      expect((await ch.as('vic').rest.pulls.get({ ...o, pull_number: n })).data.state).toBe('closed');
      const closedPage = (await page(pullUrl(n), auth('ada'))).text;
      expect(closedPage).toContain('<button type="submit" class="reopen-button">Reopen pull request</button>');
      expect(closedPage).not.toContain('class="review-form"');
      const reopenToken = await tokenOf(n, 'ada', 'reopen');
      const reopen = await post(`${pullUrl(n)}/reopen`, { token: reopenToken }, { ...auth('ada'), ...sameSite });
      expect(reopen.status).toBe(303);
      expect((await ch.as('vic').rest.pulls.get({ ...o, pull_number: n })).data.state).toBe('open');
      const closeToken = await tokenOf(n, 'rey', 'close');
      await ch.as('rey').rest.pulls.merge({ ...o, pull_number: n });
      const mergedPage = (await page(pullUrl(n), auth('rey'))).text;
      expect(mergedPage).not.toContain('close-form');
      expect(mergedPage).not.toContain('reopen-form');
      const late = await post(`${pullUrl(n)}/close`, { token: closeToken }, { ...auth('rey'), ...sameSite });
      expect(late.status).toBe(422);
      expect(late.text).toContain('state cannot be changed. The pull request has been merged.');
      const lateReopen = await post(`${pullUrl(n)}/reopen`, { token: reopenToken }, { ...auth('ada'), ...sameSite });
      expect(lateReopen.status).toBe(422);
      expect(lateReopen.text).toContain('state cannot be changed. The pull request has been merged.');
      const data = (await ch.as('vic').rest.pulls.get({ ...o, pull_number: n })).data;
      expect([data.state, data.merged]).toEqual(['closed', true]);
    });

    it("CSRF: a missing or forged token, another form's token, a foreign Origin or Sec-Fetch-Site: cross-site are refused (403) and write nothing", async () => {
      const { n } = await openPull('Guarded forms');
      const commentToken = await tokenOf(n, 'rey', 'comment');
      const closeToken = await tokenOf(n, 'rey', 'close');
      const attempts: [string, Record<string, string>, Headers][] = [
        ['comments', { body: 'no token' }, { ...auth('rey'), ...sameSite }],
        ['comments', { body: 'forged', token: 'A'.repeat(43) }, { ...auth('rey'), ...sameSite }],
        ['comments', { body: "ada's token", token: await tokenOf(n, 'ada', 'comment') }, { ...auth('rey'), ...sameSite }],
        ['comments', { body: 'cross-site', token: commentToken }, { ...auth('rey'), 'sec-fetch-site': 'cross-site' }],
        ['comments', { body: 'same-site', token: commentToken }, { ...auth('rey'), 'sec-fetch-site': 'same-site' }],
        ['comments', { body: 'foreign origin', token: commentToken }, { ...auth('rey'), origin: 'http://evil.test' }],
        ['comments', { body: 'no origin at all', token: commentToken }, auth('rey')],
        ['reviews', { event: 'APPROVE', body: 'x', token: commentToken }, { ...auth('rey'), ...sameSite }],
        ['close', { token: commentToken }, { ...auth('rey'), ...sameSite }],
        ['reopen', { token: closeToken }, { ...auth('rey'), ...sameSite }],
      ];
      for (const [form, fields, headers] of attempts) {
        const r = await post(`${pullUrl(n)}/${form}`, fields, headers);
        expect(r.status, `${form} ${JSON.stringify(fields).slice(0, 40)}`).toBe(403);
        expect(r.text).not.toContain(CH_TOKENS.rey);
      }
      expect(await comments(n)).toEqual([]);
      expect(await reviews(n)).toEqual([]);
      expect((await ch.as('vic').rest.pulls.get({ ...o, pull_number: n })).data.state).toBe('open');
      // An Origin equal to the page's own, from a browser without Sec-Fetch-Site, is enough.
      const ok = await post(`${pullUrl(n)}/comments`, { body: 'own origin', token: commentToken }, { ...auth('rey'), origin: ch.url });
      expect(ok.status).toBe(303);
    });

    it("a reader has no forms and is refused every one with GitHub's 403; a stranger gets 404 for every form; nothing written", async () => {
      const { n } = await openPull('Reader forms');
      const t = (await page(pullUrl(n), auth('vic'))).text;
      for (const cls of ['review-form', 'comment-form', 'close-form', 'merge-form']) expect(t).not.toContain(cls);
      expect(t).toContain('reviewing, commenting, closing and reopening need write access');
      const writerToken = await tokenOf(n, 'rey', 'comment');
      for (const form of ['reviews', 'comments', 'close', 'reopen', 'merge']) {
        const r = await post(`${pullUrl(n)}/${form}`, { body: 'x', event: 'COMMENT', token: writerToken }, { ...auth('vic'), ...sameSite });
        expect(r.status, form).toBe(403);
        expect(r.text).toContain('Must have push access to repository');
        const stranger = await post(`${pullUrl(n)}/${form}`, { body: 'x', token: writerToken }, { ...auth('olga'), ...sameSite });
        expect(stranger.status, form).toBe(404);
        expect(stranger.text).not.toContain('Reader forms');
        const missing = await post(`/${OWNER}/nope/pull/1/${form}`, { body: 'x' }, { ...auth('olga'), ...sameSite });
        expect(missing.text).toBe(stranger.text);
      }
      expect(await comments(n)).toEqual([]);
      expect(await reviews(n)).toEqual([]);
    });

    it('races: closes, reopens, comments and reviews sent at once end in 303 or 422, never 500, and the pull request is in one state', async () => {
      const { n } = await openPull('Racing forms');
      const [close, comment, review] = await Promise.all([tokenOf(n, 'rey', 'close'), tokenOf(n, 'rey', 'comment'), tokenOf(n, 'rey', 'review')]);
      // The reopen form is shown on a closed pull request only.
      await ch.as('rey').rest.pulls.update({ ...o, pull_number: n, state: 'closed' });
      const reopen = await tokenOf(n, 'rey', 'reopen');
      await ch.as('rey').rest.pulls.update({ ...o, pull_number: n, state: 'open' });
      const h = { ...auth('rey'), ...sameSite };
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => [
          post(`${pullUrl(n)}/close`, { token: close }, h),
          post(`${pullUrl(n)}/reopen`, { token: reopen }, h),
          post(`${pullUrl(n)}/comments`, { token: comment, body: `race ${i}` }, h),
          post(`${pullUrl(n)}/reviews`, { token: review, event: 'COMMENT', body: `race ${i}` }, h),
        ]).flat(),
      );
      for (const a of answers) expect([303, 422]).toContain(a.status);
      expect(await comments(n)).toHaveLength(6);
      expect(await reviews(n)).toHaveLength(6);
      expect(['open', 'closed']).toContain((await ch.as('vic').rest.pulls.get({ ...o, pull_number: n })).data.state);
    });

    it('a form body larger than any form is 413; a body that is no form is 415; nothing written', async () => {
      const { n } = await openPull('Big forms');
      const token = await tokenOf(n, 'rey', 'comment');
      const huge = await post(`${pullUrl(n)}/comments`, { token, body: '%'.repeat(250_000) }, { ...auth('rey'), ...sameSite });
      expect(huge.status).toBe(413);
      const json = await fetch(`${ch.url}${pullUrl(n)}/comments`, {
        method: 'POST',
        headers: { ...auth('rey'), ...sameSite, 'content-type': 'application/json' },
        body: JSON.stringify({ token, body: 'json' }),
      });
      expect(json.status).toBe(415);
      expect(await comments(n)).toEqual([]);
    });
  });
});
