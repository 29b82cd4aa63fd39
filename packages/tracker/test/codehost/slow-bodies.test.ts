import { spawn } from 'node:child_process';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOUD_ID, EMAILS, TOKENS } from '../../../../test/support/seed.js';
import { basic, storeKinds } from '../../../../test/support/tracker.js';
import { CH_TOKENS, OWNER, REPO, startCodehostServer, type CodehostServer } from './support.js';

/**
 * An attacker with a valid low-privilege account and slow request bodies (docs/limits.md "Git
 * processes", "Idle request bodies"): a reader's trickling git bodies hold only their share of the
 * git processes, every body that stops is cut, and the code host's REST interface refuses a
 * missing credential before it reads a byte of the body.
 */

const IDLE_MS = 1500;

interface Open {
  req: ClientRequest;
  answer: Promise<{ status: number; headers: IncomingMessage['headers']; body: string } | { error: string }>;
}

/** A request whose headers and `first` bytes are sent, its body never ended. */
function openBody(url: string, path: string, headers: Record<string, string>, first: string): Open {
  const u = new URL(url);
  const req = request({ hostname: u.hostname, port: u.port, path, method: 'POST', headers: { 'Transfer-Encoding': 'chunked', ...headers } });
  const answer = new Promise<{ status: number; headers: IncomingMessage['headers']; body: string } | { error: string }>((resolve) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', (e) => resolve({ error: e.message }));
    });
    req.on('error', (e) => resolve({ error: e.message }));
  });
  req.write(first);
  return { req, answer };
}

