import { randomUUID } from 'node:crypto';
import type { DeliveryRow, HookRow } from '../store/hooks.js';
import { custom, invalidFields, notFound, type FieldProblem } from './errors.js';
import type { CodeHost } from './host.js';
import { DELIVERIES_KEPT, HOOK_PAYLOAD_MAX, HOOK_SECRET_MAX, HOOK_URL_MAX, HOOKS_PER_REPO_MAX } from './limits.js';
import type { ChRepo } from './model.js';
import { storeOf } from './store-access.js';
import type { RepoAccess } from './views.js';

export type { DeliveryRow, HookRow };

/** The events the code host sends (ARCHITECTURE §22); a hook may name them or `*`. */
export const SENT_EVENTS = ['push', 'create', 'delete', 'pull_request', 'pull_request_review', 'issue_comment', 'ping'] as const;
/** GitHub's other repository events: a hook may subscribe to them (as a tool written for GitHub does); none is sent here. */
const OTHER_EVENTS = [
  'check_run',
  'check_suite',
  'commit_comment',
  'deployment',
  'deployment_status',
  'fork',
  'issues',
  'label',
  'member',
  'pull_request_review_comment',
  'pull_request_review_thread',
  'release',
  'repository',
  'status',
  'workflow_run',
];

/** What creating or editing a hook takes (the HTTP edge has checked the types). */
export interface HookInput {
  name?: string | undefined;
  config?: { url?: string | undefined; content_type?: string | undefined; secret?: string | undefined; insecure_ssl?: string | number | undefined } | undefined;
  events?: string[] | undefined;
  add_events?: string[] | undefined;
  remove_events?: string[] | undefined;
  active?: boolean | undefined;
}

const hookProblem = (message: string): FieldProblem => custom(message, 'Hook');

/** Webhooks are their repository's admins' (GitHub's rule): anyone else is answered Not Found. */
function adminOnly(access: RepoAccess): void {
  if (access.permission !== 'admin') throw notFound();
}

function checkUrl(url: string | undefined): string {
  if (url === undefined || url === '') throw invalidFields([hookProblem('Config must contain a URL (config.url).')]);
  if (url.length > HOOK_URL_MAX) throw invalidFields([hookProblem(`config.url is longer than ${HOOK_URL_MAX} characters.`)]);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidFields([hookProblem('config.url is not a URL.')]);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalidFields([hookProblem('config.url must be an http or https URL.')]);
  if (parsed.username !== '' || parsed.password !== '')
    throw invalidFields([hookProblem('config.url may not carry a user name or password; use config.secret.')]);
  return url;
}

function checkEvents(events: string[], field: string): string[] {
  for (const e of events) {
    if (e !== '*' && !(SENT_EVENTS as readonly string[]).includes(e) && !OTHER_EVENTS.includes(e)) {
      throw invalidFields([hookProblem(`${field}: "${e.slice(0, 64)}" is not a webhook event (${SENT_EVENTS.join(', ')}, or *).`)]);
    }
  }
  return [...new Set(events)];
}

function checkSecret(secret: string | undefined): string | null | undefined {
  if (secret === undefined) return undefined;
  if (secret.length > HOOK_SECRET_MAX) throw invalidFields([hookProblem(`config.secret is longer than ${HOOK_SECRET_MAX} characters.`)]);
  return secret === '' ? null : secret;
}

function checkContentType(type: string | undefined): string | undefined {
  if (type === undefined) return undefined;
  if (type !== 'json' && type !== 'form') throw invalidFields([hookProblem('config.content_type must be "json" or "form".')]);
  return type;
}

function checkInsecure(value: string | number | undefined): string | undefined {
  if (value === undefined) return undefined;
  const v = String(value);
  if (v !== '0' && v !== '1') throw invalidFields([hookProblem('config.insecure_ssl must be "0" or "1".')]);
  return v;
}

export async function listHooks(host: CodeHost, access: RepoAccess): Promise<HookRow[]> {
  adminOnly(access);
  return storeOf(host).hooks.list(access.repo.id);
}

