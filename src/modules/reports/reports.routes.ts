import { Type } from 'typebox';
import { responseHeaders } from '../../http/response-headers.js';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams, NoContent, ProblemSchema, problemResponses } from '../../http/schemas.js';
import { PAGED_HEADERS, pageHeaders } from '../../http/paging.js';
import { actorOf, HEAVY_RATE_COST } from '../auth/auth.js';
import * as service from './reports.service.js';
import { IfMatchHeaders, ListQuery, PreviewSchema, ReportBody, ReportSchema, ReportSummarySchema } from './reports.schemas.js';

const tags = ['reports'];

export const reportRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.get(
    '/reports',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        querystring: ListQuery,
        ...PAGED_HEADERS,
        response: {
          200: Type.Array(ReportSummarySchema, { description: 'Newest first; X-Total-Count carries the filtered total.' }),
          ...problemResponses,
        },
      },
    },
    async (request, reply) => {
      const { items, total } = await service.list(ctx, actorOf(request), request.query);
      // Without a limit the whole filtered set is the answer (docs/api.md "Reports"): no next page.
      const { limit = total, offset = 0 } = request.query;
      pageHeaders(reply, request, ctx.config.publicBaseUrl, { limit, offset }, items.length, total);
      return reply.send(items);
    },
  );
  app.get(
    '/reports/template-ids',
    { config: { scope: 'read' }, schema: { tags, response: { 200: Type.Array(Type.String()), ...problemResponses } } },
    async (request) => service.templateIds(ctx, actorOf(request)),
  );
  app.post(
    '/reports/preview',
    {
      config: { scope: 'read', rateCost: HEAVY_RATE_COST },
      schema: { tags, body: ReportBody, response: { 200: PreviewSchema, ...problemResponses } },
    },
    async (request) => service.preview(ctx, actorOf(request), request.body),
  );
  app.post(
    '/reports',
    {
      config: { scope: 'write', rateCost: HEAVY_RATE_COST },
      schema: { tags, body: ReportBody, ...responseHeaders({ 201: ['ETag'] }), response: { 201: ReportSchema, ...problemResponses } },
    },
    async (request, reply) => {
      const report = await service.create(ctx, actorOf(request), request.body);
      return reply.code(201).header('ETag', service.versionTag(report.version)).send(report);
    },
  );
  app.get(
    '/reports/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        description: 'ETag names the current version; send it back in If-Match on PATCH to refuse an edit of a version you have not seen.',
        params: IdParams,
        ...responseHeaders({ 200: ['ETag'] }),
        response: { 200: ReportSchema, ...problemResponses },
      },
    },
    async (request, reply) => {
      const report = await service.get(ctx, actorOf(request), request.params.id);
      return reply.header('ETag', service.versionTag(report.version)).send(report);
    },
  );
  app.patch(
    '/reports/:id',
    {
      config: { scope: 'write', rateCost: HEAVY_RATE_COST },
      schema: {
        tags,
        description:
          'Every valid edit by the owner succeeds and gets its own version, however many arrive at once. ' +
          'With If-Match (the ETag of GET), an edit of any other version than the one named is refused with 412.',
        params: IdParams,
        headers: IfMatchHeaders,
        body: ReportBody,
        ...responseHeaders({ 200: ['ETag'] }),
        response: { 200: ReportSchema, ...problemResponses, 412: ProblemSchema },
      },
    },
    async (request, reply) => {
      const report = await service.update(ctx, actorOf(request), request.params.id, request.body, request.headers['if-match']);
      return reply.header('ETag', service.versionTag(report.version)).send(report);
    },
  );
  app.delete(
    '/reports/:id',
    { config: { scope: 'write' }, schema: { tags, params: IdParams, response: { 204: NoContent, ...problemResponses } } },
    async (request, reply) => {
      await service.remove(ctx, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
  done();
};
