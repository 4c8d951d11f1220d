import { Type } from 'typebox';
import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams, NoContent } from '../../http/schemas.js';
import { actorOf, HEAVY_RATE_COST } from '../auth/auth.js';
import * as service from './templates.service.js';
import { PreviewSchema } from '../reports/reports.schemas.js';
import { CreateTemplateBody, ListTemplatesQuery, PatchTemplateBody, PreviewTemplateBody, TemplateSchema } from './templates.schemas.js';

const tags = ['templates'];

export const templateRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.route(
    route({
      method: 'GET',
      url: '/templates',
      scope: 'read',
      tags,
      operationId: 'listTemplates',
      summary: 'List templates',
      description: 'Any authenticated caller sees enabled templates; instance admins also see disabled ones.',
      querystring: ListTemplatesQuery,
      response: { 200: Type.Array(TemplateSchema, { description: 'Newest first (then id, descending).' }) },
      handler: async (request) => service.listTemplates(ctx, actorOf(request), request.query),
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/templates/:id',
      scope: 'read',
      tags,
      operationId: 'getTemplate',
      summary: 'Read a template',
      description: 'A disabled template answers 404 to anyone but instance admins.',
      params: IdParams,
      response: { 200: TemplateSchema },
      handler: async (request) => service.getTemplate(ctx, actorOf(request), request.params.id),
    }),
  );
  app.route(
    route({
      method: 'POST',
      url: '/templates',
      scope: 'write',
      rateCost: HEAVY_RATE_COST,
      tags,
      operationId: 'createTemplate',
      summary: 'Create a template',
      description: 'Instance admins only (403).',
      body: CreateTemplateBody,
      response: { 201: TemplateSchema },
      handler: async (request, reply) => reply.code(201).send(await service.createTemplate(ctx, actorOf(request), request.body)),
    }),
  );
  app.route(
    route({
      method: 'POST',
      url: '/templates/preview',
      scope: 'read',
      rateCost: HEAVY_RATE_COST,
      tags,
      operationId: 'previewTemplate',
      summary: 'Preview an unsaved template',
      description:
        'Renders a Liquid body (and its name and note templates) that is not stored, against filters, as POST /reports/preview renders a stored template: for editing a template before saving it. Instance admins only (403); read scope; stores nothing. The filters follow the report rules (workspaces the caller belongs to, their projects, a range of at most 366 days) and the render limits (429/503 with Retry-After). A Liquid syntax error is a 400 at /body, /nameTemplate or /noteTemplate naming the line and column; an error while rendering is a 400 at /body.',
      body: PreviewTemplateBody,
      response: { 200: PreviewSchema },
      handler: async (request) => service.previewTemplate(ctx, actorOf(request), request.body),
    }),
  );
  app.route(
    route({
      method: 'PATCH',
      url: '/templates/:id',
      scope: 'write',
      rateCost: HEAVY_RATE_COST,
      tags,
      operationId: 'updateTemplate',
      summary: 'Edit a template',
      description: 'Instance admins only (403). Built-in templates may only be enabled or disabled.',
      params: IdParams,
      body: PatchTemplateBody,
      response: { 200: TemplateSchema },
      handler: async (request) => service.patchTemplate(ctx, actorOf(request), request.params.id, request.body),
    }),
  );
  app.route(
    route({
      method: 'DELETE',
      url: '/templates/:id',
      scope: 'write',
      tags,
      operationId: 'deleteTemplate',
      summary: 'Delete a template',
      description: 'Instance admins only (403); a template used by reports is 409.',
      params: IdParams,
      response: { 204: NoContent },
      handler: async (request, reply) => {
        await service.deleteTemplate(ctx, actorOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    }),
  );
  done();
};
