import { writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, send } from '../../../test/support/tracker.js';
import { CLOUD_ID, EMAILS, TOKENS, testSeed } from '../../../test/support/seed.js';
import { buildTracker, cliRunner } from './support/cli-run.js';

/** Issue 14 items 3 and 4: jst-tracker's command line, its logs and its start-up errors. */

const { tmp, run, ready, exitOf, cleanup } = cliRunner('jst-cli-hardening-');
const SEED = join(tmp, 'seed.json');

beforeAll(() => {
  writeFileSync(SEED, JSON.stringify(testSeed()));
  buildTracker();
}, 120_000);
afterAll(cleanup);

/** Every substring of `secret` at least 4 characters long that appears in `text`. */
function fragmentsOf(secret: string, text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 4 <= secret.length; i++) if (text.includes(secret.slice(i, i + 4))) found.push(secret.slice(i, i + 4));
  return found;
}

describe('ARCHITECTURE §4: no part of a secret in an error of jst-tracker', () => {
  const TOKEN = 'Zq7vKx93LmPw0RtYb2NcHs5JdF8gUe';

  it('a seed file with a JSON syntax error right at a token names the file, line, column and setting path, and no 4 characters of the token', async () => {
    const seed = JSON.stringify(testSeed(), null, 2).split('\n');
    // The token's value without its quotes: JSON.parse's own message quotes the text around it.
    const at = seed.findIndex((line) => line.includes('"token"'));
    seed[at] = seed[at]!.replace(/"token": "[^"]*"/, `"token": ${TOKEN}`);
    const file = join(tmp, 'broken-seed.json');
    writeFileSync(file, seed.join('\n'));
    const { code, out, err } = await exitOf(['serve', '--port', '0', '--data', join(tmp, 'data-s'), '--seed', file]);
    expect(code).toBe(2);
    expect(err).toMatch(
      new RegExp(
        `^jst-tracker: invalid seed file: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${at + 1}:\\d+: \\$\\.sites\\[0\\]\\.users\\[0\\]\\.tokens\\[0\\]\\.token: not valid JSON here`,
      ),
    );
    expect(fragmentsOf(TOKEN, out + err)).toEqual([]);
  });

  it('a token typed where a seed expects an e-mail or a host is not echoed either', async () => {
    for (const change of [
      (s: any) => {
        s.sites[0].users[0].email = TOKEN;
      },
      (s: any) => {
        s.sites[0].host = `https://${TOKEN}`;
      },
      (s: any) => {
        s.sites[0].users[0][TOKEN] = 1;
      },
    ]) {
      const seed = testSeed();
      change(seed);
      const file = join(tmp, 'odd-seed.json');
      writeFileSync(file, JSON.stringify(seed));
      const { code, out, err } = await exitOf(['serve', '--port', '0', '--data', join(tmp, 'data-o'), '--seed', file]);
      expect(code).toBe(2);
      expect(err).toMatch(/invalid seed file: .*odd-seed\.json: \$\.sites\[0\]/);
      expect(fragmentsOf(TOKEN, out + err)).toEqual([]);
    }
  });

  it('a token given where a number, a command or nothing belongs is not echoed (exit 2)', async () => {
    for (const args of [
      ['serve', '--port', TOKEN],
      ['serve', '--read-cache', TOKEN],
      ['serve', '--body-limit', `postgres://u:${TOKEN}@h/db`],
      [TOKEN],
      ['serve', TOKEN],
    ]) {
      const { code, out, err } = await exitOf(args);
      expect(code, args.join(' ')).toBe(2);
      expect(err).toMatch(/^jst-tracker: /);
      expect(fragmentsOf(TOKEN, out + err), args.join(' ')).toEqual([]);
    }
  });

  it('a --database-url with a password, unreachable or mistyped as a flag, never shows the password', async () => {
    for (const args of [
      ['--database-url', `postgres://u:${TOKEN}@127.0.0.1:1/jst`],
      [`--database-ur=postgres://u:${TOKEN}@127.0.0.1:1/jst`],
      ['--database-url', `postgres://u:${TOKEN}@[bad/jst`],
    ]) {
      const { code, out, err } = await exitOf(['serve', '--port', '0', ...args]);
      expect(code, args.join(' ')).not.toBe(0);
      expect(fragmentsOf(TOKEN, out + err), args.join(' ')).toEqual([]);
    }
  });
});

