import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestTracker, storeKinds, type TestTracker } from '../../../../test/support/tracker.js';
import { CLOUD_ID, EMAILS, SITE_HOST, TOKENS } from '../../../../test/support/seed.js';

describe.each(await storeKinds())('spec §5 authentication (%s)', (kind) => {
  let t: TestTracker;
  beforeAll(async () => {
    t = await startTestTracker(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('spec §4 endpoint 1 / §5 rule 7: tenant_info needs no authentication and gives the cloudId', async () => {
    const res = await fetch(`${t.url}/_edge/tenant_info`, { headers: { Host: SITE_HOST } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ cloudId: CLOUD_ID });
  });

  it('spec §5 rule 1: HTTP Basic with e-mail and API token works on the gateway and the site form', async () => {
    const viaGateway = await t.as('assigner').get('/myself');
    expect(viaGateway.status).toBe(200);
    expect(viaGateway.body.emailAddress).toBe(EMAILS.assigner);
    const viaSite = await t.as('assigner', 'site').get('/myself');
    expect(viaSite.status).toBe(200);
    expect(viaSite.body.accountId).toBe(viaGateway.body.accountId);
    expect(viaGateway.body.self).toContain(`/ex/jira/${CLOUD_ID}/rest/api/3/user`);
  });

  it('spec §7: GET /myself without a credential is 401 in the ErrorCollection shape', async () => {
    const r = await t.anonymous().get('/myself');
    expect(r.status).toBe(401);
    expect(r.body.errorMessages[0]).toMatch(/authenticated/i);
    expect(r.headers.get('x-seraph-loginreason')).toBe('AUTHENTICATED_FAILED');
  });

  it('spec §7: a wrong, stale or revoked token is 401', async () => {
    const r = await t.as('assigner').raw('/myself', { headers: { Authorization: basic(EMAILS.assigner, 'not-the-token') } });
    expect(r.status).toBe(401);
    const other = await t.as('assigner').raw('/myself', { headers: { Authorization: basic(EMAILS.assigner, TOKENS.executor) } });
    expect(other.status).toBe(401);
    const unknownUser = await t.as('assigner').raw('/myself', { headers: { Authorization: basic('nobody@acme.test', TOKENS.assigner) } });
    expect(unknownUser.status).toBe(401);
  });

  it('spec §5 rule 1: a malformed Basic header or a Bearer token is 401', async () => {
    for (const header of ['Basic', 'Basic !!!', `Basic ${Buffer.from('no-colon').toString('base64')}`, `Bearer ${TOKENS.assigner}`, 'Digest x']) {
      const r = await t.as('assigner').raw('/myself', { headers: { Authorization: header } });
      expect(r.status, header).toBe(401);
    }
  });

  it('spec §5 rule 2: no session: each request carries its own credential, so roles interleave freely', async () => {
    const [a, e, v] = await Promise.all([t.as('assigner').get('/myself'), t.as('executor').get('/myself'), t.as('viewer').get('/myself')]);
    expect([a.body.emailAddress, e.body.emailAddress, v.body.emailAddress]).toEqual([EMAILS.assigner, EMAILS.executor, EMAILS.viewer]);
    expect(a.headers.get('set-cookie')).toBeNull();
  });

  it('spec §5 rule 4: a scoped token works on the gateway and gets 401 AUTHENTICATED_FAILED on the site form', async () => {
    expect((await t.as('scopedRead').get('/myself')).status).toBe(200);
    const r = await t.as('scopedRead', 'site').get('/myself');
    expect(r.status).toBe(401);
    expect(r.headers.get('x-seraph-loginreason')).toBe('AUTHENTICATED_FAILED');
    expect(r.body.errorMessages[0]).toContain('AUTHENTICATED_FAILED');
  });

  it('spec §5 rule 8: a scoped token lacking the scope an operation needs gets 401 "scope does not match"', async () => {
    const r = await t.as('scopedRead').post('/issue', { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'x' } });
    expect(r.status).toBe(401);
    expect(r.body.errorMessages[0]).toMatch(/scope does not match/);
    expect(r.body.errorMessages[0]).toContain('write:jira-work');
    const ok = await t.as('scopedAll').post('/issue', { fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'x' } });
    expect(ok.status).toBe(201);
  });

  it('ARCHITECTURE §4: an unknown cloudId on the gateway form is 404', async () => {
    const res = await fetch(`${t.url}/ex/jira/no-such-cloud/rest/api/3/myself`, { headers: { Authorization: basic(EMAILS.assigner, TOKENS.assigner) } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { errorMessages: string[] }).errorMessages[0]).toContain('no-such-cloud');
  });
});
