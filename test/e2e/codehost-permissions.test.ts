import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstLineText } from '@jst/adf';
import type { EmbeddedCodehost } from '../support/embedded-codehost.js';
import { runJst } from '../support/jst-cli.js';
import { git } from '../support/repo.js';
import { CODEHOST_READ_TOKEN } from '../support/seed.js';
import type { TestTracker } from '../support/tracker.js';
import { oneStepPlanned, type OneStepWorld } from './plan-fixture.js';

/**
 * ARCHITECTURE §11 and §14: jst with a valid code-host token that may only read the repository
 * (the seed's reader). The code host answers GitHub's 403; jst stops with exit 1 and the tracker is
 * left as it was.
 */
describe('jst pr with a code-host token that may only read (ARCHITECTURE §11, §14)', () => {
  let t: TestTracker;
  let ch: EmbeddedCodehost;
  let keys: string[];
  let worktrees: string[];
  const statusOf = async (key: string): Promise<string> => (await t.as('assigner').get(`/issue/${key}?fields=status`)).body.fields.status.name;
  const firstLines = async (key: string): Promise<string[]> =>
    ((await t.as('assigner').get(`/issue/${key}/comment?maxResults=100`)).body.comments as { body: unknown }[]).map((c) => firstLineText(c.body));

  let world: OneStepWorld;
  beforeAll(async () => {
    world = await oneStepPlanned();
    ({ t, ch, keys, worktrees } = world);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('the code host\'s 403 on opening the pull request: exit 1, --json code "forbidden" naming the permission; no pull request, the issue stays In Progress, no Run report, the token never printed', async () => {
    const [, key] = keys as [string, string];
    const wt = worktrees[1]!;
    expect((await runJst(['start'], { cwd: wt })).code).toBe(0);
    writeFileSync(join(wt, 'x.txt'), 'x\n');
    git(wt, 'add', 'x.txt');
    git(wt, 'commit', '--quiet', '-m', 'x');
    const comments = await firstLines(key);
    const r = await runJst(['pr', '--json'], { cwd: wt, env: { CODEHOST_PAT_TOKEN: CODEHOST_READ_TOKEN } });
    expect(r.code, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: 'forbidden',
      exitCode: 1,
      message: expect.stringContaining('POST /repos/acme/widgets/pulls answered HTTP 403'),
    });
    expect(r.stderr).toContain('grant it Pull requests (read and write)');
    expect(r.stdout + r.stderr).not.toContain(CODEHOST_READ_TOKEN);
    expect(await ch.pulls('acme/widgets')).toEqual([]);
    expect(await statusOf(key)).toBe('In Progress');
    expect(await firstLines(key)).toEqual(comments);
    // With a token that may write, the same command finishes the job (the branch is already pushed).
    const again = await runJst(['pr', '--json'], { cwd: wt });
    expect(again.code, again.stderr).toBe(0);
    expect((await ch.pulls('acme/widgets')).map((p) => p.head)).toEqual([git(wt, 'branch', '--show-current')]);
    expect(await statusOf(key)).toBe('In Review');
  });
});
