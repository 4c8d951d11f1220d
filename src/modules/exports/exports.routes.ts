import { Type } from 'typebox';
import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams } from '../../http/schemas.js';
import { actorOf, HEAVY_RATE_COST } from '../auth/auth.js';
import { EXPORT_FORMATS, exportVersion } from './exports.service.js';

const tags = ['history'];

/** A file's bytes: a string of format `binary` in the API reference. */
const Binary = Type.Unsafe<Buffer>({ type: 'string', format: 'binary' });

export const ExportQuery = Type.Object(
  {
    format: Type.Union(
      EXPORT_FORMATS.map((f) => Type.Literal(f)),
      {
        description: "The file to make: `csv` and `xlsx` from the version's stored rows, `md` and `json` as the version read serves them.",
      },
    ),
  },
  { additionalProperties: false },
);

export const exportRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.route(
    route({
      method: 'GET',
      url: '/report-contents/:id/export',
      scope: 'read',
      // A file is made in a render worker, like a render: it costs as much and passes the same gate.
      rateCost: HEAVY_RATE_COST,
      tags,
      operationId: 'exportReportContent',
      summary: 'One version of a report as a file: CSV, XLSX, Markdown or JSON.',
      description:
        'An attachment named after the report as the version recorded it, its period and its version ' +
        '(`Acme November timesheet 2026-11-01–2026-11-30 v3.csv`). CSV and XLSX are made from the rows the version was ' +
        'rendered from, stored with it (docs/exports.md), never from live entries: the same version always gives the same ' +
        'file. A version rendered before rows were kept answers 409 for those two. Readable by whoever may read the version ' +
        "(the report's readers and the version's recipients); anyone else gets 404. Files are made in a render worker as " +
        `one of the caller's renders: ${HEAVY_RATE_COST} request units plus one per 4 KiB handled; a caller with all their ` +
        'render slots busy and waiting gets 429 with Retry-After.',
      params: IdParams,
      querystring: ExportQuery,
      responseHeaders: { 200: ['Content-Disposition', 'X-Content-Type-Options'] },
      response: {
        200: {
          description: 'The file, as an attachment.',
          content: {
            'text/csv': { schema: Type.String() },
            'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: Binary },
            'text/markdown': { schema: Type.String() },
            'application/json': { schema: Type.String() },
          },
        },
      },
      handler: async (request, reply) => {
        const file = await exportVersion(ctx, actorOf(request), request.params.id, request.query.format);
        return reply
          .type(file.contentType)
          .header('content-disposition', file.disposition)
          .header('x-content-type-options', 'nosniff')
          .send(typeof file.body === 'string' ? file.body : Buffer.from(file.body.buffer, file.body.byteOffset, file.body.byteLength));
      },
    }),
  );
  done();
};
