import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git } from '../../../../test/support/repo.js';
import { storeKinds } from '../../../../test/support/tracker.js';
import { checkPayload, pushOverHttp, Receiver, until } from './hooks-support.js';
import { CH_TOKENS, OWNER, REPO, refusal, startCodehostServer, type CodehostServer } from './support.js';

const SECRET = 'It is a secret to everybody';

/**
 * ARCHITECTURE §22 "Webhooks in GitHub's shape": a repository's admins manage its hooks; every
 * event is delivered with GitHub's headers, signed with the hook's secret (checked by GitHub's own
 * @octokit/webhooks-methods), its payload as GitHub's published schemas describe it; deliveries go
 * only where --hook-allow permits, follow no redirect and give up after the timeout, each recorded.
 */
describe.each(await storeKinds())('ARCHITECTURE §22 webhooks (%s)', (kind) => {
  let ch: CodehostServer;
  let rx: Receiver;
  let hookId: number;

  beforeAll(async () => {
    ch = await startCodehostServer(kind, { server: { hookTimeoutMs: 1500, hookPollMs: 200 } });
    rx = new Receiver(SECRET);
    await rx.start();
  }, 60_000);
  afterAll(async () => {
    await ch?.close();
    await rx?.stop();
  });

  const events = (name: string, action?: string) => rx.got.filter((r) => r.event === name && (action === undefined || r.payload.action === action));

  it('ARCHITECTURE §22: an admin makes a hook (201, the secret answered as ********) and GitHub’s ping arrives signed, in the ping schema', async () => {
    const made = await ch.as('rey').request('POST /repos/{owner}/{repo}/hooks', {
      owner: OWNER,
      repo: REPO,
      config: { url: `${rx.url}/hook`, content_type: 'json', secret: SECRET },
      events: ['*'],
    });
    expect(made.status).toBe(201);
    expect(made.data.config.secret).toBe('********');
    expect(JSON.stringify(made.data)).not.toContain(SECRET);
    hookId = made.data.id;
    const ping = await until('the ping', () => events('ping')[0]);
    expect(ping.signed).toBe(true);
    expect(ping.hookId).toBe(String(hookId));
    expect(ping.headers['user-agent']).toMatch(/^GitHub-Hookshot\//);
    expect(ping.guid).toMatch(/^[0-9a-f-]{36}$/);
    checkPayload('ping', ping.payload);
    const listed = await ch.as('rey').request('GET /repos/{owner}/{repo}/hooks', { owner: OWNER, repo: REPO });
    expect(listed.data.map((h: any) => h.id)).toEqual([hookId]);
  });

  it('ARCHITECTURE §22: hooks are the admins’ only: a writer, a reader and a stranger are answered 404', async () => {
    for (const who of ['ada', 'vic', 'olga'] as const) {
      expect((await refusal(ch.as(who).request('GET /repos/{owner}/{repo}/hooks', { owner: OWNER, repo: REPO }))).status).toBe(404);
      const post = await refusal(ch.as(who).request('POST /repos/{owner}/{repo}/hooks', { owner: OWNER, repo: REPO, config: { url: `${rx.url}/x` } }));
      expect(post.status).toBe(404);
      expect((await refusal(ch.as(who).request('GET /repos/{owner}/{repo}/hooks/{hook_id}', { owner: OWNER, repo: REPO, hook_id: hookId }))).status).toBe(404);
    }
  });

  it('ARCHITECTURE §22: every bad input of the hooks REST is a 422 that names the field, and nothing is made', async () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{}, /config\.url/],
      [{ config: { url: 'ftp://127.0.0.1/x' } }, /http or https/],
      [{ config: { url: 'not a url' } }, /not a URL/],
      [{ config: { url: `${rx.url}/x`, secret: 's'.repeat(257) } }, /secret.*256/],
      [{ config: { url: `${rx.url}/x`, content_type: 'xml' } }, /content_type/],
      [{ config: { url: `${rx.url}/x` }, events: ['nope'] }, /nope.*not a webhook event/],
      [{ config: { url: `${rx.url}/x` }, name: 'email' }, /name must be "web"/],
      [{ config: { url: 'http://user:pw@127.0.0.1/x' } }, /user name or password/],
    ];
    bad.push([{ config: { url: `${rx.url}/${'x'.repeat(2100)}` } }, /config\.url is longer than 2048 characters/]);
    // Sent without Octokit: its own check of the request's URI (a regular expression) is not what is tested.
    for (const [body, message] of bad) {
      const r = await fetch(`${ch.api}/repos/${OWNER}/${REPO}/hooks`, {
        method: 'POST',
        headers: { authorization: `token ${CH_TOKENS.rey}` },
        body: JSON.stringify(body),
      });
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      const answer = (await r.json()) as { errors: { message: string }[] };
      expect(answer.errors[0]!.message, JSON.stringify(body).slice(0, 80)).toMatch(message);
    }
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${ch.api}/repos/${OWNER}/${REPO}${path}`, {
        method,
        headers: { authorization: `token ${CH_TOKENS.rey}` },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    expect(((await (await call('GET', '/hooks')).json()) as unknown[]).length).toBe(1);
    expect((await call('PATCH', `/hooks/${hookId}`, { add_events: ['bogus'] })).status).toBe(422);
    expect((await call('GET', '/hooks/999999')).status).toBe(404);
    expect((await call('GET', '/hooks/0')).status).toBe(404);
  });

  it('ARCHITECTURE §22: a push, a pull request’s life, a review and a comment arrive as GitHub’s events, signed, each in its published schema', async () => {
    git(ch.work, 'checkout', '--quiet', '-B', 'feature/ABC-1-hooks', 'main');
    git(ch.work, 'commit', '--quiet', '--allow-empty', '-m', 'first');
    await pushOverHttp(ch.url, ch.work, 'ada', 'feature/ABC-1-hooks');
    await until('push and create', () => events('push').some((r) => r.payload.ref === 'refs/heads/feature/ABC-1-hooks') && events('create').length > 0);
    const rest = ch.as('ada');
    const pr = await rest.request('POST /repos/{owner}/{repo}/pulls', { owner: OWNER, repo: REPO, title: 'Hooks', head: 'feature/ABC-1-hooks', base: 'main' });
    const n = pr.data.number;
    await rest.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', { owner: OWNER, repo: REPO, pull_number: n, title: 'Hooks, renamed' });
    await rest.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner: OWNER, repo: REPO, issue_number: n, body: 'a comment' });
    git(ch.work, 'commit', '--quiet', '--allow-empty', '-m', 'second');
    await pushOverHttp(ch.url, ch.work, 'ada', 'feature/ABC-1-hooks');
    await ch
      .as('rey')
      .request('POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', { owner: OWNER, repo: REPO, pull_number: n, event: 'APPROVE', body: 'fine' });
    await rest.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', { owner: OWNER, repo: REPO, pull_number: n, state: 'closed' });
    await rest.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', { owner: OWNER, repo: REPO, pull_number: n, state: 'open' });
    await rest.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', { owner: OWNER, repo: REPO, pull_number: n });
    await until(
      'every event',
      () =>
        ['opened', 'edited', 'synchronize', 'closed', 'reopened'].every((a) => events('pull_request', a).length > 0) &&
        events('pull_request', 'closed').some((r) => r.payload.pull_request.merged) &&
        events('pull_request_review').length > 0 &&
        events('issue_comment').length > 0 &&
        events('push').some((r) => r.payload.ref === 'refs/heads/main'),
    );
    for (const r of rx.got) {
      expect(r.signed, r.event).toBe(true);
      checkPayload(r.event, r.payload);
      // ARCHITECTURE §22 "Fidelity": every time a payload carries is GitHub's, to the second (or, as
      // GitHub sends a push's repository times, seconds since the epoch).
      for (const [where, at] of timesIn(r.payload))
        expect(typeof at === 'number' || /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(at), `${r.event} ${where}: ${at}`).toBe(true);
    }
    expect(events('pull_request', 'edited')[0]!.payload.changes.title.from).toBe('Hooks');
    const sync = events('pull_request', 'synchronize')[0]!.payload;
    expect(sync.after).toBe(git(ch.work, 'rev-parse', 'HEAD'));
    expect(new Set(rx.got.map((r) => r.guid)).size).toBe(rx.got.length);
  }, 60_000);

  it('ARCHITECTURE §22: deliveries are listed with their outcome; one is shown with its request (secret never), and redelivered with its GUID', async () => {
    const list = await ch.as('rey').request('GET /repos/{owner}/{repo}/hooks/{hook_id}/deliveries', { owner: OWNER, repo: REPO, hook_id: hookId });
    expect(list.data.length).toBeGreaterThan(5);
    const first = list.data.find((d: any) => d.event === 'ping')!;
    expect(first.status).toBe('OK');
    expect(first.status_code).toBe(200);
    const one = await ch.as('rey').request('GET /repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}', {
      owner: OWNER,
      repo: REPO,
      hook_id: hookId,
      delivery_id: Number(first.id),
    });
    expect((one.data.request.headers as Record<string, string>)['X-GitHub-Event']).toBe('ping');
    expect(JSON.stringify(one.data)).not.toContain(SECRET);
    const before = rx.got.length;
    const again = await ch.as('rey').request('POST /repos/{owner}/{repo}/hooks/{hook_id}/deliveries/{delivery_id}/attempts', {
      owner: OWNER,
      repo: REPO,
      hook_id: hookId,
      delivery_id: Number(first.id),
    });
    expect(again.status).toBe(202);
    const redone = await until('the redelivery', () => rx.got.slice(before).find((r) => r.guid === first.guid));
    expect(redone.event).toBe('ping');
    await until('the redelivery recorded', async () => {
      const l = await ch.as('rey').request('GET /repos/{owner}/{repo}/hooks/{hook_id}/deliveries', { owner: OWNER, repo: REPO, hook_id: hookId });
      return l.data.some((d: any) => d.redelivery && d.guid === first.guid && d.status === 'OK');
    });
  });

  it('ARCHITECTURE §22: a redirect is not followed, a slow receiver times out, an address --hook-allow does not permit is never connected; each is recorded', async () => {
    const cases: [string, () => void, RegExp][] = [
      [`${rx.url}/redirect`, () => (rx.mode = 'redirect'), /Redirect \(302\) not followed/],
      [`${rx.url}/slow`, () => (rx.mode = 'slow'), /Timed out/],
      ['http://10.255.255.1:9/x', () => (rx.mode = 'ok'), /10\.255\.255\.1 is not allowed by --hook-allow/],
    ];
    for (const [url, mode, result] of cases) {
      mode();
      const made = await ch
        .as('rey')
        .request('POST /repos/{owner}/{repo}/hooks', { owner: OWNER, repo: REPO, config: { url, content_type: 'form' }, events: ['push'] });
      const delivery = await until(
        `the outcome at ${url}`,
        async () => {
          const l = await ch.as('rey').request('GET /repos/{owner}/{repo}/hooks/{hook_id}/deliveries', { owner: OWNER, repo: REPO, hook_id: made.data.id });
          return l.data.find((d: any) => d.status !== 'Queued');
        },
        15_000,
      );
      expect(delivery.status).toMatch(result);
      const hook = await ch.as('rey').request('GET /repos/{owner}/{repo}/hooks/{hook_id}', { owner: OWNER, repo: REPO, hook_id: made.data.id });
      expect(hook.data.last_response.status).toBe('failed');
      await ch.as('rey').request('DELETE /repos/{owner}/{repo}/hooks/{hook_id}', { owner: OWNER, repo: REPO, hook_id: made.data.id });
    }
    rx.mode = 'ok';
    expect(rx.got.some((r) => r.headers['x-github-event'] === 'ping' && r.body.startsWith('payload='))).toBe(true);
  }, 60_000);

  it('ARCHITECTURE §22 / docs/limits.md: a repository takes at most 20 hooks (422 naming the limit); a deleted hook is 404', async () => {
    const rest = ch.as('rey');
    const have = (await rest.request('GET /repos/{owner}/{repo}/hooks', { owner: OWNER, repo: REPO })).data.length;
    for (let i = have; i < 20; i++) {
      await rest.request('POST /repos/{owner}/{repo}/hooks', { owner: OWNER, repo: REPO, config: { url: `${rx.url}/n${i}` }, active: false });
    }
    const full = await refusal(rest.request('POST /repos/{owner}/{repo}/hooks', { owner: OWNER, repo: REPO, config: { url: `${rx.url}/n21` } }));
    expect(full.status).toBe(422);
    expect(JSON.stringify(full.data)).toMatch(/at most 20 webhooks/);
    expect((await rest.request('DELETE /repos/{owner}/{repo}/hooks/{hook_id}', { owner: OWNER, repo: REPO, hook_id: hookId })).status).toBe(204);
    expect((await refusal(rest.request('GET /repos/{owner}/{repo}/hooks/{hook_id}', { owner: OWNER, repo: REPO, hook_id: hookId }))).status).toBe(404);
  });
});

/** Every `…_at` value (and a commit's `timestamp`) in a payload, with its path. */
function timesIn(value: unknown, path = '$'): Array<[string, string | number]> {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
    (k.endsWith('_at') || k === 'timestamp') && (typeof v === 'string' || typeof v === 'number')
      ? [[`${path}.${k}`, v] as [string, string | number]]
      : timesIn(v, `${path}.${k}`),
  );
}
