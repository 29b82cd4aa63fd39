import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../domain/errors.js';

/**
 * The REST versions served, each under both address forms: `latest` answers as `3` (issue 15:
 * python `jira` sends assign_issue there whatever version it was given).
 */
export const SERVED_VERSIONS = ['3', 'latest'] as const;

/**
 * Version 2 differs from 3 only in carrying rich text (descriptions, comment bodies) as wiki
 * markup instead of Atlassian Document Format. This tracker keeps ADF alone and serves v3; a
 * client asking for v2 gets a 404 that says so and what to change, rather than bodies it would
 * misread.
 */
export async function unservedVersionRoutes(app: FastifyInstance): Promise<void> {
  const refuse = async () => {
    throw new ApiError(404, [
      'REST API version 2 is not served by jst-tracker: use /rest/api/3 (or /rest/api/latest), which carries rich text as Atlassian Document Format. In python jira pass options={"rest_api_version": "3"}; in jira-client, apiVersion: 3.',
    ]);
  };
  for (const prefix of ['/rest/api/2', '/ex/jira/:cloudId/rest/api/2']) {
    app.all(prefix, refuse);
    app.all(`${prefix}/*`, refuse);
  }
}
