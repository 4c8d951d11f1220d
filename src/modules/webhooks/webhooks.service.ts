/**
 * A workspace's webhook endpoints (delivery.md §4; docs/api.md "Webhooks"): workspace admins and
 * owners register, read, change and delete them and read their deliveries. The secret is made
 * here, sealed with the share key, and shown once. Events are webhook-events.ts; sending them is
 * webhook-dispatcher.ts.
 */
import { randomBytes } from 'node:crypto';
import type { Actor, AppContext } from '../../context.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { Page, Paged } from '../../lib/paging.js';
import { encryptSecret } from '../../lib/secrets.js';
import * as repo from '../../repositories/webhooks.repository.js';
import { requireWorkspaceAdmin, webhookAccess, workspaceAccess } from '../access/access.js';
import { literalAddress, blockedReason } from './address-check.js';
import { urlProblem } from './outbound-request.js';
import {
  MAX_ENDPOINTS_PER_WORKSPACE,
  type CreatedWebhook,
  type CreateWebhookInput,
  type PatchWebhookInput,
  type Webhook,
  type WebhookDelivery,
} from './webhooks.schemas.js';

/** Random bytes of a new signing secret (Standard Webhooks asks for 24 to 64). */
const SECRET_BYTES = 24;

export function toWebhook(row: repo.EndpointRow): Webhook {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    url: row.url,
    events: row.events as Webhook['events'],
    format: row.format as Webhook['format'],
    active: row.active,
    createdByUserId: row.createdByUserId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toDelivery(row: repo.DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.endpointId,
    eventType: row.eventType as WebhookDelivery['eventType'],
    eventId: row.eventId,
    status: row.status as WebhookDelivery['status'],
    attempts: row.attempts,
    nextAttemptAt: row.status === 'queued' ? row.nextAttemptAt.toISOString() : null,
    responseStatus: row.responseStatus,
    error: row.error,
    data: row.payload as WebhookDelivery['data'],
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
  };
}

/**
 * The URL rules a saved endpoint must meet: https (or http when allowed), no credentials, and a
 * host that is not, and does not resolve to, an address webhooks may not reach. A name that does
 * not resolve yet is accepted: each delivery checks it again.
 */
async function checkUrl(ctx: AppContext, url: string): Promise<void> {
  const invalid = (message: string) => badRequest('The webhook URL cannot be used.', [{ path: '/url', message }]);
  const problem = urlProblem(url, { allowHttp: ctx.config.webhookAllowHttp });
  if (problem) throw invalid(problem);
  if (ctx.config.webhookAllowPrivate) return;
  const { hostname } = new URL(url);
  const literal = literalAddress(hostname);
  const addresses = literal
    ? [literal]
    : await ctx.resolveHost(hostname).then(
        (found) => found.map((a) => a.address),
        () => [],
      );
  for (const address of addresses) {
    const reason = blockedReason(address);
    if (reason) throw invalid(`must not ${literal ? 'be' : 'resolve to'} a ${reason} address (${address})`);
  }
}

export async function list(ctx: AppContext, actor: Actor, workspaceId: string): Promise<Webhook[]> {
  requireWorkspaceAdmin(await workspaceAccess(ctx.db, actor, workspaceId));
  return (await repo.listEndpoints(ctx.db, workspaceId)).map(toWebhook);
}

/** Registers an endpoint and answers its signing secret, the only time it is shown. */
export async function create(ctx: AppContext, actor: Actor, workspaceId: string, input: CreateWebhookInput): Promise<CreatedWebhook> {
  requireWorkspaceAdmin(await workspaceAccess(ctx.db, actor, workspaceId));
  await checkUrl(ctx, input.url);
  const secret = `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
  const now = ctx.clock.now();
  const row = await repo.insertEndpointCapped(
    ctx.db,
    {
      id: newId(),
      workspaceId,
      url: input.url,
      events: input.events,
      format: input.format ?? 'standard',
      active: input.active ?? true,
      secretEncrypted: encryptSecret(ctx.shareKey, secret),
      createdByUserId: actor.user.id,
      createdAt: now,
      updatedAt: now,
    },
    MAX_ENDPOINTS_PER_WORKSPACE,
  );
  if (!row) throw notFound();
  if (row === 'full') throw conflict(`A workspace may have at most ${MAX_ENDPOINTS_PER_WORKSPACE} webhooks; delete one first.`);
  return { ...toWebhook(row), secret };
}

export async function get(ctx: AppContext, actor: Actor, id: string): Promise<Webhook> {
  return toWebhook(await webhookAccess(ctx.db, actor, id));
}

/** Changes the URL, events, format or active flag; the secret stays. Queued deliveries keep going to the endpoint. */
export async function patch(ctx: AppContext, actor: Actor, id: string, input: PatchWebhookInput): Promise<Webhook> {
  const endpoint = await webhookAccess(ctx.db, actor, id);
  if (input.url !== undefined) await checkUrl(ctx, input.url);
  const changes = {
    ...(input.url === undefined ? {} : { url: input.url }),
    ...(input.events === undefined ? {} : { events: input.events }),
    ...(input.format === undefined ? {} : { format: input.format }),
    ...(input.active === undefined ? {} : { active: input.active }),
  };
  if (Object.keys(changes).length === 0) return toWebhook(endpoint);
  const row = await repo.updateEndpoint(ctx.db, id, { ...changes, updatedAt: ctx.clock.now() });
  if (!row) throw notFound();
  return toWebhook(row);
}

/** Deletes the endpoint with its deliveries; those still queued are never sent. */
export async function remove(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  await webhookAccess(ctx.db, actor, id);
  await repo.deleteEndpoint(ctx.db, id);
}

export async function deliveries(ctx: AppContext, actor: Actor, id: string, page: Page): Promise<Paged<WebhookDelivery>> {
  await webhookAccess(ctx.db, actor, id);
  const { items, total } = await repo.listDeliveries(ctx.db, id, page);
  return { items: items.map(toDelivery), total };
}
