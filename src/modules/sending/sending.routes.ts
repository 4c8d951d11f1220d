import { Type } from 'typebox';
import type { App, AppContext } from '../../http/types.js';
import { IdParams, problemResponses } from '../../http/schemas.js';
import { caller } from '../auth/auth.js';
import * as service from './sending.service.js';
import { RecipientCandidateSchema, SendBody, SendHistoryEntrySchema, SendResultSchema } from './sending.schemas.js';

const tags = ['sending'];

export function sendingRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/v1/reports/:id/recipients',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        params: IdParams,
        response: { 200: Type.Array(RecipientCandidateSchema, { description: 'Newest user first (then id, descending).' }), ...problemResponses },
      },
    },
    async (request) => service.recipients(ctx, caller(request), request.params.id),
  );
  app.post(
    '/api/v1/reports/:id/send',
    { config: { scope: 'write' }, schema: { tags, params: IdParams, body: SendBody, response: { 201: SendResultSchema, ...problemResponses } } },
    async (request, reply) => reply.code(201).send(await service.send(ctx, caller(request), request.params.id, request.body)),
  );
  app.get(
    '/api/v1/reports/:id/sends',
    {
      config: { scope: 'read' },
      schema: { tags, params: IdParams, response: { 200: Type.Array(SendHistoryEntrySchema, { description: 'Newest first.' }), ...problemResponses } },
    },
    async (request) => service.history(ctx, caller(request), request.params.id),
  );
}
