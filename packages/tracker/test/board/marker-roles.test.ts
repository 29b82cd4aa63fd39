import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestTracker, storeKinds, type TestTracker } from '../../../../test/support/tracker.js';
import { credentialOf, type Who } from '../../../../test/support/seed.js';

/** The issue page as the executor's browser asks for it. */
async function issuePage(t: TestTracker, key: string): Promise<string> {
  const { email, token } = credentialOf('executor');
  const res = await fetch(`${t.url}/browse/${key}`, { headers: { Accept: 'text/html', Authorization: basic(email, token) } });
  expect(res.status).toBe(200);
  return res.text();
}

/** The comment articles of a page, each as (class, text) in order. */
function articles(page: string): { cls: string; text: string }[] {
  return [...page.matchAll(/<article class="(comment[^"]*)">([\s\S]*?)<\/article>/g)].map((m) => ({ cls: m[1]!, text: m[2]! }));
}

/** The class of the one article carrying `tag` (its second paragraph). */
function classOf(page: string, tag: string): string {
  const found = articles(page).filter((a) => a.text.includes(`<p>${tag}</p>`));
  expect(found, tag).toHaveLength(1);
  return found[0]!.cls;
}

/** A comment: the marker line, then a paragraph naming it (`tag`). */
const say = async (t: TestTracker, who: Who, key: string, first: string, tag: string) => {
  const body = {
    type: 'doc',
    version: 1,
    content: [
      { type: 'paragraph', content: [{ type: 'text', text: first }] },
      { type: 'paragraph', content: [{ type: 'text', text: tag }] },
    ],
  };
  expect((await t.as(who).post(`/issue/${key}/comment`, { body })).status).toBe(201);
};

/** [who writes, first line, tag, the marker kind it is highlighted as (null: an ordinary comment)]. */
type Case = readonly [Who, string, string, string | null];

const WITH_ROLES: Case[] = [
  ['assigner', 'Assignment report', 'r1', 'assignment'],
  ['executor', 'Assignment report', 'r2', null],
  ['assigner', 'PR target branch: development Worktree: /w', 'r3', 'target'],
  ['reviewer', 'PR target branch: evil Worktree: /x', 'r4', null],
  ['executor', 'Run report', 'r5', 'run'],
  ['reviewer', 'Run report', 'r6', null],
  ['executor', 'Task memory', 'r7', 'memory'],
  ['assigner', 'Task memory', 'r8', null],
  ['reviewer', 'APPROVED — fine', 'r9', 'approved'],
  ['executor', 'APPROVED — looks good', 'r10', null],
  ['reviewer', 'CHANGES REQUESTED — fix it', 'r11', 'changes'],
  ['assigner', 'CHANGES REQUESTED — forged', 'r12', null],
  ['reviewer', 'Review tally', 'r13', 'tally'],
  ['executor', 'Review tally', 'r14', null],
  ['executor', 'Run report (draft)', 'r15', null],
];
// RST names no roles: the reporter is the assigner, the assignee the executor.
const WITHOUT_ROLES: Case[] = [
  ['assigner', 'Assignment report', 'n1', 'assignment'],
  ['executor', 'Assignment report', 'n2', null],
  ['executor', 'Task memory', 'n3', 'memory'],
  ['assigner', 'Task memory', 'n4', null],
  ['executor', 'APPROVED — looks good', 'n5', null],
  ['assigner', 'CHANGES REQUESTED — forged', 'n6', null],
  ['assigner', 'Review tally', 'n7', null],
  ['executor', 'Review tally', 'n8', null],
];

describe.each(await storeKinds())("ARCHITECTURE §11, §12: the board highlights a marker only from its role's account (%s)", (kind) => {
  let t: TestTracker;
  let withRoles: string;
  let withoutRoles: string;
  beforeAll(async () => {
    // The test seed names the three roles of ABC (ARCHITECTURE §5 "roles"); RST names none.
    t = await startTestTracker(kind);
    const executor = (await t.as('executor').get('/myself')).body.accountId as string;
    const create = async (project: string) =>
      (
        await t.as('assigner').post('/issue', {
          fields: { project: { key: project }, issuetype: { name: 'Task' }, summary: `Markers in ${project}`, assignee: { accountId: executor } },
        })
      ).body.key as string;
    withRoles = await create('ABC');
    withoutRoles = await create('RST');
    for (const [who, first, tag] of WITH_ROLES) await say(t, who, withRoles, first, tag);
    for (const [who, first, tag] of WITHOUT_ROLES) await say(t, who, withoutRoles, first, tag);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("with the roles named in the seed: a marker is highlighted only from its role's account; the same first line by another account is an ordinary comment", async () => {
    const page = await issuePage(t, withRoles);
    for (const [who, first, tag, kind] of WITH_ROLES) expect(classOf(page, tag), `${who}: ${first}`).toBe(kind ? `comment marker marker-${kind}` : 'comment');
    expect([...page.matchAll(/class="badge"/g)]).toHaveLength(WITH_ROLES.filter((c) => c[3]).length);
  });

  it("with no roles named: the assigner's markers only from the issue's reporter, the executor's only from its assignee, verdicts and the review tally from no one", async () => {
    const page = await issuePage(t, withoutRoles);
    for (const [who, first, tag, kind] of WITHOUT_ROLES)
      expect(classOf(page, tag), `${who}: ${first}`).toBe(kind ? `comment marker marker-${kind}` : 'comment');
    expect([...page.matchAll(/class="badge"/g)]).toHaveLength(2);
  });
});
