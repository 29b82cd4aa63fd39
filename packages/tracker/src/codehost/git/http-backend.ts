import { spawn, type ChildProcess } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGunzip } from 'node:zlib';
import { parseCgiHead } from './cgi.js';
import { checkRepoName } from './names.js';
import type { BareRepos } from './repos.js';
import { minimalGitEnv } from './run.js';

/**
 * Git over smart HTTP at `/<owner>/<repo>.git` (ARCHITECTURE §14 "Git is git's"): every request
 * that passes authentication is answered by `git http-backend`, git's own CGI server, never by a
 * reimplementation of the protocol. This module only decides who may do what, caps the push body,
 * and relays the CGI answer.
 */

export type GitNeed = 'read' | 'write';
export type GitAccessDecision = 'ok' | 'unauthenticated' | 'not_found' | 'forbidden';
/** An `ok` that may also name the repository as stored (GitHub's names are case-insensitive) and the signed-in login. */
export interface GitAccessGranted { decision: 'ok'; owner?: string; repo?: string; login?: string }

export interface GitHttpOptions {
  repos: BareRepos;
  access(owner: string, repo: string, credential: { user: string; password: string } | null, need: GitNeed): Promise<GitAccessDecision | GitAccessGranted>;
  /** The largest push body taken (bytes, after gzip decoding); `--push-limit`. */
  pushLimitBytes: number;
  /** The largest fetch negotiation body taken (bytes, after gzip decoding). Default 32 MiB. */
  fetchLimitBytes?: number;
  /** A git http-backend running longer is killed. Default 10 minutes. */
  timeoutMs?: number;
  /** Git processes run at once; a request beyond is a 503 to retry. Default 32. */
  maxConcurrent?: number;
  /** Called after a successful receive-pack (so the REST side can refresh anything cached). */
  onPush?(owner: string, repo: string): void;
}

/** The realm git's credential helpers key on (ARCHITECTURE §14 "Authentication"). */
export const GIT_REALM = 'jst-tracker code host';

type Service = 'git-upload-pack' | 'git-receive-pack';
interface GitRequest { owner: string; repo: string; endpoint: 'info/refs' | Service | 'dumb' }

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

function answer(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) { res.destroy(); return; }
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache', ...headers });
  res.end(`${message}\n`);
}

const SAFE_HEADER = /^[\x20-\x7e]{0,200}$/;

/**
 * Stops git http-backend and what it started (its own process group): after `graceMs` (time to end
 * by itself, e.g. on the end of its input), SIGTERM, which lets receive-pack remove its quarantine,
 * then SIGKILL two seconds later.
 */
function killGroup(child: ChildProcess, graceMs = 0): void {
  const pid = child.pid;
  if (pid === undefined) return;
  const alive = () => child.exitCode === null && child.signalCode === null;
  const signal = (s: NodeJS.Signals) => { if (alive()) { try { process.kill(-pid, s); } catch { /* already gone */ } } };
  const term = () => {
    signal('SIGTERM');
    setTimeout(() => signal('SIGKILL'), 2000).unref();
  };
  if (graceMs > 0) setTimeout(term, graceMs).unref();
  else term();
}

