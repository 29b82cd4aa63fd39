import { TrackerClient, TrackerHttpError, TrackerNetworkError, TrackerResponseError } from '@jst/client';
import { ROLES, unsetWhere, checkRoleCredentials, roleSettings, siteUrlForHost, type JstConfig, type Role } from '../config/index.js';
import { cloudIdFileCache } from '../core/context.js';
import { row, type HealthRow, type HealthcheckContext } from './types.js';

/**
 * spec §5 rule 6: GET /myself with the role's credential; the identity it returns must be the
 * configured one. Every failure says which of the three usual causes it is (credential, scope,
 * address), because each has a different fix.
 */
export async function trackerLoginRow(ctx: HealthcheckContext): Promise<HealthRow> {
  const { config, role } = ctx;
  const names = roleSettings(role);
  const credentialProblems = checkRoleCredentials(config, role);
  if (credentialProblems.length > 0) {
    return row('tracker_login', 'FAIL', `no credential: not checked, because ${credentialProblems.map((p) => p.message).join('; ')} (see env_config)`);
  }
  if (config.trackerHost === null)
    return row('tracker_login', 'FAIL', `no tracker address: TRACKER_ACCOUNT_URL ${unsetWhere(config, 'TRACKER_ACCOUNT_URL')} (see env_config)`);
  if (config.gatewayUrl === null) return row('tracker_login', 'FAIL', 'no tracker address: TRACKER_GATEWAY_URL is not a usable http(s) URL (see env_config)');
  const email = config.settings[names.email]?.value ?? '';
  const token = config.settings[names.token]?.value ?? '';
  const ownClient = ctx.makeClient === undefined;
  const client =
    ctx.makeClient?.(role) ??
    new TrackerClient({
      siteHost: config.trackerHost,
      gatewayUrl: config.gatewayUrl,
      email,
      token,
      // The same cache as every other command, so a healthcheck and a raw call agree on the cloudId.
      cloudIdCache: cloudIdFileCache(config.jstDir),
      timeoutMs: ctx.timeoutMs ?? 10_000,
      maxResponseBytes: ctx.maxResponseBytes,
      // A status check answers now; waiting out a rate limit would only hide the problem.
      retry: { maxRetries: 0, maxWaitMs: 0 },
    });
  try {
    const me = await client.myself();
    const who = `${me.displayName ?? '(no display name)'}, accountId ${me.accountId}`;
    if (me.emailAddress === undefined || me.emailAddress === '') {
      return row(
        'tracker_login',
        'WARN',
        `logged in as ${who}, but the tracker did not return an e-mail address, so ${names.email} ${email} could not be confirmed`,
      );
    }
    if (me.emailAddress.toLowerCase() !== email.toLowerCase()) {
      return row(
        'tracker_login',
        'FAIL',
        `${names.token} belongs to ${me.emailAddress} (${who}), not to ${names.email} ${email}: put the ${role}'s own token in ${names.token}, or correct ${names.email}`,
      );
    }
    return row('tracker_login', 'PASS', `${me.emailAddress} → ${who}`);
  } catch (error) {
    return row('tracker_login', 'FAIL', explain(error, config, role, email, token));
  } finally {
    if (ownClient) client.close();
  }
}

function explain(error: unknown, config: JstConfig, role: Role, email: string, token: string): string {
  const names = roleSettings(role);
  const site = siteUrlForHost(config.trackerHost ?? '', config.gatewayUrl);
  if (error instanceof TrackerNetworkError) return `could not reach the tracker at ${error.url}: ${error.message}`;
  if (error instanceof TrackerResponseError) return error.message;
  if (!(error instanceof TrackerHttpError)) return `GET /myself failed: ${error instanceof Error ? error.message : String(error)}`;
  if (error.path.includes('/_edge/tenant_info')) {
    return `${site}/_edge/tenant_info answered HTTP ${error.status} without a cloud id: check that TRACKER_ACCOUNT_URL (${config.trackerHost}) is the tracker's site host`;
  }
  const vendor = error.vendorMessage;
  if (error.status === 401 && /scope does not match/i.test(vendor)) {
    // spec §5 rule 8: the token is genuine; replacing it with a new one of the same kind fixes nothing.
    return `the token was accepted but lacks a scope GET /myself needs (401 "scope does not match"): this is a scope problem, not a credential problem; grant the token the read:jira-user scope or use a classic API token in ${names.token}`;
  }
  // The loginReason header rides on every 401; only the body says it was the site-domain rule.
  if (error.status === 401 && /AUTHENTICATED_FAILED/.test(vendor)) {
    return `a scoped token was used on the site domain (401 AUTHENTICATED_FAILED): scoped tokens work only through the API gateway; check TRACKER_GATEWAY_URL`;
  }
  if (error.status === 401) {
    const owner = otherRoleWithToken(config, role, email, token);
    if (owner !== null) {
      return `the tracker refused ${email} (401): ${names.token} is the ${owner.role}'s token (${owner.email}), and a token only works with its own account's e-mail; put the ${role}'s own API token in ${names.token} in ${config.files.local}`;
    }
    return `the tracker refused ${email} with ${names.token} (401): the token is stale or revoked, or belongs to another account; create a new API token for ${email} and put it in ${names.token} in ${config.files.local}`;
  }
  return `GET /myself answered HTTP ${error.status}${vendor === '' ? '' : `: ${vendor}`}`;
}

/** Names the role whose token was pasted into this role's line, the usual cause of an identity mismatch. */
function otherRoleWithToken(config: JstConfig, role: Role, ownEmail: string, token: string): { role: Role; email: string } | null {
  for (const other of ROLES) {
    if (other === role) continue;
    const names = roleSettings(other);
    const email = config.settings[names.email]?.value;
    // All roles may share one account; only a different e-mail makes the shared token a mistake.
    if (config.settings[names.token]?.value === token && email !== undefined && email.toLowerCase() !== ownEmail.toLowerCase()) return { role: other, email };
  }
  return null;
}
