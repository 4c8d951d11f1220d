import { Type } from 'typebox';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams, problemResponses } from '../../http/schemas.js';
import { PAGED, PAGED_HEADERS, PageQuery, pageHeaders } from '../../http/paging.js';
import { pageOf } from '../../lib/paging.js';
import { actorOf } from '../auth/auth.js';
import * as service from './sending.service.js';
import { RecipientCandidateSchema, SendBody, SendHistoryEntrySchema, SendResultSchema } from './sending.schemas.js';

const tags = ['sending'];

export const sendingRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.get(
    '/reports/:id/recipients',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        params: IdParams,
        response: {
          200: Type.Array(RecipientCandidateSchema, { description: 'Newest user first (then id, descending).' }),
          ...problemResponses,
        },
      },
    },
    async (request) => service.recipients(ctx, actorOf(request), request.params.id),
  );
  app.post(
    '/reports/:id/send',
    {
      config: { scope: 'write' },
      schema: { tags, params: IdParams, body: SendBody, response: { 201: SendResultSchema, ...problemResponses } },
    },
    async (request, reply) => reply.code(201).send(await service.send(ctx, actorOf(request), request.params.id, request.body)),
  );
  app.get(
    '/reports/:id/sends',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        description: `The report's send batches, newest first. ${PAGED}`,
        params: IdParams,
        querystring: PageQuery,
        ...PAGED_HEADERS,
        response: { 200: Type.Array(SendHistoryEntrySchema, { description: 'Newest first.' }), ...problemResponses },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { items, total } = await service.history(ctx, actorOf(request), request.params.id, page);
      pageHeaders(reply, request, ctx.config.publicBaseUrl, page, items.length, total);
      return items;
    },
  );
  done();
};
