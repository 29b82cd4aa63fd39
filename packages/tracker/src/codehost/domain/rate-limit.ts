/**
 * The code host's rate limits, as GitHub states them (`GET /rate_limit` and the `X-RateLimit-*`
 * headers of every answer). The code host counts nothing and refuses nothing for rate: it states
 * GitHub's hourly windows, each request the first of its window, so a client that reads the
 * headers or asks `/rate_limit` (Octokit's throttling, `gh api rate_limit`) finds room and goes on.
 */
export interface RateWindow {
  limit: number;
  remaining: number;
  /** When the window ends, in seconds since the epoch. */
  reset: number;
  used: number;
}

export interface RateLimits {
  /** The REST interface's window: the one every answer's X-RateLimit-* headers state. */
  core: RateWindow;
  search: RateWindow;
  graphql: RateWindow;
}

/** GitHub's hourly allowance of an authenticated user (core and GraphQL) and of search (per minute, as GitHub). */
const LIMITS = { core: 5000, search: 30, graphql: 5000 } as const;

/** The windows at `nowMs`: the request being answered is counted against core (the one it uses). */
export function rateLimits(nowMs: number): RateLimits {
  const hour = Math.floor(nowMs / 1000) + 3600;
  return {
    core: { limit: LIMITS.core, remaining: LIMITS.core - 1, reset: hour, used: 1 },
    search: { limit: LIMITS.search, remaining: LIMITS.search, reset: Math.floor(nowMs / 1000) + 60, used: 0 },
    graphql: { limit: LIMITS.graphql, remaining: LIMITS.graphql, reset: hour, used: 0 },
  };
}
