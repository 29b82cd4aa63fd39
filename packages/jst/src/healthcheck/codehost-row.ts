import { CodehostClient, CodehostError, servesRemote } from '../codehost/index.js';
import { checkToken, codehostTokenSetting, onlyRole } from '../config/credentials.js';
import { unsetWhere, type CodehostRole, type SettingName } from '../config/index.js';
import { displayRemote, parseRemote, remoteUrl, type RemoteRepo } from '../git/index.js';
import { row, type HealthRow, type HealthcheckContext } from './types.js';

/**
 * spec §4 "Local client commands": the status check proves the code-host token with a read of the
 * repository `origin` names, and (ARCHITECTURE §10) shows each role's identity on the code host
 * (GET /user): the executor's token pushes and opens pull requests, the reviewer's reviews; with
 * only CODEHOST_PAT_TOKEN both are the same login. Anything that stops the read before it is sent
 * (no token, no origin, an origin elsewhere) is a WARN: the tracker work of phase 1 does not depend on it.
 */
export async function codehostLoginRow(ctx: HealthcheckContext): Promise<HealthRow> {
  const { config } = ctx;
  const only = onlyRole(config);
  // The roles with a code-host identity, each with the setting its token is read from.
  const roles = (['executor', 'reviewer'] as const)
    .filter((role) => only === null || only === role)
    .map((role) => ({ role, setting: codehostTokenSetting(config, role) }));
  const unset = roles.filter((r) => config.settings[r.setting] === undefined);
  if (unset.length === roles.length) {
    const names = [...new Set(unset.map((r) => r.setting))];
    return row('codehost_login', 'WARN', `${names.map((n) => `${n} ${unsetWhere(config, n)}`).join('; ')}: code host login not checked`);
  }
  const settings = [...new Set(roles.map((r) => r.setting))].filter((n) => config.settings[n] !== undefined);
  const tokenProblems = settings.flatMap((n) => checkToken(config, n, true));
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
  // One read per distinct token, at once: the same token for both roles is read once.
  const reads = await Promise.all(settings.map(async (setting) => ({ setting, read: await readRepository(ctx, api, repo, setting) })));
  const failed = reads.find((r) => r.read.row !== null);
  if (failed?.read.row) return failed.read.row;
  const first = reads[0]!.read;
  const login = (setting: SettingName) => reads.find((r) => r.setting === setting)?.read.login ?? '?';
  const identities = roles.map((r: { role: CodehostRole; setting: SettingName }) =>
    config.settings[r.setting] === undefined ? `${r.role}: ${r.setting} ${unsetWhere(config, r.setting)}` : `${r.role}: ${login(r.setting)} (${r.setting})`,
  );
  return row('codehost_login', unset.length > 0 ? 'WARN' : 'PASS', `read ${first.name} (${first.visibility}) at ${api}; ${identities.join(', ')}`);
}

interface RepositoryRead {
  /** The FAIL row, or null when the read and GET /user answered. */
  row: HealthRow | null;
  name: string;
  visibility: string;
  login: string;
}

async function readRepository(ctx: HealthcheckContext, api: string, repo: RemoteRepo, setting: SettingName): Promise<RepositoryRead> {
  const token = ctx.config.settings[setting]?.value ?? '';
  const failed = (r: HealthRow): RepositoryRead => ({ row: r, name: '', visibility: '', login: '' });
  const slug = `${repo.owner}/${repo.name}`;
  const url = `${api}/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}`;
  // The same bounded client the phase 2-3 commands use (ARCHITECTURE §11), one attempt only.
  const client = new CodehostClient({
    apiUrl: api,
    token,
    tokenSetting: setting,
    repo,
    fetch: ctx.codehostFetch,
    limits: { timeoutMs: ctx.timeoutMs ?? 10_000, maxRetries: 0 },
  });
  const fix = `in ${ctx.config.files.local}`;
  try {
    const body = await client.repository();
    const name = typeof body?.full_name === 'string' ? body.full_name : slug;
    const visibility = body?.private === true ? 'private' : body?.private === false ? 'public' : 'visibility unknown';
    const login = (await client.user()).login;
    return { row: null, name, visibility, login };
  } catch (error) {
    if (!(error instanceof CodehostError)) throw error;
    return failed(failureRow(error, url, slug, setting, fix));
  }
}

function failureRow(error: CodehostError, url: string, slug: string, setting: SettingName, fix: string): HealthRow {
  switch (error.failure) {
    case 'timeout':
    case 'network':
      return row('codehost_login', 'FAIL', `could not reach the code host at ${url}: ${error.problem}; check CODEHOST_API_URL and the network`);
    case 'unauthorized':
      return row(
        'codehost_login',
        'FAIL',
        `the code host refused ${setting} (401 reading ${slug}): the token is wrong, expired or revoked; create a new fine-grained personal access token and put it in ${setting} ${fix}`,
      );
    case 'rate_limited':
      return row('codehost_login', 'FAIL', `the code host rate limit is used up (${error.status} reading ${slug}): wait until it resets, then rerun`);
    case 'forbidden':
      return row('codehost_login', 'FAIL', `${setting} may not read ${slug} (403): grant the token read access (Metadata and Contents) to this repository`);
    case 'not_found':
      return row(
        'codehost_login',
        'FAIL',
        `${slug} was not found with ${setting} (404): the repository does not exist or is not among the token's selected repositories; add it to the token's repository access`,
      );
    default:
      return row('codehost_login', 'FAIL', `reading ${slug} at ${url} answered HTTP ${error.status ?? '?'}`);
  }
}