export async function getHook(host: CodeHost, access: RepoAccess, id: number): Promise<HookRow> {
  adminOnly(access);
  const hook = await storeOf(host).hooks.get(access.repo.id, id);
  if (!hook) throw notFound();
  return hook;
}

export async function createHook(host: CodeHost, access: RepoAccess, input: HookInput): Promise<HookRow> {
  adminOnly(access);
  if (input.name !== undefined && input.name !== 'web') throw invalidFields([hookProblem('name must be "web" (the only kind of repository webhook).')]);
  const url = checkUrl(input.config?.url);
  const now = host.now();
  const made = await storeOf(host).hooks.insert(
    {
      repo_id: access.repo.id,
      active: input.active === false ? 0 : 1,
      events: JSON.stringify(checkEvents(input.events ?? ['push'], 'events')),
      url,
      content_type: checkContentType(input.config?.content_type) ?? 'form',
      secret: checkSecret(input.config?.secret) ?? null,
      insecure_ssl: checkInsecure(input.config?.insecure_ssl) ?? '0',
      created_at: now,
      updated_at: now,
    },
    HOOKS_PER_REPO_MAX,
  );
  if (made === 'full') throw invalidFields([hookProblem(`A repository may have at most ${HOOKS_PER_REPO_MAX} webhooks; delete one first.`)]);
  return made;
}

export async function updateHook(host: CodeHost, access: RepoAccess, id: number, input: HookInput): Promise<HookRow> {
  const hook = await getHook(host, access, id);
  const patch: Parameters<ReturnType<typeof storeOf>['hooks']['update']>[2] = {};
  if (input.config !== undefined) {
    patch.url = checkUrl(input.config.url);
    const type = checkContentType(input.config.content_type);
    if (type !== undefined) patch.content_type = type;
    const secret = checkSecret(input.config.secret);
    if (secret !== undefined) patch.secret = secret;
    const insecure = checkInsecure(input.config.insecure_ssl);
    if (insecure !== undefined) patch.insecure_ssl = insecure;
  }
  let events = JSON.parse(hook.events) as string[];
  if (input.events !== undefined) events = checkEvents(input.events, 'events');
  if (input.add_events !== undefined) events = [...new Set([...events, ...checkEvents(input.add_events, 'add_events')])];
  if (input.remove_events !== undefined) events = events.filter((e) => !input.remove_events!.includes(e));
  patch.events = JSON.stringify(events);
  if (input.active !== undefined) patch.active = input.active ? 1 : 0;
  if (!(await storeOf(host).hooks.update(access.repo.id, id, patch, host.now()))) throw notFound();
  return getHook(host, access, id);
}

export async function deleteHook(host: CodeHost, access: RepoAccess, id: number): Promise<void> {
  adminOnly(access);
  if (!(await storeOf(host).hooks.remove(access.repo.id, id))) throw notFound();
}

export async function listDeliveries(host: CodeHost, access: RepoAccess, id: number, perPage: number, cursor?: number): Promise<DeliveryRow[]> {
  const hook = await getHook(host, access, id);
  return storeOf(host).deliveries.list(hook.id, perPage, cursor);
}

export async function getDelivery(host: CodeHost, access: RepoAccess, id: number, deliveryId: number): Promise<{ hook: HookRow; delivery: DeliveryRow }> {
  const hook = await getHook(host, access, id);
  const delivery = await storeOf(host).deliveries.get(hook.id, deliveryId);
  if (!delivery) throw notFound();
  return { hook, delivery };
}

/** POST …/deliveries/{id}/attempts: the same event and payload (and GUID, as GitHub) sent again, marked a redelivery. */
export async function redeliver(host: CodeHost, access: RepoAccess, id: number, deliveryId: number): Promise<void> {
  const { hook, delivery } = await getDelivery(host, access, id, deliveryId);
  await storeOf(host).deliveries.enqueue([
    {
      hook_id: hook.id,
      repo_id: hook.repo_id,
      guid: delivery.guid,
      event: delivery.event,
      action: delivery.action,
      payload: delivery.payload,
      redelivery: 1,
      created_at: host.now(),
    },
  ]);
  host.wake();
}

