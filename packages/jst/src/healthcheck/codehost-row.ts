import { CodehostClient, CodehostError, servesRemote } from '../codehost/index.js';
import { checkToken } from '../config/credentials.js';
import { unsetWhere } from '../config/index.js';
import { displayRemote, parseRemote, remoteUrl, type RemoteRepo } from '../git/index.js';
import { row, type HealthRow, type HealthcheckContext } from './types.js';

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
  if (repo === null || !servesRemote(api, repo)) {
    return row('codehost_login', 'WARN', `origin ${displayRemote(origin)} is not a repository on the code host of ${api}: code host login not checked`);
  }
  return readRepository(ctx, api, repo, token);
}

async function readRepository(ctx: HealthcheckContext, api: string, repo: RemoteRepo, token: string): Promise<HealthRow> {
  const slug = `${repo.owner}/${repo.name}`;
  const url = `${api}/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}`;
  // The same bounded client the phase 2-3 commands use (ARCHITECTURE §11), one attempt only.
  const client = new CodehostClient({ apiUrl: api, token, repo, fetch: ctx.codehostFetch, limits: { timeoutMs: ctx.timeoutMs ?? 10_000, maxRetries: 0 } });
  const fix = `in ${ctx.config.files.local}`;
  try {
    const body = await client.repository();
    const name = typeof body?.full_name === 'string' ? body.full_name : slug;
    const visibility = body?.private === true ? 'private' : body?.private === false ? 'public' : 'visibility unknown';
    return row('codehost_login', 'PASS', `read ${name} (${visibility}) at ${api}`);
  } catch (error) {
    if (!(error instanceof CodehostError)) throw error;
    switch (error.failure) {
      case 'timeout':
      case 'network':
        return row('codehost_login', 'FAIL', `could not reach the code host at ${url}: ${error.problem}; check CODEHOST_API_URL and the network`);
      case 'unauthorized':
        return row(
          'codehost_login',
          'FAIL',
          `the code host refused CODEHOST_PAT_TOKEN (401 reading ${slug}): the token is wrong, expired or revoked; create a new fine-grained personal access token and put it in CODEHOST_PAT_TOKEN ${fix}`,
        );
      case 'rate_limited':
        return row('codehost_login', 'FAIL', `the code host rate limit is used up (${error.status} reading ${slug}): wait until it resets, then rerun`);
      case 'forbidden':
        return row(
          'codehost_login',
          'FAIL',
          `CODEHOST_PAT_TOKEN may not read ${slug} (403): grant the token read access (Metadata and Contents) to this repository`,
        );
      case 'not_found':
        return row(
          'codehost_login',
          'FAIL',
          `${slug} was not found with CODEHOST_PAT_TOKEN (404): the repository does not exist or is not among the token's selected repositories; add it to the token's repository access`,
        );
      default:
        return row('codehost_login', 'FAIL', `reading ${slug} at ${url} answered HTTP ${error.status ?? '?'}`);
    }
  }
}
