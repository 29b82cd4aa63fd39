import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, writeJstFiles, type TestRepo } from '../../../../../../test/support/repo.js';
import { EMAILS } from '../../../../../../test/support/seed.js';
import { startTestTracker, type TestTracker } from '../../../../../../test/support/tracker.js';
import { runSpec } from '../../../../test/commands/fake-context.js';
import { userSearchCommand } from './spec.js';

/** `jst user search` run in-process against a real jst-tracker (spec §4: GET /user/search as the role). */
describe('jst user search: accounts by name or e-mail', () => {
  let t: TestTracker;
  let repo: TestRepo;
  beforeAll(async () => {
    t = await startTestTracker('sqlite');
    repo = makeRepo();
    writeJstFiles(repo.repo, { trackerUrl: t.url, worktreesDir: repo.worktreesDir });
  });
  afterAll(async () => {
    repo?.cleanup();
    await t?.close();
  });

  it("finds the executor's account by e-mail: the same account ID the tracker gives for GET /myself", async () => {
    const me = (await t.as('executor').get('/myself')).body as { accountId: string };
    const r = await runSpec(userSearchCommand, repo.repo, { query: EMAILS.executor }, { role: 'assigner' });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as { accountId: string }[]).map((u) => u.accountId)).toEqual([me.accountId]);
  });

  it('the text form: one row per account (account ID, name); nothing matching is an empty list, exit 0', async () => {
    const me = (await t.as('reviewer').get('/myself')).body as { accountId: string; displayName: string };
    const text = await runSpec(userSearchCommand, repo.repo, { query: EMAILS.reviewer }, { role: 'executor', json: false });
    expect(text.out).toContain(me.accountId);
    expect(text.out).toContain(me.displayName);
    const none = await runSpec(userSearchCommand, repo.repo, { query: 'nobody-by-this-name' }, { role: 'executor' });
    expect(none.code).toBe(0);
    expect(JSON.parse(none.out)).toEqual([]);
  });

  it('an empty query is a usage error (exit 2) naming what to pass; nothing is asked of the tracker', async () => {
    const refused = runSpec(userSearchCommand, repo.repo, { query: '  ' }, { role: 'assigner' });
    await expect(refused).rejects.toMatchObject({ exitCode: 2 });
    await expect(refused).rejects.toThrow(/the query is empty.*jst --role assigner user search/);
  });
});
