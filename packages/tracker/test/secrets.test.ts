import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSeed, startServer } from '../src/index.js';
import { CLOUD_ID, EMAILS, TOKENS, credentialOf, testSeed, type Who } from '../../../test/support/seed.js';
import { adf, basic } from '../../../test/support/tracker.js';

/**
 * ARCHITECTURE §4: tokens are stored only as hashes and never printed, logged or put into an error
 * message. Every route family is driven with good, wrong, foreign, scoped and malformed
 * credentials, tokens in query strings and in broken JSON; no response (body or header), no log
 * line and no byte of the SQLite file may hold a token or the base64 of `email:token`.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = fileURLToPath(new URL('../bin/jst-tracker.js', import.meta.url));
const b64 = (s: string) => Buffer.from(s).toString('base64');
const EVERY_EMAIL = [...Object.values(EMAILS), 'bot@acme.test', 'nobody@acme.test'];
const TOKEN_LIST = Object.entries(TOKENS).map(([name, value]) => ({ name: `TOKENS.${name}`, value }));
const SECRETS = [
  ...TOKEN_LIST,
  ...TOKEN_LIST.map((t) => ({ name: `base64(${t.name})`, value: b64(t.value) })),
  ...EVERY_EMAIL.flatMap((email) => TOKEN_LIST.map((t) => ({ name: `base64(${email}:${t.name})`, value: b64(`${email}:${t.value}`) }))),
];

/** A failure message must not print the secret either: it is replaced by its name. */
const redact = (text: string) => SECRETS.reduce((out, s) => out.split(s.value).join(`<${s.name}>`), text);

function leaksIn(where: string, text: string | Buffer): string[] {
  const haystack = typeof text === 'string' ? Buffer.from(text) : text;
  return SECRETS.filter((s) => haystack.includes(Buffer.from(s.value))).map((s) => {
    const at = haystack.indexOf(Buffer.from(s.value));
    return `${where}: ${s.name} in …${redact(haystack.subarray(Math.max(0, at - 100), at + s.value.length + 100).toString('latin1'))}…`;
  });
}

interface Seen {
  what: string;
  status: number;
  text: string;
}

/** Drives every route family at `url` with every kind of credential; returns what came back. */
async function exercise(url: string): Promise<Seen[]> {
  const seen: Seen[] = [];
  const hit = async (what: string, path: string, method: string, auth: string | undefined, body?: string, type = 'application/json') => {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      ...(auth === undefined ? {} : { Authorization: auth }),
      ...(body === undefined ? {} : { 'Content-Type': type }),
    };
    const res = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = `${[...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${await res.text()}`;
    seen.push({ what: `${method} ${what} → ${res.status}`, status: res.status, text });
    return { status: res.status, body: text.slice(text.indexOf('\n\n') + 2) };
  };
  const auth = (who: Who) => {
    const c = credentialOf(who);
    return basic(c.email, c.token);
  };
  const gw = `/ex/jira/${CLOUD_ID}/rest/api/3`;
  const create = async (summary: string) => {
    const r = await hit(
      'create',
      `${gw}/issue`,
      'POST',
      auth('assigner'),
      JSON.stringify({ fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary } }),
    );
    expect(r.status).toBe(201);
    return (JSON.parse(r.body) as { key: string }).key;
  };
  const key = await create('Secrets target');
  const accountId = (JSON.parse((await hit('myself', `${gw}/myself`, 'GET', auth('executor'))).body) as { accountId: string }).accountId;
  const routes = (k: string): [string, string, unknown?][] => [
    ['GET', '/myself'],
    ['GET', '/project/search?query=ABC'],
    ['GET', '/project/ABC/statuses'],
    ['GET', `/issue/${k}?fields=*all`],
    ['PUT', `/issue/${k}`, { fields: { summary: 'edited' } }],
    ['POST', `/issue/${k}/comment`, { body: adf('hello') }],
    ['GET', `/issue/${k}/comment`],
    ['GET', `/user/search?query=${encodeURIComponent(EMAILS.executor)}`],
    ['PUT', `/issue/${k}/assignee`, { accountId }],
    ['GET', `/issue/${k}/transitions`],
    ['POST', `/issue/${k}/transitions`, { transition: { id: '999' } }],
    ['POST', '/issue', { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'made' } }],
    ['DELETE', `/issue/${k}`],
    ['GET', '/serverInfo'],
    ['GET', '/search?jql=project%3DABC'],
    ['POST', '/search/jql', { jql: 'project = ABC' }],
    ['GET', '/no/such/route'],
  ];
  const all = async (label: string, authorization: string | undefined, query = '', forms = [gw, '/rest/api/3']) => {
    for (const base of forms) {
      // DELETE gets an issue of its own so that the other calls keep a target.
      const target = authorization === auth('assigner') && query === '' ? await create('to delete') : key;
      for (const [method, path, body] of routes(target)) {
        const full = `${base}${path}${query ? (path.includes('?') ? '&' : '?') + query : ''}`;
        await hit(
          `${label} ${base === gw ? 'gateway' : 'site'} ${path.split('?')[0]}`,
          full,
          method,
          authorization,
          body === undefined ? undefined : JSON.stringify(body),
        );
      }
    }
  };

  await hit('tenant_info', '/_edge/tenant_info', 'GET', undefined);
  for (const who of ['assigner', 'executor', 'reviewer', 'viewer', 'outsider', 'scopedRead', 'scopedAll'] as const) await all(who, auth(who));
  await all('anonymous', undefined);
  // Foreign tokens: every e-mail with every other user's token (and an unknown e-mail).
  for (const email of EVERY_EMAIL) {
    for (const t of TOKEN_LIST) {
      if (credentialOf('assigner').email === email && t.value === TOKENS.assigner) continue;
      await hit(`foreign ${t.name}`, `${gw}/myself`, 'GET', basic(email, t.value));
      await hit(`foreign ${t.name}`, `/rest/api/3/issue/${key}`, 'GET', basic(email, t.value));
    }
  }
  await all('wrong token', basic(EMAILS.assigner, 'wrong-token'));
  for (const t of [TOKENS.assigner, TOKENS.scopedAll]) {
    const malformed = [
      `Basic ${t}`,
      `Basic ${EMAILS.assigner}:${t}`,
      `Bearer ${t}`,
      t,
      `Basic ${b64(t)}`,
      `Token ${t}`,
      `Basic ${b64(`${EMAILS.assigner}:${t}`)}!`,
      `Basic ${b64(`${EMAILS.assigner}:${t}`)} trailing`,
      `basic   ${b64(`${EMAILS.assigner}:${t}`)}=`,
    ];
    for (const [i, header] of malformed.entries()) await all(`malformed #${i}`, header);
  }
  const leaked = `token=${TOKENS.assigner}&apiToken=${TOKENS.executor}&access_token=${TOKENS.scopedAll}&jwt=${TOKENS.reviewer}`;
  await all('token in query', auth('assigner'), leaked);
  await all('token in query, no auth', undefined, leaked);
  await hit('user search for a token', `${gw}/user/search?query=${TOKENS.viewer}`, 'GET', auth('executor'));
  const broken = [
    TOKENS.assigner,
    `{"fields": ${TOKENS.assigner}}`,
    `{"body": "${TOKENS.executor}"`,
    `{"accountId": ${TOKENS.reviewer}}`,
    `{"transition": {"id": "${TOKENS.viewer}"}`,
    `${TOKENS.scopedAll}}`,
  ];
  for (const [path, method] of [
    ['/issue', 'POST'],
    [`/issue/${key}`, 'PUT'],
    [`/issue/${key}/comment`, 'POST'],
    [`/issue/${key}/assignee`, 'PUT'],
    [`/issue/${key}/transitions`, 'POST'],
  ] as const) {
    for (const [i, body] of broken.entries()) {
      await hit(`broken JSON #${i} ${path}`, `${gw}${path}`, method, auth('assigner'), body);
      await hit(`broken JSON #${i} site ${path}`, `/rest/api/3${path}`, method, auth('executor'), body, 'application/json; charset=utf-8');
      await hit(`text body #${i} ${path}`, `${gw}${path}`, method, auth('assigner'), body, 'text/plain');
      await hit(`broken JSON, bad auth #${i} ${path}`, `${gw}${path}`, method, `Basic ${TOKENS.assigner}`, body);
    }
  }
  return seen;
}

