import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CH_TOKENS,
  codehostSection,
  codehostTestSeed,
  OWNER,
  REPO,
  startCodehostServer,
  type ChWho,
  type CodehostServer,
} from '../../packages/tracker/test/codehost/support.js';
import { browserAvailable, watchedPage, type Browser } from '../support/browser.js';

const run = browserAvailable();
const o = { owner: OWNER, repo: REPO };

/** The payloads of the review page's browser test, in every new field: titles, bodies, branches, reviews, comments, subjects. */
const X = {
  title: '<script>window.pwned="title"</script><img src=x onerror="window.pwned=\'title-img\'"> ABC-5',
  body: '"><svg onload="window.pwned=\'body\'"> <a href="javascript:window.pwned=1">a</a>',
  branchTail: '"><img_src=x_onerror=window.pwned=2>',
  subject: '<img src=x onerror="window.pwned=\'subject\'">',
  review: '<script>alert(5)</script>"><svg onload=alert(6)>',
  comment: '**bold** <iframe src="javascript:alert(7)"></iframe>',
  name: '<img src=x onerror="window.pwned=\'name\'"> Rey',
};

/**
 * ARCHITECTURE §22 in Chromium: the repository page, the pull request list and the conversation
 * with its forms, used as a person uses them — a writer comments, requests changes, approves,
 * closes and reopens by pressing the page's buttons; a reader reads and has no form; a stranger
 * gets 404 everywhere — with the XSS payloads in every field and no script ever run.
 */
