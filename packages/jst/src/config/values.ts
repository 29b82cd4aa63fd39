import { statSync } from 'node:fs';
import path from 'node:path';
import { isLoopbackHost, siteHostOf, siteUrl } from '@jst/url';

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

// One implementation of the addressing rules, shared with the REST client (ARCHITECTURE §4).
export { hostPart, isLoopbackHost } from '@jst/url';

/** spec §2: TRACKER_ACCOUNT_URL with any scheme stripped; null when nothing host-like is left. */
export function normalizeTrackerHost(raw: string): string | null {
  return siteHostOf(raw) || null;
}

/** `{site_url}` for a normalized host: `http://` only for loopback, otherwise always `https://`. */
export function siteUrlForHost(host: string, gateway?: string | null): string {
  return siteUrl(host, gateway ?? undefined);
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
