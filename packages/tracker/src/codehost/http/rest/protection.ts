import type { CodeHost } from '../../domain/host.js';
import { deleteProtection, getProtection, putProtection } from '../../domain/protection.js';
import { branchProtection } from '../render.js';
import { NoContent, replies } from '../schemas/common.js';
import { BranchParams, BranchProtection, ProtectionBody } from '../schemas/protection.js';
import type { CodehostApp } from '../validation.js';
import { accessOf, DOCS, op, urlsOf } from './common.js';

/**
 * A branch's protection (ARCHITECTURE §21): read, set, remove, by the repository's admins (a
 * writer's PUT or DELETE is 403, a GET by anyone but an admin is Not Found, as on GitHub).
 */
export function protectionRoutes(app: CodehostApp, host: CodeHost): void {
  const path = '/repos/:owner/:repo/branches/:branch/protection';
  app.get(path, { config: op(DOCS.getProtection, 'read'), schema: { params: BranchParams, response: replies({ 200: BranchProtection }) } }, async (request) => {
    const a = accessOf(request);
    return branchProtection(urlsOf(request), a.repo, request.params.branch, await getProtection(host, a, request.params.branch));
  });

  app.put(
    path,
    { config: op(DOCS.putProtection, 'read'), schema: { params: BranchParams, body: ProtectionBody, response: replies({ 200: BranchProtection }) } },
    async (request) => {
      const a = accessOf(request);
      return branchProtection(urlsOf(request), a.repo, request.params.branch, await putProtection(host, a, request.params.branch, request.body));
    },
  );

  app.delete(
    path,
    { config: op(DOCS.deleteProtection, 'read'), schema: { params: BranchParams, response: replies({ 204: NoContent }) } },
    async (request, reply) => {
      await deleteProtection(host, accessOf(request), request.params.branch);
      return reply.code(204).send(null);
    },
  );
}
