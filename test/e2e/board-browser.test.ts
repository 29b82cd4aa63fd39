import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, openBrowser, type Browser } from '../support/browser.js';
import { credentialOf, type Who } from '../support/seed.js';
import { adf, basic, createIssue, startTestTracker, type TestTracker } from '../support/tracker.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = browserAvailable();

/** `npm start` without --once: resolves with the board's address once the report is printed. */
function startDemo(dir: string): Promise<{ child: ChildProcess; board: string; report: string }> {
  const child = spawn(process.execPath, [join(root, 'scripts/demo.mjs'), '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const board = /^ {2}board +(http:\/\/\S+)/m.exec(out)?.[1];
      if (board) resolve({ child, board, report: out });
    });
    child.on('exit', (code) => reject(new Error(`the demo exited with ${code} before printing the board's address:\n${out}\n${err}`)));
  });
}

/** The card of an issue, in the column of a status. */
const card = (page: Page, status: string, key: string) => page.locator(`.column[data-status="${status}"] .card[data-key="${key}"]`);

describe.skipIf(!run)('ARCHITECTURE §12 board in Chromium, after npm start', () => {
  let dir: string;
  let demo: { child: ChildProcess; board: string; report: string };
  let browser: Browser;
  let demoAuth: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'jst-board-demo-'));
    demo = await startDemo(dir);
    const env = Object.fromEntries(
      readFileSync(join(dir, 'demo.env'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    demoAuth = basic(env.DEMO_ASSIGNER_EMAIL!, env.DEMO_ASSIGNER_TOKEN!);
    browser = await openBrowser({ username: env.DEMO_ASSIGNER_EMAIL!, password: env.DEMO_ASSIGNER_TOKEN! });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    if (demo?.child.exitCode === null) {
      const exited = new Promise((done) => demo.child.once('exit', done));
      demo.child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('log in and see the demo plan in the right columns: the sub-task the demo finished in Done, the others and the parent in To Do, in one lane', async () => {
    const page = await browser.context.newPage();
    const res = await page.goto(demo.board);
    expect(res?.status()).toBe(200);
    await expect(page.locator('.column-head').allTextContents()).resolves.toEqual(['To Do', 'In Progress', 'In Review', 'Done']);
    for (const key of ['DEMO-1', 'DEMO-3', 'DEMO-4']) expect(await card(page, 'To Do', key).count(), key).toBe(1);
    expect(await card(page, 'Done', 'DEMO-2').count()).toBe(1);
    const lane = page.locator('.lane-group', { has: page.locator('.lane-title a[href="/browse/DEMO-1"]') });
    expect(await lane.locator('.card.subtask').count()).toBe(3);
    expect(await lane.locator('.lane-title .progress').textContent()).toBe('1/3');
    await page.close();
  });

  it("the Assignment report's /browse/<KEY> links open the issue page", async () => {
    const links = [...demo.report.matchAll(/(http:\/\/\S+\/browse\/DEMO-\d+)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThanOrEqual(4);
    const page = await browser.context.newPage();
    for (const link of links) {
      const res = await page.goto(link);
      expect(res?.status(), link).toBe(200);
      expect(await page.locator('h1 .key').textContent()).toBe(link.split('/').pop());
    }
    await page.close();
  });

  it('open an issue, move it by a button, and the change survives a reload', async () => {
    const page = await browser.context.newPage();
    await page.goto(demo.board);
    await page.click('.card[data-key="DEMO-3"] a.key');
    await page.waitForURL(/\/browse\/DEMO-3$/);
    expect(await page.locator('.adf h2, .adf h1, .adf h3').first().textContent()).toBeTruthy();
    expect(await page.locator('.comment.marker-target').count()).toBe(1);
    await page.getByRole('button', { name: 'In Progress' }).click();
    await expect.poll(() => page.locator('dd.status').textContent()).toBe('In Progress');
    await page.reload();
    expect(await page.locator('dd.status').textContent()).toBe('In Progress');
    await page.goto(demo.board);
    expect(await card(page, 'In Progress', 'DEMO-3').count()).toBe(1);
    await page.close();
  });

  it('polling: a change made through the REST interface appears without a reload', async () => {
    const page = await browser.context.newPage();
    await page.goto(demo.board);
    await page.evaluate('window.stayed = true');
    const api = `${demo.board}rest/api/3/issue/DEMO-4/transitions`;
    const list = (await (await fetch(api, { headers: { Authorization: demoAuth } })).json()) as { transitions: { id: string; to: { name: string } }[] };
    const to = list.transitions.find((x) => x.to.name === 'In Review')!;
    const moved = await fetch(api, {
      method: 'POST',
      headers: { Authorization: demoAuth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ transition: { id: to.id } }),
    });
    expect(moved.status).toBe(204);
    await expect.poll(() => card(page, 'In Review', 'DEMO-4').count(), { timeout: 10_000 }).toBe(1);
    expect(await page.evaluate('window.stayed')).toBe(true);
    await page.close();
  });
});

describe.skipIf(!run)('ARCHITECTURE §12 board in Chromium: rights, outsiders, escaping, CSP', () => {
  let t: TestTracker;
  let key: string;
  let hostile: string;
  let spoof: string;
  const browsers: Browser[] = [];
  const as = async (who: Who) => {
    const { email, token } = credentialOf(who);
    const b = await openBrowser({ username: email, password: token });
    browsers.push(b);
    return b.context.newPage();
  };
  beforeAll(async () => {
    t = await startTestTracker('sqlite');
    key = await createIssue(t, 'assigner', { summary: 'Visible to members' });
    hostile = await createIssue(t, 'assigner', { summary: '<img src=x onerror=alert(1)>' });
    spoof = await createIssue(t, 'assigner', { summary: 'Pay invoice\u202etxt.exe', description: adf('bell\u0007 csi\u009b31m \u2066iso\u2069') });
  });
  afterAll(async () => {
    for (const b of browsers) await b.close();
    await t?.close();
  });

  it('a member sees transition buttons; a viewer without the transition permission sees none', async () => {
    const member = await as('executor');
    await member.goto(`${t.url}/browse/${key}`);
    expect(await member.locator('button.transition').count()).toBe(3);
    // Opened first at /browse/… (a report link in a fresh browser), the browser holds the credential
    // for /browse/ only: the button's REST call must still be signed in (the board's challenge).
    await member.getByRole('button', { name: 'In Progress' }).click();
    await expect.poll(() => member.locator('dd.status').textContent()).toBe('In Progress');
    expect((await t.as('executor').get(`/issue/${key}?fields=status`)).body.fields.status.name).toBe('In Progress');
    const viewer = await as('viewer');
    const res = await viewer.goto(`${t.url}/browse/${key}`);
    expect(res?.status()).toBe(200);
    expect(await viewer.locator('.summary').first().textContent()).toBe('Visible to members');
    expect(await viewer.locator('button.transition').count()).toBe(0);
    // The same call the button makes, forced from the viewer's page: the server refuses it.
    const forced = await viewer.evaluate(
      `fetch('/rest/api/3/issue/${key}/transitions', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Jst-Board': '1' }, body: JSON.stringify({ transition: { id: '31' } }) }).then((r) => r.status)`,
    );
    expect(forced).toBe(403);
  });

  it("pick a project you can see, filter with JQL, and see a JQL error in the search endpoint's words", async () => {
    const page = await as('executor');
    await page.goto(`${t.url}/`);
    expect(await page.locator('select[name="project"] option').allTextContents()).toEqual(['ABC · Alpha', 'RST · Restricted flow']);
    await Promise.all([page.waitForURL(/project=RST/), page.selectOption('select[name="project"]', 'RST')]);
    expect(await page.locator('.column-head').allTextContents()).toEqual(['Backlog', 'Doing', 'Checking', 'Finished']);
    await page.selectOption('select[name="project"]', 'ABC');
    await page.waitForURL(/project=ABC/);
    await page.fill('input[name="jql"]', `key = ${key}`);
    await Promise.all([page.waitForURL(/jql=/), page.press('input[name="jql"]', 'Enter')]);
    expect(await page.locator('.card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-key')))).toEqual([key]);
    await page.fill('input[name="jql"]', 'status = = Done');
    await Promise.all([page.waitForURL(/jql=status/), page.press('input[name="jql"]', 'Enter')]);
    const rest = await t.as('executor', 'site').get(`/search/jql?jql=${encodeURIComponent('status = = Done')}`);
    expect(await page.locator('[role="alert"] li').first().textContent()).toBe((rest.body.errorMessages as string[])[0]);
    // Only the error: no unfiltered board under it.
    expect(await page.locator('.card').count()).toBe(0);
    expect(await page.locator('.column-head').count()).toBe(0);
  });

  it('spec §5: an outsider without a valid credential gets 401 and no data', async () => {
    // Chromium gives up on the sign-in (it has no credential, or the wrong one): the navigation
    // fails, and what the server sent is the 401 response itself.
    const refused = async (b: Browser, url: string) => {
      const page = await b.context.newPage();
      const response = page.waitForResponse((r) => r.url() === url);
      await page.goto(url).catch(() => undefined);
      const r = await response;
      return { status: r.status(), challenge: r.headers()['www-authenticate'], text: `${await r.text().catch(() => '')}${await page.content()}` };
    };
    const none = await openBrowser();
    browsers.push(none);
    const anonymous = await refused(none, `${t.url}/`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.challenge).toContain('Basic realm="jst-tracker"');
    expect(anonymous.text).not.toContain('Visible to members');
    const wrong = await openBrowser({ username: credentialOf('executor').email, password: 'wrong-token' });
    browsers.push(wrong);
    const wrongToken = await refused(wrong, `${t.url}/browse/${key}`);
    expect(wrongToken.status).toBe(401);
    expect(wrongToken.text).not.toContain('Visible to members');
    expect(wrongToken.text).not.toContain(key);
  });

  it('a summary <img src=x onerror=alert(1)> renders as text and runs nothing; the CSP header is present and nothing violates it', async () => {
    const page = await as('executor');
    const dialogs: string[] = [];
    const violations: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('console', (m) => {
      if (/Content.Security.Policy/i.test(m.text())) violations.push(m.text());
    });
    const board = await page.goto(`${t.url}/?project=ABC`);
    expect(board?.headers()['content-security-policy']).toContain("default-src 'self'");
    expect(await page.locator(`.card[data-key="${hostile}"] .summary`).textContent()).toBe('<img src=x onerror=alert(1)>');
    expect(await page.locator('img').count()).toBe(0);
    const issue = await page.goto(`${t.url}/browse/${hostile}`);
    expect(issue?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(await page.locator('h1 .summary').textContent()).toBe('<img src=x onerror=alert(1)>');
    expect(await page.locator('img').count()).toBe(0);
    await page.waitForTimeout(300);
    expect(dialogs).toEqual([]);
    expect(violations).toEqual([]);
  });

  it('ARCHITECTURE §12: a right-to-left override and other control characters show as visible markers with a title, not as reordered text', async () => {
    const page = await as('executor');
    await page.goto(`${t.url}/browse/${spoof}`);
    expect(await page.locator('h1 .summary').textContent()).toBe('Pay invoice\\u202etxt.exe');
    expect(await page.locator('h1 .summary .ctl').getAttribute('title')).toBe('control character U+202E');
    expect(await page.title()).toContain('Pay invoice\\u202etxt.exe');
    const description = await page.locator('.description').textContent();
    expect(description).toContain('bell\\u0007 csi\\u009b31m \\u2066iso\\u2069');
    expect(
      await page.locator('body').evaluate((b) => /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(b.textContent ?? '')),
    ).toBe(false);
    await page.goto(`${t.url}/?project=ABC`);
    expect(await page.locator(`.card[data-key="${spoof}"] .summary`).textContent()).toBe('Pay invoice\\u202etxt.exe');
  });
});
