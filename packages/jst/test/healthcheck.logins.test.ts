import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { check, healthWorld, rowOf } from './healthcheck-fixture.js';
import { TrackerClient } from '@jst/client';
import { CODEHOST_TOKEN, setting, without } from '../../../test/support/repo.js';
import { CODEHOST_LOGIN, CODEHOST_ROLE_LOGINS, CODEHOST_ROLE_TOKENS, EMAILS, TOKENS, testSeed } from '../../../test/support/seed.js';
import { ROLES, type Role } from '../src/config/index.js';
import { type CodehostFetch } from '../src/healthcheck/index.js';

// A scoped token without read:jira-user: GET /myself answers 401 "scope does not match" (spec §5 rule 8).
const NO_USER_SCOPE = 'tok-scoped-nouser-6a7b';

const world = healthWorld({
  // Adds a scoped token without read:jira-user to the bot of the usual seed.
  seed: (() => {
    const site = testSeed().sites[0]!;
    const extra = { token: NO_USER_SCOPE, kind: 'scoped', scopes: ['read:jira-work'] };
    const users = site.users.map((u) => (u.email === 'bot@acme.test' ? { ...u, tokens: [...u.tokens, extra] } : u));
    return { sites: [{ ...site, users }] };
  })(),
});
const project = world.project;

const NAMES: Record<Role, string> = { assigner: 'Ada Assigner', executor: 'Eve Executor', reviewer: 'Rey Reviewer' };

describe('spec §5 rule 6: tracker_login proves the identity with GET /myself', () => {
  it.each(ROLES)('%s: PASS showing e-mail, displayName and accountId', async (role) => {
    const row = rowOf(await check(project().repo, role), 'tracker_login');
    expect(row.status).toBe('PASS');
    expect(row.detail).toContain(EMAILS[role]);
    expect(row.detail).toContain(NAMES[role]);
    expect(row.detail).toMatch(/accountId \S+/);
  });

  it('the e-mail is compared case-insensitively', async () => {
    const r = project({ local: setting('TRACKER_REVIEWER_EMAIL', EMAILS.reviewer.toUpperCase()) });
    expect(rowOf(await check(r.repo, 'reviewer'), 'tracker_login').status).toBe('PASS');
  });

  it('a wrong token: FAIL explained as stale or revoked, with what to do, never showing the token', async () => {
    const wrong = 'tok-wrong-0000ffff';
    const r = project({ local: setting('TRACKER_EXECUTOR_TOKEN', wrong) });
    const report = await check(r.repo, 'executor');
    const row = rowOf(report, 'tracker_login');
    expect(row.status).toBe('FAIL');
    expect(row.detail).toMatch(/stale or revoked/);
    expect(row.detail).toContain('create a new API token for executor@acme.test');
    expect(JSON.stringify(report)).not.toContain(wrong);
  });

  it('identity mismatch: the assigner e-mail with the executor’s token FAILs naming both e-mails', async () => {
    const r = project({ local: setting('TRACKER_ASSIGNER_TOKEN', TOKENS.executor) });
    const row = rowOf(await check(r.repo, 'assigner'), 'tracker_login');
    expect(row.status).toBe('FAIL');
    expect(row.detail).toContain(EMAILS.assigner);
    expect(row.detail).toContain(EMAILS.executor);
    expect(row.detail).toContain("TRACKER_ASSIGNER_TOKEN is the executor's token");
    expect(row.detail).not.toContain(TOKENS.executor);
  });

  it('identity mismatch: /myself answering another account FAILs naming both e-mails', async () => {
    const r = project();
    // The credential the client really sends is the executor's while the configuration says assigner.
    const makeClient = () =>
      new TrackerClient({ siteHost: new URL(world.tracker().url).host, gatewayUrl: world.tracker().url, email: EMAILS.executor, token: TOKENS.executor });
    const row = rowOf(await check(r.repo, 'assigner', { makeClient }), 'tracker_login');
    expect(row.status).toBe('FAIL');
    expect(row.detail).toContain(`belongs to ${EMAILS.executor}`);
    expect(row.detail).toContain(`TRACKER_ASSIGNER_EMAIL ${EMAILS.assigner}`);
  });

  it('spec §5 rule 8: 401 "scope does not match" FAILs as a scope problem, not a credential problem', async () => {
    const r = project({ local: (l) => setting('TRACKER_ASSIGNER_TOKEN', NO_USER_SCOPE)(setting('TRACKER_ASSIGNER_EMAIL', 'bot@acme.test')(l)) });
    const row = rowOf(await check(r.repo), 'tracker_login');
    expect(row.status).toBe('FAIL');
    expect(row.detail).toContain('scope problem, not a credential problem');
    expect(row.detail).not.toMatch(/stale or revoked/);
  });

  it('tracker not reachable: FAIL naming the URL', async () => {
    const port = await closedPort();
    const r = project({ trackerUrl: `http://127.0.0.1:${port}` });
    const row = rowOf(await check(r.repo), 'tracker_login');
    expect(row.status).toBe('FAIL');
    expect(row.detail).toContain(`http://127.0.0.1:${port}/_edge/tenant_info`);
  });
});

