import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrackerHttpError } from '@jst/client';
import { JstError } from '../../packages/jst/src/config/index.js';
import { jstFolder, runJst } from '../support/jst-cli.js';
import { startTestTracker, type TestTracker } from '../support/tracker.js';

/** issue 14 item 7: the messages a newcomer tripped over. */
describe('messages a newcomer meets: jst flags rather than API parameters, issue keys in any case, no doubled punctuation', () => {
  let t: TestTracker;
  let dir: string;
  const jst = (args: string[]) => runJst(args, { cwd: dir });
  beforeAll(async () => {
    t = await startTestTracker('sqlite');
    dir = jstFolder(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('issue delete of a parent names the jst flag --with-subtasks, not the API parameter; nothing is deleted (exit 1)', async () => {
    const key = (await jst(['--role', 'assigner', 'issue', 'create', '--type', 'Task', '--summary', 'parent'])).stdout.trim();
    const sub = (await jst(['--role', 'assigner', 'issue', 'create', '--type', 'Subtask', '--parent', key, '--summary', 'child'])).stdout.trim();
    const r = await jst(['--role', 'assigner', 'issue', 'delete', key, '--yes', key]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `jst: ${key} has sub-tasks, so it was not deleted (nothing was). Rerun with --with-subtasks to delete it together with them: jst --role assigner issue delete ${key} --with-subtasks --yes ${key}\n`,
    );
    expect(r.stderr).not.toContain('deleteSubtasks');
    expect((await t.as('assigner').get(`/issue/${key}`)).status).toBe(200);
    expect((await t.as('assigner').get(`/issue/${sub}`)).status).toBe(200);
  });

  it('issue keys are accepted in any case: issue view, comment add / list, transitions, transition, assign, create --parent, delete --yes', async () => {
    const key = (await jst(['--role', 'assigner', 'issue', 'create', '--type', 'Task', '--summary', 'any case'])).stdout.trim();
    const lower = key.toLowerCase();
    expect(lower).not.toBe(key);
    const view = await jst(['--role', 'assigner', 'issue', 'view', lower, '--json']);
    expect(view.code, view.stderr).toBe(0);
    expect(JSON.parse(view.stdout).key).toBe(key);
    writeFileSync(join(dir, 'comment.txt'), 'hello\n');
    const added = await jst(['--role', 'assigner', 'comment', 'add', lower, '--body-file', join(dir, 'comment.txt')]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(new RegExp(`^comment \\d+ added to ${key}\n$`));
    expect((await jst(['--role', 'assigner', 'issue', 'transitions', lower])).code).toBe(0);
    const moved = await jst(['--role', 'assigner', 'issue', 'transition', lower, '--to', 'In Progress']);
    expect(moved.code, moved.stderr).toBe(0);
    expect(JSON.parse(moved.stdout)).toMatchObject({ key, status: 'In Progress' });
    expect((await t.as('assigner').get(`/issue/${key}?fields=status`)).body.fields.status.name).toBe('In Progress');
    expect(JSON.parse((await jst(['--role', 'assigner', 'issue', 'assign', lower, 'none'])).stdout)).toEqual({ key, accountId: null });
    const sub = await jst(['--role', 'assigner', 'issue', 'create', '--type', 'Subtask', '--parent', lower, '--summary', 'child', '--json']);
    expect(sub.code, sub.stderr).toBe(0);
    const subKey = JSON.parse(sub.stdout).key as string;
    expect((await t.as('assigner').get(`/issue/${subKey}?fields=parent`)).body.fields.parent.key).toBe(key);
    const listed = await jst(['--role', 'assigner', 'comment', 'list', lower, '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const deleted = await jst(['--role', 'assigner', 'issue', 'delete', subKey.toLowerCase(), '--yes', subKey]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({ key: subKey, deleted: true });
    expect((await t.as('assigner').get(`/issue/${subKey}`)).status).toBe(404);
  });

  it('no doubled punctuation where a problem and its hint meet ("?." or "..")', () => {
    expect(new JstError({ code: 'QUESTION', problem: 'a question needs an answer: Plan from here anyway?', hint: 'Check out development' }).message).toBe(
      'a question needs an answer: Plan from here anyway? Check out development',
    );
    expect(new JstError({ code: 'X', problem: 'it ended.', hint: 'Rerun' }).message).toBe('it ended. Rerun');
    expect(new JstError({ code: 'X', problem: 'it ended', hint: 'Rerun' }).message).toBe('it ended. Rerun');
    const e = new TrackerHttpError('GET', '/issue/ABC-9', 404, ['Issue does not exist or you do not have permission to see it.'], {});
    expect(e.message).not.toMatch(/\.\./);
    expect(e.message).toMatch(/see it\. It does not exist/);
  });
});
