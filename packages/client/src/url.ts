/** spec §4 client rule 1 and ARCHITECTURE §4: where the tracker is reached. */
export const DEFAULT_GATEWAY_URL = 'https://api.atlassian.com';

/** `localhost`, `127.0.0.0/8` and `[::1]`: the only hosts reached over plain http. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** The site host from a setting that may carry a scheme, a path or a trailing slash. */
export function siteHostOf(setting: string): string {
  return setting.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/[/?#].*$/, '');
}

/** `{site_url}`: https, or http for a loopback host only; never downgraded otherwise. */
export function siteUrl(siteHost: string): string {
  const host = siteHostOf(siteHost);
  return `${isLoopbackHost(host) ? 'http' : 'https'}://${host}`;
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
