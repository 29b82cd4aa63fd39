import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { boolParam, type Query } from './params.js';

/**
 * The boolean query parameters each operation documents (the vendor's OpenAPI), keyed by method
 * and route under the API prefix. Every one is checked before the handler runs, so a value that is
 * not a boolean (in any case) is a 400 on every route alike, whether or not this tracker acts on
 * the flag; routes that act on one read it with the same parser (params.ts boolParam).
 */
export const BOOLEAN_PARAMS: Readonly<Record<string, readonly string[]>> = {
  'POST /issue': ['updateHistory'],
  'GET /issue/:issueIdOrKey': ['fieldsByKeys', 'updateHistory', 'failFast'],
  'PUT /issue/:issueIdOrKey': ['notifyUsers', 'overrideScreenSecurity', 'overrideEditableFlag', 'returnIssue'],
  'DELETE /issue/:issueIdOrKey': ['deleteSubtasks'],
  'GET /issue/:issueIdOrKey/editmeta': ['overrideScreenSecurity', 'overrideEditableFlag'],
  'GET /issue/:issueIdOrKey/transitions': ['skipRemoteOnlyCondition', 'includeUnavailableTransitions', 'sortByOpsBarAndStatus'],
  'GET /search/jql': ['fieldsByKeys', 'failFast'],
};

/** The route pattern without its address-form prefix (`/ex/jira/:cloudId/rest/api/3`, `/rest/api/latest`, …). */
const API_PREFIX = /^(?:\/ex\/jira\/:cloudId)?\/rest\/api\/[^/]+/;

/** preValidation hook of the API scope: runs after authentication, before the handler. */
export function checkBooleanParams(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const names = BOOLEAN_PARAMS[`${request.method} ${request.routeOptions.url?.replace(API_PREFIX, '') ?? ''}`];
  try {
    for (const name of names ?? []) boolParam(request.query as Query, name);
  } catch (e) {
    done(e as Error);
    return;
  }
  done();
}
