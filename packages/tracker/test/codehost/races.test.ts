import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopProcess } from '../../../../scripts/lib/local-services.mjs';
import { assertMatchesGitHub } from '../../../../test/support/github-openapi.js';
import { createTempDatabase, postgresAvailable, type TempDatabase } from '../../../../test/support/postgres.js';
import { git } from '../../../../test/support/repo.js';
import { spawnTracker, type TrackerProcess } from '../../../../test/support/tracker-process.js';
import { buildTracker } from '../support/cli-run.js';
import { CH_TOKENS, codehostTestSeed, initialCheckout, OWNER, REPO } from './support.js';

/**
 * ARCHITECTURE §14: several processes over one database and one --repos folder agree. Racing
 * creates of one head and base end 201 + 422 (never 500, never two); numbers stay unique; two
 * merges of one pull request give one 200; concurrent merges into one base all land, and every
 * commit a 200 said was merged is on the base (`git merge-base --is-ancestor`).
 */
interface Answer {
  status: number;
  body: any;
}

async function call(api: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const url = `${api}${path}`;
  const res = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${CH_TOKENS.rey}`,
      accept: 'application/vnd.github+json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  const parsed = text === '' ? undefined : JSON.parse(text);
  if (res.status >= 500) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  assertMatchesGitHub(method, url, res.status, parsed);
  return { status: res.status, body: parsed };
}

const postgres = await postgresAvailable();
const SETUPS: { name: string; kind: 'sqlite' | 'postgres'; processes: number }[] = [
  { name: 'SQLite, 1 process', kind: 'sqlite', processes: 1 },
  { name: 'SQLite, 2 processes on one file', kind: 'sqlite', processes: 2 },
  ...(postgres ? [{ name: 'PostgreSQL, 3 processes', kind: 'postgres' as const, processes: 3 }] : []),
];

describe.each(SETUPS)('ARCHITECTURE §14: processes over one database and one --repos folder agree ($name)', ({ kind, processes }) => {
  let trackers: TrackerProcess[] = [];
  let db: TempDatabase | undefined;
  let dir: string;
  let work: string;
  let bare: string;
  const api = (i: number) => `${trackers[i % trackers.length]!.url}/api/v3`;
  const repoPath = `/repos/${OWNER}/${REPO}`;

  /** A branch with one commit touching its own file, made from main and pushed. */
  const branch = (name: string, file = `${name.replace(/\W/g, '_')}.txt`) => {
    git(work, 'fetch', '--quiet', 'origin');
    git(work, 'checkout', '--quiet', '-B', name, 'origin/main');
    writeFileSync(join(work, file), `${name}\n`);
    git(work, 'add', '-A');
    git(work, 'commit', '--quiet', '-m', `work on ${name}`);
    git(work, 'push', '--quiet', '--force', 'origin', `${name}:${name}`);
    return git(work, 'rev-parse', 'HEAD');
  };

  beforeAll(async () => {
    buildTracker();
    dir = mkdtempSync(join(tmpdir(), 'jst-codehost-races-'));
    const seedFile = join(dir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(codehostTestSeed()));
    if (kind === 'postgres') db = await createTempDatabase();
    const repos = join(dir, 'repos');
    const args = [...(db ? ['--database-url', db.url] : ['--data', join(dir, 'data')]), '--repos', repos];
    trackers = [await spawnTracker([...args, '--seed', seedFile])];
    trackers.push(...(await Promise.all(Array.from({ length: processes - 1 }, () => spawnTracker(args)))));
    bare = join(repos, OWNER, `${REPO}.git`);
    work = initialCheckout(bare, join(dir, 'work'));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(trackers.map((t) => stopProcess(t.proc)));
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('two creates of one head and base at once: one 201 and one 422, never two pull requests', async () => {
    for (let round = 0; round < 6; round++) {
      const head = `feature/RACE-${round}-create`;
      branch(head);
      const answers = await Promise.all([0, 1].map((i) => call(api(round + i), 'POST', `${repoPath}/pulls`, { title: `race ${round}`, head, base: 'main' })));
      expect(answers.map((a) => a.status).sort()).toEqual([201, 422]);
      expect(answers.find((a) => a.status === 422)!.body.errors[0].message).toBe(`A pull request already exists for ${OWNER}:${head}.`);
      const listed = await call(api(0), 'GET', `${repoPath}/pulls?state=all&head=${OWNER}:${encodeURIComponent(head)}`);
      expect(listed.body).toHaveLength(1);
    }
  });

  it('creates from every process at once get distinct numbers with no gap', async () => {
    const heads = Array.from({ length: 8 }, (_, i) => `feature/RACE-N${i}-number`);
    for (const h of heads) branch(h);
    const before = (await call(api(0), 'GET', `${repoPath}/pulls?state=all&per_page=100`)).body.length as number;
    const answers = await Promise.all(heads.map((head, i) => call(api(i), 'POST', `${repoPath}/pulls`, { title: head, head, base: 'main' })));
    expect(answers.every((a) => a.status === 201)).toBe(true);
    const numbers = answers.map((a) => a.body.number as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 8 }, (_, i) => before + 1 + i));
  });

  it('one pull request merged from two processes at once: one 200, the other 405, one merge on the base', async () => {
    for (let round = 0; round < 4; round++) {
      const head = `feature/RACE-M${round}-twice`;
      branch(head);
      const pr = await call(api(0), 'POST', `${repoPath}/pulls`, { title: head, head, base: 'main' });
      const answers = await Promise.all([0, 1].map((i) => call(api(round + i), 'PUT', `${repoPath}/pulls/${pr.body.number}/merge`, {})));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 405]);
      const merges = git(bare, 'log', '--format=%s', 'main')
        .split('\n')
        .filter((s) => s.startsWith(`Merge pull request #${pr.body.number} `));
      expect(merges).toHaveLength(1);
      expect((await call(api(1), 'GET', `${repoPath}/pulls/${pr.body.number}`)).body.merged).toBe(true);
    }
  });

  it("many pull requests merged into one base at once: every 200's commits are on the base", async () => {
    const methods = ['merge', 'squash', 'rebase'] as const;
    const prs: { number: number; head: string }[] = [];
    for (let i = 0; i < 9; i++) {
      const head = `feature/RACE-C${i}-concurrent`;
      const sha = branch(head);
      prs.push({ number: (await call(api(i), 'POST', `${repoPath}/pulls`, { title: head, head, base: 'main' })).body.number, head: sha });
    }
    const answers = await Promise.all(
      prs.map((p, i) => call(api(i), 'PUT', `${repoPath}/pulls/${p.number}/merge`, { merge_method: methods[i % 3], sha: p.head })),
    );
    const ok = answers.map((a, i) => ({ a, p: prs[i]!, method: methods[i % 3] })).filter(({ a }) => a.status === 200);
    // A moved base is retried: every merge lands (a 409 would only come after many lost races in a row).
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(ok.length).toBeGreaterThan(0);
    for (const { a, p, method } of ok) {
      // The merge commit git published is on main; a plain merge keeps the head commit itself too.
      expect(() => git(bare, 'merge-base', '--is-ancestor', a.body.sha, 'main')).not.toThrow();
      if (method === 'merge') expect(() => git(bare, 'merge-base', '--is-ancestor', p.head, 'main')).not.toThrow();
      const view = await call(api(1), 'GET', `${repoPath}/pulls/${p.number}`);
      expect(view.body).toMatchObject({ merged: true, merge_commit_sha: a.body.sha });
    }
    // Every merged change's file is on main (squash and rebase rewrite commits, not content).
    const tree = git(bare, 'ls-tree', '--name-only', 'main').split('\n');
    for (const { p } of ok) expect(tree).toContain(`feature_RACE_C${prs.indexOf(p)}_concurrent.txt`);
  }, 60_000);
});
