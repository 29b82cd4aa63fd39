import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { Octokit } from '@octokit/rest';
import { hookOctokit } from './github-openapi.js';
import { CODEHOST_TOKEN } from './seed.js';
import type { TestTracker } from './tracker.js';

/**
 * jst-tracker's own code host (ARCHITECTURE §14) as the tests see it: a test tracker started with
 * a seed that has a `"codehost"` section (seed.ts `withCodehost`) serves GitHub's REST shape under
 * `/api/v3` and git over HTTP at `/<owner>/<repo>.git` on its own port. Tests read what jst did
 * there through the REST interface (an Octokit whose every answer is checked against GitHub's
 * description) and, for the calls jst made, through a tap on the server's requests: nothing on the
 * code host is stood in for.
 */
export interface EmbeddedCodehost {
  /** `http://127.0.0.1:PORT/api/v3`: CODEHOST_API_URL. */
  api: string;
  /** `http://127.0.0.1:PORT/<owner>/<repo>.git`: the origin of a repository on the code host. */
  gitUrl(slug: string): string;
  /** The bare repository of `owner/repo` on disk, for reading refs (`git rev-parse`, `merge-base`). */
  bare(slug: string): string;
  /** makeRepo's `codehost` option for a repository whose origin is `owner/repo` here. */
  origin(slug: string): { gitUrl: string; bare: string };
  /** GitHub's own client against it, as `token` (default jst's CODEHOST_TOKEN). */
  octokit(token?: string): Octokit;
  /** Every pull request of `owner/repo` with its reviews and conversation, read through REST. */
  pulls(slug: string): Promise<PullState[]>;
  /**
   * Records the REST calls the server receives from now on (method, path, headers; never bodies),
   * those `only` keeps: e.g. `jstOnly`, jst's own calls and not the test's Octokit reads.
   */
  tap(only?: (r: TappedRequest) => boolean): RequestTap;
}

export interface PullState {
  number: number;
  title: string;
  body: string;
  head: string;
  base: string;
  state: string;
  draft: boolean;
  merged: boolean;
  html_url: string;
  user: string;
  /** Each review's author, state and first line. */
  reviews: { user: string; state: string; firstLine: string }[];
  /** Each issue comment's first line. */
  comments: string[];
}

export interface TappedRequest {
  method: string;
  /** The path under `/api/v3`, with its query: `/repos/acme/widgets/pulls?head=…`. */
  path: string;
  authorization: string | undefined;
  userAgent: string | undefined;
}

export interface RequestTap {
  requests: TappedRequest[];
  /** `METHOD path` (query left out) of every request after `from`: the calls a step made. */
  calls(from?: number): string[];
  stop(): void;
}

/** A tap filter: the requests jst sends (its User-Agent is `jst`), not the test's own reads. */
export const jstOnly = (r: TappedRequest): boolean => r.userAgent === 'jst';

const split = (slug: string): { owner: string; repo: string } => {
  const [owner, repo] = slug.split('/');
  if (!owner || !repo) throw new Error(`not owner/repo: ${slug}`);
  return { owner, repo };
};

export function codehostOf(t: TestTracker): EmbeddedCodehost {
  const api = `${t.url}/api/v3`;
  const octokit = (token: string = CODEHOST_TOKEN) => hookOctokit(new Octokit({ baseUrl: api, auth: token, request: { retries: 0 } }));
  const reader = octokit();
  return {
    api,
    gitUrl: (slug) => `${t.url}/${slug}.git`,
    bare: (slug) => join(t.reposDir, `${slug}.git`),
    origin: (slug) => ({ gitUrl: `${t.url}/${slug}.git`, bare: join(t.reposDir, `${slug}.git`) }),
    octokit,
    async pulls(slug) {
      const { owner, repo } = split(slug);
      const list = await reader.paginate(reader.pulls.list, { owner, repo, state: 'all', per_page: 100 });
      const out: PullState[] = [];
      for (const p of list.sort((a, b) => a.number - b.number)) {
        const full = (await reader.pulls.get({ owner, repo, pull_number: p.number })).data;
        const reviews = await reader.paginate(reader.pulls.listReviews, { owner, repo, pull_number: p.number, per_page: 100 });
        const comments = await reader.paginate(reader.issues.listComments, { owner, repo, issue_number: p.number, per_page: 100 });
        out.push({
          number: full.number,
          title: full.title,
          body: full.body ?? '',
          head: full.head.ref,
          base: full.base.ref,
          state: full.state,
          draft: full.draft ?? false,
          merged: full.merged,
          html_url: full.html_url,
          user: full.user.login,
          reviews: reviews.map((r) => ({ user: r.user?.login ?? '', state: r.state, firstLine: (r.body ?? '').split('\n')[0] ?? '' })),
          comments: comments.map((c) => (c.body ?? '').split('\n')[0] ?? ''),
        });
      }
      return out;
    },
    tap(only = () => true) {
      const requests: TappedRequest[] = [];
      const server = t.server.app.server;
      const listener = (req: IncomingMessage) => {
        const url = req.url ?? '';
        if (url !== '/api/v3' && !url.startsWith('/api/v3/') && !url.startsWith('/api/v3?')) return;
        const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(', ') : v);
        const r = {
          method: req.method ?? '',
          path: url.slice('/api/v3'.length) || '/',
          authorization: header(req.headers.authorization),
          userAgent: header(req.headers['user-agent']),
        };
        if (only(r)) requests.push(r);
      };
      server.on('request', listener);
      return {
        requests,
        calls: (from = 0) => requests.slice(from).map((r) => `${r.method} ${r.path.split('?')[0]}`),
        stop: () => {
          server.off('request', listener);
        },
      };
    },
  };
}
