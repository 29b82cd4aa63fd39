import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSED_BODY_LINGER } from '../../src/kit/refused-body.js';
import { createTempDatabase, type TempDatabase } from '../../../../test/support/postgres.js';
import { CLOUD_ID, CODEHOST_TOKEN, credentialOf, testSeed, withCodehost } from '../../../../test/support/seed.js';
import { basic, storeKinds } from '../../../../test/support/tracker.js';
import { ensureTrackerBuilt, spawnTracker, type TrackerProcess } from '../../../../test/support/tracker-process.js';

/**
 * docs/limits.md "Refused request bodies": a body over the limit is answered 413, and the server
 * reads the rest of it (up to a bound) before it closes the connection, so a client that sends
 * its whole body before it reads (Node's fetch does) reads the 413 rather than a reset (EPIPE,
 * ECONNRESET). A body far over that bound is cut off without being read to its end. The tracker
 * runs as a process of its own: in the test's own process the race that resets the connection
 * (the server closing while the client still writes) does not happen.
 */

const FIVE_MB = Buffer.alloc(5 * 1024 * 1024, 'a');
const LIMIT_MESSAGE = 'The request body is larger than the limit of 1048576 bytes (jst-tracker serve --body-limit).';

/** `count` fetches one after another (as a client retrying would): each one's status and body, or its network error's code. */
async function fetchEach(count: number, url: string, init: RequestInit): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < count; i++) {
    try {
      const r = await fetch(url, init);
      seen.push(`${r.status} ${await r.text()}`);
    } catch (e) {
      seen.push(`network error ${(e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message}`);
    }
  }
  return seen;
}

/**
 * Sends `head` and then up to `total` bytes of body (as they are, or chunked) on a raw connection
 * until the server closes it: how much was written, and what the server answered.
 */
function streamUntilCut(url: string, head: string, total: number, chunked: boolean): Promise<{ written: number; answer: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    // Half-open allowed: the client goes on sending after the server's answer and FIN, as a client that does not read would.
    const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true });
    let answer = '';
    let written = 0;
    let closed = false;
    const piece = Buffer.alloc(64 * 1024, 'b');
    const frame = Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]);
    socket.on('data', (d: Buffer) => {
      answer += d.toString('latin1');
    });
    socket.on('error', () => {
      /* the cut: reported by close */
    });
    socket.on('close', () => {
      closed = true;
      resolve({ written, answer });
    });
    const pump = () => {
      while (!closed && written < total) {
        written += piece.length;
        if (!socket.write(chunked ? frame : piece)) {
          socket.once('drain', pump);
          return;
        }
      }
      // All sent (the server did not cut it): this side ends too, so the connection closes after the server's.
      if (!closed) socket.end();
    };
    socket.write(head, pump);
  });
}

