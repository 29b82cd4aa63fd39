import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, parseCodehostSeed, parseSeed, RESERVED_OWNERS, SeedError, startServer } from '../../src/index.js';
import { spawnUntilReady, stopProcess } from '../../../../scripts/lib/local-services.mjs';
import { createTempDatabase, postgresAvailable } from '../../../../test/support/postgres.js';
import { git } from '../../../../test/support/repo.js';
import { testSeed } from '../../../../test/support/seed.js';
import { buildTracker, ROOT } from '../support/cli-run.js';
import { CH_TOKENS, codehostSection, codehostTestSeed, octokitFor } from './support.js';

/** ARCHITECTURE §14 "Seed" (with §5): the seed's "codehost" section. */
const section = (patch: (s: ReturnType<typeof codehostSection>) => unknown) => {
  const s = codehostSection();
  patch(s);
  return s;
};

function seedError(json: unknown): SeedError {
  try {
    parseCodehostSeed(json, 'seed.json');
  } catch (e) {
    if (e instanceof SeedError) return e;
    throw e;
  }
  throw new Error('the seed was accepted; a SeedError was expected');
}

const postgres = await postgresAvailable();

describe('ARCHITECTURE §14 seed: the "codehost" section is checked, each error naming its path', () => {
  it.each([['api'], ['rest'], ['ex'], ['browse'], ['_board'], ['_edge'], ['API'], ['login'], ['assets']])(
    "an owner that is one of the server's own first path segments (%s) is refused",
    (owner) => {
      const e = seedError(
        section((s) => {
          s.repos[0]!.owner = owner;
        }),
      );
      expect(e.message).toMatch(/^seed\.json: \$\.codehost\.repos\[0\]\.owner: /);
      expect(e.message).toContain('first path segments');
    },
  );

  it.each([
    [
      'a bad login',
      (s: any) => {
        s.users[0].login = '-bad';
      },
      '$.codehost.users[0].login',
    ],
    [
      'a login twice',
      (s: any) => {
        s.users[1].login = 'ADA';
      },
      '$.codehost.users[1].login',
    ],
    [
      'a collaborator who is no user',
      (s: any) => {
        s.repos[0].collaborators[0].login = 'nobody';
      },
      '$.codehost.repos[0].collaborators[0].login',
    ],
    [
      'an unknown permission',
      (s: any) => {
        s.repos[0].collaborators[0].permission = 'owner';
      },
      '$.codehost.repos[0].collaborators[0].permission',
    ],
    [
      'a branch git refuses',
      (s: any) => {
        s.repos[0].defaultBranch = 'a..b';
      },
      '$.codehost.repos[0].defaultBranch',
    ],
    [
      'a repository name ending in .git',
      (s: any) => {
        s.repos[0].name = 'app.git';
      },
      '$.codehost.repos[0].name',
    ],
    [
      'an unknown setting',
      (s: any) => {
        s.repos[0].private = true;
      },
      '$.codehost.repos[0].private',
    ],
    [
      'ARCHITECTURE §21: a protected branch git would not take',
      (s: any) => {
        s.repos[0].protect = [{ branch: 'a..b' }];
      },
      '$.codehost.repos[0].protect[0].branch',
    ],
    [
      "ARCHITECTURE §21: requiredApprovals past GitHub's 6",
      (s: any) => {
        s.repos[0].protect = [{ branch: 'main', requiredApprovals: 7 }];
      },
      '$.codehost.repos[0].protect[0].requiredApprovals',
    ],
    [
      'ARCHITECTURE §21: a protection flag that is not true or false',
      (s: any) => {
        s.repos[0].protect = [{ branch: 'main', dismissStaleReviews: 'yes' }];
      },
      '$.codehost.repos[0].protect[0].dismissStaleReviews',
    ],
    [
      'ARCHITECTURE §21: an unknown protection key',
      (s: any) => {
        s.repos[0].protect = [{ branch: 'main', requireSignatures: true }];
      },
      '$.codehost.repos[0].protect[0].requireSignatures',
    ],
    [
      'ARCHITECTURE §21: one branch protected twice',
      (s: any) => {
        s.repos[0].protect = [{ branch: 'main' }, { branch: 'main' }];
      },
      '$.codehost.repos[0].protect[1].branch',
    ],
    [
      'a token with a space',
      (s: any) => {
        s.users[0].tokens[0].token = 'a b';
      },
      '$.codehost.users[0].tokens[0].token',
    ],
  ])('%s', (_what, patch, path) => {
    expect(seedError(section(patch)).message).toContain(`seed.json: ${path}: `);
  });

  it('a token listed twice is refused without showing it', () => {
    const e = seedError(
      section((s) => {
        s.users[1]!.tokens = [{ token: CH_TOKENS.ada }];
      }),
    );
    expect(e.message).toContain('$.codehost.users[1].tokens[0].token');
    expect(e.message).not.toContain(CH_TOKENS.ada);
  });

  it('the tracker\'s seed takes "codehost" beside "sites" and hands it over unread; other keys stay refused', () => {
    expect(parseSeed(codehostTestSeed()).codehost).toEqual(codehostSection());
    expect(() => parseSeed({ ...testSeed(), github: {} })).toThrow(/\$\.github: unknown setting/);
  });
});

