import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The GitHub CLI (Debian's `gh`, 2.23) against a jst-tracker served over TLS (ARCHITECTURE §23),
 * each harness in a scratch HOME of its own, so nothing of the machine's gh, git or certificate
 * set-up reaches it:
 *
 *   const gh = await ghHarness({ url: server.url, caFile, token });   // logs in when given a token
 *   const { code, stdout, stderr } = await gh(['api', '/repos/acme/app']);
 *   await gh(['pr', 'create', …], { input: 'body text', env: { GH_DEBUG: 'api' } });
 *   gh.dispose();
 *
 * What each run gets: `GH_HOST=127.0.0.1:PORT`, `SSL_CERT_FILE=<caFile>` (Go reads only that file:
 * the machine's authorities are not trusted), `GH_CONFIG_DIR`, `HOME` and `XDG_*` under the
 * scratch folder, `GH_NO_UPDATE_NOTIFIER=1`, `GH_PROMPT_DISABLED=1`, `NO_COLOR=1`, and no
 * `SSL_CERT_DIR`, `GIT_SSL_CAINFO`, `CURL_CA_BUNDLE`, `GH_TOKEN`, `GITHUB_TOKEN`,
 * `GH_ENTERPRISE_TOKEN`, `GITHUB_ENTERPRISE_TOKEN`, proxies (`HTTP(S)_PROXY`, `ALL_PROXY`,
 * `NO_PROXY`, either case) or `GH_DEBUG`, unless `env` of one run sets them (a value of
 * `undefined` removes a variable). The machine's `PATH` is kept (gh runs git from it).
 *
 * gh drops the port of a git remote's host, so name the repository with `-R 127.0.0.1:PORT/o/r`
 * (`gh.repo('o/r')` writes it).
 *
 * Missing gh: `ghAvailable()` is false and a test skips with a notice, except under
 * `JST_REQUIRE_GH=1` (set by .ci/run), where `ghAvailable()` throws and the test file fails.
 */

export interface GhResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface GhRunOptions {
  /** Written to gh's standard input (which is otherwise empty). */
  input?: string;
  /** Variables for this run only, over the harness's own; `undefined` removes one. */
  env?: Record<string, string | undefined>;
  /** Working folder (default the scratch HOME). */
  cwd?: string;
  /** Killed after this long (default 60 s); the result then has code -1. */
  timeoutMs?: number;
}

export interface Gh {
  (args: string[], options?: GhRunOptions): Promise<GhResult>;
  /** `127.0.0.1:PORT`: what GH_HOST is. */
  host: string;
  /** `127.0.0.1:PORT/<owner>/<repo>`: the form `-R` needs (gh drops a remote's port). */
  repo(slug: string): string;
  /** The scratch HOME (GH_CONFIG_DIR is `<home>/gh`). */
  home: string;
  /** The variables every run starts from. */
  env: Record<string, string>;
  /** Removes the scratch HOME. */
  dispose(): void;
}

export const GH = process.env.JST_GH ?? '/usr/bin/gh';

const CLEARED = [
  'SSL_CERT_DIR',
  'GIT_SSL_CAINFO',
  'CURL_CA_BUNDLE',
  'NODE_EXTRA_CA_CERTS',
  'GH_TOKEN',
  'GITHUB_TOKEN',
  'GH_ENTERPRISE_TOKEN',
  'GITHUB_ENTERPRISE_TOKEN',
  'GH_REPO',
  'GH_DEBUG',
  'DEBUG',
  'GH_PAGER',
  'PAGER',
  'GH_BROWSER',
  'BROWSER',
  'GH_EDITOR',
  'GIT_EDITOR',
  'VISUAL',
  'EDITOR',
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_NOSYSTEM',
];
const PROXIES = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY'];

let availability: { ok: boolean; version: string } | undefined;

/** Whether gh runs here (its `gh --version` line in `ghVersion()`); throws under JST_REQUIRE_GH=1 when it does not. */
export function ghAvailable(): boolean {
  if (!availability) {
    const r = spawnSync(GH, ['--version'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GH_NO_UPDATE_NOTIFIER: '1' } });
    availability = { ok: r.status === 0, version: r.status === 0 ? (r.stdout.split('\n')[0] ?? '') : '' };
    if (!availability.ok) {
      if (process.env.JST_REQUIRE_GH === '1')
        throw new Error(
          `JST_REQUIRE_GH=1 but ${GH} does not run (${r.error?.message ?? r.stderr.slice(0, 200)}): install it with \`apt-get install -y gh\`, or set JST_GH.`,
        );
      process.stderr.write(`notice: ${GH} not found; the gh tests are skipped (apt-get install -y gh, or JST_REQUIRE_GH=1 to fail instead)\n`);
    }
  }
  return availability.ok;
}

/** `gh version 2.23.0 (…)`, or '' without gh. */
export const ghVersion = (): string => (ghAvailable() ? availability!.version : '');

/** The host part of a server's URL: `https://127.0.0.1:PORT` → `127.0.0.1:PORT`. */
const hostOf = (url: string): string => new URL(url).host;

/**
 * A gh for the server at `url` (https://127.0.0.1:PORT) trusting `caFile`; with `token`, logged
 * in already (`gh auth login --with-token`, which must succeed).
 */
export async function ghHarness(options: { url: string; caFile: string; token?: string }): Promise<Gh> {
  const host = hostOf(options.url);
  const home = mkdtempSync(join(tmpdir(), 'jst-gh-'));
  for (const d of ['gh', 'config', 'cache', 'data', 'state']) mkdirSync(join(home, d), { recursive: true });
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || CLEARED.includes(k) || PROXIES.includes(k.toUpperCase()) || k.startsWith('XDG_') || k.startsWith('GIT_TRACE')) continue;
    base[k] = v;
  }
  Object.assign(base, {
    HOME: home,
    GH_CONFIG_DIR: join(home, 'gh'),
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_CACHE_HOME: join(home, 'cache'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_STATE_HOME: join(home, 'state'),
    GH_HOST: host,
    SSL_CERT_FILE: options.caFile,
    GH_NO_UPDATE_NOTIFIER: '1',
    GH_PROMPT_DISABLED: '1',
    GH_SPINNER_DISABLED: '1',
    NO_COLOR: '1',
    GIT_TERMINAL_PROMPT: '0',
  });

  const run = (args: string[], o: GhRunOptions = {}): Promise<GhResult> => {
    const env = Object.fromEntries(Object.entries({ ...base, ...o.env }).filter((e): e is [string, string] => e[1] !== undefined));
    return new Promise((resolve, reject) => {
      const child = spawn(GH, args, { cwd: o.cwd ?? home, env, stdio: ['pipe', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => err.push(b));
      const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 60_000);
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(o.input ?? '');
    });
  };
  const gh = Object.assign(run, {
    host,
    repo: (slug: string) => `${host}/${slug}`,
    home,
    env: base,
    dispose: () => rmSync(home, { recursive: true, force: true }),
  });
  if (options.token !== undefined) {
    const login = await gh(['auth', 'login', '--with-token'], { input: `${options.token}\n` });
    if (login.code !== 0) {
      gh.dispose();
      throw new Error(
        `gh auth login --with-token against ${host} failed (exit ${login.code}): ${login.stderr.replaceAll(options.token, '<token>').slice(0, 500)}`,
      );
    }
  }
  return gh;
}
