import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, rmdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { hasUnreadBody, lingerOnRefusedBody } from '../../kit/refused-body.js';
import { protectEnv, type HookRule } from './protect-hook.js';
import { newPushLog, readPushLog, serverHooksPath, type PushedRef } from './push-hook.js';
import { minimalGitEnv, noteGitProcess } from './run.js';

export type Service = 'git-upload-pack' | 'git-receive-pack';

/**
 * A plain-text answer of the git front. One given before the request's body was read to its end
 * closes the connection after it, and reads the rest of the body first (up to a bound), so the
 * client reads the answer rather than a reset (net/refused-body.ts).
 */
export function answer(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const unread = hasUnreadBody(res.req);
  if (unread) lingerOnRefusedBody(res.req, res);
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache', ...headers, ...(unread ? { Connection: 'close' } : {}) });
  res.end(`${message}\n`);
}

/**
 * Stops the service and what it started (its own process group: pack-objects, index-pack, the
 * hooks): after `graceMs` (time to end by itself, e.g. on the end of its input), SIGTERM, which
 * lets receive-pack remove its quarantine, then SIGKILL two seconds later.
 */
function killGroup(child: ChildProcess, graceMs = 0): void {
  const pid = child.pid;
  if (pid === undefined) return;
  const alive = () => child.exitCode === null && child.signalCode === null;
  const signal = (s: NodeJS.Signals) => {
    if (alive()) {
      try {
        process.kill(-pid, s);
      } catch {
        /* already gone */
      }
    }
  };
  const term = () => {
    signal('SIGTERM');
    setTimeout(() => signal('SIGKILL'), 2000).unref();
  };
  if (graceMs > 0) setTimeout(term, graceMs).unref();
  else term();
}

export interface RelayOptions {
  owner: string;
  repo: string;
  /** The repository's folder (BareRepos.dir), built from the checked names, never from the request's path. */
  dir: string;
  service: Service;
  login: string | undefined;
  limit: number;
  tooLarge: string;
  gzip: boolean;
  timeoutMs: number;
  pushLimitBytes: number;
  /**
   * Told the refs an accepted push updated (git's post-receive, ./push-hook.ts), awaited before the
   * answer ends, so the pusher's next request sees them.
   */
  onPushed: ((updates: PushedRef[]) => Promise<void>) | undefined;
  /** The protected branches as they bind this pusher (ARCHITECTURE §21), for the pre-receive hook. */
  protect?: HookRule[] | undefined;
}

/** The Git-Protocol header as git reads it (GIT_PROTOCOL, `version=2:…`), when it is one. */
function gitProtocol(req: IncomingMessage): string | undefined {
  const protocol = req.headers['git-protocol'];
  return typeof protocol === 'string' && /^[A-Za-z0-9=:._,-]{1,200}$/.test(protocol) ? protocol : undefined;
}

/**
 * Whether the client asked for protocol v2: one of its `:`-separated keys is `version=2` (git's
 * determine_protocol_version_server takes the greatest version asked for, and knows none above 2).
 */
function asksProtocolV2(protocol: string | undefined): boolean {
  return protocol !== undefined && protocol.split(':').includes('version=2');
}

/**
 * The service's environment for one request: what git http-backend gave it. REMOTE_USER and
 * REMOTE_ADDR reach the hooks; the committer of the reflog entries a push writes is the pusher,
 * `<user>@http.<address>`, as http-backend names it.
 */
function serviceEnv(req: IncomingMessage, r: RelayOptions, pushLog: string | null): NodeJS.ProcessEnv {
  const user = r.login !== undefined && /^[A-Za-z0-9._-]{1,64}$/.test(r.login) ? r.login : 'git';
  const address = req.socket.remoteAddress ?? '127.0.0.1';
  const protocol = gitProtocol(req);
  return minimalGitEnv({
    REMOTE_USER: user,
    REMOTE_ADDR: address,
    GIT_COMMITTER_NAME: user,
    GIT_COMMITTER_EMAIL: `${user}@http.${address}`,
    ...(protocol !== undefined ? { GIT_PROTOCOL: protocol } : {}),
    ...gitConfigEnv([
      // receive-pack's own cap, in case a body arrives by a way this relay does not count.
      ['receive.maxInputSize', String(r.pushLimitBytes)],
      ...hiddenRefsConfig(),
      ...hooksConfig(r),
    ]),
    ...(r.service === 'git-receive-pack' ? protectEnv(r.protect ?? []) : {}),
    ...(pushLog !== null ? { JST_PUSH_LOG: pushLog } : {}),
  });
}

/** A push runs the server's hooks: protection (./protect-hook.ts) before when rules bind the pusher, the refs' record (./push-hook.ts) after. */
function hooksConfig(r: RelayOptions): Array<[string, string]> {
  return r.service === 'git-receive-pack' ? [['core.hooksPath', serverHooksPath(Object.keys(protectEnv(r.protect ?? [])).length > 0)]] : [];
}