/** POST …/hooks/{id}/pings: a `ping` event to this hook alone, whatever its events and whether it is active. */
export async function pingHook(host: CodeHost, access: RepoAccess, id: number, payloadOf: (hook: HookRow) => object): Promise<void> {
  const hook = await getHook(host, access, id);
  await enqueue(host, [hook], 'ping', null, payloadOf);
}

/** Whether a hook hears an event (`*` hears every event GitHub sends; ping goes to the hook pinged or made). */
const hears = (hook: HookRow, event: string) => hook.active === 1 && (JSON.parse(hook.events) as string[]).some((e) => e === event || e === '*');

/**
 * A repository's hooks as one event finds them: read once, then asked per event name, so the
 * work a payload needs (git's figures of a pull request, a push's commits) is done only when an
 * active hook hears it. A repository without hooks costs its pushes and merges one read.
 */
export interface RepoHooks {
  hears(event: string): boolean;
  /**
   * Queues `event` for every active hook that hears it: one delivery row each, sent by the
   * delivery loop (one process each, codehost/hooks/sender.ts). A payload over GitHub's 25 MB is
   * recorded as a failed delivery that says so, never sent. Says how many hooks it was queued for.
   */
  queue(event: string, action: string | null, payloadOf: (hook: HookRow) => object): Promise<number>;
}

export async function hooksOf(host: CodeHost, repo: ChRepo): Promise<RepoHooks> {
  const all = await storeOf(host).hooks.list(repo.id);
  return {
    hears: (event) => all.some((h) => hears(h, event)),
    async queue(event, action, payloadOf) {
      const hooks = all.filter((h) => hears(h, event));
      await enqueue(host, hooks, event, action, payloadOf);
      return hooks.length;
    },
  };
}

async function enqueue(host: CodeHost, hooks: HookRow[], event: string, action: string | null, payloadOf: (hook: HookRow) => object): Promise<void> {
  if (hooks.length === 0) return;
  const store = storeOf(host);
  const now = host.now();
  const rows = hooks.map((hook) => {
    const payload = JSON.stringify(payloadOf(hook));
    return { hook_id: hook.id, repo_id: hook.repo_id, guid: randomUUID(), event, action, payload, redelivery: 0, created_at: now };
  });
  const small = rows.filter((r) => Buffer.byteLength(r.payload) <= HOOK_PAYLOAD_MAX);
  await store.deliveries.enqueue(small);
  for (const big of rows.filter((r) => !small.includes(r))) {
    const message = `payload of ${Buffer.byteLength(big.payload)} bytes is over the ${HOOK_PAYLOAD_MAX} bytes a delivery may carry; not sent`;
    await store.deliveries.enqueue([{ ...big, payload: JSON.stringify({ message }), status: 'failed', result: message, delivered_at: now, duration_ms: 0 }]);
  }
  for (const hook of hooks) await store.deliveries.prune(hook.id, DELIVERIES_KEPT);
  host.wake();
}

/** The delivery loop's claim of the oldest queued delivery (one process each; a stale claim is taken over). */
export async function claimDelivery(host: CodeHost, claim: string, staleMs: number): Promise<{ delivery: DeliveryRow; hook: HookRow | null } | null> {
  const store = storeOf(host);
  const now = host.now();
  const delivery = await store.deliveries.claimNext(claim, now, new Date(Date.parse(now) - staleMs).toISOString());
  if (!delivery) return null;
  return { delivery, hook: (await store.hooks.byId(delivery.hook_id)) ?? null };
}

export async function finishDelivery(
  host: CodeHost,
  id: number,
  claim: string,
  outcome: Parameters<ReturnType<typeof storeOf>['deliveries']['finish']>[2],
): Promise<void> {
  await storeOf(host).deliveries.finish(id, claim, outcome);
}

/** The newest finished delivery of a hook, as `last_response` shows it. */
export async function lastResponse(host: CodeHost, hookId: number): Promise<{ code: number | null; status: string; message: string | null } | undefined> {
  const rows = await storeOf(host).deliveries.list(hookId, 20);
  const last = rows.find((r) => r.status !== 'queued');
  if (!last) return undefined;
  return { code: last.status_code, status: last.status === 'delivered' ? 'active' : 'failed', message: last.result };
}
