import { Type } from '@sinclair/typebox';
import type { CodeHost } from '../../domain/host.js';
import {
  createHook,
  deleteHook,
  getDelivery,
  getHook,
  lastResponse,
  listDeliveries,
  listHooks,
  pingHook,
  redeliver,
  updateHook,
  type DeliveryRow,
  type HookRow,
} from '../../domain/hooks.js';
import type { RepoAccess } from '../../domain/views.js';
import { hookJson, pingPayload } from '../../hooks/payloads.js';
import { deliveryRequest } from '../../hooks/sender.js';
import type { Urls } from '../render.js';
import { ghTime } from '../time.js';
import { NoContent, PageQuery, RepoParams, replies } from '../schemas/common.js';
import {
  Accepted,
  CreateHookBody,
  DeliveriesQuery,
  DeliveryParams,
  Hook,
  HookDelivery,
  HookDeliveryItem,
  HookParams,
  UpdateHookBody,
} from '../schemas/hooks.js';
import type { CodehostApp } from '../validation.js';
import { accessOf, op, paging, urlsOf } from './common.js';

const DOC = 'https://docs.github.com/rest/repos/webhooks';
const D = {
  list: `${DOC}#list-repository-webhooks`,
  create: `${DOC}#create-a-repository-webhook`,
  get: `${DOC}#get-a-repository-webhook`,
  update: `${DOC}#update-a-repository-webhook`,
  remove: `${DOC}#delete-a-repository-webhook`,
  deliveries: `${DOC}#list-deliveries-for-a-repository-webhook`,
  delivery: `${DOC}#get-a-delivery-for-a-repository-webhook`,
  redeliver: `${DOC}#redeliver-a-delivery-for-a-repository-webhook`,
  ping: `${DOC}#ping-a-repository-webhook`,
};

const hookId = (p: { hook_id: string }) => Number(p.hook_id);

async function render(host: CodeHost, u: Urls, a: RepoAccess, hook: HookRow) {
  return hookJson(u, a.repo, hook, await lastResponse(host, hook.id));
}

function deliveryItem(d: DeliveryRow) {
  return {
    id: d.id,
    guid: d.guid,
    delivered_at: ghTime(d.delivered_at ?? d.created_at),
    redelivery: d.redelivery === 1,
    duration: (d.duration_ms ?? 0) / 1000,
    status: d.status === 'queued' ? 'Queued' : (d.result ?? ''),
    status_code: d.status_code ?? 0,
    event: d.event,
    action: d.action,
    installation_id: null,
    repository_id: d.repo_id,
    throttled_at: null,
  };
}

/**
 * A repository's webhooks (ARCHITECTURE §22), its admins' only (anyone else: Not Found, as
 * GitHub): list, create, read, edit, delete; their deliveries, one delivery, a redelivery, a ping.
 */
export function hookRoutes(app: CodehostApp, host: CodeHost): void {
  const base = '/repos/:owner/:repo/hooks';
  app.get(
    base,
    { config: op(D.list, 'read'), schema: { params: RepoParams, querystring: PageQuery, response: replies({ 200: Type.Array(Hook) }) } },
    async (request) => {
      const a = accessOf(request);
      const u = urlsOf(request);
      return Promise.all((await listHooks(host, a)).map((h) => render(host, u, a, h)));
    },
  );

  app.post(
    base,
    { config: op(D.create, 'read'), schema: { params: RepoParams, body: CreateHookBody, response: replies({ 201: Hook }) } },
    async (request, reply) => {
      const a = accessOf(request);
      const u = urlsOf(request);
      const hook = await createHook(host, a, request.body);
      // GitHub pings a hook it has just made.
      await pingHook(host, a, hook.id, (h) => pingPayload(u, a.repo, a.owner, a.user, h));
      const body = await render(host, u, a, hook);
      return reply.code(201).header('location', body.url).send(body);
    },
  );

  app.get(`${base}/:hook_id`, { config: op(D.get, 'read'), schema: { params: HookParams, response: replies({ 200: Hook }) } }, async (request) => {
    const a = accessOf(request);
    return render(host, urlsOf(request), a, await getHook(host, a, hookId(request.params)));
  });

  app.patch(
    `${base}/:hook_id`,
    { config: op(D.update, 'read'), schema: { params: HookParams, body: UpdateHookBody, response: replies({ 200: Hook }) } },
    async (request) => {
      const a = accessOf(request);
      return render(host, urlsOf(request), a, await updateHook(host, a, hookId(request.params), request.body));
    },
  );

  app.delete(
    `${base}/:hook_id`,
    { config: op(D.remove, 'read'), schema: { params: HookParams, response: replies({ 204: NoContent }) } },
    async (request, reply) => {
      await deleteHook(host, accessOf(request), hookId(request.params));
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${base}/:hook_id/deliveries`,
    {
      config: op(D.deliveries, 'read'),
      schema: { params: HookParams, querystring: DeliveriesQuery, response: replies({ 200: Type.Array(HookDeliveryItem) }) },
    },
    async (request, reply) => {
      const { perPage } = paging(request.query);
      const cursor = request.query.cursor !== undefined && /^[1-9][0-9]{0,9}$/.test(request.query.cursor) ? Number(request.query.cursor) : undefined;
      const rows = await listDeliveries(host, accessOf(request), hookId(request.params), perPage, cursor);
      const wanted = request.query.status;
      const shown = rows.filter((d) => wanted === undefined || (wanted === 'success') === (d.status === 'delivered'));
      if (rows.length === perPage) {
        const next = new URL(request.url, urlsOf(request).web);
        next.searchParams.set('cursor', String(rows[rows.length - 1]!.id));
        void reply.header('link', `<${next.toString()}>; rel="next"`);
      }
      return shown.map(deliveryItem);
    },
  );

  app.get(
    `${base}/:hook_id/deliveries/:delivery_id`,
    { config: op(D.delivery, 'read'), schema: { params: DeliveryParams, response: replies({ 200: HookDelivery }) } },
    async (request) => {
      const { hook, delivery } = await getDelivery(host, accessOf(request), hookId(request.params), Number(request.params.delivery_id));
      const { headers } = deliveryRequest(hook, delivery);
      // The signature headers are shown as GitHub shows them; the secret itself never is.
      return {
        ...deliveryItem(delivery),
        url: hook.url,
        request: { headers, payload: JSON.parse(delivery.payload) as unknown },
        response: { headers: {}, payload: delivery.result },
      };
    },
  );

  app.post(
    `${base}/:hook_id/deliveries/:delivery_id/attempts`,
    { config: op(D.redeliver, 'read'), schema: { params: DeliveryParams, body: Accepted, response: replies({ 202: Accepted }) } },
    async (request, reply) => {
      await redeliver(host, accessOf(request), hookId(request.params), Number(request.params.delivery_id));
      return reply.code(202).send({});
    },
  );

  app.post(
    `${base}/:hook_id/pings`,
    { config: op(D.ping, 'read'), schema: { params: HookParams, body: Accepted, response: replies({ 204: NoContent }) } },
    async (request, reply) => {
      const a = accessOf(request);
      const u = urlsOf(request);
      await pingHook(host, a, hookId(request.params), (h) => pingPayload(u, a.repo, a.owner, a.user, h));
      return reply.code(204).send(null);
    },
  );
}
