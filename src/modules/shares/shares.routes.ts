import { Type } from 'typebox';
import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams } from '../../http/schemas.js';
import { emptyBodyIsEmptyObject } from '../../http/json-body.js';
import { PAGED_HEADERS, PageQuery, pageHeaders } from '../../http/paging.js';
import { pageOf } from '../../lib/paging.js';
import { actorOf, HEAVY_RATE_COST } from '../auth/auth.js';
import { RECIPIENT_ONLY } from '../inbox/inbox.schemas.js';
import { OWNER_ONLY, REPORT_404 } from '../reports/reports.schemas.js';
import * as service from './shares.service.js';
import { MintShareBody, ShareSchema } from './shares.schemas.js';

const tags = ['shares'];

/** What minting a link takes and answers, for a report or a received report. */
const mint = {
  scope: 'write',
  rateCost: HEAVY_RATE_COST,
  secret: true,
  tags,
  params: IdParams,
  body: MintShareBody,
  // "An empty body gives a no-passcode, no-expiry link" (docs/api.md "Share links").
  optionalBody: true,
  preValidation: emptyBodyIsEmptyObject,
  response: { 201: ShareSchema },
} as const;

/** What listing the links takes and answers, for a report or a received report. */
const list = {
  scope: 'read',
  secret: true,
  tags,
  params: IdParams,
  querystring: PageQuery,
  responseHeaders: PAGED_HEADERS,
  response: { 200: Type.Array(ShareSchema, { description: 'Newest first.' }) },
} as const;

export const shareRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.route(
    route({
      ...mint,
      method: 'POST',
      url: '/reports/:id/shares',
      operationId: 'createReportShare',
      summary: 'Mint a share link for a report',
      description: `An empty body gives a link without passcode or expiry. ${OWNER_ONLY}`,
      handler: async (request, reply) =>
        reply.code(201).send(await service.mintForReport(ctx, actorOf(request), request.params.id, request.body)),
    }),
  );
  app.route(
    route({
      ...list,
      method: 'GET',
      url: '/reports/:id/shares',
      operationId: 'listReportShares',
      summary: "List a report's share links",
      description: `Readers of the report, newest first. ${REPORT_404}`,
      handler: async (request, reply) => {
        const page = pageOf(request.query);
        const { items, total } = await service.listForReport(ctx, actorOf(request), request.params.id, page);
        pageHeaders(reply, request, ctx.config.publicBaseUrl, page, items.length, total);
        return items;
      },
    }),
  );
  app.route(
    route({
      ...mint,
      method: 'POST',
      url: '/inbox/:id/shares',
      operationId: 'createInboxShare',
      summary: 'Mint a share link for a received report',
      description: RECIPIENT_ONLY,
      handler: async (request, reply) =>
        reply.code(201).send(await service.mintForInbox(ctx, actorOf(request), request.params.id, request.body)),
    }),
  );
  app.route(
    route({
      ...list,
      method: 'GET',
      url: '/inbox/:id/shares',
      operationId: 'listInboxShares',
      summary: "List a received report's share links",
      description: RECIPIENT_ONLY,
      handler: async (request, reply) => {
        const page = pageOf(request.query);
        const { items, total } = await service.listForInbox(ctx, actorOf(request), request.params.id, page);
        pageHeaders(reply, request, ctx.config.publicBaseUrl, page, items.length, total);
        return items;
      },
    }),
  );
  app.route(
    route({
      method: 'POST',
      url: '/report-shares/:id/revoke',
      scope: 'write',
      secret: true,
      tags,
      operationId: 'revokeShare',
      summary: 'Revoke a share link',
      description: 'Whoever minted the link (or may read the report it shares); a link the caller cannot see answers 404.',
      params: IdParams,
      response: { 200: ShareSchema },
      handler: async (request) => service.revoke(ctx, actorOf(request), request.params.id),
    }),
  );
  done();
};
