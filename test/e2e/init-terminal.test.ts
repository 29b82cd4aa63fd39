import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git } from '../support/repo.js';
import { onTerminal } from '../support/terminal.js';

/** issue 14 item 7: `jst init` on a real terminal, as a newcomer runs it first. */
describe('ARCHITECTURE §10: jst init on a terminal checks each value as typed, hides tokens, and writes nothing when cancelled', () => {
  const dirs: string[] = [];
  const repo = () => {
    const d = realpathSync(mkdtempSync(join(tmpdir(), 'jst-init-tty-')));
    git(d, 'init', '-q');
    dirs.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const TOKEN = 'tok-typed-secret-4d2a91';

  it('each value is checked as it is typed and a bad one is asked again; typed tokens are not echoed', async () => {
    const d = repo();
    const { code, screen } = await onTerminal(
      d,
      ['init'],
      [
        [/Default base branch \[development\]: $/, ''],
        [/Production branch \[main\]: $/, 'development'],
        [/the two long-lived branches must differ\S*.*\n.*Production branch \[main\]: $/s, 'main'],
        [/Project key: $/, 'abc-1'],
        [/"abc-1" is not a project key.*\n.*Project key: $/s, 'ABC'],
        [/Tracker site host.*: $/, 'acme.atlassian.net'],
        [/Tracker gateway URL.*: $/, ''],
        [/Worktrees folder \(absolute path\).*: $/, 'worktrees'],
        [/must be absolute.*\n.*Worktrees folder.*: $/s, '/tmp'],
        [/Code host API URL.*: $/, ''],
        [/Assigner e-mail: $/, 'not-an-address'],
        [/is not an e-mail address.*\n.*Assigner e-mail: $/s, 'a@acme.test'],
        [/Executor e-mail: $/, 'e@acme.test'],
        [/Reviewer e-mail: $/, 'r@acme.test'],
        [/TRACKER_ASSIGNER_TOKEN \(the token itself, hidden as you type; Enter to fill it in later\): $/, TOKEN],
        [/TRACKER_EXECUTOR_TOKEN .*: $/, ''],
        [/TRACKER_REVIEWER_TOKEN .*: $/, ''],
        [/CODEHOST_PAT_TOKEN .*: $/, ''],
      ],
      { TRACKER_ASSIGNER_TOKEN: '', TRACKER_EXECUTOR_TOKEN: '', TRACKER_REVIEWER_TOKEN: '', CODEHOST_PAT_TOKEN: '' },
    );
    expect(code, screen).toBe(0);
    expect(screen).not.toContain(TOKEN);
    const local = readFileSync(join(d, '.jst', 'local.env'), 'utf8');
    expect(local).toContain(`TRACKER_ASSIGNER_TOKEN=${TOKEN}`);
    expect(local).toContain('WORKTREES_DIR=/tmp');
    expect(local).toContain('TRACKER_ASSIGNER_EMAIL=a@acme.test');
    const team = readFileSync(join(d, '.jst', 'team.env'), 'utf8');
    expect(team).toContain('PRODUCTION_BRANCH=main');
    expect(team).toContain('PROJECT_KEY=ABC');
  });

  it('Ctrl-C at a question: "cancelled", exit 130, nothing written', async () => {
    const d = repo();
    const { code, screen } = await onTerminal(d, ['init'], [[/Default base branch \[development\]: $/, '\x03']]);
    expect(code, screen).toBe(130);
    expect(screen).toMatch(/jst: cancelled \(Ctrl-C\) at the question: Default base branch \[development\]: Nothing was written/);
    expect(existsSync(join(d, '.jst'))).toBe(false);
  });
});
