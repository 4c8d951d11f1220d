import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams, OPTIONAL_BODY, problemResponses } from '../../http/schemas.js';
import { PAGED, PAGED_HEADERS, PageQuery, pageHeaders } from '../../http/paging.js';
import { pageOf } from '../../lib/paging.js';
import { actorOf, HEAVY_RATE_COST } from '../auth/auth.js';
import * as service from './shares.service.js';
import { MintShareBody, ShareSchema } from './shares.schemas.js';

const tags = ['shares'];

/**
 * "An empty body gives a no-passcode, no-expiry link" (docs/api.md "Share links"): a POST without any
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
const listSchema = {
  tags,
  description: `Newest first. ${PAGED}`,
  params: IdParams,
  querystring: PageQuery,
  ...PAGED_HEADERS,
  response: { 200: Type.Array(ShareSchema, { description: 'Newest first.' }), ...problemResponses },
};

export const shareRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.post(
    '/reports/:id/shares',
    { config: { scope: 'write', rateCost: HEAVY_RATE_COST, secret: true }, preValidation: emptyBodyIsEmptyObject, schema: mintSchema },
    async (request, reply) => reply.code(201).send(await service.mintForReport(ctx, actorOf(request), request.params.id, request.body)),
  );
  app.get('/reports/:id/shares', { config: { scope: 'read', secret: true }, schema: listSchema }, async (request, reply) => {
    const page = pageOf(request.query);
    const { items, total } = await service.listForReport(ctx, actorOf(request), request.params.id, page);
    pageHeaders(reply, request, ctx.config.publicBaseUrl, page, items.length, total);
    return items;
  });
  app.post(
    '/inbox/:id/shares',
    { config: { scope: 'write', rateCost: HEAVY_RATE_COST, secret: true }, preValidation: emptyBodyIsEmptyObject, schema: mintSchema },
    async (request, reply) => reply.code(201).send(await service.mintForInbox(ctx, actorOf(request), request.params.id, request.body)),
  );
  app.get('/inbox/:id/shares', { config: { scope: 'read', secret: true }, schema: listSchema }, async (request, reply) => {
    const page = pageOf(request.query);
    const { items, total } = await service.listForInbox(ctx, actorOf(request), request.params.id, page);
    pageHeaders(reply, request, ctx.config.publicBaseUrl, page, items.length, total);
    return items;
  });
  app.post(
    '/report-shares/:id/revoke',
    { config: { scope: 'write', secret: true }, schema: { tags, params: IdParams, response: { 200: ShareSchema, ...problemResponses } } },
    async (request) => service.revoke(ctx, actorOf(request), request.params.id),
  );
  done();
};
