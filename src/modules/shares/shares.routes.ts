import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../http/types.js';
import { IdParams, OPTIONAL_BODY, problemResponses } from '../../http/schemas.js';
import { caller } from '../auth/auth.js';
import * as service from './shares.service.js';
import { MintShareBody, ShareSchema } from './shares.schemas.js';
import { viewerRoutes } from './viewer.routes.js';

const tags = ['shares'];

/**
 * "An empty body gives a no-passcode, no-expiry link" (reports-api.md 4.2): a POST without any
 * body reaches validation as undefined, which an object schema refuses, so it becomes `{}` first.
 */
async function emptyBodyIsEmptyObject(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}

const mintSchema = {
  tags,
  params: IdParams,
  body: MintShareBody,
  [OPTIONAL_BODY]: true,
  response: { 201: ShareSchema, ...problemResponses },
};
const listSchema = { tags, params: IdParams, response: { 200: Type.Array(ShareSchema, { description: 'Newest first.' }), ...problemResponses } };

export function shareRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/api/v1/reports/:id/shares',
    { config: { scope: 'write' }, preValidation: emptyBodyIsEmptyObject, schema: mintSchema },
    async (request, reply) => reply.code(201).send(await service.mintForReport(ctx, caller(request), request.params.id, request.body)),
  );
  app.get(
    '/api/v1/reports/:id/shares',
    { config: { scope: 'read' }, schema: listSchema },
    async (request) => service.listForReport(ctx, caller(request), request.params.id),
  );
  app.post(
    '/api/v1/inbox/:id/shares',
    { config: { scope: 'write' }, preValidation: emptyBodyIsEmptyObject, schema: mintSchema },
    async (request, reply) => reply.code(201).send(await service.mintForInbox(ctx, caller(request), request.params.id, request.body)),
  );
  app.get(
    '/api/v1/inbox/:id/shares',
    { config: { scope: 'read' }, schema: listSchema },
    async (request) => service.listForInbox(ctx, caller(request), request.params.id),
  );
  app.post(
    '/api/v1/report-shares/:id/revoke',
    { config: { scope: 'write' }, schema: { tags, params: IdParams, response: { 200: ShareSchema, ...problemResponses } } },
    async (request) => service.revoke(ctx, caller(request), request.params.id),
  );
  viewerRoutes(app, ctx);
}
