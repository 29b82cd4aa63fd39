/**
 * Git's credential for the code host, as one role's identity (ARCHITECTURE §10: the executor's token
 * pushes). Given as configuration in the environment (`GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n`, which
 * outranks every config file) and scoped to the code host's own addresses, origin's
 * (`credential.<protocol://host>.helper`): for those an empty helper drops the helpers configured so
 * far (the user's store among them), then one helper answers with the token from the variable
 * `JST_GIT_TOKEN`, so the token never appears in a command line or a file git keeps. Any other host
 * (a submodule's, a redirect's) never sees the token, and keeps the user's own helpers.
 */
export const GIT_TOKEN_VARIABLE = 'JST_GIT_TOKEN';

/** The helper: answers `get` with the token (any user name is accepted by the code host, ARCHITECTURE §14). */
const HELPER = `!f() { test "$1" = get || exit 0; echo username=x-access-token; echo "password=$${GIT_TOKEN_VARIABLE}"; }; f`;

/**
 * `env` plus the configuration that makes git authenticate with `token` to these addresses
 * (`protocol://host[:port]`, git/git.ts remoteOrigins); no address, `env` as it is (an ssh origin
 * takes no token).
 */
export function withGitToken(env: NodeJS.ProcessEnv, token: string, origins: readonly string[]): NodeJS.ProcessEnv {
  const scoped = origins.filter((o) => /^https?:\/\/[^\s/?#@]+$/i.test(o));
  if (scoped.length === 0) return env;
  return withGitConfig(
    { ...env, [GIT_TOKEN_VARIABLE]: token },
    scoped.flatMap((o) => [
      [`credential.${o}.helper`, ''],
      [`credential.${o}.helper`, HELPER],
    ]),
  );
}

/**
 * ARCHITECTURE §23: `env` for git's network commands with origin when the code host is under TLS
 * with its own authority (CODEHOST_CA_FILE): GIT_SSL_CAINFO, which outranks `http.sslCAInfo` and a
 * GIT_SSL_CAINFO the machine exports. Unset or empty: `env` as it is.
 */
export function withGitCaFile(env: NodeJS.ProcessEnv, caFile: string | undefined): NodeJS.ProcessEnv {
  return caFile === undefined || caFile === '' ? env : { ...env, GIT_SSL_CAINFO: caFile };
}

/** `env` with `key=value` pairs appended to its `GIT_CONFIG_COUNT` configuration (pairs already there are kept). */
export function withGitConfig(env: NodeJS.ProcessEnv, pairs: readonly (readonly [string, string])[]): NodeJS.ProcessEnv {
  const out = { ...env };
  const count = Number(out.GIT_CONFIG_COUNT ?? 0);
  let n = Number.isInteger(count) && count > 0 ? count : 0;
  for (const [key, value] of pairs) {
    out[`GIT_CONFIG_KEY_${n}`] = key;
    out[`GIT_CONFIG_VALUE_${n}`] = value;
    n++;
  }
  out.GIT_CONFIG_COUNT = String(n);
  return out;
}
