import { Type } from 'typebox';
import type { App, AppContext } from '../../http/types.js';
import { IdParams, NoContent, problemResponses } from '../../http/schemas.js';
import { caller } from '../auth/auth.js';
import * as service from './templates.service.js';
import { CreateTemplateBody, ListTemplatesQuery, PatchTemplateBody, TemplateSchema } from './templates.schemas.js';

const tags = ['templates'];

export function templateRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/v1/templates',
    {
      config: { scope: 'read' },
      schema: { tags, querystring: ListTemplatesQuery, response: { 200: Type.Array(TemplateSchema, { description: 'Newest first (then id, descending).' }), ...problemResponses } },
    },
    async (request) => service.listTemplates(ctx, caller(request), request.query),
  );
  app.get(
    '/api/v1/templates/:id',
    { config: { scope: 'read' }, schema: { tags, params: IdParams, response: { 200: TemplateSchema, ...problemResponses } } },
    async (request) => service.getTemplate(ctx, caller(request), request.params.id),
  );
  app.post(
    '/api/v1/templates',
    { config: { scope: 'write' }, schema: { tags, body: CreateTemplateBody, response: { 201: TemplateSchema, ...problemResponses } } },
    async (request, reply) => reply.code(201).send(await service.createTemplate(ctx, caller(request), request.body)),
  );
  app.patch(
    '/api/v1/templates/:id',
    { config: { scope: 'write' }, schema: { tags, params: IdParams, body: PatchTemplateBody, response: { 200: TemplateSchema, ...problemResponses } } },
    async (request) => service.patchTemplate(ctx, caller(request), request.params.id, request.body),
  );
  app.delete(
    '/api/v1/templates/:id',
    { config: { scope: 'write' }, schema: { tags, params: IdParams, response: { 204: NoContent, ...problemResponses } } },
    async (request, reply) => {
      await service.deleteTemplate(ctx, caller(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
