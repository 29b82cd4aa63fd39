import type { FastifyInstance } from 'fastify';
import { findUsers } from '../../domain/directory.js';
import type { Tracker } from '../../domain/tracker.js';
import { callerOf } from '../context.js';
import { intParam, param, type Query } from '../params.js';
import { renderUser } from '../render.js';

export const userRoutes = (tracker: Tracker) => async (app: FastifyInstance) => {
  // spec §4 endpoint 2
  app.get('/myself', { config: { scope: 'read:jira-user' } }, async (request) => {
    const caller = callerOf(request);
    return renderUser(caller, caller.user);
  });

  // spec §4 endpoint 9: a bare array, no page envelope
  app.get('/user/search', { config: { scope: 'read:jira-user' } }, async (request) => {
    const caller = callerOf(request);
    const q = request.query as Query;
    const users = await findUsers(tracker, caller, {
      query: param(q, 'query') ?? param(q, 'username'),
      accountId: param(q, 'accountId'),
      startAt: intParam(q, 'startAt', 0, 0, Number.MAX_SAFE_INTEGER),
      maxResults: intParam(q, 'maxResults', 50, 0, 1000),
    });
    return users.map((u) => renderUser(caller, u));
  });

  app.get('/serverInfo', async (request) => {
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