export function createGitHttpHandler(o: GitHttpOptions): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const fetchLimit = o.fetchLimitBytes ?? 32 * 1024 * 1024;
  const timeoutMs = o.timeoutMs ?? 10 * 60_000;
  const maxConcurrent = o.maxConcurrent ?? 32;
  let running = 0;

  return async (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const parsed = parseGitPath(path);
    if (parsed === null) return false;
    if (!parsed.valid) { answer(res, 404, 'Repository not found.'); return true; }
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
      if (req.method !== 'GET') { answer(res, 405, 'Method Not Allowed', { Allow: 'GET' }); return true; }
    } else {
      service = parsed.endpoint;
      if (req.method !== 'POST') { answer(res, 405, 'Method Not Allowed', { Allow: 'POST' }); return true; }
    }
    const need: GitNeed = service === 'git-receive-pack' ? 'write' : 'read';

    // ARCHITECTURE §14 "Authentication": Basic with any user and the token as the password.
    const credential = parseBasic(req.headers.authorization);
    const decision = credential === 'bad' ? 'unauthenticated' : await o.access(parsed.owner, parsed.repo, credential, need);
    const verdict = typeof decision === 'string' ? decision : decision.decision;
    if (verdict === 'unauthenticated') {
      answer(res, 401, 'Authentication required: use any user name and a code host token as the password.',
        { 'WWW-Authenticate': `Basic realm="${GIT_REALM}"` });
      return true;
    }
    if (verdict === 'not_found') { answer(res, 404, 'Repository not found.'); return true; }
    if (verdict === 'forbidden') {
      answer(res, 403, `Write access to ${parsed.owner}/${parsed.repo} is not granted to this credential: ask a repository admin for write permission.`);
      return true;
    }
    const granted: Partial<GitAccessGranted> = typeof decision === 'string' ? {} : decision;
    const owner = granted.owner ?? parsed.owner;
    const repo = granted.repo ?? parsed.repo;
    if (!await o.repos.exists(owner, repo).catch(() => false)) { answer(res, 404, 'Repository not found.'); return true; }

    const limit = service === 'git-receive-pack' ? o.pushLimitBytes : fetchLimit;
    const tooLarge = service === 'git-receive-pack'
      ? `The push is larger than this code host takes (${o.pushLimitBytes} bytes, jst-tracker's --push-limit): push fewer or smaller commits, or ask the administrator to raise --push-limit.`
      : `The fetch request is larger than this code host takes (${fetchLimit} bytes).`;
    const declared = Number(req.headers['content-length']);
    if (req.method === 'POST' && Number.isFinite(declared) && declared > limit) {
      answer(res, 413, tooLarge, { Connection: 'close' });
      req.resume();
      return true;
    }
    const encoding = (req.headers['content-encoding'] ?? '').trim().toLowerCase();
    if (encoding !== '' && encoding !== 'identity' && encoding !== 'gzip' && encoding !== 'x-gzip') {
      answer(res, 415, `Content-Encoding ${JSON.stringify(encoding.slice(0, 40))} is not supported: send the body plain or gzip-encoded.`);
      return true;
    }

    // Each request is a git process: a bounded number at once, so many clones cannot exhaust the machine.
    if (running >= maxConcurrent) {
      answer(res, 503, 'The code host is busy with other git requests: retry in a moment.', { 'Retry-After': '5' });
      return true;
    }
    running += 1;
    try {
      await relay(req, res, {
        owner, repo, service, login: granted.login, limit, tooLarge, gzip: encoding === 'gzip' || encoding === 'x-gzip',
        root: o.repos.root, timeoutMs, pushLimitBytes: o.pushLimitBytes,
        onPushed: service === 'git-receive-pack' && req.method === 'POST' && o.onPush ? () => o.onPush!(owner, repo) : undefined,
      });
    } finally {
      running -= 1;
    }
    return true;
  };
}

interface RelayOptions {
  owner: string; repo: string; service: Service; login: string | undefined; limit: number; tooLarge: string; gzip: boolean;
  root: string; timeoutMs: number; pushLimitBytes: number; onPushed: (() => void) | undefined;
}

