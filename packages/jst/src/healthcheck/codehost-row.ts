import { checkToken } from '../config/credentials.js';
import { isLoopbackHost, unsetWhere } from '../config/index.js';
import { displayRemote, parseRemote, remoteUrl, type RemoteRepo } from '../git/index.js';
import { row, type CodehostFetch, type HealthRow, type HealthcheckContext } from './types.js';

/**
 * spec §4 "Local client commands": the status check proves the code-host token with a read of the
 * repository `origin` names. Anything that stops the read before it is sent (no token, no origin,
 * an origin elsewhere) is a WARN: the tracker work of phase 1 does not depend on it.
 */
export async function codehostLoginRow(ctx: HealthcheckContext): Promise<HealthRow> {
  const { config } = ctx;
  const token = config.settings.CODEHOST_PAT_TOKEN?.value;
  if (token === undefined) return row('codehost_login', 'WARN', `CODEHOST_PAT_TOKEN ${unsetWhere(config, 'CODEHOST_PAT_TOKEN')}: code host login not checked`);
  const tokenProblems = checkToken(config, 'CODEHOST_PAT_TOKEN', true);
  if (tokenProblems.length > 0) return row('codehost_login', 'FAIL', `not checked, because ${tokenProblems.map((p) => p.message).join('; ')} (see env_config)`);
  const api = config.codehostApiUrl;
  if (api === null) return row('codehost_login', 'FAIL', 'CODEHOST_API_URL is not a usable http(s) URL (see env_config)');

  let origin: string | null;
  try {
    origin = await remoteUrl(ctx.cwd, 'origin', { env: ctx.env });
  } catch {
    origin = null;
  }
  if (origin === null) return row('codehost_login', 'WARN', 'no origin remote: code host login not checked (add one with git remote add origin <url>)');
  const repo = parseRemote(origin);
  const apiHost = new URL(api).host;
  if (repo === null || !onCodeHost(repo, apiHost)) {
    return row('codehost_login', 'WARN', `origin ${displayRemote(origin)} is not a repository on the code host of ${api}: code host login not checked`);
  }
  return readRepository(ctx, api, repo, token);
}

/**
 * api.github.com serves github.com; an enterprise server serves its API on its own host. A
 * loopback API is a local stand-in that may serve any origin, so only owner and name count there.
 */
function onCodeHost(repo: RemoteRepo, apiHost: string): boolean {
  if (isLoopbackHost(apiHost)) return true;
  const host = apiHost.toLowerCase().replace(/:\d+$/, '');
  return repo.host === host || `api.${repo.host}` === host;
}

async function readRepository(ctx: HealthcheckContext, api: string, repo: RemoteRepo, token: string): Promise<HealthRow> {
  const slug = `${repo.owner}/${repo.name}`;
  const url = `${api}/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}`;
  const doFetch: CodehostFetch = ctx.codehostFetch ?? ((u, init) => globalThis.fetch(u, init));
  let res: Awaited<ReturnType<CodehostFetch>>;
  try {
    res = await doFetch(url, {
      method: 'GET',
      // GitHub refuses requests without a User-Agent; the version header pins the response shape.
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/vnd.github+json', 'User-Agent': 'jst-healthcheck', 'X-GitHub-Api-Version': '2022-11-28' },
      signal: AbortSignal.timeout(ctx.timeoutMs ?? 10_000),
    });
  } catch (error) {
    const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    return row('codehost_login', 'FAIL', `could not reach the code host at ${url}: ${cause}; check CODEHOST_API_URL and the network`);
  }
  const fix = `in ${ctx.config.files.local}`;
  switch (res.status) {
    case 200: {
      const body = (await res.json().catch(() => ({}))) as { full_name?: unknown; private?: unknown };
      const name = typeof body.full_name === 'string' ? body.full_name : slug;
      const visibility = body.private === true ? 'private' : body.private === false ? 'public' : 'visibility unknown';
      return row('codehost_login', 'PASS', `read ${name} (${visibility}) at ${api}`);
    }
    case 401:
      return row('codehost_login', 'FAIL', `the code host refused CODEHOST_PAT_TOKEN (401 reading ${slug}): the token is wrong, expired or revoked; create a new fine-grained personal access token and put it in CODEHOST_PAT_TOKEN ${fix}`);
    case 403:
      if (res.headers.get('x-ratelimit-remaining') === '0') {
        return row('codehost_login', 'FAIL', `the code host rate limit is used up (403 reading ${slug}): wait until it resets, then rerun`);
      }
      return row('codehost_login', 'FAIL', `CODEHOST_PAT_TOKEN may not read ${slug} (403): grant the token read access (Metadata and Contents) to this repository`);
    case 404:
      return row('codehost_login', 'FAIL', `${slug} was not found with CODEHOST_PAT_TOKEN (404): the repository does not exist or is not among the token's selected repositories; add it to the token's repository access`);
    default:
      return row('codehost_login', 'FAIL', `reading ${slug} at ${url} answered HTTP ${res.status}`);
  }
}
