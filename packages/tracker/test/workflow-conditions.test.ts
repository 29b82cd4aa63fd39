import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applySeed, parseSeed, SeedError } from '../src/index.js';
import { basic, startTestTracker, storeKinds, type TestTracker } from '../../../test/support/tracker.js';
import { credentialOf, EMAILS, testSeed, type Who } from '../../../test/support/seed.js';

/**
 * spec §3 rule 5: workflow conditions. A transition may carry `"only": [names]`; the Kanban
 * template takes them by destination status. A caller who fails the condition is not offered the
 * transition and its POST is refused as a transition not valid for the issue; the board offers
 * only the moves its viewer may make.
 */

// The test seed as plain JSON (not its literal types): the tests change it freely.
type AnySeed = { sites: any[] };

/** The test seed with ABC's Done for `doneFor` only, and two projects more: the old `"kanban"` form, and membership-role conditions. */
function conditionedSeed(doneFor: string[] = ['reviewer']): AnySeed {
  const seed = JSON.parse(JSON.stringify(testSeed())) as AnySeed;
  const site = seed.sites[0];
  site.projects[0].workflow = { kanban: true, only: { Done: doneFor } };
  const members = [
    { email: EMAILS.assigner, role: 'admin' },
    { email: EMAILS.executor, role: 'member' },
    { email: EMAILS.reviewer, role: 'member' },
  ];
  site.projects.push({ key: 'OLD', name: 'Plain kanban', lead: EMAILS.assigner, workflow: 'kanban', members });
  site.projects.push({
    key: 'MEM',
    name: 'Membership conditions',
    lead: EMAILS.assigner,
    members,
    workflow: {
      statuses: [{ name: 'To Do' }, { name: 'In Progress' }, { name: 'Done' }],
      transitions: [
        { name: 'Start', to: 'In Progress', only: ['member'] },
        { name: 'Sign off', to: 'Done', only: ['admin'] },
        { name: 'Reopen', to: 'To Do' },
      ],
    },
  });
  return seed;
}

const create = async (t: TestTracker, project: string): Promise<string> => {
  const r = await t.as('assigner').post('/issue', { fields: { project: { key: project }, issuetype: { name: 'Task' }, summary: 'conditioned' } });
  expect(r.status).toBe(201);
  return r.body.key as string;
};
const destinations = async (t: TestTracker, who: Who, key: string): Promise<string[]> =>
  (await t.as(who).get(`/issue/${key}/transitions`)).body.transitions.map((x: any) => x.to.name);
const statusOf = async (t: TestTracker, key: string): Promise<string> => (await t.as('assigner').get(`/issue/${key}?fields=status`)).body.fields.status.name;
/** The id of the transition into `to` as the workflow numbers it (Kanban: To Do 11, In Progress 21, In Review 31, Done 41). */
const KANBAN_ID: Record<string, string> = { 'To Do': '11', 'In Progress': '21', 'In Review': '31', Done: '41' };

