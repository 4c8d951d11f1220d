import { Type } from 'typebox';
import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams, NoContent } from '../../http/schemas.js';
import { PAGED, PAGED_HEADERS, PageQuery, pageHeaders } from '../../http/paging.js';
import { pageOf } from '../../lib/paging.js';
import { actorOf } from '../auth/auth.js';
import { NOT_MEMBER } from '../workspaces/workspaces.schemas.js';
import * as service from './webhooks.service.js';
import {
  CreatedWebhookSchema,
  CreateWebhookBody,
  MAX_ENDPOINTS_PER_WORKSPACE,
  PatchWebhookBody,
  WebhookDeliverySchema,
  WebhookSchema,
} from './webhooks.schemas.js';

const tags = ['webhooks'];
const ADMINS = 'Workspace admins and owners, and instance admins (403 for plain members).';
const NOT_MEMBER_OF_WEBHOOK = 'A webhook of a workspace the caller is not a member of answers 404, as if it did not exist.';
const URL_RULES =
  'The URL must be https (http only when the server sets WEBHOOK_ALLOW_HTTP=true), carry no credentials, and not be or resolve to a ' +
  'loopback, private or link-local address (400) unless the server sets WEBHOOK_ALLOW_PRIVATE=true.';

export const webhookRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.route(
    route({
      method: 'GET',
      url: '/workspaces/:id/webhooks',
      scope: 'read',
      tags,
      operationId: 'listWebhooks',
      summary: "List a workspace's webhooks",
      description: `${ADMINS} Oldest first; secrets are never shown. ${NOT_MEMBER}`,
      params: IdParams,
      response: { 200: Type.Array(WebhookSchema) },
      handler: async (request) => service.list(ctx, actorOf(request), request.params.id),
    }),
  );
  app.route(
    route({
      method: 'POST',
      url: '/workspaces/:id/webhooks',
      scope: 'write',
      secret: true,
      tags,
      operationId: 'createWebhook',
      summary: 'Register a webhook',
      description:
        `${ADMINS} Answers the endpoint with its signing secret, shown this once. ${URL_RULES} ` +
        `A workspace has at most ${MAX_ENDPOINTS_PER_WORKSPACE} webhooks (409). ${NOT_MEMBER}`,
      params: IdParams,
      body: CreateWebhookBody,
      response: { 201: CreatedWebhookSchema },
      problems: [409],
      handler: async (request, reply) => reply.code(201).send(await service.create(ctx, actorOf(request), request.params.id, request.body)),
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/webhooks/:id',
      scope: 'read',
      tags,
      operationId: 'getWebhook',
      summary: 'A webhook',
      description: `${ADMINS} The secret is never shown again. ${NOT_MEMBER_OF_WEBHOOK}`,
      params: IdParams,
      response: { 200: WebhookSchema },
      handler: async (request) => service.get(ctx, actorOf(request), request.params.id),
    }),
  );
  app.route(
    route({
      method: 'PATCH',
      url: '/webhooks/:id',
      scope: 'write',
      tags,
      operationId: 'updateWebhook',
      summary: 'Change a webhook',
      description: `${ADMINS} Changes its URL, events, format or active flag; the secret stays. ${URL_RULES} ${NOT_MEMBER_OF_WEBHOOK}`,
      params: IdParams,
      body: PatchWebhookBody,
      response: { 200: WebhookSchema },
      handler: async (request) => service.patch(ctx, actorOf(request), request.params.id, request.body),
    }),
  );
  app.route(
    route({
      method: 'DELETE',
      url: '/webhooks/:id',
      scope: 'write',
      tags,
      operationId: 'deleteWebhook',
      summary: 'Delete a webhook',
      description: `${ADMINS} Deletes it with its deliveries; those still waiting are never sent. ${NOT_MEMBER_OF_WEBHOOK}`,
      params: IdParams,
      response: { 204: NoContent },
      handler: async (request, reply) => {
        await service.remove(ctx, actorOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/webhooks/:id/deliveries',
      scope: 'read',
      tags,
      operationId: 'listWebhookDeliveries',
      summary: "A webhook's deliveries",
      description: `${ADMINS} Newest first, each with its status, attempts and the last response's status. ${PAGED} ${NOT_MEMBER_OF_WEBHOOK}`,
      params: IdParams,
      querystring: PageQuery,
      responseHeaders: PAGED_HEADERS,
      response: { 200: Type.Array(WebhookDeliverySchema, { description: 'Newest first.' }) },
      handler: async (request, reply) => {
        const page = pageOf(request.query);
        const { items, total } = await service.deliveries(ctx, actorOf(request), request.params.id, page);
        pageHeaders(reply, request, ctx.config.publicBaseUrl, page, items.length, total);
        return items;
      },
    }),
  );
  done();
};
