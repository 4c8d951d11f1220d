import { Type } from 'typebox';
import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams } from '../../http/schemas.js';
import { PAGED_HEADERS, PageQuery, pageHeaders } from '../../http/paging.js';
import { pageOf } from '../../lib/paging.js';
import { actorOf } from '../auth/auth.js';
import { OWNER_ONLY, REPORT_404 } from '../reports/reports.schemas.js';
import * as service from './sending.service.js';
import { RecipientCandidateSchema, SendBody, SendHistoryEntrySchema, SendResultSchema } from './sending.schemas.js';

const tags = ['sending'];

export const sendingRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.route(
    route({
      method: 'GET',
      url: '/reports/:id/recipients',
      scope: 'read',
      tags,
      operationId: 'listReportRecipients',
      summary: 'Recipient candidates',
      description: `Who may receive the current version, and why others may not. ${OWNER_ONLY}`,
      params: IdParams,
      response: { 200: Type.Array(RecipientCandidateSchema, { description: 'Newest user first (then id, descending).' }) },
      handler: async (request) => service.recipients(ctx, actorOf(request), request.params.id),
    }),
  );
  app.route(
    route({
      method: 'POST',
      url: '/reports/:id/send',
      scope: 'write',
      tags,
      operationId: 'sendReport',
      summary: 'Send a report',
      description: `Puts the current version in each recipient's inbox; a refused recipient is 400 naming why (see listReportRecipients). ${OWNER_ONLY}`,
      params: IdParams,
      body: SendBody,
      response: { 201: SendResultSchema },
      handler: async (request, reply) => reply.code(201).send(await service.send(ctx, actorOf(request), request.params.id, request.body)),
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/reports/:id/sends',
      scope: 'read',
      tags,
      operationId: 'listReportSends',
      summary: 'Send history',
      description: `Readers of the report. ${REPORT_404}`,
      params: IdParams,
      querystring: PageQuery,
      responseHeaders: PAGED_HEADERS,
      response: { 200: Type.Array(SendHistoryEntrySchema, { description: 'Newest first.' }) },
      handler: async (request, reply) => {
        const page = pageOf(request.query);
        const { items, total } = await service.history(ctx, actorOf(request), request.params.id, page);
        pageHeaders(reply, request, ctx.config.publicBaseUrl, page, items.length, total);
        return items;
      },
    }),
  );
  done();
};
