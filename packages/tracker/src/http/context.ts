import type { FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';
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

/** Which site a request is for, from the gateway path's cloudId or the site form's Host header. */
export async function siteOf(tracker: Tracker, request: FastifyRequest, form: AddressForm) {
  if (form === 'gateway') {
    const params: unknown = request.params;
    const cloudId = typeof params === 'object' && params !== null && 'cloudId' in params && typeof params.cloudId === 'string' ? params.cloudId : '';
    const site = await tracker.siteForCloudId(cloudId);
    if (!site) throw new ApiError(404, [`No site has the cloud id '${cloudId.slice(0, 64)}'. Read the cloudId from GET /_edge/tenant_info on the site.`]);
    return site;
  }
  const site = await tracker.siteForHost(request.headers.host);
  if (!site) throw new ApiError(404, [`No site is served for host '${(request.headers.host ?? '').slice(0, 100)}'.`]);
  return site;
}

/** Authenticates the request for the route's scope and records who is calling. */
export async function authenticate(tracker: Tracker, request: FastifyRequest, form: AddressForm): Promise<void> {
  const site = await siteOf(tracker, request, form);
  const scope = request.routeOptions.config.scope;
  if (!scope) return;
  const user = await tracker.authenticate(site, request.headers.authorization, form, scope);
  const prefix = form === 'gateway' ? `/ex/jira/${site.cloud_id}` : '';
  request.caller = { site, user, baseUrl: `${request.protocol}://${request.host}${prefix}` };
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('route without a scope asked for the caller');
  return request.caller;
}
