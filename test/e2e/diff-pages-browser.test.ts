import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CH_TOKENS, OWNER, REPO, startCodehostServer, type ChWho, type CodehostServer } from '../../packages/tracker/test/codehost/support.js';
import { browserAvailable, watchedPage, type Browser } from '../support/browser.js';

const run = browserAvailable();
const o = { owner: OWNER, repo: REPO };

/** Payloads that would run script if any of them reached a diff page as markup or a link (as the review page's tests). */
const X = {
  message: '<script>window.pwned="msg"</script><img src=x onerror="window.pwned=\'msg-img\'">',
  branchTail: '"><img_src=x_onerror=window.pwned=2>',
  file: '"><svg onload=alert(3)>.js',
  line: '<img src=x onerror="window.pwned=\'line\'"><script>alert(4)</script>',
  control: 'invoice\u202etxt.exe',
};

describe.skipIf(!run)('ARCHITECTURE §22 the diff pages in Chromium: writer, reader, stranger', () => {
  let ch: CodehostServer;
  let n: number;
  let first: string;
  let second: string;
  let branch: string;
  const browsers: Browser[] = [];
  const as = (who: ChWho) => watchedPage(browsers, { username: 'x-access-token', password: CH_TOKENS[who] });
  const pwned = (page: Page) => page.evaluate('window.pwned');
  const paths = () => [
    `/${OWNER}/${REPO}/pull/${n}/files`,
    `/${OWNER}/${REPO}/pull/${n}/commits`,
    `/${OWNER}/${REPO}/pull/${n}/commits/${second}`,
    `/${OWNER}/${REPO}/pull/${n}/files/${first}..${second}`,
    `/${OWNER}/${REPO}/commit/${second}`,
    `/${OWNER}/${REPO}/compare/main...${encodeURIComponent(branch)}`,
  ];

  beforeAll(async () => {
    ch = await startCodehostServer('sqlite');
    branch = `feature/ABC-1-${X.branchTail}`;
    first = ch.commit(branch, { [X.file]: 'export const x = 1;\n', [X.control]: 'x\n' }, `first ${X.message}`);
    second = ch.commit(branch, { [X.file]: `export const x = 2;\n${X.line}\n` }, X.message);
    n = (await ch.as('ada').rest.pulls.create({ ...o, title: X.message, head: branch, base: 'main' })).data.number;
  }, 60_000);
  afterAll(async () => {
    for (const b of browsers) await b.close();
    await ch?.close();
  });

  for (const who of ['ada', 'vic'] as const) {
    it(`as ${who === 'ada' ? 'a writer' : 'a reader'}: every diff page shows the hostile names, messages and lines as text and runs no script`, async () => {
      const { page, dialogs, violations } = await as(who);
      for (const path of paths()) {
        const res = await page.goto(`${ch.url}${path}`);
        expect(res?.status(), path).toBe(200);
        expect(res?.headers()['content-security-policy'], path).toContain("script-src 'self'");
        expect(await page.locator('img, svg, iframe').count(), path).toBe(0);
        expect(await page.locator('a[href^="javascript:" i]').count(), path).toBe(0);
        expect(await page.locator('script').evaluateAll((s) => s.map((e) => e.getAttribute('src'))), path).toEqual(['/_board/assets/board.js']);
        if (!path.endsWith('/commits')) expect(await page.locator('.file-name').allTextContents(), path).toContain(X.file);
      }
      await page.goto(`${ch.url}/${OWNER}/${REPO}/pull/${n}/files`);
      expect(await page.locator('.diff tr.add .code').allTextContents()).toContain(`+${X.line}`);
      // The right-to-left override is marked, not obeyed.
      expect(await page.locator('.file-name .ctl').count()).toBeGreaterThan(0);
      expect(await page.locator('code.head').textContent()).toBe(branch);
      await page.goto(`${ch.url}/${OWNER}/${REPO}/pull/${n}/commits`);
      expect(await page.locator('.commit-list .message').allTextContents()).toEqual([`first ${X.message}`, X.message]);
      await page.goto(`${ch.url}/${OWNER}/${REPO}/commit/${second}`);
      expect(await page.locator('.commit-head .message').textContent()).toBe(X.message);
      await page.waitForTimeout(300);
      expect(await pwned(page)).toBeUndefined();
      expect(dialogs).toEqual([]);
      expect(violations).toEqual([]);
    });
  }

  it('as a stranger: every diff page and the .diff are the masked 404, showing nothing', async () => {
    const { page } = await as('olga');
    for (const path of [...paths(), `/${OWNER}/${REPO}/pull/${n}.diff`, `/${OWNER}/${REPO}/pull/${n}.patch`]) {
      const res = await page.goto(`${ch.url}${path}`);
      expect(res?.status(), path).toBe(404);
      const text = await page.content();
      expect(text, path).not.toContain('export const x');
      expect(text, path).not.toContain('pwned');
    }
  });

  it('the .diff opens as text in the browser, the lines as written', async () => {
    const { page } = await as('vic');
    const res = await page.goto(`${ch.url}/${OWNER}/${REPO}/pull/${n}.diff`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-type']).toBe('text/plain; charset=utf-8');
    expect(await page.locator('body').textContent()).toContain(`+${X.line}`);
    expect(await page.locator('img, svg').count()).toBe(0);
    expect(await pwned(page)).toBeUndefined();
  });
});
