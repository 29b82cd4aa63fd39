import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkText } from '@jst/adf';
import { JST_BIN } from '../support/jst-cli.js';
import { startTestTracker, type TestTracker } from '../support/tracker.js';
import { planWorld } from './plan-fixture.js';

/**
 * Drives `jst plan` on a real terminal: util-linux `script` gives it a pseudo-terminal, and each
 * answer is typed only once its question is on the screen, as a person would.
 */
function onTerminal(cwd: string, args: string[], dialogue: [RegExp, string][]): Promise<{ code: number; screen: string }> {
  return new Promise((resolve, reject) => {
    const cmd = [process.execPath, JST_BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
    const child = spawn('script', ['-qec', cmd, '/dev/null'], { cwd, env: { ...process.env, NO_COLOR: '1', TERM: 'dumb' } });
    let screen = '';
    let next = 0;
    let answeredAt = 0;
    const onData = (c: Buffer) => {
      screen += c.toString('utf8');
      const step = dialogue[next];
      if (step && step[0].test(screen.slice(answeredAt).replace(/\r/g, ''))) {
        answeredAt = screen.length;
        next++;
        child.stdin.write(`${step[1]}\n`);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, screen }));
    setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
  });
}

describe('spec §1 rules 3 and 5 on a terminal', () => {
  let t: TestTracker;
  beforeAll(async () => { t = await startTestTracker('sqlite'); });
  afterAll(async () => { await t?.close(); });

  it('asks for the request, then until scope, acceptance criteria and priority are settled; the answers land in the description', async () => {
    const w = planWorld(t);
    const { code, screen } = await onTerminal(w.repo.repo, ['plan'], [
      [/What should the assigner plan\? \(the request\) $/, 'Let admins rename a project'],
      [/one-line summary for the issue\? $/, 'Rename projects'],
      [/\(and what is not\)\? $/, 'Only the display name; keys never change'],
      [/ends the list\)\s+- $/, 'The new name shows everywhere'],
      [/- $/, 'Old links keep working'],
      [/- $/, ''],
      [/Low\)\? $/, 'Medium'],
      [/\(a hotfix\)\? \[y\/N\] $/, 'n'],
      [/single issue\) $/, '0'],
      [/Create one Task in ABC.*\[y\/N\] $/, 'y'],
    ]);
    expect(code, screen).toBe(0);
    expect(screen).toContain('Assignment report');
    const key = /Issue (ABC-\d+)/.exec(screen)![1]!;
    const issue = (await t.as('assigner').get(`/issue/${key}?fields=summary,description`)).body;
    expect(issue.fields.summary).toBe('Rename projects');
    const text = [...walkText(issue.fields.description)];
    for (const answer of ['Let admins rename a project', 'Only the display name; keys never change', 'The new name shows everywhere', 'Old links keep working', 'Medium']) expect(text).toContain(answer);
    w.repo.cleanup();
  });

  it('spec §1 rule 7: on a terminal the hotfix path is named and a "no" creates nothing', async () => {
    const w = planWorld(t);
    const before = (await t.as('assigner').post('/search/jql', { jql: 'project = ABC', maxResults: 5000 })).body.issues.length;
    const { code, screen } = await onTerminal(w.repo.repo, ['plan', 'Checkout crashes in production'], [
      [/one-line summary for the issue\? $/, 'Fix checkout crash'],
      [/\(and what is not\)\? $/, 'The null check'],
      [/ends the list\)\s+- $/, 'Checkout works'],
      [/- $/, ''],
      [/Low\)\? $/, 'Highest'],
      [/\(a hotfix\)\? \[y\/N\] $/, 'y'],
      [/HOTFIX path: one branch hotfix\/<KEY>-fix-checkout-crash cut from origin\/main.*\[y\/N\] $/, 'n'],
    ]);
    expect(code, screen).toBe(2);
    expect(screen).toMatch(/not confirmed, so nothing was created/);
    expect((await t.as('assigner').post('/search/jql', { jql: 'project = ABC', maxResults: 5000 })).body.issues.length).toBe(before);
    w.repo.cleanup();
  });
});
