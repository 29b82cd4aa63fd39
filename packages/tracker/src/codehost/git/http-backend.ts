import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkRepoName } from './names.js';
import type { HookRule } from './protect-hook.js';
import type { PushedRef } from './push-hook.js';
import { answer, NO_CACHE, relay, type Service } from './relay.js';
import type { BareRepos } from './repos.js';
import { GitSlots, slotRefusalMessage } from './slots.js';

/**
 * Git over smart HTTP at `/<owner>/<repo>.git` (ARCHITECTURE §14 "Git is git's"): every request
 * that passes authentication is answered by git's own service, `git upload-pack` or `git
 * receive-pack --stateless-rpc`, one process per request, behind the head git http-backend would
 * write (./relay.ts), never by a reimplementation of the protocol. This module only decides who
 * may do what, checks what http-backend checked, caps the body, and relays git's answer.
 */

export type GitNeed = 'read' | 'write';
export type GitAccessDecision = 'ok' | 'unauthenticated' | 'not_found' | 'forbidden';
/** An `ok` that may also name the repository as stored (GitHub's names are case-insensitive) and the signed-in login. */
export interface GitAccessGranted {
  decision: 'ok';
  owner?: string;
  repo?: string;
  login?: string;
  /** On a write: the protected branches as they bind this pusher (ARCHITECTURE §21). */
  protect?: HookRule[];
}

export interface GitHttpOptions {
  repos: BareRepos;
  access(owner: string, repo: string, credential: { user: string; password: string } | null, need: GitNeed): Promise<GitAccessDecision | GitAccessGranted>;
  /** The largest push body taken (bytes, after gzip decoding); `--push-limit`. */
  pushLimitBytes: number;
  /** The largest fetch negotiation body taken (bytes, after gzip decoding). Default 32 MiB. */
  fetchLimitBytes?: number;
  /** A git service (upload-pack, receive-pack) running longer is killed. Default 10 minutes. */
  timeoutMs?: number;
  /**
   * The git processes of the whole server (git over HTTP, the pages' and REST's git work) and each
   * user's share: a request beyond the total is a 503, beyond the user's share a 429, both to retry.
   * Default 32, 8 per user (./slots.ts).
   */
  slots?: GitSlots;
  /**
   * Told the refs each accepted push updated (git's post-receive: a refused ref is not among them),
   * with the pusher's login; awaited before the push's answer ends (domain/pushes.ts records them).
   */
  onPush?(owner: string, repo: string, login: string | undefined, updates: PushedRef[]): Promise<void>;
}

/** The realm git's credential helpers key on (ARCHITECTURE §14 "Authentication"). */
export const GIT_REALM = 'jst-tracker code host';

interface GitRequest {
  owner: string;
  repo: string;
  endpoint: 'info/refs' | Service | 'dumb';
}

const NAME = '([^/?#]+)';
const SMART = new RegExp(`^/${NAME}/${NAME}/(info/refs|git-upload-pack|git-receive-pack)$`);
const DUMB = new RegExp(`^/${NAME}/${NAME}\\.git/(HEAD|objects/.*|info/.*)$`);

/** The git request a path names, null when it is not git's (the caller routes it elsewhere). */
export function parseGitPath(path: string): (GitRequest & { valid: boolean }) | null {
  const smart = SMART.exec(path);
  const dumb = smart === null ? DUMB.exec(path) : null;
  const m = smart ?? dumb;
  if (m === null) return null;
  const owner = m[1]!;
  const rawRepo = m[2]!;
  const repo = smart !== null && rawRepo.endsWith('.git') ? rawRepo.slice(0, -4) : rawRepo;
  const endpoint = smart !== null ? (m[3] as GitRequest['endpoint']) : 'dumb';
  let valid = true;
  try {
    checkRepoName('owner', owner);
    checkRepoName('repository', repo);
  } catch {
    valid = false;
  }
  return { owner, repo, endpoint, valid };
}

function parseBasic(header: string | undefined): { user: string; password: string } | null | 'bad' {
  if (header === undefined) return null;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (m === null) return 'bad';
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'bad';
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Why a request's body is refused before git runs, null when it is not: over the limit by its
 * Content-Length (answered at once; the rest of the body is read, up to a bound, so the client
 * reads it: ./relay.ts answer), an encoding git cannot be given, or a POST of another type than
 * the service's (git http-backend's own check, in its words).
 */
function bodyRefusal(
  req: IncomingMessage,
  service: Service,
  encoding: string,
  limit: number,
  tooLarge: string,
): { status: number; message: string; headers: Record<string, string> } | null {
  const declared = Number(req.headers['content-length']);
  if (req.method === 'POST' && Number.isFinite(declared) && declared > limit) return { status: 413, message: tooLarge, headers: { Connection: 'close' } };
  if (encoding !== '' && encoding !== 'identity' && encoding !== 'gzip' && encoding !== 'x-gzip') {
    return {
      status: 415,
      message: `Content-Encoding ${JSON.stringify(encoding.slice(0, 40))} is not supported: send the body plain or gzip-encoded.`,
      headers: {},
    };
  }
  const contentType = req.headers['content-type'] ?? '';
  const expected = `application/x-${service}-request`;
  if (req.method === 'POST' && contentType !== expected) {
    const received = /^[\x20-\x7e]{0,200}$/.test(contentType) ? contentType : '';
    return { status: 415, message: `Expected POST with Content-Type '${expected}', but received '${received}' instead.`, headers: NO_CACHE };
  }
  return null;
}

