import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jstFolder, runJst } from '../support/jst-cli.js';
import { CLOUD_ID, EMAILS, testSeed } from '../support/seed.js';
import { startTestTracker, type TestTracker } from '../support/tracker.js';

/**
 * spec §4 client rule 1: jst caches the cloudId per site host in `.jst/cloud-id.json`. When the
 * tracker at the same host:port is replaced (new data folder, new generated cloudId), the cached
 * id names no site: the client must notice the 404, read tenant_info again and carry on.
 */
describe('a cached cloudId that went stale because the tracker at the same address was replaced', () => {
  let t: TestTracker | undefined;
  afterAll(async () => {
    await t?.close();
  });

  it('jst raw re-reads tenant_info once, retries, and stores the new cloudId; the healthcheck agrees', async () => {
    t = await startTestTracker('sqlite');
    const dir = jstFolder(t);
    const host = new URL(t.url).host;
    const cacheFile = join(dir, '.jst', 'cloud-id.json');
    const cached = () => JSON.parse(readFileSync(cacheFile, 'utf8')) as Record<string, string>;
    const myself = () => runJst(['--role', 'assigner', 'raw', 'GET', '/myself'], { cwd: dir });

    const first = await myself();
    expect(first.code, first.stderr).toBe(0);
    expect(cached()).toEqual({ [host]: CLOUD_ID });

    // The same address, a new data folder and a seed without cloudId: the same users, another site id.
    const port = Number(new URL(t.url).port);
    await t.close();
    t = undefined;
    const seed = testSeed();
    delete (seed.sites[0] as { cloudId?: string }).cloudId;
    t = await startTestTracker('sqlite', seed, { port });
    expect(new URL(t.url).host).toBe(host);
    const fresh = ((await (await fetch(`${t.url}/_edge/tenant_info`)).json()) as { cloudId: string }).cloudId;
    expect(fresh).not.toBe(CLOUD_ID);

    const again = await myself();
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).emailAddress).toBe(EMAILS.assigner);
    expect(cached()).toEqual({ [host]: fresh });

    // A write through a stale cache lands exactly once (the first attempt reached no site).
    writeFileSync(cacheFile, JSON.stringify({ [host]: CLOUD_ID }));
    const body = JSON.stringify({ fields: { project: { key: 'ABC' }, issuetype: { name: 'Task' }, summary: 'after the tracker was replaced' } });
    const created = await runJst(['--role', 'assigner', 'raw', 'POST', '/issue', body], { cwd: dir });
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout).key as string;
    const next = await runJst(['--role', 'assigner', 'raw', 'GET', `/issue/ABC-${Number(key.split('-')[1]) + 1}`], { cwd: dir });
    expect(next.code).toBe(1);
    expect(next.stderr).toMatch(/^HTTP 404/);
    expect(cached()).toEqual({ [host]: fresh });

    // The healthcheck reads the same cache, so it neither disagrees with raw nor keeps a stale id.
    writeFileSync(cacheFile, JSON.stringify({ [host]: CLOUD_ID }));
    const health = await runJst(['healthcheck', '--role', 'assigner', '--json'], { cwd: dir });
    const login = (JSON.parse(health.stdout) as { rows: { name: string; status: string; detail: string }[] }).rows.find((r) => r.name === 'tracker_login');
    expect(login, health.stdout).toMatchObject({ status: 'PASS' });
    expect(cached()).toEqual({ [host]: fresh });
  });

  it('a genuine 404 with a good cached cloudId is returned as it is, and the cache is left alone', async () => {
    t ??= await startTestTracker('sqlite');
    const dir = jstFolder(t);
    const host = new URL(t.url).host;
    const cacheFile = join(dir, '.jst', 'cloud-id.json');
    const good = ((await (await fetch(`${t.url}/_edge/tenant_info`)).json()) as { cloudId: string }).cloudId;
    writeFileSync(cacheFile, JSON.stringify({ [host]: good }));
    const r = await runJst(['--role', 'assigner', 'raw', 'GET', '/issue/NOPE-1'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^HTTP 404 Not Found/);
    expect(r.stderr).not.toContain('No site has the cloud id');
    expect(JSON.parse(readFileSync(cacheFile, 'utf8'))).toEqual({ [host]: good });
  });
});
