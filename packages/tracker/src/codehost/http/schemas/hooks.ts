import { Type } from '@sinclair/typebox';
import { oneOf, Paging } from './common.js';

/** Webhooks: GitHub's repos/*-webhook operations' inputs and answers (spec/github-openapi/). */

/** `{hook_id}`, `{delivery_id}`: decimal digits (anything else names no hook: 404). */
const Id = Type.String({ pattern: '^[1-9][0-9]{0,9}$' });
export const HookParams = Type.Object({ owner: Type.String(), repo: Type.String(), hook_id: Id });
export const DeliveryParams = Type.Object({ owner: Type.String(), repo: Type.String(), hook_id: Id, delivery_id: Id });

const Events = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 64 });

const Config = Type.Object(
  {
    // Lengths and values are the domain's to check (domain/hooks.ts), with messages naming `config.<key>`.
    url: Type.Optional(Type.String()),
    content_type: Type.Optional(Type.String()),
    secret: Type.Optional(Type.String()),
    insecure_ssl: Type.Optional(Type.Union([Type.String(), Type.Number()])),
  },
  { 'x-gh-resource': 'Hook' },
);

/** `POST …/hooks`: `config.url` required (checked by the domain, with GitHub's words); name, events, active optional. */
export const CreateHookBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 64 })),
    config: Type.Optional(Config),
    events: Type.Optional(Events),
    active: Type.Optional(Type.Boolean()),
  },
  { 'x-gh-resource': 'Hook' },
);

/** `PATCH …/hooks/{id}`: each optional; `config` replaces the URL and what it names. */
export const UpdateHookBody = Type.Object(
  {
    config: Type.Optional(Config),
    events: Type.Optional(Events),
    add_events: Type.Optional(Events),
    remove_events: Type.Optional(Events),
    active: Type.Optional(Type.Boolean()),
  },
  { 'x-gh-resource': 'Hook' },
);

export const DeliveriesQuery = Type.Object({
  cursor: Type.Optional(Type.String({ maxLength: 32 })),
  status: Type.Optional(oneOf(['success', 'failure'])),
  ...Paging,
});

const HookResponse = Type.Object({
  code: Type.Union([Type.Integer(), Type.Null()]),
  status: Type.Union([Type.String(), Type.Null()]),
  message: Type.Union([Type.String(), Type.Null()]),
});

/** hook. */
export const Hook = Type.Object({
  type: Type.String(),
  id: Type.Integer(),
  name: Type.String(),
  active: Type.Boolean(),
  events: Type.Array(Type.String()),
  config: Type.Object({ url: Type.String(), content_type: Type.String(), insecure_ssl: Type.String() }),
  updated_at: Type.String(),
  created_at: Type.String(),
  url: Type.String(),
  test_url: Type.String(),
  ping_url: Type.String(),
  deliveries_url: Type.String(),
  last_response: HookResponse,
});

/** hook-delivery-item. */
export const HookDeliveryItem = Type.Object({
  id: Type.Integer(),
  guid: Type.String(),
  delivered_at: Type.String(),
  redelivery: Type.Boolean(),
  duration: Type.Number(),
  status: Type.String(),
  status_code: Type.Integer(),
  event: Type.String(),
  action: Type.Union([Type.String(), Type.Null()]),
  installation_id: Type.Union([Type.Integer(), Type.Null()]),
  repository_id: Type.Union([Type.Integer(), Type.Null()]),
});

/** hook-delivery: the item with its request and response. */
export const HookDelivery = Type.Object({
  ...HookDeliveryItem.properties,
  url: Type.String(),
  request: Type.Object({ headers: Type.Unknown(), payload: Type.Unknown() }),
  response: Type.Object({ headers: Type.Unknown(), payload: Type.Unknown() }),
});

export const Accepted = Type.Object({});
