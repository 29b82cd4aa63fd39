import { Type } from '@sinclair/typebox';

/** `GET /rate_limit`: GitHub's rate-limit-overview, each window a rate-limit. */
export const RateWindow = Type.Object({ limit: Type.Integer(), remaining: Type.Integer(), reset: Type.Integer(), used: Type.Integer() });
export const RateLimitOverview = Type.Object({
  resources: Type.Object({ core: RateWindow, search: RateWindow, graphql: Type.Optional(RateWindow) }),
  rate: RateWindow,
});
