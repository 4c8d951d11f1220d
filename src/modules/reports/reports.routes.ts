import { Type } from 'typebox';
import type { App, AppContext } from '../../http/types.js';
import { IdParams, NoContent, problemResponses } from '../../http/schemas.js';
import { caller } from '../auth/auth.js';
import * as service from './reports.service.js';
import { ListQuery, PreviewSchema, ReportBody, ReportSchema, ReportSummarySchema } from './reports.schemas.js';

const tags = ['reports'];

export function reportRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/v1/reports',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        querystring: ListQuery,
        response: {
          200: Type.Array(ReportSummarySchema, { description: 'Newest first; X-Total-Count carries the filtered total.' }),
          ...problemResponses,
        },
      },
    },
    async (request, reply) => {
      const { items, total } = await service.list(ctx, caller(request), request.query);
      return reply.header('X-Total-Count', String(total)).send(items);
    },
  );
  app.get(
    '/api/v1/reports/template-ids',
    { config: { scope: 'read' }, schema: { tags, response: { 200: Type.Array(Type.String()), ...problemResponses } } },
    async (request) => service.templateIds(ctx, caller(request)),
  );
  app.post(
    '/api/v1/reports/preview',
    { config: { scope: 'read' }, schema: { tags, body: ReportBody, response: { 200: PreviewSchema, ...problemResponses } } },
    async (request) => service.preview(ctx, caller(request), request.body),
  );
  app.post(
    '/api/v1/reports',
    { config: { scope: 'write' }, schema: { tags, body: ReportBody, response: { 201: ReportSchema, ...problemResponses } } },
    async (request, reply) => reply.code(201).send(await service.create(ctx, caller(request), request.body)),
  );
  app.get(
    '/api/v1/reports/:id',
    { config: { scope: 'read' }, schema: { tags, params: IdParams, response: { 200: ReportSchema, ...problemResponses } } },
    async (request) => service.get(ctx, caller(request), request.params.id),
  );
  app.patch(
    '/api/v1/reports/:id',
    { config: { scope: 'write' }, schema: { tags, params: IdParams, body: ReportBody, response: { 200: ReportSchema, ...problemResponses } } },
    async (request) => service.update(ctx, caller(request), request.params.id, request.body),
  );
  app.delete(
    '/api/v1/reports/:id',
    { config: { scope: 'write' }, schema: { tags, params: IdParams, response: { 204: NoContent, ...problemResponses } } },
    async (request, reply) => {
      await service.remove(ctx, caller(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
