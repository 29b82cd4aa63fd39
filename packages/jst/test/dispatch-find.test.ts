import { mkdtempSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textToAdf } from '@jst/adf';
import type { Comment, Issue } from '@jst/client';
import { loadConfig } from '../src/config/index.js';
import { decide, marksOf, roundQueries, type Accounts } from '../src/dispatch/find.js';
import { shellFor } from '../src/dispatch/agents.js';
import { agentsRow, firstWord } from '../src/healthcheck/context-rows.js';

const ids: Accounts = { assigner: 'acc-a', executor: 'acc-e', reviewer: 'acc-r' };
const s = { todo: 'To Do', inProgress: 'In Progress', inReview: 'In Review', done: 'Done' };
let n = 0;
const c = (who: string, text: string): Comment => ({ id: String(++n), author: { accountId: who }, body: textToAdf(text) });
const issue = (key: string, status: string, subtasks: { key: string; status: string }[] = []): Issue => ({
  id: key,
  key,
  fields: { status: { name: status }, subtasks: subtasks.map((t) => ({ id: t.key, key: t.key, fields: { status: { name: t.status } as never } })) },
});
const target = (key: string) => c(ids.assigner, `PR target branch: feature/ABC-1-x Worktree: /wt/worktree-${key}`);
const run = (who = ids.executor) => c(who, 'Run report\nPull request: http://x/pull/1');
const verdict = (kind: 'APPROVED' | 'CHANGES REQUESTED', who = ids.reviewer) => c(who, `${kind} — fine`);

describe("ARCHITECTURE §15: what a round hands to which agent, from the searches' answers", () => {
  it("ARCHITECTURE §15: three searches, each the role's, in standard JQL", () => {
    expect(roundQueries('ABC', s).map((q) => [q.role, q.jql])).toEqual([
      ['executor', 'project = "ABC" AND assignee = currentUser() AND status in ("To Do", "In Progress") ORDER BY key ASC'],
      ['reviewer', 'project = "ABC" AND status = "In Review" ORDER BY key ASC'],
      ['reviewer', 'project = "ABC" AND status in ("To Do", "In Progress") ORDER BY key ASC'],
    ]);
  });

  it('ARCHITECTURE §11: a marker counts only from the account whose role posts it', () => {
    const forged = [
      c(ids.executor, 'PR target branch: x Worktree: /elsewhere'),
      run(ids.reviewer),
      verdict('APPROVED', ids.executor),
      c(ids.assigner, 'Run report'),
    ];
    expect(marksOf(forged, ids, false)).toEqual({ runs: [], verdicts: [], worktree: null, prTarget: null });
    // On a parent the reviewer's Run report counts (jst review --open-parent-pr posts it).
    expect(marksOf([run(ids.reviewer)], ids, true).runs).toEqual([0]);
  });

  it("ARCHITECTURE §15: the four hand-offs and the approved list; an issue's round is 1 + its Run reports + its verdicts", () => {
    const comments = new Map<string, Comment[]>([
      ['ABC-2', [target('ABC-2')]],
      ['ABC-3', [target('ABC-3'), run(), verdict('CHANGES REQUESTED')]],
      ['ABC-4', [target('ABC-4'), run(), verdict('CHANGES REQUESTED'), run()]],
      ['ABC-5', [target('ABC-5'), run(), verdict('APPROVED')]],
      ['ABC-6', [c(ids.executor, 'PR target branch: x Worktree: /wt/forged')]],
      ['ABC-7', [target('ABC-7'), run(), verdict('CHANGES REQUESTED', ids.executor)]],
      ['ABC-1', [target('ABC-1')]],
    ]);
    const found = decide({
      mine: [issue('ABC-2', 'To Do'), issue('ABC-3', 'In Progress'), issue('ABC-6', 'To Do'), issue('ABC-1', 'To Do', [{ key: 'ABC-2', status: 'To Do' }])],
      inReview: [issue('ABC-4', 'In Review'), issue('ABC-5', 'In Review'), issue('ABC-7', 'In Review')],
      readyParents: [issue('ABC-1', 'To Do', [{ key: 'ABC-9', status: 'Done' }])],
      comments,
      ids,
      s,
    });
    expect(found.candidates.map((x) => [x.key, x.handOff, x.role, x.round, x.worktree])).toEqual([
      ['ABC-2', 'start', 'executor', 1, '/wt/worktree-ABC-2'],
      ['ABC-3', 'changes', 'executor', 3, '/wt/worktree-ABC-3'],
      ['ABC-1', 'parent-pr', 'reviewer', 1, '/wt/worktree-ABC-1'],
      ['ABC-4', 'review', 'reviewer', 4, '/wt/worktree-ABC-4'],
      // The executor's "verdict" is an ordinary comment: the Run report is still waiting for review.
      ['ABC-7', 'review', 'reviewer', 2, '/wt/worktree-ABC-7'],
    ]);
    expect(found.waiting).toEqual([
      { key: 'ABC-6', why: expect.stringContaining('no "PR target branch: … Worktree: …" comment from the assigner'), command: null },
      { key: 'ABC-5', why: 'approved: waiting for the person', command: 'jst done ABC-5 --yes ABC-5' },
    ]);
  });
});

describe("ARCHITECTURE §15: the agent command and the healthcheck's agents row", () => {
  it("ARCHITECTURE §15: the platform's shell runs the command line", () => {
    expect(shellFor('claude -p "/jst:executor"', 'linux')).toEqual({ file: '/bin/sh', args: ['-c', 'claude -p "/jst:executor"'], verbatim: false });
    expect(shellFor('codex exec x', 'win32', { ComSpec: 'C:\\Windows\\cmd.exe' })).toEqual({
      file: 'C:\\Windows\\cmd.exe',
      args: ['/d', '/s', '/c', '"codex exec x"'],
      verbatim: true,
    });
    expect(firstWord('  "C:/Program Files/a.exe" -p x')).toBe('C:/Program Files/a.exe');
    expect(firstWord('claude -p "/jst:executor"')).toBe('claude');
  });

  it('ARCHITECTURE §15: agents lists each command and whether its program is on PATH; INFO when neither is set', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jst-agents-'));
    mkdirSync(join(dir, '.jst'));
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'my-agent'), '#!/bin/sh\n');
    chmodSync(join(dir, 'bin', 'my-agent'), 0o755);
    const env = { PATH: join(dir, 'bin') };
    const row = (team: string) => {
      writeFileSync(join(dir, '.jst', 'team.env'), team);
      return agentsRow({ cwd: dir, role: 'executor', env, config: loadConfig({ cwd: dir, env: {} }) });
    };
    expect(row('PROJECT_KEY=ABC\n')).toMatchObject({
      name: 'agents',
      status: 'INFO',
      detail: expect.stringContaining('executor: unset (AGENT_EXECUTOR_CMD); reviewer: unset (AGENT_REVIEWER_CMD)'),
    });
    expect(row('AGENT_EXECUTOR_CMD=my-agent --role executor\n')).toEqual({
      name: 'agents',
      status: 'PASS',
      detail: `executor: my-agent found (${join(dir, 'bin', 'my-agent')}); reviewer: unset (AGENT_REVIEWER_CMD)`,
    });
    expect(row('AGENT_EXECUTOR_CMD=my-agent\nAGENT_REVIEWER_CMD=no-such-agent -p x\n')).toMatchObject({
      status: 'WARN',
      detail: expect.stringContaining('reviewer: no-such-agent NOT found on PATH'),
    });
  });
});