describe.skipIf(!run)('ARCHITECTURE §22 pages in Chromium: repository, list, conversation and its forms', () => {
  let ch: CodehostServer;
  let hostile: number;
  let branch: string;
  const browsers: Browser[] = [];
  const as = (who: ChWho) => watchedPage(browsers, { username: 'x-access-token', password: CH_TOKENS[who] });
  const pwned = (page: Page) => page.evaluate('window.pwned');
  const clean = async (page: Page, dialogs: string[], violations: string[]) => {
    expect(await page.locator('img, svg, iframe').count()).toBe(0);
    expect(await page.locator('a[href^="javascript:" i]').count()).toBe(0);
    expect(await page.locator('script').evaluateAll((s) => s.map((e) => e.getAttribute('src')))).toEqual(['/_board/assets/board.js']);
    expect(await pwned(page)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(violations).toEqual([]);
  };
  const pullUrl = (n: number) => `${ch.url}/${OWNER}/${REPO}/pull/${n}`;

  beforeAll(async () => {
    // The reviewer's display name is hostile too (the pages' header shows it).
    const section = codehostSection();
    const users = section.users.map((u) => (u.login === 'rey' ? { ...u, name: X.name } : u));
    ch = await startCodehostServer('sqlite', { seed: { ...codehostTestSeed(), codehost: { ...section, users } } });
    branch = `feature/ABC-5-${X.branchTail}`;
    ch.commit(branch, { 'a.txt': 'a\n' }, X.subject);
    hostile = (await ch.as('ada').rest.pulls.create({ ...o, title: X.title, body: X.body, head: branch, base: 'main' })).data.number;
    await ch.as('rey').rest.pulls.createReview({ ...o, pull_number: hostile, event: 'COMMENT', body: `CHANGES REQUESTED — ${X.review}` });
    await ch.as('ada').rest.issues.createComment({ ...o, issue_number: hostile, body: X.comment });
  }, 60_000);
  afterAll(async () => {
    for (const b of browsers) await b.close();
    await ch?.close();
  });

  it('a reader reads the repository page, the list and the conversation, all escaped, and has no form', async () => {
    const { page, dialogs, violations } = await as('vic');
    const repo = await page.goto(`${ch.url}/${OWNER}/${REPO}`);
    expect(repo?.status()).toBe(200);
    expect(await page.locator('.default-branch').textContent()).toBe('main');
    expect(await page.locator('.clone-url').inputValue()).toBe(`${ch.url}/${OWNER}/${REPO}.git`);
    expect(await page.locator('.branch-list .message').allTextContents()).toContain(X.subject);
    expect(await page.locator('.branch-list code.branch').allTextContents()).toContain(branch);
    expect(await page.locator('.open-pulls .pull-title').allTextContents()).toContain(X.title);
    await clean(page, dialogs, violations);

    await page
      .getByRole('link', { name: /Pull requests/ })
      .first()
      .click();
    await page.waitForURL(`${ch.url}/${OWNER}/${REPO}/pulls`);
    const row = page.locator('.pull-row', { hasText: X.title });
    expect(await row.locator('.verdict').textContent()).toBe('Changes requested');
    expect(await row.locator('code.head').textContent()).toBe(branch);
    await clean(page, dialogs, violations);

    await row.locator('.pull-title').click();
    await page.waitForURL(pullUrl(hostile));
    expect(await page.locator('h1 .title').textContent()).toBe(X.title);
    expect(await page.locator('h1 .title a.issue-key').getAttribute('href')).toBe('/browse/ABC-5');
    expect(await page.locator('.review .verdict').textContent()).toBe('Changes requested');
    expect(await page.locator('.review .adf').textContent()).toBe(`CHANGES REQUESTED — ${X.review}`);
    expect(await page.locator('.comment .adf strong').textContent()).toBe('bold');
    expect(await page.locator('.merge-box h2').first().textContent()).toBe('Changes requested');
    expect(await page.locator('form').count()).toBe(0);
    expect(await page.getByRole('button').count()).toBe(0);
    await clean(page, dialogs, violations);
  }, 90_000);

  it('a writer comments, requests changes and approves with the forms; badges and the merge box follow; a refusal is shown on the page', async () => {
    const b = 'topic-browser-forms';
    ch.commit(b, { 'forms.txt': 'x\n' });
    const n = (await ch.as('ada').rest.pulls.create({ ...o, title: 'Forms in a browser', head: b, base: 'main' })).data.number;
    const { page, dialogs, violations } = await as('rey');
    await page.goto(pullUrl(n));
    expect(await page.locator('.merge-box h2').textContent()).toBe('Ready to merge');
    expect(await page.locator('header.top .viewer').textContent()).toBe(X.name);

    await page.locator('.comment-form textarea').fill(X.comment);
    await Promise.all([page.waitForURL(/#issuecomment-\d+$/), page.getByRole('button', { name: 'Comment', exact: true }).click()]);
    expect(await page.locator('.comment .adf').last().textContent()).toBe(X.comment.replace('**bold**', 'bold'));

    await page.locator('.review-form textarea').fill(X.review);
    await page.locator('.review-form input[value="REQUEST_CHANGES"]').check();
    await Promise.all([page.waitForURL(/#pullrequestreview-\d+$/), page.getByRole('button', { name: 'Submit review' }).click()]);
    expect(await page.locator('.review .verdict').last().textContent()).toBe('Changes requested');
    expect(await page.locator('.merge-box h2').first().textContent()).toBe('Changes requested');

    await page.locator('.review-form input[value="APPROVE"]').check();
    await Promise.all([page.waitForURL(/#pullrequestreview-\d+$/), page.getByRole('button', { name: 'Submit review' }).click()]);
    expect(await page.locator('.review .verdict').last().textContent()).toBe('Approved');
    expect(await page.locator('.merge-box h2').textContent()).toBe('Ready to merge');
    const api = (await ch.as('vic').rest.pulls.listReviews({ ...o, pull_number: n })).data.map((r) => [r.user?.login, r.state]);
    expect(api).toEqual([
      ['rey', 'CHANGES_REQUESTED'],
      ['rey', 'APPROVED'],
    ]);

    // Request changes without a reason: GitHub's refusal, on the page, nothing written.
    await page.locator('.review-form input[value="REQUEST_CHANGES"]').check();
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/pull/${n}/reviews`)),
      page.getByRole('button', { name: 'Submit review' }).click(),
    ]);
    expect(answer.status()).toBe(422);
    await page.waitForLoadState();
    expect(await page.locator('.refusal').textContent()).toContain('You need to leave a comment indicating the requested changes.');
    expect(await page.locator('.review-form input[value="REQUEST_CHANGES"]').isChecked()).toBe(true);
    expect((await ch.as('vic').rest.pulls.listReviews({ ...o, pull_number: n })).data).toHaveLength(2);
    await clean(page, dialogs, violations);
  });

  it("the author is refused an approval of their own pull request in GitHub's words, escaped", async () => {
    const { page, dialogs, violations } = await as('ada');
    await page.goto(pullUrl(hostile));
    await page.locator('.review-form textarea').fill(X.review);
    await page.locator('.review-form input[value="APPROVE"]').check();
    await page.getByRole('button', { name: 'Submit review' }).click();
    await page.waitForSelector('.refusal');
    expect(await page.locator('.refusal p').textContent()).toBe('Can not approve your own pull request');
    expect(await page.locator('.review-form textarea').inputValue()).toBe(X.review);
    await clean(page, dialogs, violations);
  });

  it('a writer closes and reopens with the buttons; the state badge and the list follow', async () => {
    const b = 'topic-browser-close';
    ch.commit(b, { 'close.txt': 'x\n' });
    const n = (await ch.as('ada').rest.pulls.create({ ...o, title: 'Close in a browser', head: b, base: 'main' })).data.number;
    const { page, dialogs, violations } = await as('ada');
    await page.goto(pullUrl(n));
    await Promise.all([page.waitForURL(pullUrl(n)), page.getByRole('button', { name: 'Close pull request' }).click()]);
    await page.waitForSelector('.pull-meta .state-closed');
    expect(await page.locator('.pull-meta .state').textContent()).toBe('Closed');
    expect(await page.locator('.merge-box h2').textContent()).toBe('Closed');
    await page.goto(`${ch.url}/${OWNER}/${REPO}/pulls?state=closed`);
    expect(await page.locator('.pull-row .pull-title').allTextContents()).toContain('Close in a browser');
    await page.goto(pullUrl(n));
    await page.getByRole('button', { name: 'Reopen pull request' }).click();
    await page.waitForSelector('.pull-meta .state-open');
    expect((await ch.as('vic').rest.pulls.get({ ...o, pull_number: n })).data.state).toBe('open');
    await clean(page, dialogs, violations);
  });

  it('a cross-site page that posts a comment (with a token lifted from the page) is refused and writes nothing', async () => {
    const { page } = await as('rey');
    await page.goto(pullUrl(hostile));
    const token = await page.locator('.comment-form input[name="token"]').getAttribute('value');
    const before = (await ch.as('vic').rest.issues.listComments({ ...o, issue_number: hostile })).data.length;
    const attack = `<!doctype html><form method="post" action="${pullUrl(hostile)}/comments"><input name="token" value="${token}"><input name="body" value="forged"></form><script>document.forms[0].submit()</script>`;
    const evil: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(attack));
    await new Promise<void>((done) => evil.listen(0, '127.0.0.1', done));
    try {
      const answer = page.waitForResponse((r) => r.url().endsWith(`/pull/${hostile}/comments`));
      await page.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
      expect((await answer).status()).toBe(403);
    } finally {
      evil.close();
    }
    expect((await ch.as('vic').rest.issues.listComments({ ...o, issue_number: hostile })).data).toHaveLength(before);
  });

  it('a stranger gets 404 for every page, the same as for a repository that does not exist', async () => {
    const { page } = await as('olga');
    const missing = await page.goto(`${ch.url}/${OWNER}/nope`);
    expect(missing?.status()).toBe(404);
    const missingText = await page.content();
    for (const path of [`/${OWNER}/${REPO}`, `/${OWNER}/${REPO}/pulls`, `/${OWNER}/${REPO}/pulls?state=all`, `/${OWNER}/${REPO}/pull/${hostile}`]) {
      const r = await page.goto(`${ch.url}${path}`);
      expect(r?.status(), path).toBe(404);
      expect(await page.content()).toBe(missingText);
    }
    expect(await pwned(page)).toBeUndefined();
  });
});
