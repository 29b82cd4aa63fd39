import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase, postgresAvailable } from '../../../test/support/postgres.js';
import { basic, send } from '../../../test/support/tracker.js';
import { CLOUD_ID, EMAILS, TOKENS, testSeed } from '../../../test/support/seed.js';
import { buildTracker, cliRunner, connectable, ROOT } from './support/cli-run.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'packages/tracker/package.json'), 'utf8')) as { version: string }).version;
const { tmp, run, ready, exitOf, cleanup } = cliRunner('jst-cli-test-');
const SEED = join(tmp, 'seed.json');
const HAS_POSTGRES = await postgresAvailable();

beforeAll(() => {
  writeFileSync(SEED, JSON.stringify(testSeed()));
  buildTracker();
}, 120_000);
afterAll(cleanup);

describe('ARCHITECTURE §3: jst-tracker serve', () => {
  it('--port 0 --data --seed prints exactly one ready line, serves tenant_info, and exits 0 on SIGTERM', async () => {
    const r = run(['serve', '--port', '0', '--data', join(tmp, 'data-a'), '--seed', SEED]);
    const url = await ready(r);
    const tenant = await send(`${url}/_edge/tenant_info`, {});
    expect(tenant.body).toEqual({ cloudId: CLOUD_ID });
    const me = await send(`${url}/ex/jira/${CLOUD_ID}/rest/api/3/myself`, { headers: { Authorization: basic(EMAILS.assigner, TOKENS.assigner) } });
    expect(me.body.emailAddress).toBe(EMAILS.assigner);
    r.child.kill('SIGTERM');
    expect((await r.exit).code).toBe(0);
    expect(r.out()).toBe(`jst-tracker listening on ${url}\n`);
    expect(existsSync(join(tmp, 'data-a', 'tracker.sqlite'))).toBe(true);
  });

  it('SIGINT (Ctrl-C) also stops it with exit code 0', async () => {
    const r = run(['serve', '--port', '0', '--data', join(tmp, 'data-b'), '--seed', SEED]);
    await ready(r);
    r.child.kill('SIGINT');
    expect(await r.exit).toEqual({ code: 0, signal: null });
  });

  it('SIGTERM while a request is in flight: it stops accepting, the request still completes, then exit 0', async () => {
    const r = run(['serve', '--port', '0', '--data', join(tmp, 'data-c'), '--seed', SEED]);
    const port = Number(new URL(await ready(r)).port);
    const body = Buffer.from(JSON.stringify({ fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'Sent across a shutdown' } }));
    const sock = net.connect(port, '127.0.0.1');
    await new Promise((res) => sock.on('connect', res));
    let answer = '';
    sock.on('data', (d) => {
      answer += d.toString();
    });
    const closed = new Promise((res) => sock.on('close', res));
    sock.write(
      `POST /ex/jira/${CLOUD_ID}/rest/api/3/issue HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nAuthorization: ${basic(EMAILS.assigner, TOKENS.assigner)}\r\n\r\n`,
    );
    sock.write(body.subarray(0, 40));
    await new Promise((res) => setTimeout(res, 100));
    r.child.kill('SIGTERM');
    // Stop accepting: new connections are refused while the first request is still open.
    const deadline = Date.now() + 5000;
    while (await connectable(port)) {
      if (Date.now() > deadline) throw new Error('still accepting connections 5 s after SIGTERM');
      await new Promise((res) => setTimeout(res, 50));
    }
    expect(r.child.exitCode).toBeNull();
    sock.write(body.subarray(40));
    await closed;
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 201 Created');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ key: 'ABC-1' });
    expect((await r.exit).code).toBe(0);
    expect(r.err()).toBe('');
  });

  it.skipIf(!HAS_POSTGRES)('--database-url (or DATABASE_URL) serves from PostgreSQL', async () => {
    const db = await createTempDatabase();
    try {
      for (const [args, env] of [
        [['--database-url', db.url], {}],
        [[], { DATABASE_URL: db.url }],
      ] as const) {
        const r = run(['serve', '--port', '0', '--seed', SEED, ...args], env);
        const url = await ready(r);
        expect((await send(`${url}/_edge/tenant_info`, {})).body).toEqual({ cloudId: CLOUD_ID });
        const me = await send(`${url}/ex/jira/${CLOUD_ID}/rest/api/3/myself`, { headers: { Authorization: basic(EMAILS.executor, TOKENS.executor) } });
        expect(me.body.emailAddress).toBe(EMAILS.executor);
        r.child.kill('SIGTERM');
        expect((await r.exit).code).toBe(0);
      }
      expect(existsSync(join(tmp, '.jst-tracker'))).toBe(false);
    } finally {
      await db.drop();
    }
  });
});

