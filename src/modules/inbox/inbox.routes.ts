import { Type } from 'typebox';
import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams } from '../../http/schemas.js';
import { PAGED_HEADERS, PageQuery, pageHeaders } from '../../http/paging.js';
import { pageOf } from '../../lib/paging.js';
import { actorOf } from '../auth/auth.js';
import * as service from './inbox.service.js';
import { InboxMessageSchema, InboxMessageWithContentSchema, RECIPIENT_ONLY } from './inbox.schemas.js';

const tags = ['inbox'];

export const inboxRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.route(
    route({
      method: 'GET',
      url: '/inbox',
      scope: 'read',
      tags,
      operationId: 'listInbox',
      summary: 'List the inbox',
      description: "The caller's received reports, newest first.",
      querystring: PageQuery,
      responseHeaders: PAGED_HEADERS,
      response: { 200: Type.Array(InboxMessageSchema, { description: 'Newest first.' }) },
      handler: async (request, reply) => {
        const page = pageOf(request.query);
        const { items, total } = await service.list(ctx, actorOf(request), page);
        pageHeaders(reply, request, ctx.config.publicBaseUrl, page, items.length, total);
        return items;
      },
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/inbox/:id',
      scope: 'read',
      tags,
      operationId: 'getInboxMessage',
      summary: 'Read an inbox message',
      description: RECIPIENT_ONLY,
      params: IdParams,
      response: { 200: InboxMessageWithContentSchema },
      handler: async (request) => service.get(ctx, actorOf(request), request.params.id),
    }),
  );
  app.route(
    route({
      method: 'POST',
      url: '/inbox/:id/read',
      scope: 'write',
      tags,
      operationId: 'markInboxMessageRead',
      summary: 'Mark a message read',
      description: RECIPIENT_ONLY,
      params: IdParams,
      response: { 200: InboxMessageSchema },
      handler: async (request) => service.markRead(ctx, actorOf(request), request.params.id),
    }),
  );
  done();
};
