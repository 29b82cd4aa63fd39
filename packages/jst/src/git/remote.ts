/** A GitHub-style repository address: `host/owner/name`. */
export interface RemoteRepo {
  /** Lower-case host name without port or user. */
  host: string;
  owner: string;
  name: string;
}

const SEGMENT = /^[A-Za-z0-9_.-]+$/;

/**
 * Reads owner and repository name from a remote URL in the three forms code hosts hand out:
 * `https://host/owner/name(.git)`, `ssh://git@host(:port)/owner/name(.git)` and the scp-like
 * `git@host:owner/name(.git)`. Local paths, `file://` URLs and anything that is not exactly
 * owner/name give null: there is no repository on a code host to ask about.
 */
export function parseRemote(url: string): RemoteRepo | null {
  const raw = url.trim();
  let host: string;
  let repoPath: string;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw);
  if (scheme !== null) {
    const protocol = (scheme[1] ?? '').toLowerCase();
    if (!['https', 'http', 'ssh', 'git', 'git+ssh', 'ssh+git'].includes(protocol)) return null;
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      return null;
    }
    host = parsed.hostname;
    repoPath = decodeURIComponent(parsed.pathname);
  } else {
    // scp-like: [user@]host:path — but not a Windows drive (`C:\x`) nor a path with a slash before the colon.
    const scp = /^(?:[^@/\\\s]+@)?([^:/\\\s]+):(?!\/\/)(.+)$/.exec(raw);
    if (scp === null || /^[A-Za-z]$/.test(scp[1] ?? '')) return null;
    host = scp[1] ?? '';
    repoPath = scp[2] ?? '';
  }
  const parts = repoPath.replace(/^\/+|\/+$/g, '').split('/');
  if (parts.length !== 2 || host === '') return null;
  const owner = parts[0] ?? '';
  const name = (parts[1] ?? '').replace(/\.git$/i, '');
  if (!SEGMENT.test(owner) || !SEGMENT.test(name) || name === '' || owner.startsWith('.')) return null;
  return { host: host.toLowerCase().replace(/^\[|\]$/g, ''), owner, name };
}

/**
 * A remote URL fit for a message: any user info (a token pasted into an https remote) removed.
 * Git allows credentials in remote URLs, so a remote is never printed as is.
 */
export function displayRemote(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, (_m, scheme: string) => scheme);
}
