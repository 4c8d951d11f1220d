import { Type, type Static, type TSchema } from 'typebox';
import { Id, Instant, Nullable } from '../../http/schemas.js';
import { WEBHOOK_EVENTS } from './webhook-events.js';

/** The longest endpoint URL (docs/api.md "Webhooks"). */
export const URL_MAX = 2000;
/** Endpoints one workspace may have (more: 409). */
export const MAX_ENDPOINTS_PER_WORKSPACE = 20;

const EventType = Type.Union(
  WEBHOOK_EVENTS.map((event) => Type.Literal(event)),
  { description: 'An event an endpoint may take.' },
);

const Events = Type.Array(EventType, {
  minItems: 1,
  maxItems: WEBHOOK_EVENTS.length,
  uniqueItems: true,
  description: 'The events sent to the endpoint, at least one, each once.',
});

const Format = Type.Union([Type.Literal('standard'), Type.Literal('slack')], {
  description: '`standard`: a JSON event signed as Standard Webhooks sign it; `slack`: a Slack incoming-webhook message (`{ text }`).',
});

const Url = Type.String({
  minLength: 1,
  maxLength: URL_MAX,
  description:
    'https (http only with WEBHOOK_ALLOW_HTTP=true); its host may not be or resolve to a loopback, private or link-local address.',
});

const EXAMPLE = {
  id: '0195d2c4-7a1e-7c3b-9f00-2b1a4c5d6e80',
  workspaceId: '0195d2c4-6f00-7a00-8b00-1a2b3c4d5e6f',
  url: 'https://hooks.example.com/chronicle',
  events: ['report.sent', 'comment.created'],
  format: 'standard',
  active: true,
  createdByUserId: '0195d2c4-6e00-7a00-8b00-1a2b3c4d5e60',
  createdAt: '2026-11-02T08:00:00.000Z',
  updatedAt: '2026-11-02T08:00:00.000Z',
};

const endpointFields = {
  id: Id,
  workspaceId: Id,
  url: Type.String(),
  events: Type.Array(EventType),
  format: Format,
  active: Type.Boolean({ description: 'An inactive endpoint gets no new events.' }),
  createdByUserId: Nullable(Id),
  createdAt: Instant,
  updatedAt: Instant,
};

export const WebhookSchema = Type.Object(endpointFields, {
  $id: 'Webhook',
  description: 'A webhook endpoint of a workspace; its signing secret is shown only when it is created.',
  examples: [EXAMPLE],
});
export type Webhook = Static<typeof WebhookSchema>;

export const CreatedWebhookSchema = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({
      description: 'The signing secret, shown this once: `whsec_` and the base64 of 24 random bytes (Standard Webhooks form).',
    }),
  },
  {
    $id: 'CreatedWebhook',
    description: 'A new webhook endpoint with its signing secret, which no later answer shows.',
    examples: [{ ...EXAMPLE, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }],
  },
);
export type CreatedWebhook = Static<typeof CreatedWebhookSchema>;

export const CreateWebhookBody = Type.Object(
  {
    url: Url,
    events: Events,
    format: Type.Optional(Format),
    active: Type.Optional(Type.Boolean({ description: 'Default true.' })),
  },
  { additionalProperties: false, examples: [{ url: 'https://hooks.example.com/chronicle', events: ['report.sent'] }] },
);
export type CreateWebhookInput = Static<typeof CreateWebhookBody>;

export const PatchWebhookBody = Type.Object(
  { url: Type.Optional(Url), events: Type.Optional(Events), format: Type.Optional(Format), active: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, examples: [{ active: false }] },
);
export type PatchWebhookInput = Static<typeof PatchWebhookBody>;

export const WebhookDeliverySchema = Type.Object(
  {
    id: Id,
    webhookId: Id,
    eventType: EventType,
    eventId: Type.String({
      description: 'The same for every endpoint the event went to; `webhook-id` of a standard delivery is the delivery id.',
    }),
    status: Type.Union([Type.Literal('queued'), Type.Literal('delivering'), Type.Literal('succeeded'), Type.Literal('failed')], {
      description: '`queued` waits for its next attempt; `failed` after 24 hours of retries or a refused address.',
    }),
    attempts: Type.Integer({ minimum: 0 }),
    nextAttemptAt: Nullable(Instant),
    responseStatus: Nullable(Type.Integer({ description: "The last attempt's HTTP status; null when none answered." })),
    error: Nullable(Type.String({ description: 'Why the last attempt did not succeed.' })),
    data: Type.Object({}, { additionalProperties: true, description: "The event's data as it is sent." }),
    createdAt: Instant,
    deliveredAt: Nullable(Instant),
  },
  {
    $id: 'WebhookDelivery',
    examples: [
      {
        id: '0195d2c4-7b00-7c3b-9f00-2b1a4c5d6e81',
        webhookId: '0195d2c4-7a1e-7c3b-9f00-2b1a4c5d6e80',
        eventType: 'report.sent',
        eventId: '0195d2c4-7b00-7c3b-9f00-2b1a4c5d6e82',
        status: 'succeeded',
        attempts: 1,
        nextAttemptAt: null,
        responseStatus: 204,
        error: null,
        data: { report: { id: '0195d2c4-7b00-7c3b-9f00-2b1a4c5d6e83', name: 'Weekly hours' } },
        createdAt: '2026-11-02T08:00:00.000Z',
        deliveredAt: '2026-11-02T08:00:01.000Z',
      },
    ],
  },
);
export type WebhookDelivery = Static<typeof WebhookDeliverySchema>;

/** The named schemas of this feature, in the order of `components.schemas` (src/http/components.ts). */
export const WEBHOOK_SCHEMAS: readonly TSchema[] = [WebhookSchema, CreatedWebhookSchema, WebhookDeliverySchema];