const gitBasic = (token: string) => `Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;

function lsRemote(url: string, token: string): Promise<{ status: number; stdout: string; stderr: string }> {
  const remote = `${url.replace('http://', `http://x-access-token:${token}@`)}/${OWNER}/${REPO}.git`;
  return new Promise((resolve) => {
    const child = spawn('git', ['-c', 'credential.helper=', 'ls-remote', remote], {
      env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', GIT_TERMINAL_PROMPT: '0' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ status: code ?? -1, stdout, stderr }));
  });
}

describe.each(await storeKinds())('ARCHITECTURE §20: slow and stalled request bodies (%s)', (kind) => {
  let ch: CodehostServer;
  beforeAll(async () => {
    ch = await startCodehostServer(kind, { server: { bodyIdleMs: IDLE_MS, gitSlotWaitMs: 500 } });
    ch.commit('feature/S-1-x', { 's.txt': 's\n' });
    await ch.as('ada').rest.pulls.create({ owner: OWNER, repo: REPO, title: 's', head: 'feature/S-1-x', base: 'main' });
  });
  afterAll(async () => {
    await ch?.close();
  });

  it("ARCHITECTURE §20: a reader's 32 trickling git-upload-pack bodies hold its share of the git processes (429 beyond); a writer's ls-remote answers", async () => {
    const readers: Open[] = [];
    // Each sends a byte now and then, never idle long enough to be cut, never done.
    const trickle = setInterval(() => {
      for (const r of readers) if (!r.req.destroyed) r.req.write('0');
    }, 200);
    try {
      for (let i = 0; i < 32; i++)
        readers.push(
          openBody(
            ch.url,
            `/${OWNER}/${REPO}.git/git-upload-pack`,
            { Authorization: gitBasic(CH_TOKENS.vic), 'Content-Type': 'application/x-git-upload-pack-request' },
            '0032want ',
          ),
        );
      // The ones beyond the reader's share are answered without waiting for their bodies.
      const answered: Array<Awaited<Open['answer']>> = [];
      for (const r of readers) void r.answer.then((a) => answered.push(a));
      for (let i = 0; i < 300 && answered.length < 32 - 8; i++) await new Promise((res) => setTimeout(res, 100));
      await new Promise((res) => setTimeout(res, 300));
      const refused = answered.filter((a) => 'status' in a && a.status === 429);
      expect(refused).toHaveLength(32 - 8);
      const first = refused[0] as { body: string; headers: IncomingMessage['headers'] };
      expect(first.body).toContain('--git-processes-per-user');
      expect(first.headers['retry-after']).toBe('5');
      // The other 8 hold their slots, their bodies still trickling.
      expect(answered).toHaveLength(32 - 8);

      const writer = await lsRemote(ch.url, CH_TOKENS.ada);
      expect(writer.stderr).toBe('');
      expect(writer.status).toBe(0);
      expect(writer.stdout).toMatch(/refs\/heads\/main/);

      // One cap over every git process: the reader's REST and page git work waits for its share too, the writer's does not.
      const files = (who: 'vic' | 'ada') => fetch(`${ch.api}/repos/${OWNER}/${REPO}/pulls/1/files`, { headers: { authorization: `Bearer ${CH_TOKENS[who]}` } });
      const readerRest = await files('vic');
      expect(readerRest.status).toBe(429);
      expect(readerRest.headers.get('retry-after')).toBe('5');
      expect(((await readerRest.json()) as { message: string }).message).toContain('--git-processes-per-user');
      const readerPage = await fetch(`${ch.url}/${OWNER}/${REPO}/pull/1`, { headers: { authorization: gitBasic(CH_TOKENS.vic) } });
      expect(readerPage.status).toBe(429);
      expect(await readerPage.text()).toContain('--git-processes-per-user');
      expect((await files('ada')).status).toBe(200);
    } finally {
      clearInterval(trickle);
      for (const r of readers) r.req.destroy();
    }
  });

  it("ARCHITECTURE §20: 60 concurrent page views by a reader hold only its share of git; the tracker's /myself answers meanwhile", async () => {
    const views = Array.from({ length: 60 }, () =>
      fetch(`${ch.url}/${OWNER}/${REPO}/pull/1`, { headers: { authorization: gitBasic(CH_TOKENS.vic) } }).then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      }),
    );
    const myself = await fetch(`${ch.url}/ex/jira/${CLOUD_ID}/rest/api/3/myself`, { headers: { authorization: basic(EMAILS.viewer, TOKENS.viewer) } });
    expect(myself.status).toBe(200);
    const statuses = await Promise.all(views);
    // Each view is served or told to retry (429), never a failure.
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(statuses).toContain(200);
  }, 120_000);

  it('ARCHITECTURE §20: a git body that sends nothing for --body-idle-timeout is cut with 408, and its slot is free again', async () => {
    const stalled = openBody(
      ch.url,
      `/${OWNER}/${REPO}.git/git-upload-pack`,
      { Authorization: gitBasic(CH_TOKENS.ada), 'Content-Type': 'application/x-git-upload-pack-request' },
      '0032want ',
    );
    const answer = await stalled.answer;
    expect(answer).toMatchObject({ status: 408 });
    expect((answer as { body: string }).body).toContain('--body-idle-timeout');
    expect((await lsRemote(ch.url, CH_TOKENS.ada)).status).toBe(0);
  });

  it('ARCHITECTURE §20: the code host REST checks the credential before the body: a stalled body without one is 401 at once', async () => {
    const started = Date.now();
    const stalled = openBody(ch.url, `/api/v3/repos/${OWNER}/${REPO}/pulls`, { 'Content-Type': 'application/json' }, '{"title":');
    const answer = await stalled.answer;
    stalled.req.destroy();
    expect(answer).toMatchObject({ status: 401, headers: { connection: 'close' } });
    expect(JSON.parse((answer as { body: string }).body)).toMatchObject({ message: 'Bad credentials' });
    // Answered before the body (and before the idle timeout could have cut it).
    expect(Date.now() - started).toBeLessThan(IDLE_MS);
  });

  it('ARCHITECTURE §20: an authenticated code-host REST body that stalls is cut with 408 in GitHub shape', async () => {
    const stalled = openBody(
      ch.url,
      `/api/v3/repos/${OWNER}/${REPO}/pulls`,
      { Authorization: `Bearer ${CH_TOKENS.ada}`, 'Content-Type': 'application/json' },
      '{"title":',
    );
    const answer = await stalled.answer;
    expect(answer).toMatchObject({ status: 408 });
    const body = JSON.parse((answer as { body: string }).body) as { message: string; documentation_url: string };
    expect(body.message).toContain('--body-idle-timeout');
    expect(body.documentation_url).toMatch(/^https:\/\/docs\.github\.com\//);
  });

  it('ARCHITECTURE §17: an authenticated tracker REST body that stalls is cut with 408 in the ErrorCollection shape', async () => {
    const stalled = openBody(
      ch.url,
      `/ex/jira/${CLOUD_ID}/rest/api/3/issue`,
      { Authorization: basic(EMAILS.assigner, TOKENS.assigner), 'Content-Type': 'application/json' },
      '{"fields":',
    );
    const answer = await stalled.answer;
    expect(answer).toMatchObject({ status: 408 });
    const body = JSON.parse((answer as { body: string }).body) as { errorMessages: string[]; errors: object };
    expect(body.errorMessages[0]).toContain('--body-idle-timeout');
    expect(body.errors).toEqual({});
  });
});
