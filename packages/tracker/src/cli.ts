import { HookAllow } from './codehost/hooks/allow.js';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { closestOption } from './cli-suggest.js';
import { DEFAULT_BODY_LIMIT } from './domain/limits.js';
import { loadSeedFile, SeedError, type Seed } from './domain/seed.js';
import { DEFAULT_PUSH_LIMIT_MB } from './codehost/domain/limits.js';
import { DEFAULT_GIT_PROCESSES } from './codehost/git/slots.js';
import { DEFAULT_BODY_IDLE_MS } from './kit/body-idle.js';
import { join, resolve } from 'node:path';
import { ReposRequiredError } from './repos-required.js';
import { loadTlsFiles, TlsFileError, type TlsMaterial } from './tls/files.js';
import { localCertificates } from './tls/local-ca.js';
import { capYoungGeneration } from './young-generation.js';

/** V8's young generation per semi-space for a serving process (young-generation.ts says why). */
const YOUNG_GENERATION_SEMI_SPACE_MIB = 4;

const HELP = `jst-tracker — a Jira Cloud REST v3 compatible issue tracker (SQLite or PostgreSQL),
and a code host in GitHub's REST shape with git over HTTP, on the same port

Usage:
  jst-tracker serve [--host 127.0.0.1] [--port 8080] [--data DIR] [--database-url URL] [--seed FILE]
                    [--repos DIR] [--push-limit MB] [--git-processes N] [--git-processes-per-user N]
                    [--body-idle-timeout SECONDS] [--hook-allow CIDR|HOST[,…]]
                    [--tls [--tls-cert FILE --tls-key FILE]]
  jst-tracker --help | --version

Options (serve):
  --host HOST          address to listen on (default 127.0.0.1)
  --port PORT          port; 0 picks a free one (default 8080)
  --data DIR           SQLite data folder (default ./.jst-tracker)
  --database-url URL   postgres://… to use PostgreSQL instead (or DATABASE_URL)
  --seed FILE          load sites, users, tokens and projects from a seed file (idempotent);
                       its "codehost" section seeds the code host's users and repositories
  --repos DIR          the code host's bare repositories, DIR/<owner>/<repo>.git
                       (default <data>/repos; with --database-url there is no default: give
                       every process the same DIR, or the code host is off)
  --push-limit MB      largest git push the code host accepts (default ${DEFAULT_PUSH_LIMIT_MB})
  --git-processes N    git processes the code host runs at once, git over HTTP and the pages'
                       and REST's git work together (default ${DEFAULT_GIT_PROCESSES}; more wait: 503)
  --git-processes-per-user N
                       of those, the most one user holds at once (default a quarter of
                       --git-processes; more: 429)
  --hook-allow LIST    where webhooks may be delivered: address ranges, addresses and host
                       names, comma-separated (default 127.0.0.0/8,::1/128, loopback only)
  --body-idle-timeout SECONDS
                       a request body that sends nothing this long is cut with 408 (default ${DEFAULT_BODY_IDLE_MS / 1000})
  --tls                serve HTTPS on the port (every interface: REST, code host, git, pages).
                       Without --tls-cert/--tls-key: a local certificate authority made once
                       under <data>/tls/ (ca.pem; also with --database-url), whose use is printed
  --tls-cert FILE      the server's certificate (PEM; its chain may follow); implies --tls
  --tls-key FILE       its private key (PEM, unencrypted); implies --tls
  --log-level LEVEL    fatal|error|warn|info|debug|trace|silent (default warn; logs go to stderr)
  --trust-proxy        trust X-Forwarded-* headers from a load balancer
  --read-cache MB      memory for repeated GET /issue replies (default 8; 0 = off;
                       off too at --log-level info or debug)
  --body-limit MB      largest request body; a larger one is refused with 413 before it is read
                       (default 1; docs/limits.md lists every limit)

Code host (docs/codehost.md): REST at http://HOST:PORT/api/v3 (GitHub Enterprise Server's
layout; Authorization: Bearer TOKEN), GraphQL at http://HOST:PORT/api/graphql (what gh's pr
commands send), git at http://HOST:PORT/<owner>/<repo>.git (any user name, the token as
password), pull request pages at http://HOST:PORT/<owner>/<repo>/pull/<n>.

Output: the ready line goes to stdout, logs and errors to stderr.

Examples:
  jst-tracker serve --port 0 --seed seed.json
  DATABASE_URL=postgres://postgres@127.0.0.1/jst jst-tracker serve --port 8080
  curl -u assigner@acme.test:TOKEN http://127.0.0.1:8080/rest/api/3/myself
  curl -H "Authorization: Bearer TOKEN" http://127.0.0.1:8080/api/v3/user
  git clone http://x-access-token:TOKEN@127.0.0.1:8080/demo/app.git
  jst-tracker serve --tls --seed seed.json     # then SSL_CERT_FILE=.jst-tracker/tls/ca.pem gh …
  jst-tracker serve --database-url postgres://postgres@db/jst --repos /srv/jst/repos --seed seed.json
`;

