import { Type } from 'typebox';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams, NoContent, problemResponses } from '../../http/schemas.js';
import { actorOf, HEAVY_RATE_COST } from '../auth/auth.js';
import * as service from './templates.service.js';
import { PreviewSchema } from '../reports/reports.schemas.js';
import { CreateTemplateBody, ListTemplatesQuery, PatchTemplateBody, PreviewTemplateBody, TemplateSchema } from './templates.schemas.js';

const tags = ['templates'];

export const templateRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.get(
    '/templates',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        querystring: ListTemplatesQuery,
        response: { 200: Type.Array(TemplateSchema, { description: 'Newest first (then id, descending).' }), ...problemResponses },
      },
    },
    async (request) => service.listTemplates(ctx, actorOf(request), request.query),
  );
  app.get(
    '/templates/:id',
    { config: { scope: 'read' }, schema: { tags, params: IdParams, response: { 200: TemplateSchema, ...problemResponses } } },
    async (request) => service.getTemplate(ctx, actorOf(request), request.params.id),
  );
  app.post(
    '/templates',
    {
      config: { scope: 'write', rateCost: HEAVY_RATE_COST },
      schema: { tags, body: CreateTemplateBody, response: { 201: TemplateSchema, ...problemResponses } },
    },
    async (request, reply) => reply.code(201).send(await service.createTemplate(ctx, actorOf(request), request.body)),
  );
  app.post(
    '/templates/preview',
    {
      config: { scope: 'read', rateCost: HEAVY_RATE_COST },
      schema: { tags, body: PreviewTemplateBody, response: { 200: PreviewSchema, ...problemResponses } },
    },
    async (request) => service.previewTemplate(ctx, actorOf(request), request.body),
  );
  app.patch(
    '/templates/:id',
    {
      config: { scope: 'write', rateCost: HEAVY_RATE_COST },
      schema: { tags, params: IdParams, body: PatchTemplateBody, response: { 200: TemplateSchema, ...problemResponses } },
    },
    async (request) => service.patchTemplate(ctx, actorOf(request), request.params.id, request.body),
  );
  app.delete(
    '/templates/:id',
    { config: { scope: 'write' }, schema: { tags, params: IdParams, response: { 204: NoContent, ...problemResponses } } },
    async (request, reply) => {
      await service.deleteTemplate(ctx, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
  done();
};
