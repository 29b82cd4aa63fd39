import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../../src/kit/layout.js';
import { buildApp } from '../../src/http/app.js';
import { parseSeed, startServer } from '../../src/index.js';
import { createTempDatabase } from '../../../../test/support/postgres.js';
import { credentialOf, testSeed } from '../../../../test/support/seed.js';
import { basic, storeKinds } from '../../../../test/support/tracker.js';
import { git } from '../../../../test/support/repo.js';
import { CH_TOKENS, codehostTestSeed, initialCheckout, octokitFor, OWNER, REPO, startCodehostServer, type ChWho, type CodehostServer } from './support.js';

/**
 * ARCHITECTURE §14 "Pages": a pull request's review page at its html_url, signed in with the code
 * host's own credential, its merge button (guarded against cross-site requests) and the board's
 * development panel, over HTTP as a browser asks for them.
 */
const o = { owner: OWNER, repo: REPO };
const XSS = {
  title: '<script>window.pwned=1</script> Title',
  body: '<img src=x onerror="window.pwned=2"> body\n"><svg onload=window.pwned=3> [x](javascript:window.pwned=4)',
  review: '"><svg onload=window.pwned=5> approve',
  file: '"><svg onload=alert(6)>.txt',
  line: '<script>alert(7)</script>',
};

type Headers = Record<string, string>;
const kinds = await storeKinds();
const auth = (who: string): Headers => ({ authorization: basic('anyone', who in CH_TOKENS ? CH_TOKENS[who as ChWho] : who) });