function expectNoLeaks(seen: Seen[], logs: string, dataDir: string): void {
  expect(seen.filter((s) => s.status >= 500).map((s) => s.what)).toEqual([]);
  expect(seen.filter((s) => s.status === 200).length).toBeGreaterThan(20);
  expect(seen.filter((s) => s.status === 401).length).toBeGreaterThan(100);
  expect(seen.flatMap((s) => leaksIn(`response to ${s.what}`, s.text))).toEqual([]);
  expect(leaksIn('log output', logs)).toEqual([]);
  const files = ['tracker.sqlite', 'tracker.sqlite-wal'].map((f) => join(dataDir, f)).filter((f) => existsSync(f));
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) expect(leaksIn(file, readFileSync(file))).toEqual([]);
}

describe('ARCHITECTURE §4: no token in a response, a log line, an error message or the data file', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'jst-secrets-'));
    dirs.push(d);
    return d;
  };
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('ARCHITECTURE §4: jst-tracker serve --log-level debug (child process) never shows a token', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'seed.json'), JSON.stringify(testSeed()));
    const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', join(dir, 'data'), '--seed', join(dir, 'seed.json'), '--log-level', 'debug'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(proc);
    let output = '';
    proc.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    proc.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready within 20 s:\n${redact(output)}`)), 20_000);
      const poll = setInterval(() => {
        const m = /jst-tracker listening on (http:\/\/\S+)/.exec(output);
        if (m) {
          clearInterval(poll);
          clearTimeout(timer);
          resolve(m[1]!);
        }
        if (proc.exitCode !== null) {
          clearInterval(poll);
          clearTimeout(timer);
          reject(new Error(`exited:\n${redact(output)}`));
        }
      }, 20);
    });
    const seen = await exercise(url);
    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toMatch(/incoming request/);
    expectNoLeaks(seen, output, join(dir, 'data'));
  }, 60_000);

  it('ARCHITECTURE §4: an in-process server at debug level never shows a token', async () => {
    const dir = tempDir();
    let logs = '';
    const server = await startServer({
      port: 0,
      dataDir: dir,
      seed: parseSeed(testSeed()),
      logLevel: 'debug',
      logStream: {
        write: (line: string) => {
          logs += line;
        },
      },
    });
    let seen: Seen[];
    try {
      seen = await exercise(server.url);
    } finally {
      await server.close();
    }
    expect(logs).toMatch(/incoming request/);
    expectNoLeaks(seen, logs, dir);
  }, 60_000);
});