/** Runs git http-backend for one request: the body in (counted, decoded), the CGI answer out. */
function relay(req: IncomingMessage, res: ServerResponse, r: RelayOptions): Promise<void> {
  const isPost = req.method === 'POST';
  // Built from the checked names, never from the request's own path.
  const pathInfo = isPost ? `/${r.owner}/${r.repo}.git/${r.service}` : `/${r.owner}/${r.repo}.git/info/refs`;
  const contentType = req.headers['content-type'] ?? '';
  const protocol = req.headers['git-protocol'];
  const env = minimalGitEnv({
    GIT_PROJECT_ROOT: r.root,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: pathInfo,
    REQUEST_METHOD: isPost ? 'POST' : 'GET',
    QUERY_STRING: isPost ? '' : `service=${r.service}`,
    CONTENT_TYPE: SAFE_HEADER.test(contentType) ? contentType : '',
    REMOTE_USER: r.login !== undefined && /^[A-Za-z0-9._-]{1,64}$/.test(r.login) ? r.login : 'git',
    REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
    ...(typeof protocol === 'string' && /^[A-Za-z0-9=:._,-]{1,200}$/.test(protocol) ? { GIT_PROTOCOL: protocol } : {}),
    // receive-pack's own cap, in case a body arrives by a way this relay does not count.
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'receive.maxInputSize',
    GIT_CONFIG_VALUE_0: String(r.pushLimitBytes),
  });

  return new Promise((resolve) => {
    // stderr is dropped: git's messages to the client travel in the protocol itself, and its
    // stderr may name paths of the server.
    const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    let finished = false;
    let bodyDone = !isPost;
    let over = false;
    let head: ReturnType<typeof parseCgiHead> = null;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const done = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      resolve();
    };
    const fail = (status: number, message: string, headers: Record<string, string> = {}, graceMs = 0) => {
      killGroup(child, graceMs);
      if (!res.headersSent) answer(res, status, message, headers);
      else res.destroy();
      done();
    };
    const timer = setTimeout(() => fail(504, `git took longer than ${r.timeoutMs} ms and was stopped.`), r.timeoutMs);
    res.on('close', () => { if (!res.writableFinished) { killGroup(child); done(); } });

    // The answer is held until the whole body went in: a push refused for size must not already
    // have a 200 on the wire (git http-backend writes its headers before reading the body).
    const flush = () => {
      if (!bodyDone || head === null || finished || over) return;
      if (!res.headersSent) {
        res.writeHead(head.status, Object.fromEntries(head.headers));
        if (head.body.length > 0) res.write(head.body);
        for (const b of pending) res.write(b);
        pending = [];
        child.stdout.resume();
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      if (head === null) {
        const buf = Buffer.concat([...pending, chunk]);
        pending = [];
        let h: ReturnType<typeof parseCgiHead>;
        try { h = parseCgiHead(buf); } catch (e) { fail(502, `git http-backend answered badly: ${(e as Error).message}`); return; }
        if (h === null) { pending = [buf]; return; }
        head = h;
        flush();
        if (!res.headersSent) child.stdout.pause();
        return;
      }
      if (!res.headersSent) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes > 1024 * 1024) child.stdout.pause();
        return;
      }
      if (!res.write(chunk)) { child.stdout.pause(); res.once('drain', () => child.stdout.resume()); }
    });
    child.on('error', () => fail(500, 'git http-backend could not be started: is git installed on the server?'));
    child.on('close', (code) => {
      if (finished) return;
      if (head === null) { fail(502, 'git http-backend ended without an answer.'); return; }
      // It may answer without reading the whole body (a refusal): pass that answer on.
      if (!bodyDone) { bodyDone = true; req.resume(); }
      flush();
      if (code === 0 && head.status < 400 && r.onPushed) {
        try { r.onPushed(); } catch { /* a listener's failure must not fail a push git has already taken */ }
      }
      res.end();
      done();
    });
    child.stdin.on('error', () => { /* the backend stopped reading; its exit tells what happened */ });

    if (!isPost) { child.stdin.end(); return; }
    const source = r.gzip ? req.pipe(createGunzip()) : req;
    let received = 0;
    source.on('data', (chunk: Buffer) => {
      if (over || finished) return;
      received += chunk.length;
      if (received > r.limit) {
        // ARCHITECTURE §14: push bodies are capped. receive-pack has only written into its
        // quarantine; stopping it here leaves every ref as it was.
        over = true;
        child.stdin.destroy();
        if (r.gzip) { req.unpipe(); req.resume(); }
        const cutOff = setTimeout(() => req.destroy(), 30_000);
        cutOff.unref();
        req.on('end', () => clearTimeout(cutOff));
        // Its input ends here: receive-pack sees a cut pack, fails and cleans up by itself; signals only if it lingers.
        fail(413, r.tooLarge, { Connection: 'close' }, 5000);
        return;
      }
      if (!child.stdin.write(chunk)) {
        source.pause();
        child.stdin.once('drain', () => source.resume());
      }
    });
    source.on('end', () => {
      if (over || finished) return;
      child.stdin.end();
      bodyDone = true;
      flush();
    });
    source.on('error', () => {
      if (over || finished) return;
      fail(400, 'The request body is not valid gzip.');
    });
    req.on('aborted', () => { killGroup(child); done(); });
  });
}
