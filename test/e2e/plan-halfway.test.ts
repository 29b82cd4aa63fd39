import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkText } from '@jst/adf';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startMcp, textOf } from '../support/mcp.js';
import { setting } from '../support/repo.js';
import { onTerminal } from '../support/terminal.js';
import { EMAILS, TOKENS } from '../support/seed.js';
import { startTestTracker, storeKinds, type TestTracker } from '../support/tracker.js';
import { MULTISTEP, planWorld, type PlanWorld } from './plan-fixture.js';

/**
 * ARCHITECTURE §7: what the tracker would refuse is refused before anything is created; a run that
 * stops after creation began is finished by the same or a corrected plan, or deleted with
 * `jst plan --abandon`. Real tracker (both stores), real git.
 */
describe.each(await storeKinds())('jst plan: refused up front, or finished or abandoned after it stopped halfway (%s)', (kind) => {
  let t: TestTracker;
  const worlds: PlanWorld[] = [];
  const world = (o?: Parameters<typeof planWorld>[1]) => {
    const w = planWorld(t, o);
    worlds.push(w);
    return w;
  };
  const search = async (jql: string) =>
    (await t.as('assigner').post('/search/jql', { jql, fields: ['summary', 'parent'], maxResults: 5000 })).body.issues as {
      key: string;
      fields: { summary: string };
    }[];
  const issueCount = async () => (await search('project = ABC')).length;
  const branches = (w: PlanWorld) => w.git('branch', '--list', 'feature/*', 'hotfix/*').trim();
  const journal = (w: PlanWorld) => join(w.repo.repo, '.jst', 'plan-journal.json');
  const expectNothingCreated = async (w: PlanWorld, before: number) => {
    expect(await issueCount()).toBe(before);
    expect(branches(w)).toBe('');
    expect(w.git('worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(existsSync(journal(w))).toBe(false);
  };
  const tagged = (tag: string) => ({
    ...MULTISTEP,
    request: `Halfway ${tag}`,
    summary: `Halfway ${tag} parent`,
    steps: [
      { summary: `Halfway ${tag} first`, scope: 's1', acceptanceCriteria: ['one'] },
      { summary: `Halfway ${tag} second`, scope: 's2', acceptanceCriteria: ['two'] },
    ],
  });
  beforeAll(async () => {
    t = await startTestTracker(kind);
  });
  afterAll(async () => {
    await t?.close();
    worlds.forEach((w) => w.repo.cleanup());
  });

  const summaryCases: [string, string, RegExp][] = [
    ['a line break', 'Download\nendpoint', /line break/],
    ['a control character', 'Download \u001b[2J endpoint', /control character U\+001B/],
    ['more than 255 characters', 'x'.repeat(256), /256 characters long, more than the tracker's 255/],
  ];
  for (const [rule, summary, said] of summaryCases) {
    it(`ARCHITECTURE §7: a step summary with ${rule} is refused before anything is created (exit 2, naming the step)`, async () => {
      const w = world();
      const before = await issueCount();
      const plan = { ...MULTISTEP, steps: [MULTISTEP.steps[0], { ...MULTISTEP.steps[1], summary }] };
      const r = await w.plan(['--plan', w.planFile(plan)]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('"steps[1].summary"');
      expect(r.stderr).toMatch(said);
      expect(r.stderr).toContain('nothing was created');
      expect(r.stderr).not.toContain('\u001b');
      await expectNothingCreated(w, before);
    });
  }

  it("ARCHITECTURE §7: a description over the tracker's 32,767 characters is refused up front, naming the step", async () => {
    const w = world();
    const before = await issueCount();
    const plan = { ...MULTISTEP, steps: [MULTISTEP.steps[0], { ...MULTISTEP.steps[1], scope: 'y'.repeat(33_000) }] };
    const r = await w.plan(['--plan', w.planFile(plan)]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/description of steps\[1\] .* more than the tracker's 32767/);
    await expectNothingCreated(w, before);
  });

  it('ARCHITECTURE §7: an issue type the assigner may not create in the project is refused up front', async () => {
    // The viewer account as the assigner: the create metadata lists no issue type for it.
    const w = world({ local: (lines) => setting('TRACKER_ASSIGNER_TOKEN', TOKENS.viewer)(setting('TRACKER_ASSIGNER_EMAIL', EMAILS.viewer)(lines)) });
    const before = await issueCount();
    const r = await w.plan(['--plan', w.planFile(MULTISTEP)]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/may not create issues of type "Task" and "Subtask" in ABC/);
    await expectNothingCreated(w, before);
  });

  it('ARCHITECTURE §7: a run stopped after creation began says both ways on; --abandon needs a yes (exit 3 off a terminal, nothing deleted), then removes everything it made', async () => {
    const w = world();
    const plan = tagged('ab');
    // The sub-task's branch name is taken already (a key reused after a reset): the run stops there.
    const probe = (await t.as('assigner').post('/issue', { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'probe' } })).body
      .key as string;
    const next = Number(probe.split('-')[1]);
    w.git('branch', `feature/ABC-${next + 2}-halfway-ab-first`, 'development');
    const before = await issueCount();
    const r = await w.plan(['--plan', w.planFile(plan)]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('plan-journal.json records what it made');
    expect(r.stderr).toContain('jst plan --abandon');
    expect(await issueCount()).toBe(before + 2);
    const made = branches(w);
    expect(made).toContain(`feature/ABC-${next + 1}-halfway-ab-parent`);
    expect(w.originHas(`feature/ABC-${next + 1}-halfway-ab-parent`)).toBe(true);

    // Off a terminal, without --yes: the list of what would go, exit 3, nothing deleted.
    const asked = await w.plan(['--abandon']);
    expect(asked.code, asked.stderr).toBe(3);
    expect(asked.stderr).toContain(`issue ABC-${next + 1}`);
    expect(asked.stderr).toContain(`sub-task ABC-${next + 2}`);
    expect(asked.stderr).toContain('jst plan --abandon --yes');
    expect(await issueCount()).toBe(before + 2);
    expect(branches(w)).toBe(made);

    // With --abandon, a plan is a usage error.
    expect((await w.plan(['--abandon', '--yes', '--plan', w.planFile(plan)])).code).toBe(2);

    const gone = await w.plan(['--abandon', '--yes', '--json']);
    expect(gone.code, gone.stderr).toBe(0);
    const out = JSON.parse(gone.stdout);
    expect(out).toMatchObject({ abandoned: true, keys: [`ABC-${next + 1}`, `ABC-${next + 2}`], pushed: [`feature/ABC-${next + 1}-halfway-ab-parent`] });
    expect(await issueCount()).toBe(before);
    expect((await t.as('assigner').get(`/issue/ABC-${next + 1}`)).status).toBe(404);
    // Only the branch that was there before the plan is left; no worktree, nothing on origin, no journal.
    expect(branches(w)).toBe(`feature/ABC-${next + 2}-halfway-ab-first`);
    expect(w.git('worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(w.originHas(`feature/ABC-${next + 1}-halfway-ab-parent`)).toBe(false);
    expect(existsSync(journal(w))).toBe(false);

    // Idempotent: nothing is left to abandon; and a new plan is accepted.
    const again = await w.plan(['--abandon', '--yes']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing to abandon');
    w.git('branch', '-D', `feature/ABC-${next + 2}-halfway-ab-first`);
    const fresh = await w.plan(['--plan', w.planFile(tagged('ab2')), '--json']);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(JSON.parse(fresh.stdout).keys).toHaveLength(3);
  });

  it('ARCHITECTURE §7: an abandon cut off halfway (or after things were removed by hand) is finished by running it again, and until then the run is not resumed', async () => {
    const w = world();
    const file = w.planFile(tagged('cut'));
    const killed = await w.plan(['--plan', file], { JST_FAULT_KILL_AT: '12' });
    expect(killed.code).not.toBe(0);
    const before = await issueCount();
    // What an abandon cut off after its yes leaves: the journal marked, part of the run already removed by hand.
    const data = JSON.parse(readFileSync(journal(w), 'utf8'));
    writeFileSync(journal(w), JSON.stringify({ ...data, abandoning: true }));
    const top = data.steps['top:issue'].result.key as string;
    const sub = data.steps['sub1:issue'].result.key as string;
    expect((await t.as('assigner').del(`/issue/${sub}`)).status).toBe(204);
    rmSync(data.steps['top:worktree'].result.worktree, { recursive: true, force: true });
    const resumed = await w.plan(['--plan', file]);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain('jst plan --abandon --yes');
    const r = await w.plan(['--abandon', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`deleted ${top}`);
    expect(await issueCount()).toBe(before - 2);
    expect(branches(w)).toBe('');
    expect(w.git('worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(existsSync(journal(w))).toBe(false);
  });

  it('ARCHITECTURE §7: on a terminal --abandon lists what the run made and asks; "no" deletes nothing, "yes" deletes it', async () => {
    const w = world();
    const killed = await w.plan(['--plan', w.planFile(tagged('tty'))], { JST_FAULT_KILL_AT: '12' });
    expect(killed.code).not.toBe(0);
    const before = await issueCount();
    const no = await onTerminal(w.repo.repo, ['plan', '--abandon'], [[/forget the run\? \[y\/N\] $/, 'n']]);
    expect(no.code, no.screen).toBe(2);
    expect(no.screen).toContain('issue ABC-');
    expect(no.screen).toContain('nothing was deleted');
    expect(await issueCount()).toBe(before);
    const yes = await onTerminal(w.repo.repo, ['plan', '--abandon'], [[/forget the run\? \[y\/N\] $/, 'y']]);
    expect(yes.code, yes.screen).toBe(0);
    expect(await issueCount()).toBe(before - 2);
    expect(existsSync(journal(w))).toBe(false);
  });

  it('ARCHITECTURE §7: on a terminal a summary over 255 characters is asked for again, naming the rule', async () => {
    const w = world();
    const { code, screen } = await onTerminal(
      w.repo.repo,
      ['plan', 'A request typed at the terminal'],
      [
        [/one-line summary for the issue\? $/, 'z'.repeat(256)],
        [/more than the tracker's 255\) > $/, 'A short summary'],
        [/\(and what is not\)\? $/, '\u0003'],
      ],
    );
    expect(code, screen).toBe(130);
  });

  it("ARCHITECTURE §13: the plan tool's abandon is the person's yes: without elicitation it answers the command they run, with it the run is deleted", async () => {
    const w = world();
    const killed = await w.plan(['--plan', w.planFile(tagged('mcp'))], { JST_FAULT_KILL_AT: '12' });
    expect(killed.code).not.toBe(0);
    const before = await issueCount();
    const plain = await startMcp('assigner', { cwd: w.repo.repo });
    try {
      const refused = await plain.call('plan', { plan: { request: 'Halfway mcp' }, abandon: true });
      expect(refused.isError).toBe(true);
      const error = (refused.structuredContent as { error: { command: string; exitCode: number } }).error;
      expect(error.exitCode, textOf(refused)).toBe(3);
      expect(error.command).toMatch(/^cd .+ && jst plan --abandon --yes$/);
      // The plan given names the run: another request's run is not touched.
      const other = await plain.call('plan', { plan: { request: 'Another request' }, abandon: true });
      expect(other.isError).toBe(true);
      expect(textOf(other)).toContain('not for the plan given');
      expect(await issueCount()).toBe(before);
      expect(existsSync(journal(w))).toBe(true);
    } finally {
      await plain.close();
    }
    const asking = await startMcp('assigner', { cwd: w.repo.repo, elicit: () => ({ action: 'accept', content: { yes: true } }) });
    try {
      const r: CallToolResult = await asking.call('plan', { plan: {}, abandon: true });
      expect(r.isError, textOf(r)).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ abandoned: true });
      expect((r.structuredContent as { keys: string[] }).keys).toHaveLength(2);
      expect(asking.elicitations[0]!.message).toMatch(/^Delete 2 issue\(s\)/);
    } finally {
      await asking.close();
    }
    expect(await issueCount()).toBe(before - 2);
    expect(branches(w)).toBe('');
    expect(existsSync(journal(w))).toBe(false);
  });

  describe('a corrected plan file', () => {
    // Kill point 20: the parent and the first sub-task are made in full, the second not begun.
    const KILLED_AFTER_FIRST_SUBTASK = '20';

    it("ARCHITECTURE §7: a plan changed only in steps not made yet finishes the run with them (the parent's step list follows)", async () => {
      const w = world();
      const plan = tagged('fix');
      const killed = await w.plan(['--plan', w.planFile(plan)], { JST_FAULT_KILL_AT: KILLED_AFTER_FIRST_SUBTASK });
      expect(killed.code).not.toBe(0);
      const before = await issueCount();
      const corrected = {
        ...plan,
        steps: [
          plan.steps[0],
          { ...plan.steps[1], summary: 'Halfway fix second, corrected' },
          { summary: 'Halfway fix third', scope: 's3', acceptanceCriteria: ['three'] },
        ],
      };
      const r = await w.plan(['--plan', w.planFile(corrected), '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('with the corrected plan');
      const out = JSON.parse(r.stdout);
      expect(out.keys).toHaveLength(4);
      expect(await issueCount()).toBe(before + 2);
      const subs = await search(`parent = ${out.keys[0]} ORDER BY key ASC`);
      expect(subs.map((s) => s.fields.summary)).toEqual(['Halfway fix first', 'Halfway fix second, corrected', 'Halfway fix third']);
      const parent = (await t.as('assigner').get(`/issue/${out.keys[0]}`)).body;
      const text = [...walkText(parent.fields.description)].join('\n');
      expect(text).toContain('Halfway fix second, corrected');
      expect(text).toContain('Halfway fix third');
      expect(existsSync(journal(w))).toBe(false);
      expect(w.git('worktree', 'list').trim().split('\n')).toHaveLength(5);
    });

    it("ARCHITECTURE §7: a journal left by a run stopped on the tracker's 400 (a summary with a line break) is finished by the corrected plan file", async () => {
      const w = world();
      const plan = tagged('nl');
      // Kill point 21: the second sub-task's create is recorded as begun, and never reached the tracker.
      const killed = await w.plan(['--plan', w.planFile(plan)], { JST_FAULT_KILL_AT: '21' });
      expect(killed.code).not.toBe(0);
      // What an earlier jst left after the tracker's 400: the recorded plan holds the bad summary.
      const data = JSON.parse(readFileSync(journal(w), 'utf8'));
      data.plan.steps[1].summary = 'Halfway nl\nsecond';
      data.planHash = 'the hash of the plan with the line break';
      writeFileSync(journal(w), JSON.stringify(data));
      const before = await issueCount();
      const stuck = await w.plan([]);
      expect(stuck.code, stuck.stderr).toBe(2);
      expect(stuck.stderr).toContain('"steps[1].summary"');
      expect(stuck.stderr).toMatch(/corrected \(jst plan --plan FILE\), or jst plan --abandon/);
      expect(await issueCount()).toBe(before);
      const r = await w.plan(['--plan', w.planFile(plan), '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('with the corrected plan');
      const out = JSON.parse(r.stdout);
      expect(out.keys).toHaveLength(3);
      expect(await issueCount()).toBe(before + 1);
      expect((await search(`parent = ${out.keys[0]} ORDER BY key ASC`)).map((s) => s.fields.summary)).toEqual(['Halfway nl first', 'Halfway nl second']);
      expect(existsSync(journal(w))).toBe(false);
    });

    it('ARCHITECTURE §7: a plan that changes what was already made is refused, naming the difference and offering --abandon', async () => {
      const w = world();
      const plan = tagged('clash');
      const killed = await w.plan(['--plan', w.planFile(plan)], { JST_FAULT_KILL_AT: KILLED_AFTER_FIRST_SUBTASK });
      expect(killed.code).not.toBe(0);
      const before = await issueCount();
      const changes: [unknown, RegExp][] = [
        [{ ...plan, steps: [{ ...plan.steps[0], summary: 'Halfway clash renamed' }, plan.steps[1]] }, /"steps\[0\]\.summary" differs/],
        [{ ...plan, priority: 'Low' }, /"priority" differs/],
        [{ ...plan, scope: 'another scope' }, /"scope" differs, and the top-level issue is already created/],
        [{ ...plan, steps: [] }, /every step was removed from a multistep plan/],
        [{ ...plan, request: 'Something else entirely' }, /"request" differs/],
      ];
      for (const [changed, said] of changes) {
        const r = await w.plan(['--plan', w.planFile(changed)]);
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toMatch(said);
        expect(r.stderr).toContain('plan-journal.json');
        expect(r.stderr).toContain('jst plan --abandon');
      }
      expect(await issueCount()).toBe(before);
      // The recorded plan still finishes the run.
      const r = await w.plan(['--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).keys).toHaveLength(3);
    });
  });
});
