import { Type } from '@sinclair/typebox';
import { arg, fail, ok, required, withDefault, type ArgSpec } from '../../http/args.js';
import { pageArg, perPageArg } from '../terms/terms.schemas.js';
import { isPattern } from './webhooks.patterns.js';

const MAX_URL_LENGTH = 2048;

/** `url` (API.md §22): http or https, at most 2048 characters. The address rules apply later, after the permission check. */
const urlArg: ArgSpec<string, false> = {
  schema: Type.String({
    description: 'Where deliveries are POSTed (http or https)',
    format: 'uri',
    maxLength: MAX_URL_LENGTH,
  }),
  required: false,
  always: false,
  parse: (raw, name) => {
    if (typeof raw !== 'string' || raw.length > MAX_URL_LENGTH) return fail('must_be_url', { param: name });
    try {
      const url = new URL(raw.trim());
      return url.protocol === 'http:' || url.protocol === 'https:'
        ? ok(url.href)
        : fail('must_be_url', { param: name });
    } catch {
      return fail('must_be_url', { param: name });
    }
  },
};

/** `events`: a non-empty list of patterns; a bare string is a list of one. */
const eventsArg: ArgSpec<string[], false> = {
  schema: Type.Array(Type.String(), {
    description: 'Event types: {type}.{created|updated|deleted}, {type}.* or *',
    minItems: 1,
    default: ['*'],
  }),
  required: false,
  always: false,
  parse: (raw, name) => {
    const list = typeof raw === 'string' ? [raw] : raw;
    if (!Array.isArray(list) || list.length === 0 || !list.every((entry) => typeof entry === 'string'))
      return fail('not_of_type', { param: name, type: 'array' });
    const unknown = list.filter((entry) => !isPattern(entry.trim()));
    if (unknown.length > 0) return fail('unknown_webhook_event', { param: name, value: unknown.join(', ') });
    return ok([...new Set(list.map((entry) => entry.trim()))]);
  },
};

/** `secret` is made by the service and shown once: a client may not set it. */
const secretArg: ArgSpec<never, false> = {
  schema: Type.String({ description: 'Read-only: generated, returned once by the create response' }),
  required: false,
  always: false,
  parse: (_raw, name) => fail('read_only', { param: name }),
};

const activeArg = arg.boolean({ description: 'Whether changes are delivered (false cancels pending deliveries)' });

export const webhookCreateArgs = {
  url: required(urlArg),
  events: withDefault(eventsArg, () => ['*'], ['*']),
  active: withDefault(activeArg, () => true, true),
  secret: secretArg,
};

export const webhookUpdateArgs = { url: urlArg, events: eventsArg, active: activeArg, secret: secretArg };

export const webhookListArgs = { page: pageArg, per_page: perPageArg('The number of webhooks to return on each page') };

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;

export const deliveryListArgs = {
  page: pageArg,
  per_page: perPageArg('The number of deliveries to return on each page'),
  status: arg.enumOf(DELIVERY_STATUSES, { description: 'Only deliveries with this status' }),
};

const utc = (description: string) => Type.String({ description: `${description} (UTC, YYYY-MM-DD HH:MM:SS)` });

export const DeliverySchema = Type.Object(
  {
    id: Type.Integer(),
    webhook_id: Type.Integer(),
    msg_id: Type.String({ description: 'webhook-id header: the same on every attempt' }),
    type: Type.String({ description: 'e.g. event.updated, webhook.ping' }),
    status: Type.String({ enum: [...DELIVERY_STATUSES] }),
    attempts: Type.Array(
      Type.Object({
        at: utc('When the attempt was made'),
        response_code: Type.Union([Type.Integer(), Type.Null()]),
        duration_ms: Type.Integer(),
        error: Type.Union([Type.String(), Type.Null()]),
      }),
    ),
    next_attempt: Type.Union([utc('When it is attempted next'), Type.Null()]),
    created: utc('When the change was committed'),
  },
  { $id: 'WebhookDelivery' },
);

export const WebhookSchema = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String({ format: 'uri' }),
    events: Type.Array(Type.String()),
    active: Type.Boolean(),
    secret: Type.Optional(Type.String({ description: 'Only in the create response: whsec_ + base64 of 32 bytes' })),
    created: utc('When it was created'),
    last_delivery: Type.Union([
      Type.Object({
        id: Type.Integer(),
        status: Type.String(),
        response_code: Type.Union([Type.Integer(), Type.Null()]),
        at: utc('When it was last attempted'),
      }),
      Type.Null(),
    ]),
  },
  { $id: 'Webhook' },
);

const links = {
  rest_url: Type.String({ format: 'uri' }),
  next_rest_url: Type.Optional(Type.String({ format: 'uri' })),
  previous_rest_url: Type.Optional(Type.String({ format: 'uri' })),
  total: Type.Integer(),
  total_pages: Type.Integer(),
};

export const webhookListSchema = Type.Object({ webhooks: Type.Array(Type.Ref(WebhookSchema)), ...links });
export const deliveryListSchema = Type.Object({ deliveries: Type.Array(Type.Ref(DeliverySchema)), ...links });
