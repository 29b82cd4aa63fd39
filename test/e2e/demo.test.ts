import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstLineText } from '@jst/adf';
import { linesOf, runBash, startPrinted } from '../support/printed.js';

const root = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

/** The demo's 0600 credentials file, read back as the person would (`set -a; . demo.env`). */
const credentialsIn = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readFileSync(join(dir, 'demo.env'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );

const addressOf = (out: string, label: string): string => {
  const m = new RegExp(`^ {2}${label} +(\\S+)`, 'm').exec(out);
  if (!m) throw new Error(`no "${label}" line in:\n${out}`);
  return m[1]!;
};

interface World {
  tracker: string;
  codehost: string;
  cred: Record<string, string>;
}

/** Calls the tracker (Basic, as the assigner) and the code host (Bearer) the demo printed. */
function clients(w: World) {
  const basic = `Basic ${Buffer.from(`${w.cred.DEMO_ASSIGNER_EMAIL}:${w.cred.DEMO_ASSIGNER_TOKEN}`).toString('base64')}`;
  return {
    tracker: async (path: string) => {
      const res = await fetch(`${w.tracker}/rest/api/3${path}`, { headers: { Authorization: basic, Accept: 'application/json' } });
      expect(res.status, path).toBe(200);
      return res.json() as Promise<any>;
    },
    codehost: async (path: string) => {
      const res = await fetch(`${w.codehost}${path}`, {
        headers: { Authorization: `Bearer ${w.cred.DEMO_CODEHOST_TOKEN}`, Accept: 'application/vnd.github+json' },
      });
      expect(res.status, path).toBe(200);
      return res.json() as Promise<any>;
    },
  };
}

describe('npm start (docs/architecture.md §3, §14 "The demo"): all three phases on the embedded tracker and code host', () => {
  let clone: string;
  let dir: string;
  /** What `npm start -- --once` printed (the first test), for the test of its ending. */
  let once: { out: string; err: string } | undefined;
  beforeAll(() => {
    // A fresh clone of the committed project in a scratch folder, with this checkout's installed
    // dependencies (npm ci is the one step it skips): `npm start` builds it there.
    clone = mkdtempSync(join(tmpdir(), 'jst-clone-'));
    execFileSync('git', ['clone', '-q', '--no-hardlinks', root, join(clone, 'jst')], { stdio: 'ignore' });
    symlinkSync(join(root, 'node_modules'), join(clone, 'jst', 'node_modules'), 'dir');
    dir = join(clone, 'demo');
  }, 120_000);
  afterAll(() => {
    rmSync(clone, { recursive: true, force: true });
  });

  it('--once: plans, takes the first sub-task to Done with its pull request merged and both verdicts posted, prints the addresses', async () => {
    // Not spawnSync: a run of minutes that blocks the event loop starves the test runner's own calls.
    const r = await runBash(`npm start --silent -- --once --dir '${dir}'`, { ...process.env, NO_COLOR: '1' }, 240_000, join(clone, 'jst'));
    expect(r.status, r.stderr.slice(-4000)).toBe(0);
    once = { out: r.stdout, err: r.stderr };
    const out = r.stdout;
    // Each jst command is shown before it runs, in the form the person types.
    for (const shown of [
      '$ jst plan --plan',
      '$ jst start',
      '$ jst note',
      '$ jst pr',
      '--request-changes --summary',
      '--approve --summary',
      '/merge',
      '$ jst done ',
    ])
      expect(r.stderr).toContain(shown);
    expect(r.stderr.indexOf('--request-changes')).toBeLessThan(r.stderr.indexOf('--approve'));
    // ARCHITECTURE §22: the demo's seed links the repository to the tracker ("tracker".onMerge): the
    // merge moved the sub-task to Done as the reviewer, so the person's jst done finds it there.
    expect(out).toMatch(/was already "Done": nothing changed/);
    // The executor's second start shows what the reviewer asked for, from whom, before the task memory.
    const asked = out.indexOf('Changes requested by Demo Reviewer');
    expect(asked).toBeGreaterThan(0);
    expect(out.indexOf('CHANGES REQUESTED — Quote values', asked)).toBeGreaterThan(asked);
    expect(out.indexOf('Task memory (1 earlier note)', asked)).toBeGreaterThan(asked);
    for (const label of ['tracker', 'board', 'code host', 'pull request', 'tracker data', 'credentials', 'repository', 'worktrees'])
      expect(out).toMatch(new RegExp(`^ {2}${label} +\\S`, 'm'));
    expect(out).toContain('The server has stopped (--once)');
    // No key is hard-coded: every key printed comes from the plan's own worktrees.
    for (const file of ['scripts/demo.mjs', 'scripts/demo/text.mjs', 'scripts/demo/setup.mjs'])
      expect(readFileSync(join(root, file), 'utf8')).not.toMatch(/DEMO-\d/);
    expect(out).toMatch(/^To take (DEMO-\d+) through yourself/m);
    expect(statSync(join(dir, 'demo.env')).mode & 0o777).toBe(0o600);
    expect(out + r.stderr).not.toMatch(/demo-(assigner|executor|reviewer|codehost)-[0-9a-f]{24}/);

    // Through the REST interfaces (the server again, on the port the demo kept): a sub-task is Done,
    // its pull request merged, and the reviewer's two verdicts are on it and on the pull request.
    const again = spawn(process.execPath, [join(clone, 'jst', 'scripts/demo.mjs'), '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const second = await untilRunning(again);
      const tracker = addressOf(out, 'tracker');
      expect(addressOf(second, 'tracker')).toBe(tracker);
      const w: World = { tracker, codehost: addressOf(out, 'code host'), cred: credentialsIn(dir) };
      const c = clients(w);
      const pullUrl = addressOf(out, 'pull request');
      const n = Number(/\/pull\/(\d+)$/.exec(pullUrl)?.[1]);
      const pull = await c.codehost(`/repos/demo/app/pulls/${n}`);
      expect(pull).toMatchObject({ number: n, merged: true, state: 'closed', html_url: pullUrl });
      const key = /^(?:feature|hotfix)\/([A-Z][A-Z0-9_]*-\d+)-/.exec(pull.head.ref)?.[1];
      expect(key).toBeDefined();
      expect((await c.tracker(`/issue/${key}?fields=status`)).fields.status.name).toBe('Done');
      // ARCHITECTURE §21: the demo's workflow lets only the reviewer move an issue to Done; the
      // assigner (the project's admin) is not offered it.
      const next = /^To take (DEMO-\d+) through yourself/m.exec(out)![1];
      const offered = (await c.tracker(`/issue/${next}/transitions?includeUnavailableTransitions=true`)).transitions as any[];
      expect(offered.map((t) => [t.to.name, t.isAvailable])).toContainEqual(['Done', false]);
      const lines = ((await c.tracker(`/issue/${key}/comment?maxResults=100`)).comments as { body: unknown }[]).map((x) => firstLineText(x.body));
      expect(lines.some((l) => l.startsWith('CHANGES REQUESTED — '))).toBe(true);
      expect(lines.some((l) => l.startsWith('APPROVED — '))).toBe(true);
      const reviews = (await c.codehost(`/repos/demo/app/pulls/${n}/reviews`)) as { body: string }[];
      expect(reviews.map((x) => x.body.split('\n')[0]!.replace(/ — .*/, ''))).toEqual(expect.arrayContaining(['CHANGES REQUESTED', 'APPROVED']));
      // ARCHITECTURE §21: the approval is a real APPROVE by the reviewer's own code-host account,
      // and the base and production branches are protected.
      const approvals = (reviews as { body: string; state: string; user: { login: string } }[]).filter((x) => x.body.startsWith('APPROVED — '));
      expect(approvals.map((x) => [x.user.login, x.state])).toContainEqual(['demo-reviewer', 'APPROVED']);
      expect(pull.user.login).toBe('demo-executor');
      for (const branch of ['development', 'main']) {
        const rules = await c.codehost(`/repos/demo/app/branches/${branch}/protection`);
        expect(rules.required_pull_request_reviews).toMatchObject({ required_approving_review_count: 1, dismiss_stale_reviews: true });
        expect(rules.enforce_admins.enabled).toBe(true);
      }
    } finally {
      again.kill('SIGTERM');
      await new Promise((resolve) => again.once('close', resolve));
    }
  }, 300_000);

  it("--once ends with the lines that start the server again; they, the merge's curl lines and the next commands work as pasted into fresh shells", async () => {
    expect(once, 'the --once test ran first').toBeDefined();
    const { out, err } = once!;
    const fresh = () => ({ PATH: process.env.PATH ?? '', HOME: mkdtempSync(join(tmpdir(), 'jst-home-')), NO_COLOR: '1' });
    const restart = /^Start it again first[^\n]*\n((?: {2}[^\n]+\n)+)/m.exec(out)?.[1];
    expect(restart, out).toBeDefined();
    const server = await startPrinted(linesOf(restart!), fresh());
    try {
      expect(server.url).toBe(addressOf(out, 'tracker'));
      // The merge as the demo printed it (two lines on stderr): the token comes from demo.env, so the
      // code host answers about the pull request (merged already: not mergeable), never 401.
      const merge = err
        .split('\n')
        .filter((l) => l.startsWith('$ set -a; . ') || l.startsWith('$ curl '))
        .map((l) => l.slice(2));
      expect(merge).toHaveLength(2);
      const curl = await runBash(merge.join('\n'), fresh(), 30_000);
      expect(curl.status, curl.stderr).toBe(0);
      expect(curl.stdout).not.toContain('Bad credentials');
      expect(JSON.parse(curl.stdout)).toMatchObject({ message: 'Pull Request is not mergeable' });
      const [, next, block] = /^To take (\S+) through yourself[^\n]*\n((?: {2}[^\n]+\n)+)/m.exec(out) ?? [];
      expect(block, out).toBeDefined();
      const commands = linesOf(block!);
      const script = commands.map((c, i) => `${c} || { echo "line ${i + 1} failed" >&2; exit 1; }`).join('\n');
      const r = await runBash(script, fresh());
      expect(r.status, r.stderr.slice(-3000)).toBe(0);
      const c = clients({ tracker: server.url, codehost: addressOf(out, 'code host'), cred: credentialsIn(dir) });
      expect((await c.tracker(`/issue/${next!}?fields=status`)).fields.status.name).toBe('Done');
    } finally {
      await server.stop();
    }
  }, 300_000);

  it('the next commands it prints run as pasted, one by one, in a new shell with nothing else set', async () => {
    const demo = spawn(process.execPath, [join(clone, 'jst', 'scripts/demo.mjs'), '--dir', join(clone, 'demo2')], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const out = await untilRunning(demo);
      const block = /Next, take \S+ through yourself[^\n]*\n((?: {2}[^\n]+\n)+)/m.exec(out)?.[1];
      expect(block, out).toBeDefined();
      const commands = block!
        .split('\n')
        .filter(Boolean)
        .map((l) => l.slice(2));
      expect(commands[0]).toMatch(/^export PATH=/);
      expect(commands.some((c) => c.endsWith(' jst pr'))).toBe(true);
      // One new shell, nothing set but PATH and HOME, the lines in order exactly as printed: each must succeed.
      const home = mkdtempSync(join(tmpdir(), 'jst-home-'));
      const script = commands.map((c, i) => `${c} || { echo "line ${i + 1} failed" >&2; exit 1; }`).join('\n');
      const r = spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 180_000, env: { PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1' } });
      expect(r.status, r.stderr.slice(-3000)).toBe(0);
      expect(r.stdout).toContain('Status: In Progress');
      rmSync(home, { recursive: true, force: true });
    } finally {
      demo.kill('SIGTERM');
      await new Promise((resolve) => demo.once('close', resolve));
    }
  }, 300_000);
});

/** The demo's stdout up to its "keeps running" line. */
function untilRunning(child: ReturnType<typeof spawn>): Promise<string> {
  let out = '';
  let err = '';
  return new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      if (out.includes('keeps running')) resolve(out);
    });
    child.stderr!.setEncoding('utf8').on('data', (c: string) => {
      err += c;
    });
    child.on('close', (code) => reject(new Error(`demo exited ${code}:\n${out}\n${err.slice(-3000)}`)));
  });
}