describe('spec §4: codehost_login is a repository read with CODEHOST_PAT_TOKEN', () => {
  it('PASS on the embedded code host (origin on it, no CODEHOST_REPO): GET /repos/acme/widgets with a Bearer token', async () => {
    const r = project();
    expect(r.git('config', 'remote.origin.url')).toBe(world.codehost().gitUrl('acme/widgets'));
    const tap = world.codehost().tap();
    try {
      const row = rowOf(await check(r.repo), 'codehost_login');
      expect(row).toMatchObject({
        status: 'PASS',
        detail: `read acme/widgets (private) at ${world.codehost().api}; executor: ${CODEHOST_LOGIN} (CODEHOST_PAT_TOKEN), reviewer: ${CODEHOST_LOGIN} (CODEHOST_PAT_TOKEN)`,
      });
      // One token for both roles: read once.
      expect(tap.requests.map((q) => [q.method, q.path, q.authorization])).toEqual([
        ['GET', '/repos/acme/widgets', `Bearer ${CODEHOST_TOKEN}`],
        ['GET', '/user', `Bearer ${CODEHOST_TOKEN}`],
      ]);
    } finally {
      tap.stop();
    }
  });

  it('wrong token: FAIL (401) saying it is wrong, expired or revoked, without the token', async () => {
    const r = project({ codehostToken: 'github_pat_wrong_1111' });
    const report = await check(r.repo);
    expect(rowOf(report, 'codehost_login').status).toBe('FAIL');
    expect(rowOf(report, 'codehost_login').detail).toMatch(/401.*wrong, expired or revoked/);
    expect(JSON.stringify(report)).not.toContain('github_pat_wrong_1111');
  });

  it('unknown repository: FAIL (404) pointing at the token’s repository access', async () => {
    const r = project({}, { originUrl: world.codehost().gitUrl('acme/unknown') });
    const row = rowOf(await check(r.repo), 'codehost_login');
    expect(row.status).toBe('FAIL');
    expect(row.detail).toMatch(/acme\/unknown.*404/);
  });

  it('a repository the token may not read is masked as not found (404), as GitHub masks it', async () => {
    const r = project({}, { originUrl: world.codehost().gitUrl('acme/locked') });
    expect(rowOf(await check(r.repo), 'codehost_login')).toMatchObject({ status: 'FAIL', detail: expect.stringMatching(/acme\/locked.*404/) });
  });

  it('a 403 (a fine-grained token the repository is visible to but that lacks the permission): FAIL naming the permission', async () => {
    // The embedded code host masks as 404; GitHub answers some fine-grained tokens 403, so that
    // answer is injected at the client's fetch.
    const codehostFetch: CodehostFetch = async () => ({
      status: 403,
      headers: new Headers(),
      json: async () => ({ message: 'Resource not accessible by personal access token', documentation_url: 'https://docs.github.com/rest' }),
    });
    const row = rowOf(await check(project().repo, 'assigner', { codehostFetch }), 'codehost_login');
    expect(row).toMatchObject({ status: 'FAIL', detail: expect.stringMatching(/may not read acme\/widgets \(403\)/) });
  });

  it('origin is a local path: WARN, and nothing is sent', async () => {
    const r = project({}, {});
    const tap = world.codehost().tap();
    try {
      const row = rowOf(await check(r.repo), 'codehost_login');
      expect(row.status).toBe('WARN');
      expect(row.detail).toContain(`origin ${r.origin} is not a repository on the code host`);
      expect(tap.requests).toEqual([]);
    } finally {
      tap.stop();
    }
  });

  it('no origin remote: WARN', async () => {
    const r = project();
    r.git('remote', 'remove', 'origin');
    expect(rowOf(await check(r.repo), 'codehost_login')).toMatchObject({ status: 'WARN', detail: expect.stringMatching(/^no origin remote/) });
  });

  it("ARCHITECTURE §10: one code-host identity per role: each role's login, read with its own token", async () => {
    const r = project({
      local: (lines) => [...lines, `CODEHOST_EXECUTOR_TOKEN=${CODEHOST_ROLE_TOKENS.executor}`, `CODEHOST_REVIEWER_TOKEN=${CODEHOST_ROLE_TOKENS.reviewer}`],
    });
    const report = await check(r.repo);
    expect(rowOf(report, 'codehost_login')).toMatchObject({
      status: 'PASS',
      detail: expect.stringContaining(
        `executor: ${CODEHOST_ROLE_LOGINS.executor} (CODEHOST_EXECUTOR_TOKEN), reviewer: ${CODEHOST_ROLE_LOGINS.reviewer} (CODEHOST_REVIEWER_TOKEN)`,
      ),
    });
    expect(JSON.stringify(report)).not.toContain(CODEHOST_ROLE_TOKENS.executor);
  });

  it('ARCHITECTURE §10: a role without its own token falls back to CODEHOST_PAT_TOKEN', async () => {
    const r = project({ local: (lines) => [...lines, `CODEHOST_REVIEWER_TOKEN=${CODEHOST_ROLE_TOKENS.reviewer}`] });
    expect(rowOf(await check(r.repo), 'codehost_login').detail).toContain(
      `executor: ${CODEHOST_LOGIN} (CODEHOST_PAT_TOKEN), reviewer: ${CODEHOST_ROLE_LOGINS.reviewer} (CODEHOST_REVIEWER_TOKEN)`,
    );
  });

  it('ARCHITECTURE §10: a wrong role token FAILs naming that setting', async () => {
    const r = project({ local: (lines) => [...lines, 'CODEHOST_REVIEWER_TOKEN=github_pat_wrong_2222'] });
    const row = rowOf(await check(r.repo), 'codehost_login');
    expect(row.status).toBe('FAIL');
    expect(row.detail).toMatch(/refused CODEHOST_REVIEWER_TOKEN \(401/);
    expect(row.detail).not.toContain('github_pat_wrong_2222');
  });

  it('no CODEHOST_PAT_TOKEN: WARN, not FAIL', async () => {
    const r = project({ local: without('CODEHOST_PAT_TOKEN') });
    const report = await check(r.repo);
    expect(rowOf(report, 'codehost_login')).toMatchObject({ status: 'WARN', detail: expect.stringMatching(/CODEHOST_PAT_TOKEN is not set/) });
  });

  it('api.github.com reads github.com repositories; an origin on another host is a WARN', async () => {
    const urls: string[] = [];
    const codehostFetch: CodehostFetch = async (url) => {
      urls.push(url);
      const body = url.endsWith('/user') ? { login: 'octo' } : { full_name: 'acme/widgets', private: false };
      return { status: 200, headers: new Headers(), json: async () => body };
    };
    const onGithub = project({ local: setting('CODEHOST_API_URL', 'https://api.github.com') }, { originUrl: 'https://github.com/acme/widgets.git' });
    expect(rowOf(await check(onGithub.repo, 'assigner', { codehostFetch }), 'codehost_login')).toMatchObject({
      status: 'PASS',
      detail: 'read acme/widgets (public) at https://api.github.com; executor: octo (CODEHOST_PAT_TOKEN), reviewer: octo (CODEHOST_PAT_TOKEN)',
    });
    expect(urls).toEqual(['https://api.github.com/repos/acme/widgets', 'https://api.github.com/user']);

    const elsewhere = project(
      { local: setting('CODEHOST_API_URL', 'https://api.github.com') },
      { originUrl: 'https://user:pw-secret@gitlab.com/acme/widgets.git' },
    );
    const row = rowOf(await check(elsewhere.repo, 'assigner', { codehostFetch }), 'codehost_login');
    expect(row.status).toBe('WARN');
    expect(row.detail).toContain('origin https://gitlab.com/acme/widgets.git');
    expect(urls).toHaveLength(2); // only the first check's two reads
  });

  it('code host not reachable: FAIL naming the URL', async () => {
    const port = await closedPort();
    const r = project({ codehostUrl: `http://127.0.0.1:${port}` });
    const row = rowOf(await check(r.repo), 'codehost_login');
    expect(row.status).toBe('FAIL');
    expect(row.detail).toContain(`http://127.0.0.1:${port}/repos/acme/widgets`);
  });
});

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
