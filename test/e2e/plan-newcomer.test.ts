import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkText } from '@jst/adf';
import { onTerminal } from '../support/terminal.js';
import { startTestTracker, type TestTracker } from '../support/tracker.js';
import { MULTISTEP, SINGLE, planWorld, type PlanWorld } from './plan-fixture.js';

/** The answers before the priority question, the same in every dialogue here. */
const SUMMARY_SCOPE_CRITERIA: [RegExp, string][] = [
  [/one-line summary for the issue\? $/, 'Rename projects'],
  [/\(and what is not\)\? $/, 'Display name only'],
  [/ends the list\)\s+- $/, 'New name shows'],
  [/- $/, ''],
];

/** issue 14 item 7: what a newcomer met on a first `jst plan`, each reproduced. */
describe('ARCHITECTURE §7: jst plan as a newcomer meets it (branch names compared whole, the questions on a terminal, the priority, Ctrl-C)', () => {
  let t: TestTracker;
  const worlds: PlanWorld[] = [];
  const world = (o?: Parameters<typeof planWorld>[1]) => {
    const w = planWorld(t, o);
    worlds.push(w);
    return w;
  };
  const issueCount = async () => (await t.as('assigner').post('/search/jql', { jql: 'project = ABC', maxResults: 5000 })).body.issues.length as number;
  const description = async (key: string) => [...walkText((await t.as('assigner').get(`/issue/${key}?fields=description`)).body.fields.description)];
  beforeAll(async () => {
    t = await startTestTracker('sqlite');
  });
  afterAll(async () => {
    await t?.close();
    worlds.forEach((w) => w.repo.cleanup());
  });

  it('a step whose slug is the suffix of an existing branch ("Tests", "Docs") is no collision: only the whole name counts', async () => {
    const w = world();
    for (const b of ['feature/ABC-1-tests', 'feature/ABC-2-docs']) {
      w.git('branch', b);
      w.git('push', '-q', 'origin', b);
    }
    const plan = {
      ...MULTISTEP,
      steps: [
        { summary: 'Tests', scope: 'unit', acceptanceCriteria: ['green'] },
        { summary: 'Docs', scope: 'README', acceptanceCriteria: ['written'] },
      ],
    };
    const r = await w.plan(['--plan', w.planFile(plan), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.branches.slice(1).map((b: string) => b.replace(/ABC-\d+/, 'ABC-n'))).toEqual(['feature/ABC-n-tests', 'feature/ABC-n-docs']);
  });

  it('a branch with the whole name the new issue gets (a reused key) stops provisioning with exit 1, naming it; nothing is pushed', async () => {
    const w = world();
    const probe = (await t.as('assigner').post('/issue', { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'probe' } })).body
      .key as string;
    const next = `ABC-${Number(probe.split('-')[1]) + 1}`;
    const taken = `feature/${next}-fix-login-page-typo`;
    w.git('branch', taken);
    w.git('push', '-q', 'origin', taken);
    w.git('branch', '-D', taken);
    const r = await w.plan(['--plan', w.planFile(SINGLE)]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`branch ${taken} exists already (origin/${taken})`);
    expect(w.git('worktree', 'list').trim().split('\n')).toHaveLength(1);
  });

  it('spec §1 rule 2 on a terminal: the unusual branch is asked about before the questionnaire', async () => {
    const w = world();
    w.git('checkout', '-q', '-b', 'experiments');
    const before = await issueCount();
    const { code, screen } = await onTerminal(w.repo.repo, ['plan', 'Rename projects'], [[/Plan from here anyway\? \[y\/N\] $/, 'n']]);
    expect(code, screen).toBe(2);
    expect(screen).toContain('You are on experiments');
    expect(screen).not.toContain('one-line summary');
    expect(await issueCount()).toBe(before);
  });

  it('spec §1 rule 5 on a terminal: a bare Enter takes the offered default (priority, sub-task count), each question printed once', async () => {
    const w = world();
    const { code, screen } = await onTerminal(
      w.repo.repo,
      ['plan', 'Rename projects'],
      [
        ...SUMMARY_SCOPE_CRITERIA,
        [/Lowest\)\? \[Medium\] $/, ''],
        [/\(a hotfix\)\? \[y\/N\] $/, ''],
        [/single issue\) \[0\] $/, ''],
        [/Create one Task in ABC.*\[y\/N\] $/, 'y'],
      ],
    );
    expect(code, screen).toBe(0);
    expect(screen.match(/Priority \(/g)).toHaveLength(1);
    expect(screen.match(/Split into how many sub-tasks/g)).toHaveLength(1);
    const key = /Issue (ABC-\d+)/.exec(screen)![1]!;
    expect(await description(key)).toContain('Medium');
  });

  it("spec §1 rule 5: the priority is checked against the tracker's (404 on GET /priority: the vendor's default names); a wrong one is asked again", async () => {
    const w = world();
    const { code, screen } = await onTerminal(
      w.repo.repo,
      ['plan', 'Rename projects'],
      [
        ...SUMMARY_SCOPE_CRITERIA,
        [/\[Medium\] $/, 'Urgentish'],
        [/\(one of Highest, High, Medium, Low, Lowest\) > $/, 'high'],
        [/\(a hotfix\)\? \[y\/N\] $/, 'n'],
        [/\[0\] $/, '0'],
        [/Create one Task in ABC.*\[y\/N\] $/, 'y'],
      ],
    );
    expect(code, screen).toBe(0);
    const key = /Issue (ABC-\d+)/.exec(screen)![1]!;
    const text = await description(key);
    expect(text).toContain('High');
    expect(text).not.toContain('Urgentish');
  });

  it("a plan file whose priority is not one of the tracker's is refused (exit 2), nothing created", async () => {
    const w = world();
    const before = await issueCount();
    const r = await w.plan(['--plan', w.planFile({ ...SINGLE, priority: 'Urgentish' })]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('the priority "Urgentish" is not one of the tracker\'s priorities (Highest, High, Medium, Low, Lowest)');
    expect(await issueCount()).toBe(before);
  });

  it('Ctrl-C at a question is a cancel: "cancelled", exit 130, nothing created (not "input ended", which is 3)', async () => {
    const w = world();
    const before = await issueCount();
    const { code, screen } = await onTerminal(w.repo.repo, ['plan', 'Rename projects'], [[/one-line summary for the issue\? $/, '\x03']]);
    expect(code, screen).toBe(130);
    expect(screen).toMatch(/jst: cancelled \(Ctrl-C\) at the question: A one-line summary for the issue\? Nothing was created/);
    expect(screen).not.toMatch(/input ended/);
    expect(await issueCount()).toBe(before);
  });

  it('no doubled punctuation: a question ending in "?" is followed by its hint without "?."', async () => {
    const w = world();
    w.git('checkout', '-q', '-b', 'experiments');
    const r = await w.plan(['--plan', w.planFile(SINGLE)]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('Plan from here anyway? Check out development');
    expect(r.stderr).not.toMatch(/[?!.]\./);
  });
});