describe('jst-tracker serve: logs, the Host header, a port in use and a mistyped option are each answered plainly', () => {
  it('--help says logs go to stderr, and they do: stdout holds only the ready line', async () => {
    expect((await exitOf(['--help'])).out).toMatch(/logs (and errors )?go to stderr/);
    const r = run(['serve', '--port', '0', '--data', join(tmp, 'data-l'), '--seed', SEED, '--log-level', 'info']);
    const url = await ready(r);
    const me = await send(`${url}/ex/jira/${CLOUD_ID}/rest/api/3/myself`, { headers: { Authorization: basic(EMAILS.assigner, TOKENS.assigner) } });
    expect(me.status).toBe(200);
    r.child.kill('SIGTERM');
    await r.exit;
    expect(r.out()).toBe(`jst-tracker listening on ${url}\n`);
    expect(r.err()).toMatch(/"msg":"request completed"/);
    expect(r.err()).not.toContain(TOKENS.assigner);
  });

  it('a request with two Host headers is 400 in the vendor error shape', async () => {
    const r = run(['serve', '--port', '0', '--data', join(tmp, 'data-h'), '--seed', SEED]);
    const port = Number(new URL(await ready(r)).port);
    const ask = (hosts: string[]) =>
      new Promise<string>((resolve, reject) => {
        const sock = net.connect(port, '127.0.0.1');
        let answer = '';
        sock.on('data', (d) => {
          answer += d.toString();
        });
        sock.on('error', reject);
        sock.on('close', () => resolve(answer));
        sock.write(
          `GET /ex/jira/${CLOUD_ID}/rest/api/3/myself HTTP/1.1\r\n${hosts.map((h) => `Host: ${h}\r\n`).join('')}` +
            `Authorization: ${basic(EMAILS.assigner, TOKENS.assigner)}\r\nConnection: close\r\n\r\n`,
        );
      });
    // Twice each: the second read of a repeated request may be answered from the read cache.
    for (let i = 0; i < 2; i++) expect(await ask(['127.0.0.1'])).toMatch(/^HTTP\/1\.1 200 /);
    for (let i = 0; i < 2; i++) {
      const answer = await ask(['127.0.0.1', 'evil.example']);
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
        errorMessages: ['The request carries more than one Host header: send exactly one.'],
        errors: {},
      });
    }
    r.child.kill('SIGTERM');
    await r.exit;
  });

  it('a port in use: exit 1 naming the port and how to pick another, no stack trace', async () => {
    const first = run(['serve', '--port', '0', '--data', join(tmp, 'data-p1'), '--seed', SEED]);
    const port = new URL(await ready(first)).port;
    const second = await exitOf(['serve', '--port', port, '--data', join(tmp, 'data-p2')]);
    expect(second.code).toBe(1);
    expect(second.out).toBe('');
    expect(second.err).toBe(
      `jst-tracker: port ${port} on 127.0.0.1 is already in use (another jst-tracker, or another program). Pick another port: --port 0 takes a free one, or --port <number>.\n`,
    );
    first.child.kill('SIGTERM');
    await first.exit;
  });

  it('an unknown option suggests the closest one (exit 2); one with nothing close says only where to look', async () => {
    for (const [typed, near] of [
      ['--prot', '--port'],
      ['--databse-url', '--database-url'],
      ['--log-levle', '--log-level'],
      ['--trust-prox', '--trust-proxy'],
      ['--bodylimit', '--body-limit'],
    ] as const) {
      const { code, out, err } = await exitOf(['serve', typed, 'x']);
      expect(code, typed).toBe(2);
      expect(out).toBe('');
      expect(err).toBe(`jst-tracker: unknown option ${typed}. Did you mean ${near}? Run jst-tracker --help for the options.\n`);
    }
    expect((await exitOf(['serve', '--frobnicate'])).err).toBe('jst-tracker: unknown option --frobnicate. Run jst-tracker --help for the options.\n');
  });

  it('a host this machine has no address for: exit 1 saying so, no stack trace', async () => {
    const { code, out, err } = await exitOf(['serve', '--host', '192.0.2.77', '--port', '0', '--data', join(tmp, 'data-n')]);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toBe(
      'jst-tracker: cannot listen on --host 192.0.2.77: no network interface of this machine has that address. Use 127.0.0.1, 0.0.0.0 or one of its addresses.\n',
    );
  });

  it('an unknown --log-level names the levels (exit 2)', async () => {
    expect(await exitOf(['serve', '--log-level', 'verbose'])).toEqual({
      code: 2,
      out: '',
      err: 'jst-tracker: --log-level must be one of fatal, error, warn, info, debug, trace, silent (got "verbose").\n',
    });
  });

  it('docs/limits.md: --git-processes, --git-processes-per-user and --body-idle-timeout must be whole numbers in range (exit 2, naming the flag)', async () => {
    for (const [args, said] of [
      [['--git-processes', '0'], '--git-processes must be a whole number from 1 to 4096 (got "0").'],
      [['--git-processes', '1.5'], '--git-processes must be a whole number from 1 to 4096 (got "1.5").'],
      [['--git-processes-per-user', 'lots'], '--git-processes-per-user must be a whole number from 1 to 4096 (got "lots").'],
      [['--git-processes', '4', '--git-processes-per-user', '5'], '--git-processes-per-user (5) must not be more than --git-processes (4).'],
      [['--body-idle-timeout', '0'], '--body-idle-timeout must be a whole number from 1 to 3600 (got "0").'],
      [['--body-idle-timeout', '3601'], '--body-idle-timeout must be a whole number from 1 to 3600 (got "3601").'],
    ] as const) {
      const { code, out, err } = await exitOf(['serve', ...args]);
      expect(code, args.join(' ')).toBe(2);
      expect(out).toBe('');
      expect(err).toBe(`jst-tracker: ${said}\n`);
    }
  });

  it('--body-limit must be a positive number of megabytes (exit 2)', async () => {
    for (const value of ['lots', '0', '2048']) {
      const { code, err } = await exitOf(['serve', '--body-limit', value]);
      expect(code, value).toBe(2);
      expect(err).toMatch(/--body-limit must be a number of megabytes from 0\.001 to 1024/);
    }
  });
});
