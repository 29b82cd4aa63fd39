import { statSync } from 'node:fs';
import path from 'node:path';

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/**
 * spec §2: TRACKER_ACCOUNT_URL is a site host; a scheme prefix, if present, is stripped.
 * Users paste the address bar, so any path, query or trailing slash goes too; host[:port] stays.
 * Returns null when nothing host-like is left.
 */
export function normalizeTrackerHost(raw: string): string | null {
  let rest = raw.trim().replace(SCHEME, '');
  rest = rest.replace(/^[^/?#@]*@/, ''); // user-info never belongs to a site host
  const end = rest.search(/[/?#]/);
  const host = (end < 0 ? rest : rest.slice(0, end)).toLowerCase();
  return host === '' ? null : host;
}

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
 * ARCHITECTURE §4: plain http is allowed only for loopback hosts (`localhost`, 127.0.0.0/8, [::1]);
 * the check is on the literal name, never on DNS, so no resolver can talk us into a downgrade.
 */
export function isLoopbackHost(host: string): boolean {
  const name = hostPart(host);
  if (name === 'localhost') return true;
  if (name === '[::1]' || name === '::1' || name === '[0:0:0:0:0:0:0:1]' || name === '0:0:0:0:0:0:0:1') return true;
  const v4 = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(name);
  return v4 !== null && v4.slice(1).every((octet) => Number(octet) <= 255);
}

/** `{site_url}` for a normalized host: `http://` only for loopback, otherwise always `https://`. */
export function siteUrlForHost(host: string): string {
  return `${isLoopbackHost(host) ? 'http' : 'https'}://${host}`;
}

/**
 * Normalizes a base URL setting (TRACKER_GATEWAY_URL, CODEHOST_API_URL): a value without a scheme
 * gets one by the loopback rule; a trailing slash is dropped so paths can be appended.
 * Returns null when the value is not a usable http(s) URL.
 */
export function normalizeBaseUrl(raw: string): string | null {
  const trimmed = raw.trim();
  if (trimmed === '') return null;
  const scheme = SCHEME.test(trimmed) ? '' : isLoopbackHost(normalizeTrackerHost(trimmed) ?? '') ? 'http://' : 'https://';
  let url: URL;
  try {
    url = new URL(scheme + trimmed);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return null;
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** True when a base URL would send credentials in clear text to a host that is not loopback. */
export function isInsecureUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' && !isLoopbackHost(parsed.host);
  } catch {
    return false;
  }
}

/**
 * spec §2: a token setting holds the token value, not a file path. Recognizes absolute and
 * relative POSIX paths, home-relative and Windows drive/UNC paths, and any value that names an
 * existing file relative to one of `baseDirs`.
 */
export function looksLikeFilePath(value: string, baseDirs: readonly string[]): boolean {
  if (/^(\/|\.{1,2}[\\/]|~[\\/]|[A-Za-z]:[\\/]|\\\\)/.test(value)) return true;
  return baseDirs.some((dir) => {
    try {
      return statSync(path.resolve(dir, value), { throwIfNoEntry: false })?.isFile() ?? false;
    } catch {
      return false; // names too long or with NUL bytes are not paths to us
    }
  });
}
