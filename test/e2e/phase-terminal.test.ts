import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJst } from '../support/jst-cli.js';
import { git } from '../support/repo.js';
import { onTerminal } from '../support/terminal.js';
import type { TestTracker } from '../support/tracker.js';
import { oneStepPlanned, type OneStepWorld, type PlanWorld } from './plan-fixture.js';

/** ARCHITECTURE §11 on a terminal: the explicit yes of `jst done` and of `jst start` on a parent is asked for. */
describe('phases 2-3 on a terminal: each yes is asked (ARCHITECTURE §11)', () => {
  let t: TestTracker;
  let w: PlanWorld;
  let keys: string[];
  let worktrees: string[];
  const statusOf = async (key: string): Promise<string> => (await t.as('assigner').get(`/issue/${key}?fields=status`)).body.fields.status.name;

  let world: OneStepWorld;
  beforeAll(async () => {
    world = await oneStepPlanned();
    ({ t, w, keys, worktrees } = world);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('jst start on a parent asks first: "n" moves nothing (exit 1), Ctrl-C says nothing was moved (exit 130), "y" starts it', async () => {
    const [parent] = keys as [string];
    const no = await onTerminal(worktrees[0]!, ['start'], [[/Start work on the parent itself\? \[y\/N\]/, 'n']]);
    expect(no.code).toBe(1);
    expect(no.screen).toContain(`work on the parent ${parent} was not confirmed`);
    expect(await statusOf(parent)).toBe('To Do');
    const cancel = await onTerminal(worktrees[0]!, ['start'], [[/Start work on the parent itself\? \[y\/N\]/, '\x03']]);
    expect(cancel.code).toBe(130);
    expect(cancel.screen).toContain('Nothing was moved or pushed; run jst start again when ready');
    expect(cancel.screen).not.toContain('jst plan');
    expect(await statusOf(parent)).toBe('To Do');
    const yes = await onTerminal(worktrees[0]!, ['start'], [[/Start work on the parent itself\? \[y\/N\]/, 'y']]);
    expect(yes.code, yes.screen).toBe(0);
    expect(await statusOf(parent)).toBe('In Progress');
  });

  it('jst done asks for each key: "n" leaves it in review and says what to do about it (exit 1), Ctrl-C moves nothing (exit 130), "y" moves it to Done', async () => {
    const [, sub] = keys as [string, string];
    const wt = worktrees[1]!;
    expect((await runJst(['start'], { cwd: wt })).code).toBe(0);
    writeFileSync(join(wt, 'x.txt'), 'x\n');
    git(wt, 'add', 'x.txt');
    git(wt, 'commit', '--quiet', '-m', 'x');
    expect((await runJst(['pr'], { cwd: wt })).code).toBe(0);
    expect((await runJst(['review', sub, '--approve', '--summary', 'ok'], { cwd: w.repo.repo })).code).toBe(0);
    const question = new RegExp(`Move ${sub} to "Done"\\? \\[y/N\\]`);
    const no = await onTerminal(w.repo.repo, ['done', sub], [[question, 'n']]);
    expect(no.code).toBe(1);
    expect(no.screen).toContain(`${sub} not moved (no yes)`);
    expect(await statusOf(sub)).toBe('In Review');
    // The next step is about the issue left in review, not the parent's pull request.
    expect(no.screen).toContain(
      `${sub} stays in "In Review". To close it: jst done ${sub}   or, to send it back: jst review ${sub} --request-changes --summary "…"`,
    );
    expect(no.screen).not.toContain('--open-parent-pr');
    const cancel = await onTerminal(w.repo.repo, ['done', sub], [[question, '\x03']]);
    expect(cancel.code).toBe(130);
    expect(cancel.screen).toContain(`Nothing was moved; run jst done ${sub} again when ready`);
    expect(cancel.screen).not.toMatch(/created|jst plan/);
    expect(await statusOf(sub)).toBe('In Review');
    const yes = await onTerminal(w.repo.repo, ['done', sub], [[question, 'y']]);
    expect(yes.code, yes.screen).toBe(0);
    expect(await statusOf(sub)).toBe('Done');
  });
});