describe('ARCHITECTURE §14 seed: loading', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'jst-codehost-seed-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('every first path segment the server routes is a reserved owner', async () => {
    const server = await startServer({ dataDir: join(root, 'routes'), seed: parseSeed(codehostTestSeed()) });
    try {
      const firsts = new Set(server.app.routeTable.map((r) => r.url.split('/')[1]!).filter((s) => s !== '' && !s.startsWith(':')));
      for (const first of firsts) expect(RESERVED_OWNERS).toContain(first.toLowerCase());
    } finally {
      await server.close();
    }
  });

  it('loading twice changes nothing; tokens are stored hashed; a listed repository is created empty on disk', async () => {
    const data = join(root, 'twice');
    const section = codehostSection();
    // ARCHITECTURE §21: a protected branch is seeded idempotently too.
    (section.repos[0] as Record<string, unknown>).protect = [{ branch: 'main', requiredApprovals: 1 }];
    const seed = parseSeed({ ...codehostTestSeed(), codehost: section });
    const snapshot = async () => {
      const db = openDb({ dataDir: data });
      try {
        const rows: Record<string, unknown[]> = {};
        for (const table of ['ch_users', 'ch_tokens', 'ch_repos', 'ch_collaborators', 'ch_meta', 'ch_protections']) {
          rows[table] = (await sql`select * from ${sql.table(table)} order by 1`.execute(db.kysely)).rows;
        }
        return rows;
      } finally {
        await db.close();
      }
    };
    for (let i = 0; i < 2; i++) await (await startServer({ dataDir: data, seed })).close();
    const first = await snapshot();
    await (await startServer({ dataDir: data, seed })).close();
    expect(await snapshot()).toEqual(first);
    expect(first.ch_tokens).toHaveLength(4);
    expect(first.ch_protections).toHaveLength(1);
    const stored = JSON.stringify(first.ch_tokens);
    for (const token of Object.values(CH_TOKENS)) expect(stored).not.toContain(token);
    expect(readFileSync(join(data, 'tracker.sqlite')).includes(Buffer.from(CH_TOKENS.ada))).toBe(false);
    const bare = join(data, 'repos', 'acme', 'app.git');
    expect(existsSync(bare)).toBe(true);
    expect(git(bare, 'rev-parse', '--is-bare-repository')).toBe('true');
    expect(git(bare, 'symbolic-ref', 'HEAD')).toBe('refs/heads/main');
  });
});

