import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestTracker, storeKinds, type TestTracker } from '../../../../test/support/tracker.js';

const seed = {
  sites: [
    {
      host: 'one.atlassian.net',
      cloudId: 'cloud-one',
      users: [{ email: 'a@one.test', tokens: [{ token: 'one-token' }] }],
      projects: [{ key: 'ONE', name: 'One', members: [{ email: 'a@one.test', role: 'admin' }] }],
    },
    {
      host: 'two.atlassian.net',
      cloudId: 'cloud-two',
      users: [{ email: 'a@two.test', tokens: [{ token: 'two-token' }] }],
      projects: [{ key: 'TWO', name: 'Two', members: [{ email: 'a@two.test', role: 'admin' }] }],
    },
  ],
};

/** Node's fetch will not let a caller set Host, so these requests go through node:http. */
async function get(url: string, host: string, auth?: string): Promise<{ status: number; body: any }> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Host: host, Accept: 'application/json', ...(auth ? { Authorization: auth } : {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.each(await storeKinds())('ARCHITECTURE §4: several sites on one server (%s)', (kind) => {
  let t: TestTracker;
  beforeAll(async () => {
    t = await startTestTracker(kind, seed);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the Host header (without port) picks the site for tenant_info and the site form', async () => {
    expect((await get(`${t.url}/_edge/tenant_info`, 'one.atlassian.net')).body).toEqual({ cloudId: 'cloud-one' });
    expect((await get(`${t.url}/_edge/tenant_info`, 'two.atlassian.net:443')).body).toEqual({ cloudId: 'cloud-two' });
    const me = await get(`${t.url}/rest/api/3/myself`, 'two.atlassian.net', basic('a@two.test', 'two-token'));
    expect(me.body.emailAddress).toBe('a@two.test');
  });

  it('an unknown Host is 404 when several sites are served', async () => {
    const r = await get(`${t.url}/_edge/tenant_info`, 'three.atlassian.net');
    expect(r.status).toBe(404);
    expect(r.body.errorMessages[0]).toContain('three.atlassian.net');
  });

  it('a credential of one site does not work on another, by Host or by cloudId', async () => {
    expect((await get(`${t.url}/rest/api/3/myself`, 'one.atlassian.net', basic('a@two.test', 'two-token'))).status).toBe(401);
    expect((await get(`${t.url}/ex/jira/cloud-one/rest/api/3/myself`, 'anything', basic('a@two.test', 'two-token'))).status).toBe(401);
    const ok = await get(`${t.url}/ex/jira/cloud-two/rest/api/3/project/search`, 'api.atlassian.com', basic('a@two.test', 'two-token'));
    expect(ok.body.values.map((p: any) => p.key)).toEqual(['TWO']);
  });
});