function version(): string {
  const require = createRequire(import.meta.url);
  return (require('../package.json') as { version: string }).version;
}

const OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string' },
  data: { type: 'string' },
  'database-url': { type: 'string' },
  seed: { type: 'string' },
  'log-level': { type: 'string' },
  'trust-proxy': { type: 'boolean' },
  'read-cache': { type: 'string' },
  'body-limit': { type: 'string' },
  repos: { type: 'string' },
  'push-limit': { type: 'string' },
  'hook-allow': { type: 'string' },
  'git-processes': { type: 'string' },
  'git-processes-per-user': { type: 'string' },
  'body-idle-timeout': { type: 'string' },
  tls: { type: 'boolean' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A command-line mistake: said on stderr, exit 2. */
class UsageError extends Error {}

function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (e) {
    const code = (e as { code?: string }).code;
    // Node names only the option (never a value that followed it); suggest the closest one.
    const unknown = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /Unknown option '(-[^']{0,60})/.exec((e as Error).message)?.[1] : undefined;
    if (unknown === undefined) throw new UsageError(`${(e as Error).message}. Run jst-tracker --help for the options.`);
    const near = closestOption(unknown.replace(/^-+/, ''), Object.keys(OPTIONS));
    throw new UsageError(`unknown option ${unknown}.${near ? ` Did you mean --${near}?` : ''} Run jst-tracker --help for the options.`);
  }
}

/** A value as an error may show it: short plain words and numbers as they are, anything else only by its length. */
const describeValue = (value: string): string =>
  /^[\w.+-]{0,12}$/.test(value) && !/\d.*[A-Za-z]|[A-Za-z].*\d/.test(value) ? `"${value}"` : `a value of ${value.length} characters`;
const shown = (word: string): string => (/^[a-z-]{1,20}$/.test(word) ? word : `(${word.length} characters)`);

/** A number of megabytes from `min` to `max`, or undefined when the option is absent. */
function megabytes(value: string | undefined, option: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max) {
    throw new UsageError(`${option} must be a number of megabytes from ${min} to ${max} (got ${describeValue(value)}).`);
  }
  return n;
}

/** A whole number from `min` to `max`, or undefined when the option is absent. */
function wholeNumber(value: string | undefined, option: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < min || n > max)
    throw new UsageError(`${option} must be a whole number from ${min} to ${max} (got ${describeValue(value)}).`);
  return n;
}

/** `--tls`, `--tls-cert FILE --tls-key FILE`: the certificate to serve, or undefined for plain HTTP. */
function tlsOf(values: { tls?: boolean; 'tls-cert'?: string; 'tls-key'?: string }, dataDir: string): TlsMaterial | undefined {
  const cert = values['tls-cert'];
  const key = values['tls-key'];
  if (cert !== undefined && key === undefined) throw new UsageError('--tls-cert needs --tls-key FILE (the private key of that certificate).');
  if (key !== undefined && cert === undefined) throw new UsageError('--tls-key needs --tls-cert FILE (the certificate of that key).');
  if (cert !== undefined && key !== undefined) {
    if (cert.trim() === '' || key.trim() === '') throw new UsageError('--tls-cert and --tls-key need file names.');
    return loadTlsFiles(cert, key);
  }
  if (!values.tls) return undefined;
  try {
    return localCertificates(dataDir);
  } catch (e) {
    throw new Error(`--tls: cannot make or read the local certificate authority under ${join(dataDir, 'tls')}: ${(e as Error).message}`, { cause: e });
  }
}

