import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { jstFolder, runJst } from '../support/jst-cli.js';
import type { TestTracker } from '../support/tracker.js';

/**
 * issue 14 item 5: every tracker call is bounded in time and bytes, and a 2xx that is not JSON is
 * a failure. The servers here misbehave on purpose, so they are stood in for by a few lines of
 * node:http rather than by the tracker.
 */
type Answer = (res: ServerResponse) => void;

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  server = undefined;
});

/** A site whose tenant_info is honest and whose every REST call gets `answer`. */
async function misbehaving(answer: Answer): Promise<string> {
  server = createServer((req, res) => {
    if (req.url?.startsWith('/_edge/tenant_info')) return void res.end(JSON.stringify({ cloudId: 'c0ffee00-0000-4000-8000-000000000001' }));
    answer(res);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const dir = jstFolder({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } as TestTracker);
  return dir;
}

const drip: Answer = (res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{');
  const timer = setInterval(() => res.write(' '), 1000);
  res.on('close', () => clearInterval(timer));
};

/** Streams JSON-ish megabytes until the client hangs up (at most `mib`). */
const flood =
  (mib: number): Answer =>
  (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    res.write('[');
    const pump = () => {
      while (sent < mib && !res.destroyed) {
        sent++;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end(']');
    };
    pump();
  };

const loginPage: Answer = (res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end('<html><body>Sign in</body></html>');
};

describe('docs/limits.md: every tracker call is bounded in time and size (JST_TIMEOUT_MS, JST_MAX_RESPONSE_BYTES)', () => {
  it('JST_TIMEOUT_MS bounds the whole call: headers then one byte a second ends within the timeout, exit 1, one line naming JST_TIMEOUT_MS', async () => {
    const cwd = await misbehaving(drip);
    const started = Date.now();
    const r = await runJst(['--role', 'assigner', 'raw', 'GET', '/myself'], { cwd, env: { JST_TIMEOUT_MS: '1500' } });
    const took = Date.now() - started;
    expect(r.code).toBe(1);
    expect(took).toBeLessThan(6000);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^jst: GET .*\/myself got no complete answer within 1500 ms \(JST_TIMEOUT_MS\)/);
    expect(r.stdout).toBe('');
  }, 20_000);

  it('an answer over JST_MAX_RESPONSE_BYTES ends with a one-line error naming the setting, no stack trace', async () => {
    const cwd = await misbehaving(flood(100));
    const r = await runJst(['--role', 'assigner', 'raw', 'GET', '/myself'], { cwd, env: { JST_MAX_RESPONSE_BYTES: String(1024 * 1024) } });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^jst: GET .*\/myself answered more than 1 MiB \(JST_MAX_RESPONSE_BYTES\)/)]);
    expect(r.stdout).toBe('');
  }, 20_000);

  it('the default cap is 64 MiB: a 100 MiB answer is refused with the same one line', async () => {
    const cwd = await misbehaving(flood(100));
    const r = await runJst(['--role', 'assigner', 'raw', 'GET', '/myself'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/answered more than 64 MiB \(JST_MAX_RESPONSE_BYTES\)/)]);
    expect(r.stdout).toBe('');
  }, 20_000);

  it('a limit that is not a positive whole number is a usage error (exit 2) naming the setting', async () => {
    const cwd = await misbehaving(loginPage);
    const r = await runJst(['--role', 'assigner', 'raw', 'GET', '/myself'], { cwd, env: { JST_TIMEOUT_MS: 'soon' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/JST_TIMEOUT_MS must be a positive whole number/);
  });

  it('a 200 whose body is not JSON: raw exits 1 with a clear error and prints nothing on stdout', async () => {
    const cwd = await misbehaving(loginPage);
    const r = await runJst(['--role', 'assigner', 'raw', 'GET', '/myself'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^jst: GET \/myself answered HTTP 200 with a body that is not JSON \(content-type text\/html, starting "<html><body>Sign in/);
    expect(r.stderr).toMatch(/TRACKER_ACCOUNT_URL and TRACKER_GATEWAY_URL/);
    expect(r.stdout).toBe('');
  });

  it("a 200 whose body is not JSON: healthcheck's tracker_login row FAILs (not WARN), exit 1", async () => {
    const cwd = await misbehaving(loginPage);
    const r = await runJst(['healthcheck', '--role', 'assigner', '--json'], { cwd });
    const login = JSON.parse(r.stdout).rows.find((x: { name: string }) => x.name === 'tracker_login');
    expect(login.status).toBe('FAIL');
    expect(login.detail).toMatch(/not JSON/);
    expect(r.code).toBe(1);
  });
});
