import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CH_TOKENS, OWNER, REPO, startCodehostServer, type ChWho, type CodehostServer } from '../../packages/tracker/test/codehost/support.js';
import { browserAvailable, watchedPage, type Browser } from '../support/browser.js';
import { credentialOf } from '../support/seed.js';
import { basic } from '../support/tracker.js';

const run = browserAvailable();
const o = { owner: OWNER, repo: REPO };

/** Payloads that would run script if any of them reached the page as markup or a link. */
const X = {
  title: '<script>window.pwned="title"</script><img src=x onerror="window.pwned=\'title-img\'">',
  body: '"><svg onload="window.pwned=\'body\'"> [click](javascript:window.pwned=\'link\') <a href="javascript:window.pwned=1">a</a>',
  branchTail: '"><img_src=x_onerror=window.pwned=2>',
  file: '"><svg onload=alert(3)>.js',
  line: '<img src=x onerror="window.pwned=\'line\'"><script>alert(4)</script>',
  review: '<script>alert(5)</script>"><svg onload=alert(6)>',
};

describe.skipIf(!run)('ARCHITECTURE §14 pages in Chromium: the review page and its merge button', () => {
  let ch: CodehostServer;
  let issueKey: string;
  let hostile: number;
  let branch: string;
  const browsers: Browser[] = [];
  /** A page in a fresh Chromium signed in with these credentials, watching for dialogs and CSP reports. */
  const as = (username: string, password: string) => watchedPage(browsers, { username, password });
  const codehostUser = (who: ChWho) => as('x-access-token', CH_TOKENS[who]);
  const pwned = (page: Page) => page.evaluate('window.pwned');

  beforeAll(async () => {
    ch = await startCodehostServer('sqlite');
    const tracker = { authorization: basic(credentialOf('assigner').email, credentialOf('assigner').token), 'content-type': 'application/json' };
    const created = await fetch(`${ch.url}/rest/api/3/issue`, {
      method: 'POST',
      headers: tracker,
      body: JSON.stringify({ fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'Review in a browser' } }),
    });
    issueKey = ((await created.json()) as { key: string }).key;
    branch = `feature/${issueKey}-${X.branchTail}`;
    ch.commit(branch, { 'README.md': `hello\n${X.line}\n`, [X.file]: 'export const x = "</script>";\n' }, X.title);
    hostile = (await ch.as('ada').rest.pulls.create({ ...o, title: X.title, body: X.body, head: branch, base: 'main' })).data.number;
    await ch.as('rey').rest.pulls.createReview({ ...o, pull_number: hostile, event: 'COMMENT', body: X.review });
    await ch.as('ada').rest.issues.createComment({ ...o, issue_number: hostile, body: X.body });
  }, 60_000);
  afterAll(async () => {
    for (const b of browsers) await b.close();
    await ch?.close();
  });

  it('XSS in the title, body, branch, file names, review bodies and diff lines renders as text and runs no script', async () => {
    const { page, dialogs, violations } = await codehostUser('vic');
    const res = await page.goto(`${ch.url}/${OWNER}/${REPO}/pull/${hostile}`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(await page.locator('h1 .title').textContent()).toBe(X.title);
    expect(await page.title()).toContain(X.title);
    // Markdown (ARCHITECTURE §22): raw HTML stays text, a javascript: link keeps only its text.
    expect(await page.locator('.pull-body .adf').textContent()).toBe(X.body.replace("[click](javascript:window.pwned='link')", 'click'));
    expect(await page.locator('code.head').textContent()).toBe(branch);
    expect(await page.locator('.file-name').allTextContents()).toContain(X.file);
    expect(await page.locator('.review .adf').textContent()).toBe(X.review);
    expect(await page.locator('.comment .adf').textContent()).toBe(X.body.replace("[click](javascript:window.pwned='link')", 'click'));
    expect(await page.locator('.commit-list .message').textContent()).toBe(X.title);
    expect(await page.locator('.diff tr.add .code').allTextContents()).toContain(`+${X.line}`);
    // Nothing became an element or a link: no img, svg or iframe, no javascript: href, one script (the board's file).
    expect(await page.locator('img, svg, iframe').count()).toBe(0);
    expect(await page.locator('a[href^="javascript:" i]').count()).toBe(0);
    expect(await page.locator('script').evaluateAll((s) => s.map((e) => e.getAttribute('src')))).toEqual(['/_board/assets/board.js']);
    await page.waitForTimeout(300);
    expect(await pwned(page)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(violations).toEqual([]);
    // A reader reads, and has no button.
    expect(await page.getByRole('button', { name: 'Merge pull request' }).count()).toBe(0);
  });

  it('a person signs in, reads the diff, presses Merge, and the page shows merged (GET …/pulls/{n}/merge answers 204)', async () => {
    const { n } = await (async () => {
      const b = `topic-browser-merge`;
      ch.commit(b, { 'src/feature.txt': 'first line\nsecond line\n' }, 'Add the feature');
      return { n: (await ch.as('ada').rest.pulls.create({ ...o, title: 'Add the feature', body: 'Please review.', head: b, base: 'main' })).data.number };
    })();
    const { page, dialogs, violations } = await codehostUser('rey');
    const posts: Record<string, string>[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') void r.allHeaders().then((h) => posts.push(h));
    });
    await page.goto(`${ch.url}/${OWNER}/${REPO}/pull/${n}`);
    expect(await page.locator('.pull-meta .state').textContent()).toBe('Open');
    expect(await page.locator('.diff tr.add .code').allTextContents()).toEqual(['+first line', '+second line']);
    expect(await page.locator('.diff tr.add .ln').allTextContents()).toEqual(['', '1', '', '2']);
    await page.selectOption('select[name="merge_method"]', 'merge');
    await Promise.all([page.waitForURL(`${ch.url}/${OWNER}/${REPO}/pull/${n}`), page.getByRole('button', { name: 'Merge pull request' }).click()]);
    expect(await page.locator('.pull-meta .state').textContent()).toBe('Merged');
    expect(await page.locator('.merge-box.merged').textContent()).toContain('rey merged this into main');
    const check = await fetch(`${ch.api}/repos/${OWNER}/${REPO}/pulls/${n}/merge`, { headers: { authorization: `Bearer ${CH_TOKENS.vic}` } });
    expect(check.status).toBe(204);
    // What the browser sent: the same-origin marker the server relies on.
    expect(posts.at(-1)?.['sec-fetch-site']).toBe('same-origin');
    expect(dialogs).toEqual([]);
    expect(violations).toEqual([]);
  });

  it('a cross-site page that posts the merge form (even with a token lifted from the page) is refused and merges nothing', async () => {
    const b = 'topic-browser-csrf';
    ch.commit(b, { 'csrf.txt': 'x\n' });
    const n = (await ch.as('ada').rest.pulls.create({ ...o, title: 'Target', head: b, base: 'main' })).data.number;
    const { page } = await codehostUser('rey');
    await page.goto(`${ch.url}/${OWNER}/${REPO}/pull/${n}`);
    const sha = await page.locator('.merge-form input[name="sha"]').getAttribute('value');
    const token = await page.locator('.merge-form input[name="token"]').getAttribute('value');
    // The attacker's site: another origin that auto-submits a copy of the form.
    const attack = `<!doctype html><form method="post" action="${ch.url}/${OWNER}/${REPO}/pull/${n}/merge"><input name="sha" value="${sha}"><input name="token" value="${token}"></form><script>document.forms[0].submit()</script>`;
    const evil: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(attack));
    await new Promise<void>((done) => evil.listen(0, '127.0.0.1', done));
    try {
      const answer = page.waitForResponse((r) => r.url().endsWith(`/pull/${n}/merge`));
      await page.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
      const r = await answer;
      expect(r.status()).toBe(403);
      expect(await r.text()).toContain('was not sent from this site');
    } finally {
      evil.close();
    }
    const check = await fetch(`${ch.api}/repos/${OWNER}/${REPO}/pulls/${n}/merge`, { headers: { authorization: `Bearer ${CH_TOKENS.rey}` } });
    expect(check.status).toBe(404);
  });

  it("the board's /browse/<KEY> lists the pull request linked to its review page, without its title or branch", async () => {
    const { email, token } = credentialOf('executor');
    const { page, dialogs } = await as(email, token);
    await page.goto(`${ch.url}/browse/${issueKey}`);
    const item = page.locator('.development .pull-link').first();
    expect(await item.locator('.pull-title').count()).toBe(0);
    expect(await item.textContent()).not.toContain(branch);
    expect(await item.locator('a').getAttribute('href')).toBe(`/${OWNER}/${REPO}/pull/${hostile}`);
    expect(await page.locator('img, svg').count()).toBe(0);
    expect(await pwned(page)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });
});
