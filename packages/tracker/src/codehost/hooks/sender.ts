import { createHmac, randomUUID } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { CodeHost } from '../domain/host.js';
import { claimDelivery, finishDelivery, type DeliveryRow, type HookRow } from '../domain/hooks.js';
import { HOOK_RESPONSE_MAX, HOOK_TIMEOUT_MS } from '../domain/limits.js';
import type { HookAllow } from './allow.js';

export interface SenderOptions {
  allow: HookAllow;
  /** How long one delivery may take (default GitHub's 10 s). */
  timeoutMs?: number;
  /** How often the loop looks for deliveries another process queued (default 1 s). */
  pollMs?: number;
}

export interface SendResult {
  status: 'delivered' | 'failed';
  status_code: number | null;
  result: string;
  duration_ms: number;
  delivered_at: string;
}

/** The body and headers of a delivery, as GitHub sends them (also what GET …/deliveries/{id} shows). */
export function deliveryRequest(hook: Pick<HookRow, 'id' | 'content_type' | 'secret' | 'repo_id'>, d: Pick<DeliveryRow, 'event' | 'guid' | 'payload'>) {
  const body = hook.content_type === 'json' ? d.payload : `payload=${encodeURIComponent(d.payload)}`;
  const headers: Record<string, string> = {
    Accept: '*/*',
    'User-Agent': 'GitHub-Hookshot/jst-tracker',
    'X-GitHub-Event': d.event,
    'X-GitHub-Delivery': d.guid,
    'X-GitHub-Hook-ID': String(hook.id),
    'X-GitHub-Hook-Installation-Target-Type': 'repository',
    'X-GitHub-Hook-Installation-Target-ID': String(hook.repo_id),
    'Content-Type': hook.content_type === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
  };
  if (hook.secret !== null) {
    headers['X-Hub-Signature'] = `sha1=${createHmac('sha1', hook.secret).update(body).digest('hex')}`;
    headers['X-Hub-Signature-256'] = `sha256=${createHmac('sha256', hook.secret).update(body).digest('hex')}`;
  }
  return { body, headers };
}

/** The address to connect to for `url`, checked against the allow-list; or why there is none. */
async function addressFor(url: URL, allow: HookAllow): Promise<{ address: string; family: number } | { refused: string }> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(hostname) !== 0) {
    return allow.allowsAddress(hostname) ? { address: hostname, family: isIP(hostname) } : { refused: `address ${hostname} is not allowed by --hook-allow` };
  }
  let found: { address: string; family: number }[];
  try {
    found = await lookup(hostname, { all: true });
  } catch {
    return { refused: `host ${hostname} could not be resolved` };
  }
  if (allow.allowsName(hostname) && found.length > 0) return found[0]!;
  const ok = found.find((a) => allow.allowsAddress(a.address));
  return ok ?? { refused: `host ${hostname} resolves to ${found.map((a) => a.address).join(', ')}, which --hook-allow does not allow` };
}

/** Sends one delivery: 10 s at most, no redirect followed, at most HOOK_RESPONSE_MAX bytes of the answer read. */
export async function send(hook: HookRow, d: DeliveryRow, o: SenderOptions): Promise<SendResult> {
  const started = Date.now();
  const done = (status: 'delivered' | 'failed', code: number | null, result: string): SendResult => ({
    status,
    status_code: code,
    result,
    duration_ms: Date.now() - started,
    delivered_at: new Date().toISOString(),
  });
  const url = new URL(hook.url);
  const target = await addressFor(url, o.allow);
  if ('refused' in target) return done('failed', null, target.refused);
  const { body, headers } = deliveryRequest(hook, d);
  const timeoutMs = o.timeoutMs ?? HOOK_TIMEOUT_MS;
  // The connection goes to the address checked above, never to a second resolution of the name.
  const pinned: LookupFunction = (_name, options, cb) => {
    if ((options as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
    else cb(null, target.address, target.family);
  };
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (r: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        lookup: pinned,
        // A connection of its own: a pooled one could be reused for the name after it resolved elsewhere.
        agent: false,
        ...(url.protocol === 'https:' ? { rejectUnauthorized: hook.insecure_ssl !== '1' } : {}),
      },
      (res: IncomingMessage) => {
        const remote = res.socket.remoteAddress;
        if (remote !== undefined && !o.allow.allowsAddress(remote) && !o.allow.allowsName(url.hostname)) {
          res.destroy();
          finish(done('failed', null, `connected address ${remote} is not allowed by --hook-allow`));
          return;
        }
        const code = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > HOOK_RESPONSE_MAX) res.destroy();
        });
        const end = () => {
          if (code >= 200 && code < 300) finish(done('delivered', code, 'OK'));
          else if (code >= 300 && code < 400) finish(done('failed', code, `Redirect (${code}) not followed`));
          else finish(done('failed', code, `Invalid HTTP Response: ${code}`));
        };
        res.on('end', end);
        res.on('close', end);
        res.on('error', end);
      },
    );
    const timer = setTimeout(() => {
      finish(done('failed', null, `Timed out: no answer within ${timeoutMs / 1000} s`));
      req.destroy();
    }, timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => finish(done('failed', null, `Could not deliver: ${e.code ?? 'connection failed'}`)));
    req.end(body);
  });
}

/**
 * This process's delivery loop: claims the oldest queued delivery (domain/hooks.ts claimDelivery,
 * one process each), sends it, records the outcome; sleeps until woken (a delivery queued here) or
 * the poll (one queued by another process). A claim left by a process that died is taken over
 * once it is older than the send's timeout and a margin: a restart loses none.
 */
export class DeliveryLoop {
  private running = false;
  private wakeUp: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private readonly claim = randomUUID();

  constructor(
    private readonly host: CodeHost,
    private readonly o: SenderOptions,
    private readonly report: (e: unknown) => void,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  wake(): void {
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    const staleMs = (this.o.timeoutMs ?? HOOK_TIMEOUT_MS) + 20_000;
    while (this.running) {
      try {
        const claimed = await claimDelivery(this.host, this.claim, staleMs);
        if (claimed) {
          const { delivery, hook } = claimed;
          const r = hook
            ? await send(hook, delivery, this.o)
            : { status: 'failed' as const, status_code: null, result: 'The hook was deleted', duration_ms: 0, delivered_at: new Date().toISOString() };
          await finishDelivery(this.host, delivery.id, this.claim, r);
          continue;
        }
      } catch (e) {
        if (!this.running) return;
        this.report(e);
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, this.o.pollMs ?? 1000);
        this.wakeUp = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.wakeUp = null;
    }
  }
}
