import { Type } from 'typebox';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams, problemResponses } from '../../http/schemas.js';
import { PAGED, PAGED_HEADERS, PageQuery, pageHeaders } from '../../http/paging.js';
import { pageOf } from '../../lib/paging.js';
import { actorOf } from '../auth/auth.js';
import * as service from './inbox.service.js';
import { InboxMessageSchema, InboxMessageWithContentSchema } from './inbox.schemas.js';

const tags = ['inbox'];

export const inboxRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.get(
    '/inbox',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        description: `The caller's messages, newest first. ${PAGED}`,
        querystring: PageQuery,
        ...PAGED_HEADERS,
        response: { 200: Type.Array(InboxMessageSchema, { description: 'Newest first.' }), ...problemResponses },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { items, total } = await service.list(ctx, actorOf(request), page);
      pageHeaders(reply, request, ctx.config.publicBaseUrl, page, items.length, total);
      return items;
    },
  );
  app.get(
    '/inbox/:id',
    {
      config: { scope: 'read' },
      schema: { tags, params: IdParams, response: { 200: InboxMessageWithContentSchema, ...problemResponses } },
    },
    async (request) => service.get(ctx, actorOf(request), request.params.id),
  );
  app.post(
    '/inbox/:id/read',
    { config: { scope: 'write' }, schema: { tags, params: IdParams, response: { 200: InboxMessageSchema, ...problemResponses } } },
    async (request) => service.markRead(ctx, actorOf(request), request.params.id),
  );
  done();
};