describe('ARCHITECTURE §14 storage: --database-url needs --repos for the code host', () => {
  beforeAll(() => buildTracker());

  it('a seed with a code-host section and --database-url without --repos: exit 2 naming --repos', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jst-codehost-cli-'));
    try {
      const seedFile = join(dir, 'seed.json');
      writeFileSync(seedFile, JSON.stringify(codehostTestSeed()));
      const { DATABASE_URL: _, ...env } = process.env;
      const r = spawnSync(
        process.execPath,
        [join(ROOT, 'packages/tracker/bin/jst-tracker.js'), 'serve', '--port', '0', '--database-url', 'postgres://127.0.0.1:1/none', '--seed', seedFile],
        { cwd: dir, env, encoding: 'utf8', timeout: 20_000 },
      );
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('--repos');
      expect(r.stdout).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without git on PATH: the tracker still serves and the code host says it is off; with a code-host seed the start stops (exit 1) naming git', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jst-codehost-nogit-'));
    try {
      const { DATABASE_URL: _, ...env } = process.env;
      const noGit = { ...env, PATH: join(dir, 'empty-bin') };
      const bin = join(ROOT, 'packages/tracker/bin/jst-tracker.js');
      const seedFile = join(dir, 'seed.json');
      writeFileSync(seedFile, JSON.stringify(codehostTestSeed()));
      const refused = spawnSync(process.execPath, [bin, 'serve', '--port', '0', '--data', join(dir, 'a'), '--seed', seedFile], {
        cwd: dir,
        env: noGit,
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/needs git 2\.38 or newer/);
      const plain = join(dir, 'plain.json');
      writeFileSync(plain, JSON.stringify(testSeed()));
      const started = spawnUntilReady(
        process.execPath,
        [bin, 'serve', '--port', '0', '--data', join(dir, 'b'), '--seed', plain],
        /jst-tracker listening on (http:\/\/\S+)/,
        { name: 'jst-tracker', cwd: dir, env: { PATH: noGit.PATH }, timeoutMs: 20_000 },
      );
      const t = { url: (await started.ready)[1]!, proc: started.proc };
      try {
        const res = await fetch(`${t.url}/api/v3/user`, { headers: { authorization: 'Bearer x' } });
        expect(res.status).toBe(503);
        expect(((await res.json()) as { message: string }).message).toMatch(/^The code host is off: .*git 2\.38/);
        expect((await fetch(`${t.url}/_edge/tenant_info`)).status).toBe(200);
      } finally {
        await stopProcess(t.proc);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--help names --repos and --push-limit with examples', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'packages/tracker/bin/jst-tracker.js'), '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('--repos DIR');
    expect(r.stdout).toContain('--push-limit MB');
    expect(r.stdout).toContain('/api/v3');
  });

  it.runIf(postgres)('without --repos and without a code-host seed the tracker serves alone; the code host answers a clear 503', async () => {
    const db = await createTempDatabase();
    try {
      const server = await startServer({ databaseUrl: db.url, seed: parseSeed(testSeed()) });
      try {
        expect(server.codehost.git).toBeNull();
        const res = await fetch(`${server.url}/api/v3/user`, { headers: { authorization: 'Bearer anything' } });
        expect(res.status).toBe(503);
        const body = (await res.json()) as { message: string; documentation_url: string };
        expect(body.message).toContain('--repos');
        expect(body.documentation_url).toMatch(/^https:\/\/docs\.github\.com\//);
        const tracker = await fetch(`${server.url}/_edge/tenant_info`);
        expect(tracker.status).toBe(200);
      } finally {
        await server.close();
      }
    } finally {
      await db.drop();
    }
  });

  it('the code host with a seed but no token of its own: 401 for any token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jst-codehost-empty-'));
    try {
      const server = await startServer({ dataDir: dir, seed: parseSeed(testSeed()) });
      try {
        const r = await octokitFor(`${server.url}/api/v3`, CH_TOKENS.ada)
          .rest.users.getAuthenticated()
          .catch((e: unknown) => e as { status: number });
        expect(r.status).toBe(401);
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