/** Configuration for git's children through the environment (GIT_CONFIG_COUNT, git 2.31). */
function gitConfigEnv(pairs: Array<[string, string]>): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(pairs.length) };
  pairs.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/**
 * Refs nobody pushes (docs/codehost.md "Git over HTTP"): `refs/pull/*` is the code host's, as on
 * GitHub, where it is read-only. receive-pack refuses an update of a hidden ref in GitHub's own
 * words, `! [remote rejected] … (deny updating a hidden ref)`, and leaves every other ref of the
 * push to its own verdict; fetches still see them.
 */
function hiddenRefsConfig(): Array<[string, string]> {
  return [['receive.hideRefs', 'refs/pull']];
}

/** git http-backend's headers on every smart answer: nothing of it may be cached. */
export const NO_CACHE = { Expires: 'Fri, 01 Jan 1980 00:00:00 GMT', Pragma: 'no-cache', 'Cache-Control': 'no-cache, max-age=0, must-revalidate' };

/** One pkt-line (its length, four hex digits counting themselves, then the payload). */
function pktLine(payload: string): Buffer {
  const body = Buffer.from(payload, 'utf8');
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, '0'), 'ascii'), body]);
}

/** The git command line of one request, and its answer's head (what git http-backend would write). */
function serviceCall(
  method: 'GET' | 'POST',
  service: Service,
  dir: string,
  protocol: string | undefined,
): { args: string[]; headers: Record<string, string>; preamble: Buffer } {
  const name = service.slice('git-'.length);
  if (method === 'GET') {
    return {
      args: [name, '--stateless-rpc', '--http-backend-info-refs', dir],
      headers: { 'Content-Type': `application/x-${service}-advertisement`, ...NO_CACHE },
      // Protocol v0 and v1 name the service first (a smart client's check that the server is smart); v2 does not.
      preamble: asksProtocolV2(protocol) ? Buffer.alloc(0) : Buffer.concat([pktLine(`# service=${service}\n`), Buffer.from('0000', 'ascii')]),
    };
  }
  return { args: [name, '--stateless-rpc', dir], headers: { 'Content-Type': `application/x-${service}-result`, ...NO_CACHE }, preamble: Buffer.alloc(0) };
}

/**
 * Answers one smart-HTTP request with one git process, `git upload-pack` or `git receive-pack
 * --stateless-rpc`, as git http-backend would (git's Documentation/gitprotocol-http): the body in
 * (counted, decoded), git's output out behind the head http-backend writes.
 */
export function relay(req: IncomingMessage, res: ServerResponse, r: RelayOptions): Promise<void> {
  return new Promise((resolve) => new Relay(req, res, r, resolve).start());
}

