import Negotiator from 'negotiator';
import { Type } from 'typebox';
import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams } from '../../http/schemas.js';
import { PAGED, PAGED_HEADERS, PageQuery, pageHeaders } from '../../http/paging.js';
import { pageOf } from '../../lib/paging.js';
import { actorOf, callerOf, HEAVY_RATE_COST } from '../auth/auth.js';
import * as service from './history.service.js';
import { MAX_DIFF_BYTES, MAX_DIFF_EDITS } from './version-diff.js';
import { DiffQuery, ReportContentSchema, VersionDiffSchema, VersionSchema } from './history.schemas.js';

const tags = ['history'];

const JSON_TYPE = 'application/json';
const MARKDOWN_TYPE = 'text/markdown';

export const historyRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.route(
    route({
      method: 'GET',
      url: '/reports/:id/versions',
      scope: 'read',
      tags,
      operationId: 'listReportVersions',
      summary: "A report's versions, newest first.",
      description:
        'The immutable content versions of the report, newest first, with their totals, template, filters and whether each was sent. ' +
        `${PAGED} ` +
        'Readable by whoever may read the report (its owner with current membership, instance admins, an admin/owner of a ' +
        "single-workspace report's workspace); anyone else gets 404, as for a report that does not exist.",
      params: IdParams,
      querystring: PageQuery,
      responseHeaders: PAGED_HEADERS,
      response: { 200: Type.Array(VersionSchema) },
      handler: async (request, reply) => {
        const page = pageOf(request.query);
        const { items, total } = await service.listVersions(ctx, actorOf(request), request.params.id, page);
        pageHeaders(reply, request, ctx.config.publicBaseUrl, page, items.length, total);
        return items;
      },
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/report-contents/:id',
      scope: 'read',
      tags,
      operationId: 'getReportContent',
      conditional: true,
      credentialInRead: true,
      summary: 'One version of a report, as JSON or as its Markdown document.',
      description:
        'The version with its rendered Markdown and its summary (minutes by project, user, tag and day). With ' +
        '`Accept: text/markdown` the answer is the raw document as a download, named after the report and the version. ' +
        "Readable by the report's readers and by that version's recipients (a self-copy included); anyone else gets 404.",
      params: IdParams,
      responseHeaders: { 200: ['Vary', 'Content-Disposition', 'X-Content-Type-Options'] },
      response: {
        200: {
          description: 'The version (JSON), or its Markdown document (text/markdown, as an attachment).',
          content: {
            [JSON_TYPE]: { schema: ReportContentSchema },
            [MARKDOWN_TYPE]: { schema: Type.String() },
          },
        },
      },
      handler: async (request, reply) => {
        const content = await service.getVersion(ctx, callerOf(request), request.params.id);
        void reply.header('vary', 'Accept');
        if (new Negotiator(request.raw).mediaType([JSON_TYPE, MARKDOWN_TYPE]) === MARKDOWN_TYPE) {
          return reply
            .type(`${MARKDOWN_TYPE}; charset=utf-8`)
            .header('content-disposition', service.downloadDisposition(content))
            .header('x-content-type-options', 'nosniff')
            .send(content.renderedMarkdown);
        }
        return reply.type(`${JSON_TYPE}; charset=utf-8`).send(content);
      },
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/reports/:id/diff',
      scope: 'read',
      // A line diff is work like a render: it costs as much and passes the same gate.
      rateCost: HEAVY_RATE_COST,
      tags,
      operationId: 'diffReportVersions',
      summary: 'What changed between two versions of a report.',
      description:
        'The change in total minutes (overall, and by project, user, tag and day: added, removed, changed), in period, ' +
        'template and filters, and a unified line diff of the Markdown bodies (front matter excluded). `from` and `to` are ' +
        "content version ids of this report, in either order. Readable by the report's readers and by anyone who received " +
        "both versions; everyone else, and a version that is not one of the report's, gets 404. The line diff is null, and " +
        '`markdownDiffOmitted` says why, when the two documents together exceed ' +
        `${MAX_DIFF_BYTES / 1024 / 1024} MiB (\`too-large\`), or the bodies differ in more than ${MAX_DIFF_EDITS.toLocaleString('en-US')} ` +
        'lines or the diff takes more than a second (`too-many-edits`); the totals and filters still answer. The line diff runs ' +
        `in a render worker as one of the caller's renders: it costs ${HEAVY_RATE_COST} request units, like a render, and a ` +
        'caller with all their render slots busy and waiting gets 429 with Retry-After (docs/operations.md "Resource limits").',
      params: IdParams,
      querystring: DiffQuery,
      response: { 200: VersionDiffSchema },
      handler: async (request) => service.diff(ctx, actorOf(request), request.params.id, request.query.from, request.query.to),
    }),
  );
  done();
};
