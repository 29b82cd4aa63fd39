import {
  isLoopbackHost,
  JstError,
  codehostTokenSetting,
  onlyRole,
  problemToError,
  checkCodehostToken,
  unsetWhere,
  type CodehostRole,
  type JstConfig,
} from '../config/index.js';
import { EXIT } from '../core/errors.js';
import { displayRemote, parseRemote, remoteOrigins, remoteUrl, withGitCaFile, withGitToken, type RemoteRepo } from '../git/index.js';
import { CodehostClient, type Repo } from './client.js';
import type { FetchLike } from './http.js';

export { CodehostClient, CodehostError, type PullRequest, type Repo, type Review } from './client.js';
export { retryAfterMs, sendBounded, type CodehostFailure, type FetchLike } from './http.js';

const NEEDS =
  "jst needs CODEHOST_PAT_TOKEN (a token that may read and write pull requests; or the role's own CODEHOST_EXECUTOR_TOKEN / CODEHOST_REVIEWER_TOKEN), CODEHOST_API_URL (default https://api.github.com) and the repository: origin's GitHub URL, or CODEHOST_REPO=owner/name";

function needs(problem: string, setting: string, file: string): JstError {
  return new JstError({ code: 'CODEHOST_CONFIG', exitCode: EXIT.usage, problem, setting, hint: `${NEEDS}, in ${file}` });
}

/**
 * Whether the code host at `apiUrl` serves a repository at `remote`'s address (ARCHITECTURE §11, §14):
 * api.github.com serves github.com; an enterprise server, jst-tracker's embedded code host among
 * them, serves its API on its own host, so origin must be on that host. A loopback API also serves
 * any origin: it is this machine's own code host (reached as localhost or 127.0.0.1 alike) or a
 * tunnel to a remote one whose origin keeps the remote's name. Any other origin (a
 * mirror, a proxy, an ssh alias) names the repository through CODEHOST_REPO.
 */
export function servesRemote(apiUrl: string, remote: RemoteRepo): boolean {
  const api = new URL(apiUrl);
  if (isLoopbackHost(api.host)) return true;
  const host = api.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return remote.host === host || `api.${remote.host}` === host;
}

/**
 * `owner/name` from CODEHOST_REPO, else from origin's URL (https or ssh form) when the configured
 * code host serves origin's host (servesRemote).
 */
export async function codehostRepo(config: JstConfig, cwd: string, env: NodeJS.ProcessEnv): Promise<Repo> {
  const set = config.settings.CODEHOST_REPO?.value;
  if (set !== undefined) {
    const m = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?$/.exec(set.trim());
    if (!m) throw needs(`CODEHOST_REPO is "${set}", not owner/name`, 'CODEHOST_REPO', config.files.local);
    return { owner: m[1]!, name: m[2]! };
  }
  const origin = await remoteUrl(cwd, 'origin', { env }).catch(() => null);
  const parsed = origin === null ? null : parseRemote(origin);
  const api = config.codehostApiUrl;
  if (!parsed || (api !== null && !servesRemote(api, parsed))) {
    const what =
      origin === null
        ? 'there is no origin remote'
        : !parsed
          ? `origin (${displayRemote(origin)}) names no owner/name repository`
          : `origin (${displayRemote(origin)}) is on ${parsed.host}, not on the code host of CODEHOST_API_URL (${api}); set CODEHOST_REPO=${parsed.owner}/${parsed.name} if that is the repository`;
    throw needs(`the code host repository is unknown: ${what} and CODEHOST_REPO ${unsetWhere(config, 'CODEHOST_REPO')}`, 'CODEHOST_REPO', config.files.local);
  }
  return { owner: parsed.owner, name: parsed.name };
}

/**
 * The configured code host as `role`'s identity (ARCHITECTURE §10: the executor pushes and opens
 * pull requests, the reviewer reviews), or a configuration error (exit 2) that says plainly what it needs.
 */
/**
 * ARCHITECTURE §21: the environment for a git push as a role: with the role's own token
 * (CODEHOST_EXECUTOR_TOKEN), git authenticates with it to origin's addresses (and only those:
 * git/credential.ts), so the push and the pull request are one identity; with the shared
 * CODEHOST_PAT_TOKEN, git's own credential is used, as always. With CODEHOST_CA_FILE, git trusts
 * that certificate authority (and no other) for the push. `cwd`: a checkout whose origin is pushed to.
 */
export async function pushEnvFor(config: JstConfig, role: CodehostRole, env: NodeJS.ProcessEnv, cwd: string): Promise<NodeJS.ProcessEnv> {
  const setting = codehostTokenSetting(config, role);
  const token = config.settings[setting]?.value;
  const withToken =
    setting === 'CODEHOST_PAT_TOKEN' || token === undefined || token === '' ? env : withGitToken(env, token, await remoteOrigins(cwd, 'origin', { env }));
  // ARCHITECTURE §23: CODEHOST_CA_FILE is the authority of a code host under TLS.
  return withGitCaFile(withToken, config.settings.CODEHOST_CA_FILE?.value);
}

export async function codehostFor(config: JstConfig, role: CodehostRole, cwd: string, env: NodeJS.ProcessEnv, fetch?: FetchLike): Promise<CodehostClient> {
  const setting = codehostTokenSetting(config, role);
  const token = config.settings[setting]?.value;
  if (token === undefined || token === '') {
    // A file limited to another role (JST_ONLY_ROLE) says so; otherwise the usual advice.
    const only = onlyRole(config);
    if (only !== null && only !== role) throw problemToError(checkCodehostToken(config, role)[0]!);
    throw needs(`${setting} ${unsetWhere(config, setting)}, so the code host cannot be reached`, setting, config.files.local);
  }
  if (config.codehostApiUrl === null) throw needs('CODEHOST_API_URL is not a usable http(s) URL', 'CODEHOST_API_URL', config.files.local);
  const repo = await codehostRepo(config, cwd, env);
  const timeoutMs = Number(env.JST_TIMEOUT_MS ?? 30_000);
  return new CodehostClient({
    apiUrl: config.codehostApiUrl,
    token,
    tokenSetting: setting,
    repo,
    fetch,
    limits: { timeoutMs: Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : 30_000 },
  });
}