describe('ARCHITECTURE §3: usage and start-up errors', () => {
  it('--help (and -h) exits 0 with the usage and examples on stdout', async () => {
    for (const flag of ['--help', '-h']) {
      const { code, out, err } = await exitOf([flag]);
      expect(code).toBe(0);
      expect(out).toContain('jst-tracker serve [--host 127.0.0.1] [--port 8080] [--data DIR] [--database-url URL] [--seed FILE]');
      expect(out).toMatch(/Examples:\n\s+jst-tracker serve --port 0 --seed/);
      expect(err).toBe('');
    }
  });

  it('--version prints the package version', async () => {
    expect(await exitOf(['--version'])).toEqual({ code: 0, out: `${VERSION}\n`, err: '' });
  });

  it('--version, --help and a refused argument answer without loading the server (Fastify, the stores), which only serve needs', async () => {
    // Preloaded into the command's process: on exit, the server's packages among the CommonJS modules it loaded.
    const probe =
      "import{createRequire}from'node:module';const r=createRequire('/probe.js');" +
      "process.on('exit',()=>process.stderr.write('LOADED['+Object.keys(r.cache).filter(k=>/[\\\\/]node_modules[\\\\/](fastify|pg|better-sqlite3)[\\\\/]/.test(k)).length+']'))";
    const loaded = async (args: string[]) => {
      const r = run(args, { NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(probe)}` });
      await r.exit;
      return /LOADED\[(\d+)\]/.exec(r.err())?.[1];
    };
    for (const args of [['--version'], ['--help'], ['serve', '--port', 'x']]) expect(await loaded(args), args.join(' ')).toBe('0');
    // The probe does see them when they are loaded: serve loads them.
    const seed = join(tmp, 'probe-seed.json');
    writeFileSync(seed, JSON.stringify(testSeed()));
    const served = run(['serve', '--port', '0', '--data', join(tmp, 'probe-data'), '--seed', seed], {
      NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(probe)}`,
    });
    await ready(served);
    served.child.kill('SIGTERM');
    await served.exit;
    expect(Number(/LOADED\[(\d+)\]/.exec(served.err())?.[1])).toBeGreaterThan(0);
  });

  it('an unknown flag, an unknown command, a bad port or a bad --read-cache exits 2 with a message on stderr', async () => {
    for (const [args, said] of [
      [['serve', '--bogus'], /--bogus/],
      [['frobnicate'], /unknown command "frobnicate".*--help/],
      [['serve', 'now'], /unknown command/],
      [['serve', '--port', 'eighty'], /--port must be a whole number from 0 to 65535 \(got "eighty"\)/],
      [['serve', '--port', '70000'], /--port/],
      [['serve', '--read-cache', 'lots'], /--read-cache must be a number of megabytes from 0 to 4096 \(got "lots"\)/],
      [['serve', '--read-cache=-1'], /--read-cache must be/],
      [['serve', '--read-cache', '-1'], /--read-cache.*ambiguous/s],
      [['serve', '--read-cache', '5000'], /--read-cache must be/],
    ] as const) {
      const { code, out, err } = await exitOf([...args]);
      expect(code, args.join(' ')).toBe(2);
      expect(err).toMatch(said);
      expect(out).toBe('');
    }
  });

  it('no command at all prints the usage and exits 2', async () => {
    const { code, out } = await exitOf([]);
    expect(code).toBe(2);
    expect(out).toContain('Usage:');
  });

  it('an invalid seed file exits 2, naming the file and the JSON path', async () => {
    const seed = testSeed();
    seed.sites[0]!.users[1]!.email = 'not-an-email';
    const file = join(tmp, 'bad-seed.json');
    writeFileSync(file, JSON.stringify(seed));
    const bad = await exitOf(['serve', '--port', '0', '--data', join(tmp, 'data-d'), '--seed', file]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(`invalid seed file: ${file}: $.sites[0].users[1].email: is not an e-mail address`);
    expect(bad.out).toBe('');
    const missing = await exitOf(['serve', '--port', '0', '--data', join(tmp, 'data-d'), '--seed', join(tmp, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(`${join(tmp, 'nope.json')}: $: cannot read the seed file (ENOENT)`);
    writeFileSync(file, '{"sites": [');
    const notJson = await exitOf(['serve', '--port', '0', '--data', join(tmp, 'data-d'), '--seed', file]);
    expect(notJson.code).toBe(2);
    expect(notJson.err).toContain(`${file}:1:12: $.sites[0]: not valid JSON here`);
  });

  it('a --database-url that is not PostgreSQL, or not reachable, fails clearly without echoing the password', async () => {
    for (const url of ['mysql://root:hunter2@127.0.0.1/jst', 'mysql://u:hunter2@127.0.0.1/jst', 'postgres://postgres:hunter2@127.0.0.1:1/jst']) {
      const { code, out, err } = await exitOf(['serve', '--port', '0', '--database-url', url]);
      expect(code, url).not.toBe(0);
      expect(out).toBe('');
      expect(err).toMatch(url.startsWith('mysql') ? /--database-url must be a postgres:\/\/ or postgresql:\/\/ URL/ : /ECONNREFUSED/);
      expect(err).not.toContain('hunter2');
      expect(err).not.toContain('hunter');
    }
  });
});
