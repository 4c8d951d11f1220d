import { Type } from 'typebox';
import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams, NoContent } from '../../http/schemas.js';
import { PAGED_HEADERS, pageHeaders } from '../../http/paging.js';
import { actorOf, callerOf, HEAVY_RATE_COST } from '../auth/auth.js';
import * as service from './reports.service.js';
import {
  IfMatchHeaders,
  ListQuery,
  OWNER_ONLY,
  PreviewSchema,
  REPORT_404,
  ReportBody,
  ReportSchema,
  ReportSummarySchema,
} from './reports.schemas.js';

const tags = ['reports'];

export const reportRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.route(
    route({
      method: 'GET',
      url: '/reports',
      scope: 'read',
      tags,
      operationId: 'listReports',
      summary: 'List reports',
      description:
        "The caller's own reports; ownerUserId (instance admins) or workspaceId (that workspace's admins) list others. limit 1-200 and offset page; the total is in X-Total-Count.",
      querystring: ListQuery,
      responseHeaders: PAGED_HEADERS,
      response: { 200: Type.Array(ReportSummarySchema, { description: 'Newest first; X-Total-Count carries the filtered total.' }) },
      handler: async (request, reply) => {
        const { items, total } = await service.list(ctx, actorOf(request), request.query);
        // Without a limit the whole filtered set is the answer (docs/api.md "Reports"): no next page.
        const { limit = total, offset = 0 } = request.query;
        pageHeaders(reply, request, ctx.config.publicBaseUrl, { limit, offset }, items.length, total);
        return reply.send(items);
      },
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/reports/template-ids',
      scope: 'read',
      tags,
      operationId: 'listReportTemplateIds',
      summary: 'Template ids in use',
      description: "The template ids of the caller's reports.",
      response: { 200: Type.Array(Type.String()) },
      handler: async (request) => service.templateIds(ctx, actorOf(request)),
    }),
  );
  app.route(
    route({
      method: 'POST',
      url: '/reports/preview',
      scope: 'read',
      rateCost: HEAVY_RATE_COST,
      tags,
      operationId: 'previewReport',
      summary: 'Preview a report',
      description: 'Renders what POST /reports would freeze, without storing it. Same access and limits as createReport.',
      body: ReportBody,
      response: { 200: PreviewSchema },
      handler: async (request) => service.preview(ctx, actorOf(request), request.body),
    }),
  );
  app.route(
    route({
      method: 'POST',
      url: '/reports',
      scope: 'write',
      rateCost: HEAVY_RATE_COST,
      tags,
      operationId: 'createReport',
      summary: 'Create a report',
      description:
        'Any member of every filtered workspace (1-20 workspaces, up to 50 projects and users, a date range of at most 366 days). A workspace the caller is not a member of answers 404.',
      body: ReportBody,
      responseHeaders: { 201: ['ETag'] },
      response: { 201: ReportSchema },
      handler: async (request, reply) => {
        const report = await service.create(ctx, actorOf(request), request.body);
        return reply.code(201).header('ETag', service.versionTag(report.version)).send(report);
      },
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/reports/:id',
      scope: 'read',
      tags,
      operationId: 'getReport',
      conditional: true,
      credentialInRead: true,
      summary: 'Read a report',
      description: `The owner, instance admins, and admins of the report's workspaces. ${REPORT_404}`,
      params: IdParams,
      responseHeaders: { 200: ['ETag'] },
      response: { 200: ReportSchema },
      handler: async (request, reply) => {
        const report = await service.get(ctx, callerOf(request), request.params.id);
        return reply.header('ETag', service.versionTag(report.version)).send(report);
      },
    }),
  );
  app.route(
    route({
      method: 'PATCH',
      url: '/reports/:id',
      scope: 'write',
      rateCost: HEAVY_RATE_COST,
      tags,
      operationId: 'updateReport',
      summary: 'Edit a report (full replacement)',
      description: `A full replacement: every field is sent, and an absent note clears it. Each valid edit makes a new version; If-Match with a stale version is 412. ${OWNER_ONLY}`,
      params: IdParams,
      headers: IfMatchHeaders,
      body: ReportBody,
      responseHeaders: { 200: ['ETag'] },
      response: { 200: ReportSchema },
      problems: [412],
      handler: async (request, reply) => {
        const report = await service.update(ctx, actorOf(request), request.params.id, request.body, request.headers['if-match']);
        return reply.header('ETag', service.versionTag(report.version)).send(report);
      },
    }),
  );
  app.route(
    route({
      method: 'DELETE',
      url: '/reports/:id',
      scope: 'write',
      tags,
      operationId: 'deleteReport',
      summary: 'Delete a report',
      description: `The owner, even after leaving a workspace. ${REPORT_404}`,
      params: IdParams,
      response: { 204: NoContent },
      handler: async (request, reply) => {
        await service.remove(ctx, actorOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    }),
  );
  done();
};
