import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSeedFile, parseSeed, SeedError, startServer, type RunningServer } from '../src/index.js';
import { basic, send } from '../../../test/support/tracker.js';
import { createTempDatabase, type TempDatabase } from '../../../test/support/postgres.js';
import { storeKinds } from '../../../test/support/tracker.js';
import { CLOUD_ID, credentialOf, EMAILS, TOKENS, testSeed, type Who } from '../../../test/support/seed.js';

const tmp = mkdtempSync(join(tmpdir(), 'jst-seed-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type AnySeed = ReturnType<typeof testSeed> & Record<string, any>;
/** The test seed with one change, written to a file of its own. */
function seedFile(change: (s: any) => void, name = `seed-${Math.random().toString(36).slice(2)}.json`): string {
  const seed = testSeed() as AnySeed;
  change(seed);
  const file = join(tmp, name);
  writeFileSync(file, JSON.stringify(seed, null, 2));
  return file;
}
function seedErrorOf(file: string): SeedError {
  try {
    loadSeedFile(file);
  } catch (e) {
    expect(e).toBeInstanceOf(SeedError);
    return e as SeedError;
  }
  throw new Error(`${file} was accepted`);
}

/** ARCHITECTURE §5's example seed, verbatim. */
const ARCHITECTURE_EXAMPLE = `{
  "sites": [{
    "host": "acme.atlassian.net",
    "cloudId": "0b5e6a8c-1d2f-4e3a-9b7c-6d5e4f3a2b1c",
    "users": [
      { "email": "assigner@acme.test", "displayName": "Ada Assigner",
        "tokens": [ { "token": "a-secret", "kind": "classic" } ] },
      { "email": "bot@acme.test", "displayName": "Scoped Bot",
        "tokens": [ { "token": "s-secret", "kind": "scoped", "scopes": ["read:jira-user"] } ] }
    ],
    "projects": [{
      "key": "ABC", "name": "Alpha", "lead": "assigner@acme.test",
      "members": [ { "email": "assigner@acme.test", "role": "admin" },
                   { "email": "executor@acme.test", "role": "member" },
                   { "email": "viewer@acme.test", "role": "viewer" } ],
      "workflow": "kanban"
    }]
  }]
}
`;
/** The §5 example as an object, to change one thing in it. */
// The §5 text parsed as plain JSON (not the test seed's literal types): tests change it freely.
const example = (): { sites: any[] } => JSON.parse(ARCHITECTURE_EXAMPLE) as { sites: any[] };

const RST = (s: any) => s.sites[0].projects[1].workflow;
const BAD: [string, (s: any) => void, string, RegExp][] = [
  [
    'an unknown top-level setting',
    (s) => {
      s.version = 2;
    },
    '$.version',
    /unknown setting \(expected one of: sites, codehost\)/,
  ],
  [
    'an unknown user setting',
    (s) => {
      s.sites[0].users[0].password = 'x';
    },
    '$.sites[0].users[0].password',
    /unknown setting/,
  ],
  [
    'a bad e-mail',
    (s) => {
      s.sites[0].users[1].email = 'executor.acme.test';
    },
    '$.sites[0].users[1].email',
    /: is not an e-mail address$/,
  ],
  [
    'a duplicate user (e-mail compared without case)',
    (s) => {
      s.sites[0].users[2].email = 'ASSIGNER@acme.test';
    },
    '$.sites[0].users[2].email',
    /the e-mail of an earlier user/,
  ],
  [
    'a member whose e-mail is not an e-mail address',
    (s) => {
      s.sites[0].projects[0].members[1].email = 'ghost.acme.test';
    },
    '$.sites[0].projects[0].members[1].email',
    /: is not an e-mail address$/,
  ],
  [
    'a lead who is neither a user nor a member',
    (s) => {
      s.sites[0].projects[1].lead = 'ghost@acme.test';
    },
    '$.sites[0].projects[1].lead',
    /: is not one of this site's users nor a member of this project$/,
  ],
  [
    'a lead who is a member only of another project',
    (s) => {
      s.sites[0].projects[0].members.push({ email: 'ghost@acme.test' });
      s.sites[0].projects[1].lead = 'ghost@acme.test';
    },
    '$.sites[0].projects[1].lead',
    /nor a member of this project/,
  ],
  [
    'a member listed twice',
    (s) => {
      s.sites[0].projects[0].members[1].email = EMAILS.assigner;
    },
    '$.sites[0].projects[0].members[1].email',
    /a member listed earlier/,
  ],
  [
    'a bad role',
    (s) => {
      s.sites[0].projects[0].members[2].role = 'owner';
    },
    '$.sites[0].projects[0].members[2].role',
    /must be one of admin, member, viewer/,
  ],
  [
    'a lower-case project key',
    (s) => {
      s.sites[0].projects[0].key = 'abc';
    },
    '$.sites[0].projects[0].key',
    /: is not a project key/,
  ],
  [
    'a one-letter project key',
    (s) => {
      s.sites[0].projects[2].key = 'S';
    },
    '$.sites[0].projects[2].key',
    /not a project key/,
  ],
  [
    'a duplicate project key',
    (s) => {
      s.sites[0].projects[2].key = 'ABC';
    },
    '$.sites[0].projects[2].key',
    /the key of an earlier project/,
  ],
  [
    'a transition to an unknown status',
    (s) => {
      RST(s).transitions[0].to = 'Doing it';
    },
    '$.sites[0].projects[1].workflow.transitions[0].to',
    /: is not one of the workflow's statuses$/,
  ],
  [
    'a transition from an unknown status',
    (s) => {
      RST(s).transitions[1].from = ['Doing', 'Nowhere'];
    },
    '$.sites[0].projects[1].workflow.transitions[1].from[1]',
    /: is not one of the workflow's statuses$/,
  ],
  [
    'an unknown initial status',
    (s) => {
      RST(s).initial = 'Open';
    },
    '$.sites[0].projects[1].workflow.initial',
    /: is not one of the workflow's statuses$/,
  ],
  [
    'a status category that does not exist',
    (s) => {
      RST(s).statuses[1].category = 'started';
    },
    '$.sites[0].projects[1].workflow.statuses[1].category',
    /new, indeterminate, done/,
  ],
  [
    'a workflow name that is not kanban',
    (s) => {
      s.sites[0].projects[0].workflow = 'scrum';
    },
    '$.sites[0].projects[0].workflow',
    /: is not a workflow \(use "kanban"/,
  ],
  [
    'one status name in two categories across projects',
    (s) => {
      RST(s).statuses[0].name = 'Done';
      RST(s).initial = 'Done';
      RST(s).transitions[0].from = ['Done'];
      RST(s).transitions[3].to = 'Done';
    },
    '$.sites[0].projects[1].workflow.statuses[0]',
    /a status here has category new but done in an earlier project/,
  ],
  [
    'scopes on a classic token',
    (s) => {
      s.sites[0].users[0].tokens[0].scopes = ['read:jira-user'];
    },
    '$.sites[0].users[0].tokens[0].scopes',
    /only a scoped token has scopes/,
  ],
  [
    'a token kind that does not exist',
    (s) => {
      s.sites[0].users[1].tokens[0].kind = 'oauth';
    },
    '$.sites[0].users[1].tokens[0].kind',
    /"classic" or "scoped"/,
  ],
  [
    'an empty token',
    (s) => {
      s.sites[0].users[5].tokens[1].token = '';
    },
    '$.sites[0].users[5].tokens[1].token',
    /non-empty string/,
  ],
  [
    'a host with a scheme',
    (s) => {
      s.sites[0].host = 'https://acme.atlassian.net';
    },
    '$.sites[0].host',
    /is not a host name/,
  ],
  [
    'two sites on one host',
    (s) => {
      s.sites.push({ host: 'ACME.atlassian.net', users: [] });
    },
    '$.sites[1].host',
    /the same host as an earlier site/,
  ],
  [
    'two sites with one cloud id',
    (s) => {
      s.sites.push({ host: 'other.atlassian.net', cloudId: CLOUD_ID });
    },
    '$.sites[1].cloudId',
    /the cloud id of an earlier site/,
  ],
  [
    'a cloud id with a slash',
    (s) => {
      s.sites[0].cloudId = 'a/b';
    },
    '$.sites[0].cloudId',
    /letters, digits and dashes/,
  ],
  [
    'no site at all',
    (s) => {
      s.sites = [];
    },
    '$.sites',
    /at least one site/,
  ],
  [
    'users that are not a list',
    (s) => {
      s.sites[0].users = { a: 1 };
    },
    '$.sites[0].users',
    /must be an array/,
  ],
  [
    'roles that are not an object',
    (s) => {
      s.sites[0].projects[0].roles = [EMAILS.reviewer];
    },
    '$.sites[0].projects[0].roles',
    /: must be an object$/,
  ],
  [
    'a role the toolkit does not have',
    (s) => {
      s.sites[0].projects[0].roles.admin = EMAILS.assigner;
    },
    '$.sites[0].projects[0].roles.admin',
    /unknown setting \(expected one of: assigner, executor, reviewer\)/,
  ],
  [
    'a role whose e-mail is not an e-mail address',
    (s) => {
      s.sites[0].projects[0].roles.reviewer = 'reviewer';
    },
    '$.sites[0].projects[0].roles.reviewer',
    /: is not an e-mail address$/,
  ],
  [
    'a role held by someone neither a user nor a member',
    (s) => {
      s.sites[0].projects[2].roles = { executor: 'ghost@acme.test' };
    },
    '$.sites[0].projects[2].roles.executor',
    /: is not one of this site's users nor a member of this project$/,
  ],
];

describe('ARCHITECTURE §5: a bad seed file is refused, naming the file and the exact JSON path', () => {
  it.each(BAD)('%s', (_what, change, path, detail) => {
    const file = seedFile(change);
    const err = seedErrorOf(file);
    expect(err.file).toBe(file);
    expect(err.path).toBe(path);
    expect(err.message.startsWith(`${file}: ${path}: `), err.message).toBe(true);
    expect(err.message).toMatch(detail);
  });

  it('a file that is not JSON names the file and says so', () => {
    const file = join(tmp, 'broken.json');
    writeFileSync(file, '{"sites": [ { "host": "acme.atlassian.net", } ]');
    const err = seedErrorOf(file);
    expect(err.message).toBe(`${file}:1:45: $.sites[0]: not valid JSON here (look for a missing comma, quote or bracket, or a value without quotes)`);
  });

  it('an unreadable file (missing, or a folder) names the file and the reason', () => {
    expect(seedErrorOf(join(tmp, 'missing.json')).message).toBe(`${join(tmp, 'missing.json')}: $: cannot read the seed file (ENOENT)`);
    mkdirSync(join(tmp, 'a-folder.json'), { recursive: true });
    expect(seedErrorOf(join(tmp, 'a-folder.json')).message).toMatch(/a-folder\.json: \$: cannot read the seed file \(EISDIR\)/);
  });

  it('the §5 example is accepted: members need not be among "users", and the lead may be a member only', () => {
    const file = join(tmp, 'architecture-example.json');
    writeFileSync(file, ARCHITECTURE_EXAMPLE);
    const site = loadSeedFile(file).sites[0]!;
    expect(site.users.map((u) => u.email)).toEqual(['assigner@acme.test', 'bot@acme.test']);
    expect(site.projects[0]!.members).toEqual([
      { email: 'assigner@acme.test', role: 'admin' },
      { email: 'executor@acme.test', role: 'member' },
      { email: 'viewer@acme.test', role: 'viewer' },
    ]);
    const led = example();
    led.sites[0].projects[0].lead = 'Executor@ACME.test';
    expect(parseSeed(led).sites[0]!.projects[0]!.lead).toBe('executor@acme.test');
  });

  it('parseSeed without a file name still gives the JSON path; the defaults are filled in', () => {
    expect(() => parseSeed({ sites: [{ host: 'a.test', users: [{ email: 'x' }] }] })).toThrow('<seed>: $.sites[0].users[0].email: is not an e-mail address');
    const seed = parseSeed({
      sites: [{ host: 'A.Test', users: [{ email: 'Bo@A.test', tokens: [{ token: 't' }] }], projects: [{ key: 'AB', members: [{ email: 'bo@a.test' }] }] }],
    });
    expect(seed.sites[0]).toEqual({
      host: 'a.test',
      users: [{ email: 'bo@a.test', displayName: 'bo', tokens: [{ token: 't', kind: 'classic', scopes: [] }] }],
      projects: [{ key: 'AB', name: 'AB', members: [{ email: 'bo@a.test', role: 'member' }], workflow: 'kanban' }],
    });
  });
});

/** One tracker process after another over the same store. */
describe.each(await storeKinds())('ARCHITECTURE §5: loading a seed again changes nothing (%s)', (kind) => {
  const WHO: Who[] = ['assigner', 'executor', 'reviewer', 'viewer', 'outsider', 'scopedRead', 'scopedAll'];
  const stores: (TempDatabase | string)[] = [];
  afterAll(async () => {
    for (const s of stores) if (typeof s !== 'string') await s.drop();
  });
  const newStore = async () => {
    const s = kind === 'postgres' ? await createTempDatabase() : mkdtempSync(join(tmp, 'data-'));
    stores.push(s);
    return s;
  };
  const start = (store: TempDatabase | string, seed: unknown): Promise<RunningServer> =>
    startServer({ port: 0, ...(typeof store === 'string' ? { dataDir: store } : { databaseUrl: store.url, poolSize: 2 }), seed: parseSeed(seed) });
  const signedIn = (server: RunningServer, cloudId: string, email: string, token: string) => {
    const headers = { Authorization: basic(email, token), 'Content-Type': 'application/json' };
    const api = `${server.url}/ex/jira/${cloudId}/rest/api/3`;
    return {
      get: (path: string) => send(`${api}${path}`, { headers }),
      post: (path: string, body: unknown) => send(`${api}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }),
      put: (path: string, body: unknown) => send(`${api}${path}`, { method: 'PUT', headers, body: JSON.stringify(body) }),
    };
  };
  const as = (server: RunningServer, cloudId: string, who: Who) => {
    const { email, token } = credentialOf(who);
    return signedIn(server, cloudId, email, token);
  };
  const cloudIdOf = async (server: RunningServer) => (await send(`${server.url}/_edge/tenant_info`, {})).body.cloudId as string;
  const create = async (server: RunningServer, cloudId: string, summary: string, token = credentialOf('assigner').token) => {
    const r = await signedIn(server, cloudId, EMAILS.assigner, token).post('/issue', {
      fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary },
    });
    expect(r.status).toBe(201);
    return r.body.key as string;
  };
  /** Every seeded row (projects without their issue counter), in a stable order. */
  const seededRows = async (server: RunningServer) => {
    const db = server.store.kysely as unknown as Kysely<any>;
    const out: Record<string, string[]> = {};
    for (const table of ['sites', 'users', 'tokens', 'projects', 'members', 'statuses']) {
      const rows = (await db.selectFrom(table).selectAll().execute()).map(({ issue_counter: _, ...row }) => JSON.stringify(row));
      out[table] = rows.sort();
    }
    return out;
  };
  /** Who is who, as the server says it. */
  const identities = async (server: RunningServer, cloudId: string) => {
    const out: Record<string, string> = {};
    for (const who of WHO) {
      const me = await as(server, cloudId, who).get('/myself');
      expect(me.status, who).toBe(200);
      out[who] = me.body.accountId;
    }
    return out;
  };

  it('same cloudId, same accountIds, one user each, tokens work, issues kept, the counter continues', async () => {
    const store = await newStore();
    let server = await start(store, testSeed());
    const cloudId = await cloudIdOf(server);
    expect(cloudId).toBe(CLOUD_ID);
    const ids = await identities(server, cloudId);
    expect(await create(server, cloudId, 'Made before the restart')).toBe('ABC-1');
    const rows = await seededRows(server);
    expect(rows.users).toHaveLength(6);
    await server.close();
    for (const round of [2, 3]) {
      server = await start(store, testSeed());
      try {
        expect(await cloudIdOf(server)).toBe(cloudId);
        expect(await identities(server, cloudId)).toEqual(ids);
        expect(await seededRows(server)).toEqual(rows);
        for (const email of [...Object.values(EMAILS), 'bot@acme.test']) {
          const found = await as(server, cloudId, 'assigner').get(`/user/search?query=${encodeURIComponent(email)}`);
          expect(
            found.body.map((u: { emailAddress?: string; accountId: string }) => u.accountId),
            email,
          ).toHaveLength(1);
        }
        const first = await as(server, cloudId, 'executor').get('/issue/ABC-1?fields=summary,reporter');
        expect(first.body.fields.summary).toBe('Made before the restart');
        expect(first.body.fields.reporter.accountId).toBe(ids.assigner);
        const projects = await as(server, cloudId, 'assigner').get('/project/search');
        expect(projects.body.values.map((p: { key: string }) => p.key)).toEqual(['ABC', 'RST']);
        expect(await create(server, cloudId, `Made in round ${round}`)).toBe(`ABC-${round}`);
      } finally {
        await server.close();
      }
    }
  });

  it('a seed without cloudId gets a generated one that stays stable across restarts', async () => {
    const store = await newStore();
    const seed = () => {
      const s = testSeed() as AnySeed;
      delete (s.sites[0] as { cloudId?: string }).cloudId;
      return s;
    };
    const seen: string[] = [];
    for (let round = 0; round < 3; round++) {
      const server = await start(store, seed());
      try {
        const cloudId = await cloudIdOf(server);
        expect(cloudId).toMatch(/^[0-9a-f-]{36}$/);
        expect(cloudId).not.toBe(CLOUD_ID);
        seen.push(cloudId);
        expect((await as(server, cloudId, 'assigner').get('/myself')).body.emailAddress).toBe(EMAILS.assigner);
      } finally {
        await server.close();
      }
    }
    expect(new Set(seen).size).toBe(1);
  });

  it("a seed that would change a stored site's cloudId is refused with a clear message", async () => {
    const store = await newStore();
    await (await start(store, testSeed())).close();
    const changed = testSeed();
    changed.sites[0]!.cloudId = 'another-cloud-id';
    await expect(start(store, changed)).rejects.toThrow(/site "acme\.atlassian\.net" already exists with another cloud id/);
    const again = await start(store, testSeed());
    expect(await cloudIdOf(again)).toBe(CLOUD_ID);
    await again.close();
  });

  describe('the §5 example: a member who is not among "users"', () => {
    const assigner = (server: RunningServer) => signedIn(server, CLOUD_ID, 'assigner@acme.test', 'a-secret');
    /** The one user a search by e-mail finds. */
    const found = async (server: RunningServer, email: string) => {
      const r = await assigner(server).get(`/user/search?query=${encodeURIComponent(email)}`);
      expect(r.status).toBe(200);
      expect(r.body, email).toHaveLength(1);
      return r.body[0] as { accountId: string; displayName: string; active: boolean };
    };

    it('is a site user without tokens: found by user search, assignable in its role, and unable to sign in', async () => {
      const file = join(tmp, `example-${kind}.json`);
      writeFileSync(file, ARCHITECTURE_EXAMPLE);
      const server = await start(await newStore(), loadSeedFile(file));
      try {
        const executor = await found(server, 'executor@acme.test');
        expect(executor).toMatchObject({ displayName: 'executor', active: true });
        expect(executor.accountId).toMatch(/^[0-9a-f]{24}$/);
        const key = await create(server, CLOUD_ID, 'Assigned to a member without tokens', 'a-secret');
        expect((await assigner(server).put(`/issue/${key}/assignee`, { accountId: executor.accountId })).status).toBe(204);
        expect((await assigner(server).get(`/issue/${key}?fields=assignee`)).body.fields.assignee.accountId).toBe(executor.accountId);
        // The viewer holds its role too: found, but not assignable.
        const viewer = await found(server, 'viewer@acme.test');
        expect(viewer.displayName).toBe('viewer');
        const refused = await assigner(server).put(`/issue/${key}/assignee`, { accountId: viewer.accountId });
        expect(refused.status).toBe(400);
        expect(refused.body.errors.assignee).toMatch(/only project admins and members/);
        for (const token of ['a-secret', 's-secret', 'executor', 'anything']) {
          expect((await signedIn(server, CLOUD_ID, 'executor@acme.test', token).get('/myself')).status, token).toBe(401);
        }
      } finally {
        await server.close();
      }
    });

    it('loading the §5 example twice changes nothing', async () => {
      const store = await newStore();
      let server = await start(store, example());
      const rows = await seededRows(server);
      expect(rows.users).toHaveLength(4);
      expect(rows.tokens).toHaveLength(2);
      const people = async () =>
        (await Promise.all(['executor@acme.test', 'viewer@acme.test'].map((e) => found(server, e)))).map((u) => [u.accountId, u.displayName]);
      const ids = await people();
      await server.close();
      server = await start(store, example());
      try {
        expect(await seededRows(server)).toEqual(rows);
        expect(await people()).toEqual(ids);
      } finally {
        await server.close();
      }
    });

    it('a later seed that lists them under "users" adds their tokens and name to the same account; dropping them again removes nothing', async () => {
      const store = await newStore();
      let server = await start(store, example());
      const before = await found(server, 'executor@acme.test');
      await server.close();
      const upgraded = example();
      upgraded.sites[0].users.push({ email: 'executor@acme.test', displayName: 'Eve Executor', tokens: [{ token: 'e-secret' }] });
      server = await start(store, upgraded);
      try {
        const me = await signedIn(server, CLOUD_ID, 'executor@acme.test', 'e-secret').get('/myself');
        expect(me.status).toBe(200);
        expect(me.body).toMatchObject({ accountId: before.accountId, displayName: 'Eve Executor' });
        expect((await seededRows(server)).users).toHaveLength(4);
      } finally {
        await server.close();
      }
      server = await start(store, example());
      try {
        const me = await signedIn(server, CLOUD_ID, 'executor@acme.test', 'e-secret').get('/myself');
        expect(me.body).toMatchObject({ accountId: before.accountId, displayName: 'Eve Executor' });
      } finally {
        await server.close();
      }
      // The account id is the one the same e-mail gets as a listed user (same cloud id).
      const listed = await start(await newStore(), testSeed());
      try {
        expect((await as(listed, CLOUD_ID, 'executor').get('/myself')).body.accountId).toBe(before.accountId);
      } finally {
        await listed.close();
      }
    });

    it('a lead who is a member only is that person', async () => {
      const led = example();
      led.sites[0].projects[0].lead = 'viewer@acme.test';
      const server = await start(await newStore(), led);
      try {
        const db = server.store.kysely as unknown as Kysely<any>;
        const viewer = await db.selectFrom('users').select('id').where('email', '=', 'viewer@acme.test').executeTakeFirstOrThrow();
        const project = await db.selectFrom('projects').select('lead_user_id').where('key', '=', 'ABC').executeTakeFirstOrThrow();
        expect(project.lead_user_id).toBe(viewer.id);
      } finally {
        await server.close();
      }
    });
  });

  it('ARCHITECTURE §5 "roles": stored per project; loading twice changes nothing; a later seed changes a holder, and one that leaves roles out keeps them', async () => {
    const store = await newStore();
    const rolesOf = async (server: RunningServer) => {
      const db = server.store.kysely as unknown as Kysely<any>;
      const rows = await db
        .selectFrom('project_roles')
        .innerJoin('users', 'users.id', 'project_roles.user_id')
        .innerJoin('projects', 'projects.id', 'project_roles.project_id')
        .select(['projects.key', 'project_roles.role', 'users.email'])
        .orderBy('projects.key')
        .orderBy('project_roles.role')
        .execute();
      return rows.map((r) => `${r.key} ${r.role} ${r.email}`);
    };
    const named = ['ABC assigner assigner@acme.test', 'ABC executor executor@acme.test', 'ABC reviewer reviewer@acme.test'];
    for (const seed of [testSeed(), testSeed()]) {
      const server = await start(store, seed);
      try {
        expect(await rolesOf(server)).toEqual(named);
      } finally {
        await server.close();
      }
    }
    const changed = testSeed() as any;
    changed.sites[0].projects[0].roles = { reviewer: EMAILS.assigner.toUpperCase() };
    let server = await start(store, changed);
    try {
      expect(await rolesOf(server)).toEqual([named[0], named[1], 'ABC reviewer assigner@acme.test']);
    } finally {
      await server.close();
    }
    const without = testSeed() as any;
    delete without.sites[0].projects[0].roles;
    server = await start(store, without);
    try {
      expect(await rolesOf(server)).toEqual([named[0], named[1], 'ABC reviewer assigner@acme.test']);
    } finally {
      await server.close();
    }
  });
});

describe('ARCHITECTURE §4: tokens are stored only as hashes', () => {
  it('no row of any table, and no byte of the data folder, holds a token', async () => {
    const dir = mkdtempSync(join(tmp, 'hash-'));
    const server = await startServer({ port: 0, dataDir: dir, seed: parseSeed(testSeed()) });
    const me = await send(`${server.url}/ex/jira/${CLOUD_ID}/rest/api/3/myself`, { headers: { Authorization: basic(EMAILS.assigner, TOKENS.assigner) } });
    expect(me.status).toBe(200);
    await server.close();
    const db = new Database(join(dir, 'tracker.sqlite'), { readonly: true });
    const tables = (db.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[]).map((r) => r.name);
    expect(tables).toEqual(expect.arrayContaining(['sites', 'users', 'tokens', 'projects', 'issues', 'comments']));
    let tokenRows = 0;
    for (const table of tables) {
      const rows = db.prepare(`select * from "${table}"`).all();
      if (table === 'tokens') tokenRows = rows.length;
      const text = JSON.stringify(rows);
      for (const token of Object.values(TOKENS)) expect(text, `${table} holds ${token}`).not.toContain(token);
    }
    db.close();
    expect(tokenRows).toBe(Object.keys(TOKENS).length);
    for (const file of readdirSync(dir)) {
      const bytes = readFileSync(join(dir, file));
      for (const token of Object.values(TOKENS)) expect(bytes.includes(token), `${file} holds ${token}`).toBe(false);
    }
  });
});
