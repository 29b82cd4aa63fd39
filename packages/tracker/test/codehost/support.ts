import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Octokit } from '@octokit/rest';
import { localCertificates, parseSeed, startServer, type RunningServer, type ServerOptions } from '../../src/index.js';
import { hookOctokit } from '../../../../test/support/github-openapi.js';
import { fetchTrusting } from '../../../../test/support/https-fetch.js';
import { createTempDatabase, type TempDatabase } from '../../../../test/support/postgres.js';
import { git } from '../../../../test/support/repo.js';
import { testSeed } from '../../../../test/support/seed.js';
import type { StoreKind } from '../../../../test/support/tracker.js';

/** The code host's people in the tests: an author, an admin reviewer, a reader and a stranger. */
export const CH_TOKENS = {
  ada: 'ch-ada-0a1b2c3d4e5f',
  rey: 'ch-rey-6a7b8c9d0e1f',
  vic: 'ch-vic-2a3b4c5d6e7f',
  olga: 'ch-olga-8a9b0c1d2e3f',
} as const;
export type ChWho = keyof typeof CH_TOKENS;

export const OWNER = 'acme';
export const REPO = 'app';

export function codehostSection() {
  return {
    users: [
      { login: 'ada', name: 'Ada Author', tokens: [{ token: CH_TOKENS.ada }] },
      { login: 'rey', name: 'Rey Reviewer', tokens: [{ token: CH_TOKENS.rey }] },
      { login: 'vic', tokens: [{ token: CH_TOKENS.vic }] },
      { login: 'olga', name: 'Olga Outsider', tokens: [{ token: CH_TOKENS.olga }] },
    ],
    repos: [
      {
        owner: OWNER,
        name: REPO,
        defaultBranch: 'main',
        collaborators: [
          { login: 'ada', permission: 'write' },
          { login: 'rey', permission: 'admin' },
          { login: 'vic', permission: 'read' },
        ],
      },
    ],
  };
}

export const codehostTestSeed = () => ({ ...testSeed(), codehost: codehostSection() });

export interface CodehostServer {
  server: RunningServer;
  url: string;
  api: string;
  reposDir: string;
  /** The bare repository of acme/app on disk. */
  bare: string;
  /** With `tls: true`: the local authority the server's certificate is signed by (SSL_CERT_FILE for gh). */
  caFile?: string;
  /** An Octokit for one of the people, every answer checked against GitHub's description. */
  as(who: ChWho): Octokit;
  /** A clone of acme/app (straight from the folder) to make branches in. */
  work: string;
  /** Commits `files` on `branch` (made from `from`, default main) and pushes it; returns the commit. */
  commit(branch: string, files: Record<string, string>, message?: string, from?: string): string;
  close(): Promise<void>;
}

/** With `caFile`, over HTTPS trusting that authority (a server under `--tls`). */
export function octokitFor(api: string, token: string | undefined, caFile?: string): Octokit {
  const request = { retries: 0, ...(caFile === undefined ? {} : { fetch: fetchTrusting(caFile) }) };
  return hookOctokit(new Octokit({ baseUrl: api, ...(token === undefined ? {} : { auth: token }), request }));
}

/** A real server with the code host on (repositories under a temporary folder), acme/app with one commit on main. */
/** A clone of an empty bare repository at `work` whose first commit (README.md) is pushed as main. */
export function initialCheckout(bare: string, work: string): string {
  git(dirname(work), 'clone', '--quiet', bare, work);
  git(work, 'config', 'user.name', 'Fixture');
  git(work, 'config', 'user.email', 'fixture@example.test');
  git(work, 'checkout', '--quiet', '-b', 'main');
  writeFileSync(join(work, 'README.md'), 'hello\n');
  git(work, 'add', '.');
  git(work, 'commit', '--quiet', '-m', 'initial');
  git(work, 'push', '--quiet', 'origin', 'main');
  return work;
}

/** With `tls: true` it serves HTTPS (ARCHITECTURE §23) with a local authority made under its temporary folder. */
export async function startCodehostServer(
  kind: StoreKind,
  options: { seed?: unknown; server?: Partial<ServerOptions>; tls?: boolean } = {},
): Promise<CodehostServer> {
  const root = mkdtempSync(join(tmpdir(), 'jst-codehost-test-'));
  const tls = options.tls ? localCertificates(join(root, 'tls-data')) : undefined;
  let db: TempDatabase | undefined;
  if (kind === 'postgres') db = await createTempDatabase();
  const reposDir = join(root, 'repos');
  const server = await startServer({
    port: 0,
    ...(db ? { databaseUrl: db.url, poolSize: 4 } : { dataDir: join(root, 'data') }),
    repos: reposDir,
    seed: parseSeed(options.seed ?? codehostTestSeed()),
    ...(tls ? { tls } : {}),
    ...options.server,
  });
  const bare = join(reposDir, OWNER, `${REPO}.git`);
  const work = initialCheckout(bare, join(root, 'work'));
  const api = `${server.url}/api/v3`;
  return {
    server,
    url: server.url,
    api,
    reposDir,
    bare,
    work,
    ...(tls?.caFile ? { caFile: tls.caFile } : {}),
    as: (who) => octokitFor(api, CH_TOKENS[who], tls?.caFile),
    commit(branch, files, message = `change ${branch}`, from = 'main') {
      git(work, 'fetch', '--quiet', 'origin');
      const exists = git(work, 'ls-remote', '--heads', 'origin', branch) !== '';
      git(work, 'checkout', '--quiet', '-B', branch, exists ? `origin/${branch}` : `origin/${from}`);
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(dirname(join(work, file)), { recursive: true });
        writeFileSync(join(work, file), text);
      }
      git(work, 'add', '-A');
      git(work, 'commit', '--quiet', '-m', message);
      git(work, 'push', '--quiet', '--force', 'origin', `${branch}:${branch}`);
      return git(work, 'rev-parse', 'HEAD');
    },
    async close() {
      await server.close();
      if (db) await db.drop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The status of a request Octokit refused, with its body (or the error if it was no HTTP refusal). */
export async function refusal(call: Promise<unknown>): Promise<{ status: number; data: any; headers: Record<string, string | undefined> }> {
  try {
    await call;
  } catch (e) {
    const err = e as { status?: number; response?: { data: unknown; headers: Record<string, string | undefined> } };
    if (err.status !== undefined && err.response) return { status: err.status, data: err.response.data, headers: err.response.headers };
    throw e;
  }
  throw new Error('the request succeeded; a refusal was expected');
}
