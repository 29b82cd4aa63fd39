import type { FastifyInstance, FastifySchema } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route with the schemas it declares (http/schemas/), for introspection and the tests. */
    routeTable: readonly RouteEntry[];
  }
}

/** A route as registered: method, full URL pattern, and its schemas. */
export interface RouteEntry {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
}

/**
 * The answer to a request no route takes: a known path asked with another method gets 405 and an
 * Allow header (as the hosted service does) rather than a 404 that says it does not exist; any
 * other path gets a 404 that says where the REST interface lives. Installed before any route, so
 * it sees every route as it is registered (and keeps them in `app.routeTable`).
 */
export function installNotFound(app: FastifyInstance): void {
  // Which methods each route pattern answers.
  const patterns: { method: string; path: RegExp }[] = [];
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeTable.push({ method, url: route.url, schema: route.schema });
    const path = new RegExp(
      `^${route.url
        .split('/')
        .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/')}/?$`,
    );
    for (const method of [route.method].flat()) patterns.push({ method, path });
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = [...new Set(patterns.filter((p) => p.path.test(path)).map((p) => p.method))].sort();
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      void reply
        .code(405)
        .header('allow', allowed.join(', '))
        .send({
          errorMessages: [`Method ${request.method.slice(0, 20)} is not allowed on ${path.slice(0, 200)}. Allowed: ${allowed.join(', ')}.`],
          errors: {},
        });
      return;
    }
    void reply.code(404).send({
      errorMessages: [
        `No such resource: ${request.method} ${request.url.split('?')[0]!.slice(0, 200)}. The REST interface lives under /rest/api/3 (or /ex/jira/<cloudId>/rest/api/3).`,
      ],
      errors: {},
    });
  });
}
