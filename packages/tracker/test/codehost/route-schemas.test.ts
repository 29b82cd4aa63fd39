import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeHost } from '../../src/codehost/domain/host.js';
import { codehostRoutes } from '../../src/codehost/http/routes.js';
import { CodehostStore } from '../../src/codehost/store/store.js';
import { openDb, Store } from '../../src/index.js';

/**
 * ARCHITECTURE §20: every code-host route declares its schemas (path, body, responses with GitHub's
 * error of every refusal) and its documentation page, and the routes are exactly the operations of
 * the vendored GitHub description (spec/github-openapi/), so none is served unchecked.
 */
const SPEC = JSON.parse(readFileSync(new URL('../../../../spec/github-openapi/ghes-subset.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, unknown>>;
};

describe('ARCHITECTURE §20: the code host routes parse with schemas cut from GitHub’s description', () => {
  const routes: RouteOptions[] = [];
  let root: string;
  let store: Store;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'jst-codehost-routes-'));
    store = new Store(openDb({ dataDir: root }));
    await store.migrate();
    const host = await CodeHost.open({ store: new CodehostStore(store.context), git: null, gitErrors: { isConflict: () => false, isRefMoved: () => false } });
    const app = Fastify();
    app.addHook('onRoute', (route) => {
      routes.push(route);
    });
    await app.register(codehostRoutes(host), { prefix: '/api/v3' });
    await app.ready();
    await app.close();
  });
  afterAll(async () => {
    await store?.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** GitHub's template of a route's URL (`/api/v3/repos/:owner/:repo/pulls/:number` → `/repos/{owner}/{repo}/pulls/{pull_number}`). */
  const template = (url: string) =>
    url
      .replace(/^\/api\/v3/, '')
      .replace(/\/issues\/:number/, '/issues/{issue_number}')
      .replace(/:number/, '{pull_number}')
      .replace(/:(\w+)/g, '{$1}');
  const served = () => routes.filter((r) => r.method !== 'HEAD').map((r) => `${String(r.method)} ${template(r.url)}`);

  it('each route: its path parameters, a body schema for a write, a 4xx reply and a documentation page', () => {
    expect(routes.length).toBeGreaterThan(10);
    for (const r of routes.filter((x) => x.method !== 'HEAD')) {
      const schema = (r.schema ?? {}) as { params?: unknown; body?: unknown; response?: Record<string, unknown> };
      const name = `${String(r.method)} ${r.url}`;
      expect(r.url.includes(':') ? schema.params : 'none', name).toBeDefined();
      if (['POST', 'PUT', 'PATCH'].includes(String(r.method))) expect(schema.body, name).toBeDefined();
      expect(Object.keys(schema.response ?? {}), name).toContain('4xx');
      expect(r.config?.docs, name).toMatch(/^https:\/\/docs\.github\.com\/rest\//);
    }
  });

  it('the routes are exactly the operations of the vendored description', () => {
    const vendored = Object.entries(SPEC.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(served().sort()).toEqual(vendored.sort());
  });
});
