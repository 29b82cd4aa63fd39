import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrackerHttpError } from '@jst/client';
import { JstError } from '../../packages/jst/src/config/index.js';
import { jstFolder, runJst } from '../support/jst-cli.js';
import { startTestTracker, type TestTracker } from '../support/tracker.js';

/** issue 14 item 7: the messages a newcomer tripped over. */
describe('newcomer findings in messages (issue 14 item 7)', () => {
  let t: TestTracker;
  let dir: string;
  const jst = (args: string[]) => runJst(args, { cwd: dir });
  beforeAll(async () => { t = await startTestTracker('sqlite'); dir = jstFolder(t); });
  afterAll(async () => { await t?.close(); });

  it('issue delete of a parent names the jst flag --with-subtasks, not the API parameter; nothing is deleted (exit 1)', async () => {
    const key = (await jst(['--role', 'assigner', 'issue', 'create', '--type', 'Task', '--summary', 'parent'])).stdout.trim();
    const sub = (await jst(['--role', 'assigner', 'issue', 'create', '--type', 'Subtask', '--parent', key, '--summary', 'child'])).stdout.trim();
    const r = await jst(['--role', 'assigner', 'issue', 'delete', key, '--yes', key]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`jst: ${key} has sub-tasks, so it was not deleted (nothing was). Rerun with --with-subtasks to delete it together with them: jst --role assigner issue delete ${key} --with-subtasks --yes ${key}\n`);
    expect(r.stderr).not.toContain('deleteSubtasks');
    expect((await t.as('assigner').get(`/issue/${key}`)).status).toBe(200);
    expect((await t.as('assigner').get(`/issue/${sub}`)).status).toBe(200);
  });

  it('no doubled punctuation where a problem and its hint meet ("?." or "..")', () => {
    expect(new JstError({ code: 'QUESTION', problem: 'a question needs an answer: Plan from here anyway?', hint: 'Check out development' }).message)
      .toBe('a question needs an answer: Plan from here anyway? Check out development');
    expect(new JstError({ code: 'X', problem: 'it ended.', hint: 'Rerun' }).message).toBe('it ended. Rerun');
    expect(new JstError({ code: 'X', problem: 'it ended', hint: 'Rerun' }).message).toBe('it ended. Rerun');
    const e = new TrackerHttpError('GET', '/issue/ABC-9', 404, ['Issue does not exist or you do not have permission to see it.'], {});
    expect(e.message).not.toMatch(/\.\./);
    expect(e.message).toMatch(/see it\. It does not exist/);
  });
});