describe.each(await storeKinds())('docs/limits.md: a refused body is read on (up to a bound) so the client reads its 413 (%s)', (kind) => {
  let t: TrackerProcess;
  let db: TempDatabase | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'jst-refused-body-'));
  beforeAll(async () => {
    ensureTrackerBuilt();
    writeFileSync(join(dir, 'seed.json'), JSON.stringify(withCodehost(testSeed())));
    if (kind === 'postgres') db = await createTempDatabase();
    const store = db ? ['--database-url', db.url] : ['--data', join(dir, 'data')];
    t = await spawnTracker(['--seed', join(dir, 'seed.json'), '--repos', join(dir, 'repos'), '--push-limit', '1', ...store]);
  });
  afterAll(async () => {
    t?.proc.kill('SIGTERM');
    await t?.exited;
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const { email, token } = credentialOf('assigner');
  const json = { 'Content-Type': 'application/json', Authorization: basic(email, token) };
  const commentsOf = async (key: string) => ((await (await fetch(`${t.api}/issue/${key}/comment`, { headers: json })).json()) as { total: number }).total;

  it('20 fetches of a 5 MB body each read the 413 and its ErrorCollection naming the limit: no EPIPE, no reset; nothing is written', async () => {
    const created = await fetch(`${t.api}/issue`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'A task' } }),
    });
    const { key } = (await created.json()) as { key: string };
    const seen = await fetchEach(20, `${t.api}/issue/${key}/comment`, { method: 'POST', headers: json, body: FIVE_MB });
    const expected = `413 ${JSON.stringify({ errorMessages: [LIMIT_MESSAGE], errors: {} })}`;
    expect(seen).toEqual(Array(20).fill(expected));
    expect(await commentsOf(key)).toBe(0);
  });

  it('a refusal decided before the body is read (no credential: 401) is read by the client too', async () => {
    const seen = await fetchEach(20, `${t.api}/issue`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: FIVE_MB });
    expect(seen.map((s) => s.slice(0, 4))).toEqual(Array(20).fill('401 '));
  });

  it("the code host's REST interface (/api/v3): 20 fetches of a 5 MB body each read GitHub's 413", async () => {
    const seen = await fetchEach(20, `${t.url}/api/v3/repos/acme/widgets/pulls`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${CODEHOST_TOKEN}` },
      body: FIVE_MB,
    });
    expect(new Set(seen.map((s) => s.slice(0, 4)))).toEqual(new Set(['413 ']));
    expect(JSON.parse(seen[0]!.slice(4)).message).toBe('Request body too large: the limit is 1048576 bytes.');
  });

  const push = { 'Content-Type': 'application/x-git-receive-pack-request', Authorization: `Basic ${Buffer.from(`x:${CODEHOST_TOKEN}`).toString('base64')}` };
  const pushTooLarge =
    "413 The push is larger than this code host takes (1048576 bytes, jst-tracker's --push-limit): push fewer or smaller commits, or ask the administrator to raise --push-limit.\n";

  it('git over HTTP: 20 pushes of 5 MB over --push-limit (1 MB here) each read the 413 naming --push-limit', async () => {
    const seen = await fetchEach(20, `${t.url}/acme/widgets.git/git-receive-pack`, { method: 'POST', headers: push, body: FIVE_MB });
    expect(seen).toEqual(Array(20).fill(pushTooLarge));
  });

  it('an Expect other than 100-continue is a 417 ErrorCollection, read by a client that sends its 5 MB body anyway', async () => {
    const total = FIVE_MB.length;
    const head =
      `POST /ex/jira/${CLOUD_ID}/rest/api/3/issue HTTP/1.1\r\nHost: ${new URL(t.url).host}\r\n` +
      `Content-Type: application/json\r\nExpect: x-unknown\r\nContent-Length: ${total}\r\n\r\n`;
    const { written, answer } = await streamUntilCut(t.url, head, total, false);
    expect(answer).toMatch(/^HTTP\/1\.1 417 /);
    expect(answer).toContain('{"errorMessages":["Expectation Failed: the only Expect value this server supports is 100-continue."],"errors":{}}');
    expect(written).toBe(total);
  });

  it.each([
    ['with a Content-Length of 200 MB', false],
    ['streamed in chunks without end', true],
  ])('a body far over the bound (%s) is answered 413 and cut off, not read to its end', async (_name, chunked) => {
    const total = 200 * 1024 * 1024;
    const head =
      `POST /ex/jira/${CLOUD_ID}/rest/api/3/issue HTTP/1.1\r\nHost: ${new URL(t.url).host}\r\n` +
      `Content-Type: application/json\r\nAuthorization: ${basic(email, token)}\r\n` +
      (chunked ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${total}\r\n`) +
      '\r\n';
    const { written, answer } = await streamUntilCut(t.url, head, total, chunked);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain(LIMIT_MESSAGE);
    expect(answer.toLowerCase()).toContain('connection: close');
    // The server read at most the bound past the limit; the rest the kernel's buffers hold.
    expect(written).toBeLessThan(total);
    expect(written).toBeLessThan(REFUSED_BODY_LINGER.maxBytes + 32 * 1024 * 1024);
  });
});
