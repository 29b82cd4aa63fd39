import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultsBefore, type CodehostFaults, type Fault } from '../support/codehost-faults.js';
import { codehostOf, jstOnly, type EmbeddedCodehost, type RequestTap } from '../support/embedded-codehost.js';
import { runJst, type CliResult } from '../support/jst-cli.js';
import { git, gitAsync } from '../support/repo.js';
import { onTerminal } from '../support/terminal.js';
import { CODEHOST_LOGIN, testSeed, withCodehost } from '../support/seed.js';
import { adf, startTestTracker, storeKinds, type TestTracker } from '../support/tracker.js';
import { SINGLE, planWorld, type PlanWorld } from './plan-fixture.js';

const REPO = 'acme/widgets';
const PULLS = /^\/repos\/acme\/widgets\/pulls(\?|$)/;
const REVIEWS = /^\/repos\/acme\/widgets\/pulls\/\d+\/reviews$/;
/** What a hostile answer puts on a terminal: a window title (OSC … BEL), then a screen clear. */
const ESCAPES = '\u001b]0;pwned\u0007\u001b[2J';
// Every control character but newline and tab: none may reach the terminal.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const pull = (o: Record<string, unknown> = {}) => ({
  number: 7,
  html_url: 'https://codehost.test/acme/widgets/pull/7',
  state: 'open',
  title: 't',
  head: { ref: 'a' },
  base: { ref: 'b' },
  ...o,
});

/**
 * ARCHITECTURE §11: every answer is checked before it is used. Real `jst pr` and `jst review`
 * processes against jst-tracker's embedded code host, with a fault injector in front of it that
 * gives one bad answer where the test says: a redirect, an answer of the wrong shape, a huge or
 * hostile message. Each is exit 1 naming the call, a bounded error without control characters,
 * and nothing moved or posted on the tracker or the code host.
 */
