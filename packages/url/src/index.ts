/** spec §4 client rule 1 and ARCHITECTURE §4: where the tracker is reached. Shared by the REST client
 * (@jst/client) and the toolkit's settings (jst config), which must not depend on the client. */
export const DEFAULT_GATEWAY_URL = 'https://api.atlassian.com';

/** Splits `host[:port]` (including `[v6]:port` and bare `::1`) into its host part. */
export function hostPart(hostAndPort: string): string {
  const value = hostAndPort.trim().toLowerCase();
  if (value.startsWith('[')) {
    const close = value.indexOf(']');
    return close < 0 ? value : value.slice(0, close + 1);
  }
  // More than one colon without brackets is a bare IPv6 address, which has no port.
  if (value.indexOf(':') !== value.lastIndexOf(':')) return value;
  return value.split(':')[0] ?? value;
}

/**
 * ARCHITECTURE §4: plain http only for loopback hosts (`localhost`, 127.0.0.0/8, [::1]); the check
 * is on the literal name, never on DNS, so no resolver can talk us into a downgrade.
 */
export function isLoopbackHost(host: string): boolean {
  const name = hostPart(host);
  if (name === 'localhost') return true;
  if (name === '[::1]' || name === '::1' || name === '[0:0:0:0:0:0:0:1]' || name === '0:0:0:0:0:0:0:1') return true;
  const v4 = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(name);
  return v4 !== null && v4.slice(1).every((octet) => Number(octet) <= 255);
}

/**
 * spec §2: TRACKER_ACCOUNT_URL is a site host; a scheme prefix, if present, is stripped. Users
 * paste the address bar, so a path, query, user-info or trailing slash goes too; host[:port] stays.
 * Returns '' when nothing host-like is left.
 */
export function siteHostOf(setting: string): string {
  let rest = setting.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  rest = rest.replace(/^[^/?#@]*@/, '');
  const end = rest.search(/[/?#]/);
  return (end < 0 ? rest : rest.slice(0, end)).toLowerCase();
}

/**
 * `{site_url}`: https, or http for a loopback host only; never downgraded otherwise. A loopback
 * site served over TLS (ARCHITECTURE §23, `jst-tracker serve --tls`) is reached over https when the
 * gateway setting names the same host and port with https: one server, one scheme.
 */
export function siteUrl(siteHost: string, gateway?: string): string {
  const host = siteHostOf(siteHost);
  if (!isLoopbackHost(host)) return `https://${host}`;
  return `${gateway !== undefined && sameOriginOverTls(host, gateway) ? 'https' : 'http'}://${host}`;
}

function sameOriginOverTls(host: string, gateway: string): boolean {
  try {
    const url = new URL(gatewayUrl(gateway));
    return url.protocol === 'https:' && url.host === new URL(`https://${host}`).host;
  } catch {
    return false;
  }
}

/** The gateway origin, with the same rule: an http URL to a non-loopback host is upgraded to https. */
export function gatewayUrl(setting: string | undefined): string {
  const raw = (setting ?? '').trim() || DEFAULT_GATEWAY_URL;
  const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  if (url.protocol !== 'https:' && !isLoopbackHost(url.host)) url.protocol = 'https:';
  return url.toString().replace(/\/+$/, '');
}

/** `{api_base}` = `{gateway_url}/ex/jira/<cloudId>/rest/api/3`. */
export function apiBase(gateway: string, cloudId: string): string {
  return `${gatewayUrl(gateway)}/ex/jira/${encodeURIComponent(cloudId)}/rest/api/3`;
}