// One closure: the routes it answers share the process cap, the repositories root and the auth check.
export function createGitHttpHandler(o: GitHttpOptions): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const fetchLimit = o.fetchLimitBytes ?? 32 * 1024 * 1024;
  const timeoutMs = o.timeoutMs ?? 10 * 60_000;
  const slots = o.slots ?? new GitSlots();

  return async (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const parsed = parseGitPath(path);
    if (parsed === null) return false;
    if (!parsed.valid) {
      answer(res, 404, 'Repository not found.');
      return true;
    }
    if (parsed.endpoint === 'dumb') {
      answer(res, 403, 'This code host serves git over smart HTTP only: use git 1.6.6 or newer.');
      return true;
    }
    let service: Service;
    if (parsed.endpoint === 'info/refs') {
      const s = new URLSearchParams(q < 0 ? '' : url.slice(q + 1)).get('service');
      if (s !== 'git-upload-pack' && s !== 'git-receive-pack') {
        answer(res, 403, 'This code host serves git over smart HTTP only: use git 1.6.6 or newer.');
        return true;
      }
      service = s;
      if (req.method !== 'GET') {
        answer(res, 405, 'Method Not Allowed', { Allow: 'GET' });
        return true;
      }
    } else {
      service = parsed.endpoint;
      if (req.method !== 'POST') {
        answer(res, 405, 'Method Not Allowed', { Allow: 'POST' });
        return true;
      }
    }
    const need: GitNeed = service === 'git-receive-pack' ? 'write' : 'read';

    // ARCHITECTURE §14 "Authentication": Basic with any user and the token as the password.
    const credential = parseBasic(req.headers.authorization);
    const decision = credential === 'bad' ? 'unauthenticated' : await o.access(parsed.owner, parsed.repo, credential, need);
    const verdict = typeof decision === 'string' ? decision : decision.decision;
    if (verdict === 'unauthenticated') {
      answer(res, 401, 'Authentication required: use any user name and a code host token as the password.', {
        'WWW-Authenticate': `Basic realm="${GIT_REALM}"`,
      });
      return true;
    }
    if (verdict === 'not_found') {
      answer(res, 404, 'Repository not found.');
      return true;
    }
    if (verdict === 'forbidden') {
      answer(res, 403, `Write access to ${parsed.owner}/${parsed.repo} is not granted to this credential: ask a repository admin for write permission.`);
      return true;
    }
    const granted: Partial<GitAccessGranted> = typeof decision === 'string' ? {} : decision;
    const owner = granted.owner ?? parsed.owner;
    const repo = granted.repo ?? parsed.repo;
    if (!(await o.repos.exists(owner, repo).catch(() => false))) {
      answer(res, 404, 'Repository not found.');
      return true;
    }

    const limit = service === 'git-receive-pack' ? o.pushLimitBytes : fetchLimit;
    const tooLarge =
      service === 'git-receive-pack'
        ? `The push is larger than this code host takes (${o.pushLimitBytes} bytes, jst-tracker's --push-limit): push fewer or smaller commits, or ask the administrator to raise --push-limit.`
        : `The fetch request is larger than this code host takes (${fetchLimit} bytes).`;
    const encoding = (req.headers['content-encoding'] ?? '').trim().toLowerCase();
    const refused = bodyRefusal(req, service, encoding, limit, tooLarge);
    if (refused !== null) {
      answer(res, refused.status, refused.message, refused.headers);
      return true;
    }

    // Each request is a git process: a bounded number at once, so many clones cannot exhaust the
    // machine, and a bounded share of them per user, so one account cannot take them all.
    const release = slots.take(granted.login ?? `anonymous ${req.socket.remoteAddress ?? ''}`);
    if (typeof release === 'string') {
      answer(res, release === 'busy' ? 503 : 429, slotRefusalMessage(release, slots.limits), { 'Retry-After': '5' });
      return true;
    }
    try {
      await relay(req, res, {
        owner,
        repo,
        service,
        login: granted.login,
        protect: granted.protect,
        limit,
        tooLarge,
        gzip: encoding === 'gzip' || encoding === 'x-gzip',
        dir: o.repos.dir(owner, repo),
        timeoutMs,
        pushLimitBytes: o.pushLimitBytes,
        onPushed: service === 'git-receive-pack' && req.method === 'POST' && o.onPush ? (updates) => o.onPush!(owner, repo, granted.login, updates) : undefined,
      });
    } finally {
      release();
    }
    return true;
  };
}