describe.each(await storeKinds())('spec §3 rule 5: workflow conditions (%s)', (kind) => {
  let t: TestTracker;
  beforeAll(async () => {
    t = await startTestTracker(kind, conditionedSeed());
  });
  afterAll(async () => {
    await t?.close();
  });

  it('spec §3 rule 5: the executor is not offered the Done transition, and its POST is 400 as a transition not valid for the issue; nothing changes', async () => {
    const key = await create(t, 'ABC');
    expect(await destinations(t, 'executor', key)).toEqual(['In Progress', 'In Review']);
    const refused = await t.as('executor').post(`/issue/${key}/transitions`, { transition: { id: KANBAN_ID.Done } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      errorMessages: [
        `Transition id '${KANBAN_ID.Done}' is not valid for this issue. Its status is 'To Do'; list the available transitions with GET …/transitions.`,
      ],
      errors: {},
    });
    // The same words as for an id the workflow does not have at all: the condition is not disclosed.
    const unknown = await t.as('executor').post(`/issue/${key}/transitions`, { transition: { id: '99' } });
    expect(unknown.body.errorMessages[0]).toBe(refused.body.errorMessages[0].replace(`'${KANBAN_ID.Done}'`, "'99'"));
    expect(await statusOf(t, key)).toBe('To Do');
  });

  it('spec §3 rule 5: the reviewer is offered Done (marked conditional) and makes it', async () => {
    const key = await create(t, 'ABC');
    const list = (await t.as('reviewer').get(`/issue/${key}/transitions`)).body.transitions;
    expect(list.map((x: any) => [x.to.name, x.isConditional, x.isAvailable])).toEqual([
      ['In Progress', false, true],
      ['In Review', false, true],
      ['Done', true, true],
    ]);
    expect((await t.as('reviewer').post(`/issue/${key}/transitions`, { transition: { id: KANBAN_ID.Done } })).status).toBe(204);
    expect(await statusOf(t, key)).toBe('Done');
  });

  it("spec §3 rule 5: includeUnavailableTransitions=true shows the transition the caller fails, with isAvailable false (the vendor's parameter)", async () => {
    const key = await create(t, 'ABC');
    const list = (await t.as('executor').get(`/issue/${key}/transitions?includeUnavailableTransitions=true`)).body.transitions;
    expect(list.map((x: any) => [x.to.name, x.isAvailable, x.isConditional])).toEqual([
      ['In Progress', true, false],
      ['In Review', true, false],
      ['Done', false, true],
    ]);
    expect((await t.as('executor').get(`/issue/${key}/transitions?transitionId=${KANBAN_ID.Done}`)).body.transitions).toEqual([]);
  });

  it('spec §3 rule 5: the plain "kanban" form carries no condition: every member is offered every move', async () => {
    const key = await create(t, 'OLD');
    expect(await destinations(t, 'executor', key)).toEqual(['In Progress', 'In Review', 'Done']);
    expect((await t.as('executor').post(`/issue/${key}/transitions`, { transition: { id: KANBAN_ID.Done } })).status).toBe(204);
    expect(await statusOf(t, key)).toBe('Done');
  });

  it('spec §3 rule 5: membership roles: "admin" lets only the admin, "member" only the members (an admin is not a member)', async () => {
    const key = await create(t, 'MEM');
    expect(await destinations(t, 'assigner', key)).toEqual(['Done']);
    expect(await destinations(t, 'executor', key)).toEqual(['In Progress']);
    expect((await t.as('executor').post(`/issue/${key}/transitions`, { transition: { id: '21' } })).status).toBe(400);
    expect((await t.as('assigner').post(`/issue/${key}/transitions`, { transition: { id: '11' } })).status).toBe(400);
    expect(await statusOf(t, key)).toBe('To Do');
    expect((await t.as('executor').post(`/issue/${key}/transitions`, { transition: { id: '11' } })).status).toBe(204);
    expect((await t.as('assigner').post(`/issue/${key}/transitions`, { transition: { id: '21' } })).status).toBe(204);
    expect(await statusOf(t, key)).toBe('Done');
  });

  it('spec §3 rule 5: a viewer is still refused with 403 (a condition adds to the permission, never replaces it)', async () => {
    const key = await create(t, 'ABC');
    expect((await t.as('viewer').post(`/issue/${key}/transitions`, { transition: { id: KANBAN_ID['In Progress'] } })).status).toBe(403);
  });

  /** The issue page as `who`'s browser asks for it: the transition buttons it offers (destination titles). */
  const offered = async (who: Who, key: string): Promise<string[]> => {
    const { email, token } = credentialOf(who);
    const res = await fetch(`${t.url}/browse/${key}`, { headers: { Accept: 'text/html', Authorization: basic(email, token) } });
    expect(res.status).toBe(200);
    return [...(await res.text()).matchAll(/<button type="button" class="transition"[^>]*title="Move to ([^"]+)"/g)].map((m) => m[1]!);
  };

  it('spec §3 rule 5 / ARCHITECTURE §12: the board offers only the moves the signed-in user may make, and refuses a forged one', async () => {
    const key = await create(t, 'ABC');
    expect(await offered('executor', key)).toEqual(['In Progress', 'In Review']);
    expect(await offered('reviewer', key)).toEqual(['In Progress', 'In Review', 'Done']);
    // The board's script posts through the REST interface: a button made by hand is refused there.
    const { email, token } = credentialOf('executor');
    const forged = await fetch(`${t.url}/rest/api/3/issue/${key}/transitions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: basic(email, token), 'x-jst-board': '1' },
      body: JSON.stringify({ transition: { id: KANBAN_ID.Done } }),
    });
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as { errorMessages: string[] }).errorMessages[0]).toMatch(/is not valid for this issue/);
    expect(await statusOf(t, key)).toBe('To Do');
  });
});

describe.each(await storeKinds())('spec §3 rule 5: a seed reload that changes a condition, racing transitions (%s)', (kind) => {
  let t: TestTracker;
  beforeAll(async () => {
    t = await startTestTracker(kind, conditionedSeed(['executor']));
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The issues' versions of ABC, read from the database. */
  const versions = async (): Promise<Map<string, number>> => {
    const rows = await t.server.store.kysely
      .selectFrom('issues')
      .innerJoin('projects', 'projects.id', 'issues.project_id')
      .select(['issues.key', 'issues.version'])
      .where('projects.key', '=', 'ABC')
      .execute();
    return new Map(rows.map((r) => [r.key, Number(r.version)]));
  };

  it("spec §3 rule 5: a seed that changes who may make a move moves the version of the project's issues; one that changes nothing does not", async () => {
    const key = await create(t, 'ABC');
    const before = (await versions()).get(key)!;
    await applySeed(t.server.store, parseSeed(conditionedSeed(['executor'])));
    expect((await versions()).get(key)).toBe(before);
    await applySeed(t.server.store, parseSeed(conditionedSeed(['reviewer'])));
    expect((await versions()).get(key)).toBe(before + 1);
    const seed = conditionedSeed(['reviewer']);
    seed.sites[0].projects[0].roles.reviewer = EMAILS.executor;
    await applySeed(t.server.store, parseSeed(seed));
    expect((await versions()).get(key)).toBe(before + 2);
    expect(await destinations(t, 'executor', key)).toEqual(['In Progress', 'In Review', 'Done']);
    await applySeed(t.server.store, parseSeed(conditionedSeed(['executor'])));
  });

  it('spec §3 rule 5: each transition racing a seed reload ends as one of them: 204 and Done, or 400 and nothing changed', async () => {
    const ROUNDS = 12;
    let doneFor = ['executor'];
    for (let round = 0; round < ROUNDS; round++) {
      const key = await create(t, 'ABC');
      const next = doneFor[0] === 'executor' ? ['reviewer'] : ['executor'];
      const [moved] = await Promise.all([
        t.as('executor').post(`/issue/${key}/transitions`, { transition: { id: KANBAN_ID.Done } }),
        new Promise((r) => setTimeout(r, round % 4)).then(() => applySeed(t.server.store, parseSeed(conditionedSeed(next)))),
      ]);
      const status = await statusOf(t, key);
      if (moved.status === 204) expect(status).toBe('Done');
      else {
        expect(moved.status).toBe(400);
        expect(moved.body.errorMessages[0]).toMatch(/is not valid for this issue/);
        expect(status).toBe('To Do');
      }
      doneFor = next;
      // Once both have ended, the condition stands as the seed left it.
      const again = await create(t, 'ABC');
      expect((await destinations(t, 'executor', again)).includes('Done')).toBe(doneFor[0] === 'executor');
    }
  });
});

/** A copy of the conditioned seed changed by `change`, and the SeedError its parse throws. */
function refusal(change: (s: AnySeed) => void): SeedError {
  const seed = conditionedSeed();
  change(seed);
  try {
    parseSeed(seed, 'conditions.json');
  } catch (e) {
    expect(e).toBeInstanceOf(SeedError);
    return e as SeedError;
  }
  throw new Error('the seed was accepted');
}

describe('spec §3 rule 5 / ARCHITECTURE §5: a bad condition in a seed is refused, naming its JSON path', () => {
  const ABC = (s: AnySeed) => s.sites[0].projects[0];
  const MEM = (s: AnySeed) => s.sites[0].projects[4];
  const BAD: [string, (s: AnySeed) => void, string, RegExp][] = [
    [
      'an unknown name',
      (s) => {
        ABC(s).workflow.only.Done = ['reviewer', 'boss'];
      },
      '$.sites[0].projects[0].workflow.only["Done"][1]',
      /is not a role a condition can name \(expected one of: assigner, executor, reviewer, admin, member\)/,
    ],
    [
      'the viewer (who may not transition at all)',
      (s) => {
        MEM(s).workflow.transitions[0].only = ['viewer'];
      },
      '$.sites[0].projects[4].workflow.transitions[0].only[0]',
      /is not a role a condition can name/,
    ],
    [
      'an empty list',
      (s) => {
        MEM(s).workflow.transitions[1].only = [];
      },
      '$.sites[0].projects[4].workflow.transitions[1].only',
      /names no one/,
    ],
    [
      'a status the kanban workflow does not have',
      (s) => {
        ABC(s).workflow.only = { Finished: ['reviewer'] };
      },
      '$.sites[0].projects[0].workflow.only.Finished',
      /is not a status of the kanban workflow \(expected one of: To Do, In Progress, In Review, Done\)/,
    ],
    [
      'a project role the project\'s "roles" does not name',
      (s) => {
        MEM(s).workflow.transitions[1].only = ['admin', 'reviewer'];
      },
      '$.sites[0].projects[4].workflow.transitions[1].only[1]',
      /names the reviewer, but this project's "roles" names no reviewer/,
    ],
    [
      'a kanban condition naming a role left out of "roles"',
      (s) => {
        delete ABC(s).roles.reviewer;
      },
      '$.sites[0].projects[0].workflow.only["Done"][0]',
      /names the reviewer, but this project's "roles" names no reviewer/,
    ],
    [
      '"kanban": false',
      (s) => {
        ABC(s).workflow.kanban = false;
      },
      '$.sites[0].projects[0].workflow.kanban',
      /must be true/,
    ],
    [
      'statuses beside "kanban"',
      (s) => {
        ABC(s).workflow.statuses = [];
      },
      '$.sites[0].projects[0].workflow.statuses',
      /unknown setting \(expected one of: kanban, only\)/,
    ],
    [
      '"only" that is not a list',
      (s) => {
        MEM(s).workflow.transitions[0].only = 'member';
      },
      '$.sites[0].projects[4].workflow.transitions[0].only',
      /must be an array/,
    ],
  ];
  it.each(BAD)('%s', (_what, change, path, detail) => {
    const err = refusal(change);
    expect(err.path).toBe(path);
    expect(err.message.startsWith(`conditions.json: ${path}: `), err.message).toBe(true);
    expect(err.message).toMatch(detail);
  });

  it('the forms are read as written: {"kanban": true} alone is the plain template; "only" lands on its transition', () => {
    const seed = conditionedSeed();
    seed.sites[0].projects[0].workflow = { kanban: true };
    expect(parseSeed(seed).sites[0]!.projects[0]!.workflow).toEqual({ kanban: true, only: {} });
    expect(parseSeed(conditionedSeed()).sites[0]!.projects[0]!.workflow).toEqual({ kanban: true, only: { Done: ['reviewer'] } });
    expect(parseSeed(testSeed()).sites[0]!.projects[0]!.workflow).toBe('kanban');
  });
});

describe.each(await storeKinds())('spec §3 rule 5: a stored project keeps the old form unchanged (%s)', (kind) => {
  it('a seed in the plain "kanban" form loads as before (no condition stored), and a condition added later applies at once', async () => {
    const t = await startTestTracker(kind);
    try {
      const key = await create(t, 'ABC');
      const [row] = await t.server.store.kysely.selectFrom('projects').select('workflow').where('key', '=', 'ABC').execute();
      expect(row!.workflow).not.toContain('"only"');
      await applySeed(t.server.store, parseSeed(conditionedSeed()));
      expect(await destinations(t, 'executor', key)).toEqual(['In Progress', 'In Review']);
    } finally {
      await t.close();
    }
  });
});
