import type { FastifyInstance } from 'fastify';
import { findUsers } from '../../domain/directory.js';
import type { Tracker } from '../../domain/tracker.js';
import { callerOf } from '../context.js';
import { countOf } from '../params.js';
import { renderUser } from '../render.js';
import { replies } from '../schemas/common.js';
import { User, UserSearchQuery } from '../schemas/users.js';
import { ServerInfo } from '../schemas/catalog.js';
import { Type } from '@sinclair/typebox';
import type { TypeBoxProvider } from '../validation.js';

export const userRoutes = (tracker: Tracker) => async (scope: FastifyInstance) => {
  const app = scope.withTypeProvider<TypeBoxProvider>();

  // spec §4 endpoint 2
  app.get('/myself', { config: { scope: 'read:jira-user' }, schema: { response: replies({ 200: User }) } }, async (request) => {
    const caller = callerOf(request);
    return renderUser(caller, caller.user);
  });

  // spec §4 endpoint 9: a bare array, no page envelope
  app.get(
    '/user/search',
    { config: { scope: 'read:jira-user' }, schema: { querystring: UserSearchQuery, response: replies({ 200: Type.Array(User) }) } },
    async (request) => {
      const caller = callerOf(request);
      const q = request.query;
      const users = await findUsers(tracker, caller, {
        query: q.query ?? q.username,
        accountId: q.accountId,
        startAt: countOf(q.startAt, 0),
        maxResults: countOf(q.maxResults, 50, 1000),
      });
      return users.map((u) => renderUser(caller, u));
    },
  );

  app.get('/serverInfo', { schema: { response: replies({ 200: ServerInfo }) } }, async (request) => {
    const base = `${request.protocol}://${request.host}`;
    return {
      baseUrl: base,
      version: '1001.0.0',
      versionNumbers: [1001, 0, 0],
      deploymentType: 'Cloud',
      buildNumber: 100001,
      buildDate: '2026-01-01T00:00:00.000+0000',
      serverTime: new Date().toISOString().replace(/Z$/, '+0000'),
      scmInfo: 'jst-tracker',
      serverTitle: 'jst-tracker',
    };
  });
};