/** One service run: its state is the answer's (what is held back) and the body's (`bodyDone`, `over`). */
class Relay {
  private readonly child: ChildProcess & { stdin: NonNullable<ChildProcess['stdin']>; stdout: NonNullable<ChildProcess['stdout']> };
  private readonly isPost: boolean;
  private readonly call: ReturnType<typeof serviceCall>;
  private finished = false;
  private bodyDone: boolean;
  private over = false;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly quarantine: QuarantineSweep | null = null;
  /** Where this push's post-receive writes the refs it updated (a push's POST only). */
  private readonly pushLog: string | null = null;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly r: RelayOptions,
    private readonly resolve: () => void,
  ) {
    this.isPost = req.method === 'POST';
    this.bodyDone = !this.isPost;
    if (r.service === 'git-receive-pack' && this.isPost) {
      this.quarantine = new QuarantineSweep(join(r.dir, 'objects'));
      this.pushLog = newPushLog();
    }
    this.call = serviceCall(this.isPost ? 'POST' : 'GET', r.service, r.dir, gitProtocol(req));
    noteGitProcess(this.call.args, 'front');
    // stderr is dropped: git's messages to the client travel in the protocol itself, and its
    // stderr may name paths of the server. Its own process group, so a kill reaches what it started.
    this.child = spawn('git', this.call.args, { env: serviceEnv(req, r, this.pushLog), stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    this.timer = setTimeout(() => this.fail(504, `git took longer than ${r.timeoutMs} ms and was stopped.`), r.timeoutMs);
  }

  start(): void {
    const { child, res } = this;
    res.on('close', () => {
      if (!res.writableFinished) {
        killGroup(child);
        this.done();
      }
    });
    child.stdout.on('data', (chunk: Buffer) => this.onOutput(chunk));
    child.on('error', () => this.fail(500, 'git could not be started: is git installed on the server?'));
    child.on('close', (code) => {
      this.quarantine?.afterExit();
      void this.onExit(code);
    });
    child.stdin.on('error', () => {
      /* git stopped reading; its exit tells what happened */
    });
    if (!this.isPost) {
      child.stdin.end();
      return;
    }
    this.pipeBody();
  }

  private done(): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.timer);
    this.resolve();
  }

  private fail(status: number, message: string, headers: Record<string, string> = {}, graceMs = 0): void {
    killGroup(this.child, graceMs);
    if (!this.res.headersSent) answer(this.res, status, message, headers);
    else this.res.destroy();
    this.done();
  }

  /**
   * The answer is held until the whole body went in and git said something (or ended): a push
   * refused for size must not already have a 200 on the wire, nor a git that could not run.
   */
  private flush(exited = false): void {
    const { res } = this;
    if (!this.bodyDone || this.finished || this.over || res.headersSent) return;
    if (this.pending.length === 0 && !exited) return;
    res.writeHead(200, this.call.headers);
    if (this.call.preamble.length > 0) res.write(this.call.preamble);
    for (const b of this.pending) res.write(b);
    this.pending = [];
    this.child.stdout.resume();
  }

  private onOutput(chunk: Buffer): void {
    const { child, res } = this;
    if (!res.headersSent) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      this.flush();
      if (!res.headersSent && this.pendingBytes > 1024 * 1024) child.stdout.pause();
      return;
    }
    if (!res.write(chunk)) {
      child.stdout.pause();
      res.once('drain', () => child.stdout.resume());
    }
  }

  private async onExit(code: number | null): Promise<void> {
    // Read (and removed) whatever happened: a push cut off may still have updated refs.
    const updates = this.pushLog === null ? [] : await readPushLog(this.pushLog);
    if (updates.length > 0 && this.r.onPushed) {
      try {
        await this.r.onPushed(updates);
      } catch {
        /* a listener's failure must not fail a push git has already taken */
      }
    }
    if (this.finished) return;
    // It may answer without reading the whole body (a refusal): pass that answer on, and read
    // the rest of the body (up to a bound) so the client reads it.
    if (!this.bodyDone) {
      this.bodyDone = true;
      lingerOnRefusedBody(this.req, this.res);
    }
    if (!this.res.headersSent && this.pending.length === 0 && code !== 0) {
      // Nothing said and a failure (the repository gone under it): not an empty 200.
      this.fail(502, 'git ended without an answer.');
      return;
    }
    this.flush(true);
    this.res.end();
    this.done();
  }

  /** The request body into git: counted after gzip decoding, cut at the limit (413). */
  private pipeBody(): void {
    const { req, child, r } = this;
    const source = r.gzip ? req.pipe(createGunzip()) : req;
    let received = 0;
    source.on('data', (chunk: Buffer) => {
      if (this.over || this.finished) return;
      received += chunk.length;
      if (received > r.limit) {
        // ARCHITECTURE §14: push bodies are capped. receive-pack has only written into its
        // quarantine; stopping it here leaves every ref as it was.
        this.over = true;
        child.stdin.destroy();
        if (r.gzip) req.unpipe();
        // Its input ends here: receive-pack sees a cut pack, fails and cleans up by itself; signals
        // only if it lingers. The 413 closes the connection once the rest of the body is read (up to a bound).
        this.fail(413, r.tooLarge, { Connection: 'close' }, 5000);
        return;
      }
      if (!child.stdin.write(chunk)) {
        source.pause();
        child.stdin.once('drain', () => source.resume());
      }
    });
    source.on('end', () => {
      if (this.over || this.finished) return;
      child.stdin.end();
      this.bodyDone = true;
      this.flush();
    });
    source.on('error', () => {
      if (this.over || this.finished) return;
      this.fail(400, 'The request body is not valid gzip.');
    });
    req.on('aborted', () => {
      killGroup(child);
      this.done();
    });
  }
}

/** Receive-packs of this process running per objects folder (a sweep waits for the last). */
const pushing = new Map<string, number>();

/**
 * receive-pack unpacks a push into a quarantine (`objects/tmp_objdir-incoming-*`) and removes it
 * when it ends; a push cut off in the middle (the client gone, the pack killed) can leave it
 * behind, empty. After each receive-pack, the quarantines made while it ran that are still there
 * and hold no file are removed, once no other push of this process runs on the repository (a
 * live one is never empty for more than a moment; one holding objects is left to git).
 */
class QuarantineSweep {
  private readonly before: Set<string>;
  private ended = false;

  constructor(private readonly objects: string) {
    this.before = new Set(quarantines(objects));
    pushing.set(objects, (pushing.get(objects) ?? 0) + 1);
  }

  afterExit(): void {
    if (this.ended) return;
    this.ended = true;
    const left = (pushing.get(this.objects) ?? 1) - 1;
    if (left > 0) {
      pushing.set(this.objects, left);
      return;
    }
    pushing.delete(this.objects);
    // Now, and once more after the process group's last member had time to stop (killGroup).
    this.sweep();
    setTimeout(() => {
      if (!pushing.has(this.objects)) this.sweep();
    }, 3000).unref();
  }

  private sweep(): void {
    for (const name of quarantines(this.objects)) if (!this.before.has(name)) removeEmptyTree(join(this.objects, name));
  }
}

function quarantines(objects: string): string[] {
  try {
    return readdirSync(objects).filter((name) => name.startsWith('tmp_objdir-incoming-'));
  } catch {
    return [];
  }
}

/** Removes a folder made only of empty folders; anything holding a file is left as it is. */
function removeEmptyTree(dir: string): void {
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) removeEmptyTree(join(dir, entry.name));
    rmdirSync(dir);
  } catch {
    /* not empty, or already gone */
  }
}