/** How to make each client trust the local authority (stderr: stdout carries only the ready line). */
const trustHint = (ca: string): string =>
  [
    `jst-tracker: HTTPS with the local certificate authority ${ca}. Trust it with:`,
    `  gh:                SSL_CERT_FILE=${ca} gh …`,
    `  jst, Node clients: NODE_EXTRA_CA_CERTS=${ca} …`,
    `  git:               git -c http.sslCAInfo=${ca} … (or GIT_SSL_CAINFO=${ca})`,
    `  curl:              curl --cacert ${ca} …`,
    '',
  ].join('\n');

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv);
  if (values.version) {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  if (values.help || positionals.length === 0) {
    process.stdout.write(HELP);
    return values.help ? 0 : 2;
  }
  // Arguments are not echoed back whole: one may be a secret pasted in the wrong place.
  if (positionals[0] !== 'serve') throw new UsageError(`unknown command "${shown(positionals[0]!)}". Run jst-tracker --help.`);
  if (positionals.length > 1)
    throw new UsageError(`unknown command: serve takes only options, not ${positionals.length - 1} more argument(s). Run jst-tracker --help.`);
  const port = Number(values.port ?? 8080);
  if (!/^\d+$/.test(values.port ?? '8080') || port > 65535)
    throw new UsageError(`--port must be a whole number from 0 to 65535 (got ${describeValue(values.port!)}).`);
  const logLevel = values['log-level'] ?? 'warn';
  if (!LOG_LEVELS.includes(logLevel)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')} (got ${describeValue(logLevel)}).`);
  const readCache = megabytes(values['read-cache'], '--read-cache', 0, 4096);
  const bodyLimit = megabytes(values['body-limit'], '--body-limit', 0.001, 1024) ?? DEFAULT_BODY_LIMIT / 1024 / 1024;
  const pushLimit = megabytes(values['push-limit'], '--push-limit', 0.001, 1024 * 1024);
  const gitProcesses = wholeNumber(values['git-processes'], '--git-processes', 1, 4096);
  const gitProcessesPerUser = wholeNumber(values['git-processes-per-user'], '--git-processes-per-user', 1, 4096);
  if (gitProcessesPerUser !== undefined && gitProcessesPerUser > (gitProcesses ?? DEFAULT_GIT_PROCESSES))
    throw new UsageError(`--git-processes-per-user (${gitProcessesPerUser}) must not be more than --git-processes (${gitProcesses ?? DEFAULT_GIT_PROCESSES}).`);
  const bodyIdle = wholeNumber(values['body-idle-timeout'], '--body-idle-timeout', 1, 3600);
  if (values.repos !== undefined && values.repos.trim() === '') throw new UsageError("--repos needs a folder (the code host's bare repositories).");
  if (values['hook-allow'] !== undefined) {
    try {
      HookAllow.parse(values['hook-allow']);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  let seed: Seed | undefined;
  if (values.seed) seed = loadSeedFile(values.seed);
  const dataDir = values.data ?? '.jst-tracker';
  // Checked before anything is opened or written: a bad file leaves no database and no <data>/tls/.
  const tls = tlsOf(values, dataDir);
  const databaseUrl = values['database-url'] ?? process.env.DATABASE_URL ?? undefined;
  // ARCHITECTURE §14: with PostgreSQL every process must see one repository folder, so it is never guessed.
  if (databaseUrl && values.repos === undefined && seed?.codehost !== undefined) throw new ReposRequiredError();
  capYoungGeneration(YOUNG_GENERATION_SEMI_SPACE_MIB);
  const host = values.host ?? '127.0.0.1';
  // The server (Fastify, both stores, the code host) is loaded only to serve: --help, --version and a
  // refused argument answer without it (about 0.5 s of module loading on a 2-CPU machine).
  const { startServer } = await import('./server.js');
  const server = await startServer({
    host,
    port,
    dataDir,
    databaseUrl,
    seed,
    ...(values.seed ? { seedFile: values.seed } : {}),
    ...(values.repos !== undefined ? { repos: values.repos } : {}),
    ...(pushLimit === undefined ? {} : { pushLimit: Math.round(pushLimit * 1024 * 1024) }),
    ...(gitProcesses === undefined ? {} : { gitProcesses }),
    ...(gitProcessesPerUser === undefined ? {} : { gitProcessesPerUser }),
    ...(bodyIdle === undefined ? {} : { bodyIdleMs: bodyIdle * 1000 }),
    ...(values['hook-allow'] !== undefined ? { hookAllow: values['hook-allow'] } : {}),
    logLevel,
    trustProxy: values['trust-proxy'] ?? false,
    ...(readCache === undefined ? {} : { readCacheBytes: Math.round(readCache * 1024 * 1024) }),
    bodyLimit: Math.round(bodyLimit * 1024 * 1024),
    ...(tls ? { tls } : {}),
  }).catch((e: unknown) => {
    const code = (e as { code?: string }).code;
    if (code === 'EADDRINUSE')
      throw new Error(
        `port ${port} on ${host} is already in use (another jst-tracker, or another program). Pick another port: --port 0 takes a free one, or --port <number>.`,
      );
    if (code === 'EACCES')
      throw new Error(
        `not allowed to listen on port ${port} on ${host} (ports below 1024 need privileges). Pick another port: --port 0 takes a free one, or --port <number> above 1023.`,
      );
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new Error(
        `cannot listen on --host ${host.slice(0, 100)}: no network interface of this machine has that address. Use 127.0.0.1, 0.0.0.0 or one of its addresses.`,
      );
    throw e;
  });
  // The signal handlers are in place before the ready line: a supervisor that stops the server
  // the moment it reads the line must not meet the default action (death by signal, no close).
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      void server.close().then(resolve, (e: unknown) => {
        process.stderr.write(`jst-tracker: error while closing: ${String(e)}\n`);
        resolve();
      });
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  if (tls?.caFile) process.stderr.write(trustHint(resolve(tls.caFile)));
  process.stdout.write(`jst-tracker listening on ${server.url}\n`);
  await stopped;
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    const message = e instanceof SeedError ? `invalid seed file: ${e.message}` : e instanceof Error ? e.message : String(e);
    process.stderr.write(`jst-tracker: ${message}\n`);
    process.exitCode = e instanceof SeedError || e instanceof UsageError || e instanceof ReposRequiredError || e instanceof TlsFileError ? 2 : 1;
  },
);
