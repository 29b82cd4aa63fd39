import type { IncomingMessage } from 'node:http';
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

/**
 * A sign-in already checked for this request before it reached Fastify (the read cache looks the
 * caller up in the remembered sign-ins to find a reply, http/issue-read-cache.ts): on a miss the
 * request comes here, and the same lookup (a Basic header decoded, a token hashed) is not done twice.
 */
interface Checked { site: Site; form: AddressForm; scope: Scope; user: User }
const checked = new WeakMap<IncomingMessage, Checked>();

export function rememberCheckedSignIn(raw: IncomingMessage, found: Checked): void {
  checked.set(raw, found);
}

/** Authenticates the request for the route's scope and records who is calling. */
export async function authenticate(tracker: Tracker, request: FastifyRequest, form: AddressForm): Promise<void> {
  const site = (form === 'gateway' ? tracker.knownSiteForCloudId((request.params as { cloudId?: string }).cloudId ?? '') : null)
    ?? await siteOf(tracker, request, form);
  const scope = request.routeOptions.config.scope;
  if (!scope) return;
  const before = checked.get(request.raw);
  const user = before && before.site === site && before.form === form && before.scope === scope
    ? before.user
    : await tracker.authenticate(site, request.headers.authorization, form, scope);
  const prefix = form === 'gateway' ? `/ex/jira/${site.cloud_id}` : '';
  request.caller = { site, user, baseUrl: `${request.protocol}://${request.host}${prefix}` };
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('route without a scope asked for the caller');
  return request.caller;
}