describe.each(kinds)('ARCHITECTURE §14 pages: review page, merge button, development panel (%s)', (kind) => {
  let ch: CodehostServer;
  let issueKey: string;
  /** The hostile pull request (XSS everywhere) and a plain one. */
  let hostile: number;
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
  /** The merge form's hidden fields as the page shows them to `who`. */
  const formOf = async (n: number, who: ChWho) => {
    const r = await page(`/${OWNER}/${REPO}/pull/${n}`, auth(who));
    expect(r.status).toBe(200);
    const field = (name: string) => new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(r.text)?.[1];
    return { sha: field('sha')!, token: field('token')!, text: r.text };
  };
  const sameSite = { 'sec-fetch-site': 'same-origin' };
  let branchNo = 0;
  /** A pull request by ada from a new branch (a commit on it touching `file`). */
  const openPull = async (files: Record<string, string> = { [`f${++branchNo}.txt`]: 'one\ntwo\n' }, title = `Pull ${branchNo}`) => {
    const branch = `topic-${kind}-${++branchNo}`;
    ch.commit(branch, files);
    const { data } = await ch.as('ada').rest.pulls.create({ ...o, title, head: branch, base: 'main' });
    return { n: data.number, branch };
  };
  const merged = async (n: number) =>
    (await fetch(`${ch.api}/repos/${OWNER}/${REPO}/pulls/${n}/merge`, { headers: { authorization: `Bearer ${CH_TOKENS.rey}` } })).status;

  beforeAll(async () => {
    ch = await startCodehostServer(kind);
    const tracker = { authorization: basic(credentialOf('assigner').email, credentialOf('assigner').token), 'content-type': 'application/json' };
    const created = await fetch(`${ch.url}/rest/api/3/issue`, {
      method: 'POST',
      headers: tracker,
      body: JSON.stringify({ fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'Has pull requests' } }),
    });
    issueKey = ((await created.json()) as { key: string }).key;
    const branch = `feature/${issueKey}-"><svg_onload=window.pwned=8>`;
    ch.commit(branch, { 'README.md': `hello\n${XSS.line}\n`, [XSS.file]: 'x\n' }, 'Hostile <b>commit</b>');
    const { data } = await ch.as('ada').rest.pulls.create({ ...o, title: XSS.title, body: XSS.body, head: branch, base: 'main' });
    hostile = data.number;
    await ch.as('rey').rest.pulls.createReview({ ...o, pull_number: hostile, event: 'APPROVE', body: XSS.review });
    await ch.as('ada').rest.issues.createComment({ ...o, issue_number: hostile, body: '<iframe src="javascript:alert(9)"></iframe>' });
  });
  afterAll(async () => {
    await ch?.close();
  });

  describe("sign-in with the code host's own credential", () => {
    it("no credential: 401 with git's Basic challenge, and nothing of the pull request", async () => {
      const r = await page(`/${OWNER}/${REPO}/pull/${hostile}`);
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe('Basic realm="jst-tracker code host", charset="UTF-8"');
      expect(r.text).not.toContain('window.pwned=1');
    });

    it('a wrong token, or a tracker credential, is 401 too', async () => {
      for (const headers of [auth('not-a-token'), { authorization: basic(credentialOf('assigner').email, credentialOf('assigner').token) }]) {
        const r = await page(`/${OWNER}/${REPO}/pull/${hostile}`, headers);
        expect(r.status).toBe(401);
        expect(r.text).not.toContain('window.pwned=1');
      }
    });

    it('a repository the credential may not read is the same 404 page as one that does not exist (masked)', async () => {
      const hidden = await page(`/${OWNER}/${REPO}/pull/${hostile}`, auth('olga'));
      const missing = await page(`/${OWNER}/nope/pull/1`, auth('ada'));
      const noPull = await page(`/${OWNER}/${REPO}/pull/99999`, auth('ada'));
      const badNumber = await page(`/${OWNER}/${REPO}/pull/01`, auth('ada'));
      for (const r of [hidden, missing, noPull, badNumber]) {
        expect(r.status).toBe(404);
        expect(r.text).toBe(hidden.text);
      }
      expect(hidden.text).not.toContain('Title');
      expect(hidden.text).not.toContain(REPO);
    });
  });

  describe('the review page', () => {
    it("shows title, state, branches, author, body, reviews, comments, commits and the diff, all escaped, under the board's headers", async () => {
      const r = await page(`/${OWNER}/${REPO}/pull/${hostile}`, auth('vic'));
      expect(r.status).toBe(200);
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(r.headers.get(name), name).toBe(value);
      expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const t = r.text;
      expect(t).toContain('<span class="title">&lt;script&gt;window.pwned=1&lt;/script&gt; Title</span> <span class="number">#');
      expect(t).toContain(
        '<span class="state state-open">Open</span> <span class="author">ada</span> wants to merge 1 commit into <code class="base">main</code>',
      );
      expect(t).toContain(`<code class="head">feature/${issueKey}-&quot;&gt;&lt;svg_onload=window.pwned=8&gt;</code>`);
      expect(t).toContain(
        '<div class="adf markdown"><p>&lt;img src=x onerror=&quot;window.pwned=2&quot;&gt; body\n&quot;&gt;&lt;svg onload=window.pwned=3&gt; x</p></div>',
      );
      expect(t).toMatch(
        /<span class="author">rey<\/span> <span class="review-state">approved these changes<\/span> <span class="verdict verdict-approved">Approved<\/span>/,
      );
      expect(t).toContain('&quot;&gt;&lt;svg onload=window.pwned=5&gt; approve');
      expect(t).toContain('&lt;iframe src=&quot;javascript:alert(9)&quot;&gt;&lt;/iframe&gt;');
      expect(t).toContain('<td class="message">Hostile &lt;b&gt;commit&lt;/b&gt;</td><td class="author">Fixture</td>');
      expect(t).toContain('<span class="file-name">&quot;&gt;&lt;svg onload=alert(6)&gt;.txt</span> <span class="file-status">added</span>');
      // The diff: line numbers on both sides, the added line coloured and escaped.
      expect(t).toContain('<tr class="ctx"><td class="ln">1</td><td class="ln">1</td><td class="code"> hello</td></tr>');
      expect(t).toContain('<tr class="add"><td class="ln"></td><td class="ln">2</td><td class="code">+&lt;script&gt;alert(7)&lt;/script&gt;</td></tr>');
      // Nothing user-written became markup: the only scripts are the board's own file, no handler attribute anywhere.
      expect([...t.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])).toEqual(['<script src="/_board/assets/board.js" defer>']);
      expect(t).not.toMatch(/<[a-z]+[^>]*\son[a-z]+=/i);
      expect(t).not.toMatch(/href="javascript:/i);
    });

    it('a reader sees no merge button', async () => {
      const r = await page(`/${OWNER}/${REPO}/pull/${hostile}`, auth('vic'));
      expect(r.text).not.toContain('<form class="merge-form"');
      expect(r.text).toContain('Only someone with write access to this repository can merge it');
    });

    it('a writer sees the merge button with the head the page shows and a merge method select', async () => {
      const f = await formOf(hostile, 'rey');
      const { data } = await ch.as('rey').rest.pulls.get({ ...o, pull_number: hostile });
      expect(f.sha).toBe(data.head.sha);
      expect(f.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(f.text).toContain(`<form class="merge-form" method="post" action="/${OWNER}/${REPO}/pull/${hostile}/merge">`);
      expect([...f.text.matchAll(/<option value="(\w+)">/g)].map((m) => m[1])).toEqual(['merge', 'squash', 'rebase']);
    });

    it('a draft shows Draft and a closed one Closed, neither with a merge button', async () => {
      const branch = `topic-${kind}-draft`;
      ch.commit(branch, { 'draft.txt': 'draft\n' });
      const { data } = await ch.as('ada').rest.pulls.create({ ...o, title: 'Not yet', head: branch, base: 'main', draft: true });
      const draft = await page(`/${OWNER}/${REPO}/pull/${data.number}`, auth('rey'));
      expect(draft.text).toContain('<span class="state state-draft">Draft</span>');
      expect(draft.text).toContain('<main class="codehost pull" data-state="draft"');
      expect(draft.text).not.toContain('<form class="merge-form"');
      const { n } = await openPull();
      await ch.as('ada').rest.pulls.update({ ...o, pull_number: n, state: 'closed' });
      const closed = await page(`/${OWNER}/${REPO}/pull/${n}`, auth('rey'));
      expect(closed.text).toContain('<span class="state state-closed">Closed</span>');
      expect(closed.text).toContain('closed without being merged');
      expect(closed.text).not.toContain('<form class="merge-form"');
    });

    it('a file too large for the page is listed without its lines, and the page says so', async () => {
      const big = Array.from({ length: 40_000 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n');
      const { n } = await openPull({ 'big-a.txt': big, 'big-b.txt': big, 'small.txt': 'small\n' });
      const r = await page(`/${OWNER}/${REPO}/pull/${n}`, auth('ada'));
      expect(r.status).toBe(200);
      expect(r.text).toMatch(/<p class="cut">\d files? shown without lines: the page holds at most 1 MiB of diff.<\/p>/);
      expect(r.text).toContain('<td class="code">+small</td>');
      expect(Buffer.byteLength(r.text)).toBeLessThan(6 * 1024 * 1024);
    });
  });

  describe('the merge button', () => {
    it('a writer merges from the page: 303 back to it, which shows merged, and GET …/pulls/{n}/merge answers 204', async () => {
      const { n } = await openPull();
      const f = await formOf(n, 'rey');
      const r = await post(
        `/${OWNER}/${REPO}/pull/${n}/merge`,
        { sha: f.sha, token: f.token, merge_method: 'squash' },
        { ...auth('rey'), ...sameSite, origin: 'null' },
      );
      expect(r.status).toBe(303);
      expect(r.headers.get('location')).toBe(`/${OWNER}/${REPO}/pull/${n}`);
      expect(await merged(n)).toBe(204);
      const after = await page(`/${OWNER}/${REPO}/pull/${n}`, auth('rey'));
      expect(after.text).toContain('<span class="state state-merged">Merged</span>');
      expect(after.text).toContain('<span class="author">rey</span> merged this into <code>main</code>');
      expect(after.text).not.toContain('<form class="merge-form"');
      const { data } = await ch.as('rey').rest.pulls.get({ ...o, pull_number: n });
      expect(data.merged_by?.login).toBe('rey');
    });

    it("a browser without Sec-Fetch-Site: an Origin equal to the page's own is enough", async () => {
      const { n } = await openPull();
      const f = await formOf(n, 'ada');
      const r = await post(`/${OWNER}/${REPO}/pull/${n}/merge`, { sha: f.sha, token: f.token }, { ...auth('ada'), origin: ch.url });
      expect(r.status).toBe(303);
      expect(await merged(n)).toBe(204);
    });

    it('refused, and nothing merged: cross-site Sec-Fetch-Site, a foreign Origin, or neither header', async () => {
      const { n } = await openPull();
      const f = await formOf(n, 'rey');
      const fields = { sha: f.sha, token: f.token };
      const tries: Headers[] = [
        { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
        { 'sec-fetch-site': 'same-site' },
        { origin: 'https://evil.example' },
        { origin: 'null' },
        {},
        { 'sec-fetch-site': 'none' },
      ];
      for (const headers of tries) {
        const r = await post(`/${OWNER}/${REPO}/pull/${n}/merge`, fields, { ...auth('rey'), ...headers });
        expect(r.status, JSON.stringify(headers)).toBe(403);
        expect(r.text).toContain('was not sent from this site');
        expect(r.headers.get('content-security-policy')).toBe(SECURITY_HEADERS['content-security-policy']);
      }
      // Without a credential too: a cross-site post is refused before the browser is asked to sign in.
      const anonymous = await post(`/${OWNER}/${REPO}/pull/${n}/merge`, fields, { 'sec-fetch-site': 'cross-site' });
      expect(anonymous.status).toBe(403);
      expect(anonymous.headers.get('www-authenticate')).toBeNull();
      expect(await merged(n)).toBe(404);
    });

    it("refused, and nothing merged: a missing, forged or someone else's form token, or a sha the token was not made for", async () => {
      const { n } = await openPull();
      const mine = await formOf(n, 'rey');
      const ada = await formOf(n, 'ada');
      const tries: Record<string, string>[] = [
        { sha: mine.sha },
        { sha: mine.sha, token: '' },
        { sha: mine.sha, token: `${mine.token.slice(0, -2)}AA` },
        { sha: mine.sha, token: ada.token },
        { sha: '0'.repeat(40), token: mine.token },
        { token: mine.token },
      ];
      for (const fields of tries) {
        const r = await post(`/${OWNER}/${REPO}/pull/${n}/merge`, fields, { ...auth('rey'), ...sameSite });
        expect(r.status, JSON.stringify(fields)).toBe(403);
        expect(r.text).toContain('The merge form is out of date or was not made for you');
      }
      expect(await merged(n)).toBe(404);
    });

    it("a reader's POST is 403, an outsider's 404, no credential 401; nothing merged", async () => {
      const { n } = await openPull();
      const f = await formOf(n, 'rey');
      const reader = await post(`/${OWNER}/${REPO}/pull/${n}/merge`, { sha: f.sha, token: f.token }, { ...auth('vic'), ...sameSite });
      expect(reader.status).toBe(403);
      expect(reader.text).toContain('Must have push access to repository');
      const outsider = await post(`/${OWNER}/${REPO}/pull/${n}/merge`, { sha: f.sha, token: f.token }, { ...auth('olga'), ...sameSite });
      expect(outsider.status).toBe(404);
      const anonymous = await post(`/${OWNER}/${REPO}/pull/${n}/merge`, { sha: f.sha, token: f.token }, sameSite);
      expect(anonymous.status).toBe(401);
      expect(await merged(n)).toBe(404);
    });

    it('a head moved since the page was shown: 409 "changed since you looked", nothing merged, and the page shows the new head', async () => {
      const { n, branch } = await openPull();
      const f = await formOf(n, 'rey');
      const moved = ch.commit(branch, { 'later.txt': 'pushed after the page was read\n' });
      const r = await post(`/${OWNER}/${REPO}/pull/${n}/merge`, { sha: f.sha, token: f.token }, { ...auth('rey'), ...sameSite });
      expect(r.status).toBe(409);
      expect(r.text).toContain('Changed since you looked');
      expect(r.text).toContain(`<a href="/${OWNER}/${REPO}/pull/${n}">Back to the pull request</a>`);
      expect(await merged(n)).toBe(404);
      const again = await formOf(n, 'rey');
      expect(again.sha).toBe(moved);
    });

    it('an unknown merge method is a 400 page; a body that is no form is refused; nothing merged', async () => {
      const { n } = await openPull();
      const f = await formOf(n, 'rey');
      const bad = await post(`/${OWNER}/${REPO}/pull/${n}/merge`, { sha: f.sha, token: f.token, merge_method: 'octopus' }, { ...auth('rey'), ...sameSite });
      expect(bad.status).toBe(400);
      const json = await fetch(`${ch.url}/${OWNER}/${REPO}/pull/${n}/merge`, {
        method: 'POST',
        headers: { ...auth('rey'), ...sameSite, 'content-type': 'application/json' },
        body: JSON.stringify(f),
      });
      expect(json.status).toBe(415);
      const huge = await post(`/${OWNER}/${REPO}/pull/${n}/merge`, { sha: f.sha, token: f.token, pad: 'x'.repeat(700_000) }, { ...auth('rey'), ...sameSite });
      expect(huge.status).toBe(413);
      expect(await merged(n)).toBe(404);
    });

    it('a conflict: the merge box says the branch has conflicts, names the files, no button; a forced POST is 405 and merges nothing', async () => {
      const first = await openPull({ 'clash.txt': 'from the first\n' });
      const second = await openPull({ 'clash.txt': 'from the second\n' });
      const f = await formOf(second.n, 'rey');
      await ch.as('rey').rest.pulls.merge({ ...o, pull_number: first.n });
      const r = await page(`/${OWNER}/${REPO}/pull/${second.n}`, auth('rey'));
      expect(r.text).toContain('<h2>This branch has conflicts that must be resolved</h2>');
      expect(r.text).toContain('<ul class="conflicts"><li><code>clash.txt</code></li></ul>');
      expect(r.text).not.toContain('<form class="merge-form"');
      const forced = await post(`/${OWNER}/${REPO}/pull/${second.n}/merge`, { sha: f.sha, token: f.token }, { ...auth('rey'), ...sameSite });
      expect(forced.status).toBe(405);
      expect(forced.text).toContain('Pull Request is not mergeable');
      expect(await merged(second.n)).toBe(404);
    });
  });

  describe("the board's development panel (/browse/<KEY>)", () => {
    const board = (path: string, app?: { inject: (o: object) => Promise<{ statusCode: number; body: string }> }) => {
      const headers = { authorization: basic(credentialOf('executor').email, credentialOf('executor').token), accept: 'text/html', host: new URL(ch.url).host };
      return app ? app.inject({ method: 'GET', url: path, headers }).then((r) => ({ status: r.statusCode, text: r.body })) : page(path, headers);
    };

    it("ARCHITECTURE §20: lists the pull requests whose head branch carries the key: number, state and a link to the review page, never a title or branch the tracker's viewer may not read on the code host", async () => {
      const r = await board(`/browse/${issueKey}`);
      expect(r.status).toBe(200);
      expect(r.text).toContain('<section class="development"><h2>Development</h2>');
      expect(r.text).toContain(
        `<li class="pull-link" data-state="open"><a href="/${OWNER}/${REPO}/pull/${hostile}">${OWNER}/${REPO}#${hostile}</a> <span class="state state-open">open</span></li>`,
      );
      // The executor signs in to the tracker; nothing says it may read acme/app on the code host.
      expect(r.text).not.toContain('window.pwned=1');
      expect(r.text).not.toContain('svg_onload');
      expect(r.text).not.toContain('class="pull-title"');
      expect(r.text).toContain('Titles and branches are on each pull request');
    });

    it("ARCHITECTURE §22: a parent's panel lists its sub-tasks' pull requests too, each named by its sub-task", async () => {
      const tracker = { authorization: basic(credentialOf('assigner').email, credentialOf('assigner').token), 'content-type': 'application/json' };
      const create = async (fields: object) =>
        (
          (await (
            await fetch(`${ch.url}/rest/api/3/issue`, {
              method: 'POST',
              headers: tracker,
              body: JSON.stringify({ fields: { project: { key: 'ABC' }, ...fields } }),
            })
          ).json()) as { key: string }
        ).key;
      const parent = await create({ issuetype: { name: 'Task' }, summary: 'Parent with sub-task pulls' });
      const sub = await create({ issuetype: { name: 'Subtask' }, summary: 'Sub-task with a pull', parent: { key: parent } });
      const branch = `feature/${sub}-work`;
      ch.commit(branch, { 'sub.txt': 'sub\n' });
      const n = (await ch.as('ada').rest.pulls.create({ ...o, title: 'Sub-task work', head: branch, base: 'main' })).data.number;
      const r = await board(`/browse/${parent}`);
      expect(r.status).toBe(200);
      expect(r.text).toContain(
        `<li class="pull-link" data-state="open"><a class="subtask-key" href="/browse/${sub}">${sub}</a> <a href="/${OWNER}/${REPO}/pull/${n}">${OWNER}/${REPO}#${n}</a>`,
      );
      // The sub-task's own page lists it without the sub-task's name.
      expect((await board(`/browse/${sub}`)).text).toContain(`<li class="pull-link" data-state="open"><a href="/${OWNER}/${REPO}/pull/${n}">`);
    });

    it('an issue without pull requests says so', async () => {
      const tracker = { authorization: basic(credentialOf('assigner').email, credentialOf('assigner').token), 'content-type': 'application/json' };
      const created = await fetch(`${ch.url}/rest/api/3/issue`, {
        method: 'POST',
        headers: tracker,
        body: JSON.stringify({ fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'No pulls' } }),
      });
      const key = ((await created.json()) as { key: string }).key;
      const r = await board(`/browse/${key}`);
      expect(r.text).toContain('<p class="empty">No pull requests');
      expect(r.text).not.toContain('class="pull-link"');
    });

    it('the panel lists at most 50 pull requests and says how many there are', async () => {
      const many = Array.from({ length: 60 }, (_, i) => ({
        repo: 'acme/app',
        number: i + 1,
        title: `P${i + 1}`,
        state: 'open' as const,
        merged: false,
        head: `feature/${issueKey}-${i}`,
        base: 'main',
      }));
      const app = buildApp(ch.server.tracker, { logLevel: 'silent', pullsForIssue: async (key) => (key === issueKey ? many : []) });
      try {
        const r = await board(`/browse/${issueKey}`, app);
        expect(r.status).toBe(200);
        expect([...r.text.matchAll(/<li class="pull-link"/g)]).toHaveLength(50);
        expect(r.text).toContain('Showing the first 50 of 60 pull requests.');
      } finally {
        await app.close();
      }
    });

    it('without a code host the panel is absent', async () => {
      const app = buildApp(ch.server.tracker, { logLevel: 'silent' });
      try {
        const r = await board(`/browse/${issueKey}`, app);
        expect(r.status).toBe(200);
        expect(r.text).toContain('Has pull requests');
        expect(r.text).not.toContain('Development');
      } finally {
        await app.close();
      }
    });
  });
});

describe.skipIf(!kinds.includes('postgres'))('ARCHITECTURE §14 pages when the code host is off (--database-url without --repos)', () => {
  it("the board's issue page has no development panel, and a review page address asks for the code host's sign-in", async () => {
    const db = await createTempDatabase();
    const server = await startServer({ port: 0, databaseUrl: db.url, poolSize: 2, seed: parseSeed(testSeed()) });
    try {
      const tracker = { authorization: basic(credentialOf('assigner').email, credentialOf('assigner').token), 'content-type': 'application/json' };
      const created = await fetch(`${server.url}/rest/api/3/issue`, {
        method: 'POST',
        headers: tracker,
        body: JSON.stringify({ fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'No code host' } }),
      });
      const key = ((await created.json()) as { key: string }).key;
      const issue = await fetch(`${server.url}/browse/${key}`, { headers: { authorization: tracker.authorization } });
      const text = await issue.text();
      expect(issue.status).toBe(200);
      expect(text).toContain('No code host');
      expect(text).not.toContain('Development');
      const review = await fetch(`${server.url}/${OWNER}/${REPO}/pull/1`, { headers: auth('ada') });
      expect(review.status).toBe(401);
      expect(review.headers.get('www-authenticate')).toContain('jst-tracker code host');
    } finally {
      await server.close();
      await db.drop();
    }
  });
});

describe.skipIf(!kinds.includes('postgres'))('ARCHITECTURE §14 pages over several processes (one PostgreSQL, one --repos)', () => {
  it('a merge form shown by one process is accepted by another (the form secret is shared through the database)', async () => {
    const db = await createTempDatabase();
    const root = mkdtempSync(join(tmpdir(), 'jst-pages-procs-'));
    const repos = join(root, 'repos');
    const options = { port: 0, databaseUrl: db.url, poolSize: 2, repos, seed: parseSeed(codehostTestSeed()) };
    const a = await startServer(options);
    const b = await startServer(options);
    try {
      const work = initialCheckout(join(repos, OWNER, `${REPO}.git`), join(root, 'work'));
      git(work, 'checkout', '--quiet', '-b', 'topic');
      writeFileSync(join(work, 'topic.txt'), 'topic\n');
      git(work, 'add', '.');
      git(work, 'commit', '--quiet', '-m', 'topic');
      git(work, 'push', '--quiet', 'origin', 'topic');
      const { data } = await octokitFor(`${a.url}/api/v3`, CH_TOKENS.ada).rest.pulls.create({ ...o, title: 'Across processes', head: 'topic', base: 'main' });
      const shown = await (await fetch(`${a.url}/${OWNER}/${REPO}/pull/${data.number}`, { headers: auth('rey') })).text();
      const field = (name: string) => new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(shown)![1]!;
      const res = await fetch(`${b.url}/${OWNER}/${REPO}/pull/${data.number}/merge`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...auth('rey'), 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ sha: field('sha'), token: field('token') }).toString(),
      });
      expect(res.status).toBe(303);
      const merged = await fetch(`${a.url}/api/v3/repos/${OWNER}/${REPO}/pulls/${data.number}/merge`, {
        headers: { authorization: `Bearer ${CH_TOKENS.vic}` },
      });
      expect(merged.status).toBe(204);
    } finally {
      await a.close();
      await b.close();
      await db.drop();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
