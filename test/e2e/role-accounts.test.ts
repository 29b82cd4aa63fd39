import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../packages/jst/src/compose.js';
import type { Context, Io } from '../../packages/jst/src/core/context.js';
import { roleAccount, roleComments } from '../../packages/jst/src/phase/roles.js';
import { jstFolder } from '../support/jst-cli.js';
import { EMAILS, testSeed } from '../support/seed.js';
import { adf, createIssue, startTestTracker, type TestTracker } from '../support/tracker.js';

const quiet: Io = { stdout: { write: () => true }, stderr: { write: () => true }, stdin: new PassThrough(), color: false, interactive: false };

/**
 * ARCHITECTURE §11: whose comment a marker is, by accountId, resolved from TRACKER_<ROLE>_EMAIL
 * (packages/jst/src/phase/roles.ts) against a real tracker, whose user search matches an e-mail
 * by prefix: an account whose address merely starts with a role's is never taken for it.
 */
describe("ARCHITECTURE §11: each role's account, resolved from its e-mail, fails closed", () => {
  let t: TestTracker;
  let dir: string;
  const ids: Record<string, string> = {};
  const ctx = (env: Record<string, string> = {}): Context => createContext({ cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir, ...env }, io: quiet });

  beforeAll(async () => {
    const seed = testSeed();
    // Someone whose address starts with the assigner's: the tracker's search finds both.
    seed.sites[0]!.users.push({ email: `${EMAILS.assigner}.evil`, displayName: 'Ada Assigner', tokens: [{ token: 'tok-evil-0a1b2c' }] } as never);
    t = await startTestTracker('sqlite', seed);
    dir = jstFolder(t);
    for (const who of ['assigner', 'executor', 'reviewer'] as const) ids[who] = (await t.as(who).get('/myself')).body.accountId;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("the caller's own role is its /myself; another role's is the one account the user search finds for its e-mail", async () => {
    const c = ctx();
    expect(await roleAccount(c, 'executor', c.client('executor'))).toMatchObject({ accountId: ids.executor, problem: null });
    expect(await roleAccount(c, 'reviewer', c.client('executor'))).toMatchObject({ accountId: ids.reviewer, problem: null });
  });

  it("an e-mail that several accounts answer to, none showing exactly it, resolves to no account: none of that role's markers counts", async () => {
    const c = ctx();
    const a = await roleAccount(c, 'assigner', c.client('executor'));
    expect(a).toMatchObject({ accountId: null, setting: 'TRACKER_ASSIGNER_EMAIL' });
    expect(a.problem).toBe(
      `2 accounts on the tracker answer to TRACKER_ASSIGNER_EMAIL (${EMAILS.assigner}) and none shows exactly that e-mail, so the assigner's account is unknown`,
    );
    const key = await createIssue(t, 'assigner', { summary: 'markers' });
    await t.as('assigner').post(`/issue/${key}/comment`, { body: adf('Assignment report') });
    const comments = (await c.client('executor').listComments(key)).comments;
    expect(await roleComments(c, 'assigner', c.client('executor'), comments)).toMatchObject({ accountId: null, comments: [] });
    // Asked as the assigner itself, it is /myself: exact, whatever the search finds.
    const own = await roleComments(ctx(), 'assigner', ctx().client('assigner'), comments);
    expect(own.comments).toHaveLength(1);
  });

  it('a role e-mail that is unset, or names no account, resolves to no account, naming the setting', async () => {
    const unset = ctx({ TRACKER_REVIEWER_EMAIL: '' });
    expect((await roleAccount(unset, 'reviewer', unset.client('executor'))).problem).toBe(
      "TRACKER_REVIEWER_EMAIL is not set, so the reviewer's account is unknown",
    );
    const ghost = ctx({ TRACKER_REVIEWER_EMAIL: 'ghost@acme.test' });
    expect((await roleAccount(ghost, 'reviewer', ghost.client('executor'))).problem).toBe(
      "no account on the tracker answers to TRACKER_REVIEWER_EMAIL (ghost@acme.test), so the reviewer's account is unknown",
    );
  });
});