describe.each(await storeKinds())('ARCHITECTURE §11: every code-host answer is checked before it is used (%s)', (store) => {
  let t: TestTracker;
  let ch: EmbeddedCodehost;
  let tap: RequestTap;
  let faults: CodehostFaults;
  let w: PlanWorld;
  let key: string;
  let wt: string;

  const statusOf = async (): Promise<string> => (await t.as('assigner').get(`/issue/${key}?fields=status`)).body.fields.status.name;
  const commentCount = async (): Promise<number> => (await t.as('assigner').get(`/issue/${key}/comment`)).body.total;
  const snapshot = async () => ({
    status: await statusOf(),
    comments: await commentCount(),
    codehostWrites: tap.requests.filter((r) => r.method !== 'GET').length,
    pulls: await ch.pulls(REPO),
  });
  const jst = (cwd: string, args: string[]): Promise<CliResult> => runJst(args, { cwd, env: { CODEHOST_API_URL: faults.api } });

  /** `args` run with `fault` queued: exit 1, the stderr says `says` once, bounded and clean, nothing changed. */
  async function refusedWith(args: string[], fault: Fault, says: string): Promise<CliResult> {
    const before = await snapshot();
    faults.next(fault);
    const r = await jst(args[0] === 'pr' ? wt : w.repo.repo, args);
    faults.clear();
    expect(r.code, r.stderr).toBe(1);
    const error = r.stderr.split('\n').filter((l) => l.startsWith('jst: '));
    expect(error, r.stderr).toHaveLength(1);
    expect(error[0]).toContain(says);
    expect(error[0]!.length).toBeLessThan(1000);
    expect(r.stderr).not.toMatch(CONTROL);
    expect(r.stderr).not.toContain('is not a function');
    expect(r.stderr).not.toContain('undefined');
    expect(await snapshot()).toEqual(before);
    return r;
  }

  beforeAll(async () => {
    t = await startTestTracker(store, withCodehost(testSeed()));
    ch = codehostOf(t);
    tap = ch.tap(jstOnly);
    faults = await faultsBefore(t.url);
    w = planWorld(t, { codehost: ch });
    const r = await w.plan(['--plan', w.planFile(SINGLE), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const planned = JSON.parse(r.stdout) as { keys: string[]; worktrees: string[] };
    [key, wt] = [planned.keys[0]!, planned.worktrees[0]!];
    expect((await runJst(['start'], { cwd: wt })).code).toBe(0);
    writeFileSync(join(wt, 'login.txt'), 'Sign in\n');
    git(wt, 'add', 'login.txt');
    git(wt, 'commit', '--quiet', '-m', 'Heading reads Sign in');
    // The branch is on origin before the faults: a refused run's push changes no ref.
    // (gitAsync: the tracker serving the push runs in this process.)
    await gitAsync(wt, 'push', '--quiet', '-u', 'origin', git(wt, 'branch', '--show-current').trim());
  }, 60_000);
  afterAll(async () => {
    tap?.stop();
    await faults?.close();
    w?.repo.cleanup();
    await t?.close();
  });

  it('a redirect on POST /pulls is refused, not replayed as a GET: exit 1 naming the call, no pull request, the issue not moved', async () => {
    const r = await refusedWith(
      ['pr'],
      { method: 'POST', path: PULLS, status: 301, headers: { location: `${faults.api}/repos/acme/widgets/pulls` }, body: '' },
      'POST /repos/acme/widgets/pulls answered a redirect (HTTP 301)',
    );
    expect(faults.seen.filter((s) => s.startsWith('GET /repos/acme/widgets/pulls')).length).toBe(1);
    expect(r.stdout).toBe('');
  });

  it('a created pull request without a number (201 {"number": null}) is refused: no "Pull request: undefined" report', async () => {
    await refusedWith(
      ['pr'],
      { method: 'POST', path: PULLS, status: 201, body: JSON.stringify(pull({ number: null })) },
      'POST /repos/acme/widgets/pulls answered a pull request without a number',
    );
  });

  it('a pull request list whose html_url is a number is refused, naming the call', async () => {
    await refusedWith(
      ['pr'],
      { method: 'GET', path: PULLS, status: 200, body: JSON.stringify([pull({ html_url: 12345 })]) },
      'GET /repos/acme/widgets/pulls answered pull request #7 without an http(s) URL',
    );
  });

  it('a pull request list whose number is a string ("7; rm -rf ~") is refused', async () => {
    await refusedWith(
      ['pr'],
      { method: 'GET', path: PULLS, status: 200, body: JSON.stringify([pull({ number: '7; rm -rf ~' })]) },
      'GET /repos/acme/widgets/pulls answered a pull request without a number',
    );
  });

  it('a pull request list that is an object is refused, not a crash', async () => {
    await refusedWith(
      ['pr'],
      { method: 'GET', path: PULLS, status: 200, body: JSON.stringify({ 0: pull(), length: 1 }) },
      'GET /repos/acme/widgets/pulls answered a list that is not a list',
    );
  });

  it('a 422 with a 3 MB message is printed once, cut to a few hundred characters that say how much was left out', async () => {
    const huge = 'A'.repeat(3 * 1024 * 1024);
    const r = await refusedWith(
      ['pr', '--json'],
      { method: 'POST', path: PULLS, status: 422, body: JSON.stringify({ message: huge, errors: [{ message: huge }] }) },
      'POST /repos/acme/widgets/pulls answered HTTP 422',
    );
    expect(r.stderr.length).toBeLessThan(2000);
    expect(r.stderr).toMatch(/… \(\d+ more characters\)/);
    expect(r.stdout.length).toBeLessThan(2000);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'conflict', exitCode: 1 });
  });

  it('control characters in an error message never reach the terminal (text and --json)', async () => {
    const fault: Fault = {
      method: 'POST',
      path: PULLS,
      status: 422,
      body: JSON.stringify({ message: `Validation Failed${ESCAPES}`, errors: [{ message: `bad${ESCAPES}` }] }),
    };
    const r = await refusedWith(['pr'], fault, 'POST /repos/acme/widgets/pulls answered HTTP 422: Validation Failed');
    expect(r.stderr).toContain('pwned');
    const j = await refusedWith(['pr', '--json'], fault, 'answered HTTP 422');
    expect(j.stdout).not.toMatch(CONTROL);
    expect(JSON.parse(j.stdout).error.message).not.toMatch(CONTROL);
  });

  it('a redirect on the pull request list is refused too (every method)', async () => {
    await refusedWith(
      ['pr'],
      { method: 'GET', path: PULLS, status: 302, headers: { location: 'http://127.0.0.1:9/elsewhere' }, body: '' },
      'GET /repos/acme/widgets/pulls answered a redirect (HTTP 302)',
    );
  });

  describe('once the pull request is open', () => {
    beforeAll(async () => {
      const r = await jst(wt, ['pr']);
      expect(r.code, r.stderr).toBe(0);
    });

    it('jst review: a review list that is not a list is exit 1 naming the call', async () => {
      await refusedWith(
        ['review', key],
        { method: 'GET', path: REVIEWS, status: 200, body: JSON.stringify({ reviews: [] }) },
        'answered a list that is not a list',
      );
    });

    it('jst review: a review without an id, or a user without a login, is exit 1 naming the call', async () => {
      await refusedWith(
        ['review', key],
        { method: 'GET', path: REVIEWS, status: 200, body: JSON.stringify([{ user: { login: CODEHOST_LOGIN }, body: 'APPROVED — x', state: 'COMMENTED' }]) },
        'answered a review without an id',
      );
      await refusedWith(
        ['review', key],
        { method: 'GET', path: /^\/user$/, status: 200, body: JSON.stringify([{ login: CODEHOST_LOGIN }]) },
        'GET /user answered something that is not a user',
      );
    });

    it('jst review: control characters in a review, a branch name or a title are removed in text mode; --json keeps the text as JSON', async () => {
      const list = JSON.parse((await runJst(['review', key, '--json'], { cwd: w.repo.repo })).stdout).prs as { number: number }[];
      const n = list[0]!.number;
      const review = { id: 1, user: { login: CODEHOST_LOGIN }, body: `APPROVED — fine${ESCAPES}\n\nmore`, state: 'COMMENTED' };
      faults.next({ method: 'GET', path: REVIEWS, status: 200, body: JSON.stringify([review]) });
      const r = await jst(w.repo.repo, ['review', key]);
      faults.clear();
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`#${n}`.slice(1));
      expect(r.stdout).toContain('your verdict: APPROVED — fine]0;pwned[2J');
      expect(r.stdout + r.stderr).not.toMatch(CONTROL);
      faults.next({ method: 'GET', path: REVIEWS, status: 200, body: JSON.stringify([review]) });
      const j = await jst(w.repo.repo, ['review', key, '--json']);
      faults.clear();
      expect(j.code, j.stderr).toBe(0);
      expect(j.stdout).not.toMatch(CONTROL);
    });

    it('tracker text (a summary, a comment) is printed without control characters in text mode', async () => {
      const summary = `Fix login page typo${ESCAPES}`;
      const put = await t.as('assigner').put(`/issue/${key}`, { fields: { summary } });
      expect(put.status, put.text).toBe(204);
      await t.as('assigner').post(`/issue/${key}/comment`, { body: adf(`hello${ESCAPES}`) });
      const r = await runJst(['review', key], { cwd: w.repo.repo });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('pwned');
      expect(r.stdout + r.stderr).not.toMatch(CONTROL);
      // issue view and comment list print text on a terminal only (JSON when piped).
      for (const args of [
        ['--role', 'reviewer', 'issue', 'view', key],
        ['--role', 'reviewer', 'comment', 'list', key],
      ]) {
        const shown = await onTerminal(w.repo.repo, args, []);
        expect(shown.code, shown.screen).toBe(0);
        expect(shown.screen, args.join(' ')).toContain('pwned');
        expect(shown.screen.replace(/\r\n/g, '\n'), args.join(' ')).not.toMatch(CONTROL);
      }
      const j = await runJst(['--role', 'reviewer', 'issue', 'view', key, '--json'], { cwd: w.repo.repo });
      expect(j.stdout).not.toMatch(CONTROL);
      expect(JSON.stringify(JSON.parse(j.stdout))).toContain('\\u001b]0;pwned');
    });

    it("on a colour terminal a server's colour codes, C1 CSI and bidi controls are removed, jst's own colours stay; --json escapes C1 and bidi", async () => {
      const hostile = '\u001b[31mred\u001b[0m \u009b32mgreen \u202eevil\u2066x\u2069';
      const summary = `Colour ${hostile}`;
      expect((await t.as('assigner').put(`/issue/${key}`, { fields: { summary } })).status).toBe(204);
      await t.as('assigner').post(`/issue/${key}/comment`, { body: adf(`note ${hostile}`) });
      const colour = { TERM: 'xterm-256color', NO_COLOR: undefined };
      for (const args of [
        ['--role', 'reviewer', 'issue', 'view', key],
        ['--role', 'reviewer', 'comment', 'list', key],
        ['review', key],
      ]) {
        const shown = await onTerminal(w.repo.repo, args, [], colour);
        const screen = shown.screen.replace(/\r\n/g, '\n');
        expect(shown.code, screen).toBe(0);
        expect(screen, args.join(' ')).toContain('[31mred[0m 32mgreen evilx');
        expect(screen, args.join(' ')).not.toContain('\u001b[31mred');
        expect(screen, args.join(' ')).not.toMatch(/[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
        // Every escape left is one of jst's own colours.
        expect(screen.replace(/\u001b\[[0-9;]*m/g, ''), args.join(' ')).not.toContain('\u001b');
      }
      const view = await onTerminal(w.repo.repo, ['--role', 'reviewer', 'issue', 'view', key], [], colour);
      expect(view.screen).toContain(`\u001b[1m${key}\u001b[0m`);
      const j = await runJst(['--role', 'reviewer', 'issue', 'view', key, '--json'], { cwd: w.repo.repo });
      expect(j.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      expect(j.stdout).toContain('\\u001b[31mred\\u001b[0m \\u009b32mgreen \\u202eevil\\u2066x\\u2069');
      expect((JSON.parse(j.stdout) as { fields: { summary: string } }).fields.summary).toBe(summary);
      // jst raw and jst batch print the server's JSON too: escaped the same way, parsed back the same.
      const raw = await runJst(['--role', 'reviewer', 'raw', 'GET', `/issue/${key}?fields=summary`], { cwd: w.repo.repo });
      expect(raw.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      expect((JSON.parse(raw.stdout) as { fields: { summary: string } }).fields.summary).toBe(summary);
      const batch = await runJst(['--role', 'reviewer', 'batch'], {
        cwd: w.repo.repo,
        input: `${JSON.stringify({ method: 'GET', path: `/issue/${key}?fields=summary` })}\n`,
      });
      expect(batch.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      expect((JSON.parse(batch.stdout) as { body: { fields: { summary: string } } }).body.fields.summary).toBe(summary);
    });
  });
});
