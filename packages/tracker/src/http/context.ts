import type { FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';
import type { Site, User } from '../domain/model.js';
import type { AddressForm, Caller, Scope, Tracker } from '../domain/tracker.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
  interface FastifyContextConfig {
    /** The scope a scoped token needs for this route (from the vendor's OpenAPI); none = anonymous. */
    scope?: Scope;
  }
}

/** The gateway path's `:cloudId` (every route under the gateway prefix has it); '' when absent. */
function cloudIdOf(request: FastifyRequest): string {
  const params: unknown = request.params;
  return typeof params === 'object' && params !== null && 'cloudId' in params && typeof params.cloudId === 'string' ? params.cloudId : '';
}

/** Which site a request is for, from the gateway path's cloudId or the site form's Host header. */
export async function siteOf(tracker: Tracker, request: FastifyRequest, form: AddressForm) {
  if (form === 'gateway') {
    const cloudId = cloudIdOf(request);
    const site = await tracker.siteForCloudId(cloudId);
    if (!site) throw new ApiError(404, [`No site has the cloud id '${cloudId.slice(0, 64)}'. Read the cloudId from GET /_edge/tenant_info on the site.`]);
    return site;
  }
  const site = await tracker.siteForHost(request.headers.host);
  if (!site) throw new ApiError(404, [`No site is served for host '${(request.headers.host ?? '').slice(0, 100)}'.`]);
  return site;
}

/**
 * The API scope's onRequest hook: authenticates the request for the route's scope and records who
 * is calling. Written in Fastify's callback style and done at once when the site and the sign-in
 * are already known (nearly every request): no promise, no microtask. Anything else (a site not
 * read yet, a credential not remembered, every refusal) goes through `authenticate`.
 */
export function authenticateHook(tracker: Tracker, form: AddressForm) {
  return (request: FastifyRequest, _reply: unknown, done: (error?: Error) => void): void => {
    const scope = request.routeOptions.config.scope;
    const site = form === 'gateway' ? tracker.knownSiteForCloudId(cloudIdOf(request)) : tracker.knownSiteForHost(request.headers.host);
    const user = site && scope ? tracker.rememberedSignIn(site, request.headers.authorization, form, scope) : undefined;
    if (site && (!scope || user)) {
      if (user) request.caller = callerFor(request, site, user, form);
      done();
      return;
    }
    authenticate(tracker, request, form).then(() => done(), done);
  };
}

/** Who calls, on which site, and the base of the links in the replies (from the request's protocol and Host). */
export const makeCaller = (site: Site, user: User, form: AddressForm, protocol: string, host: string): Caller => ({
  site,
  user,
  baseUrl: `${protocol}://${host}${form === 'gateway' ? `/ex/jira/${site.cloud_id}` : ''}`,
});

const callerFor = (request: FastifyRequest, site: Site, user: User, form: AddressForm): Caller => makeCaller(site, user, form, request.protocol, request.host);

/** Authenticates the request for the route's scope, reading what is not known yet, and records who is calling. */
export async function authenticate(tracker: Tracker, request: FastifyRequest, form: AddressForm): Promise<void> {
  const site = await siteOf(tracker, request, form);
  const scope = request.routeOptions.config.scope;
  if (!scope) return;
  // The remembered sign-ins are asked by authenticate itself (the hook found none there).
  const user = await tracker.authenticate(site, request.headers.authorization, form, scope);
  request.caller = callerFor(request, site, user, form);
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('route without a scope asked for the caller');
  return request.caller;
}
