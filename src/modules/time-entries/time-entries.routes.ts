import { Type } from 'typebox';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams, NoContent, ProblemSchema, problemResponses } from '../../http/schemas.js';
import { PAGED_HEADERS, pageHeaders } from '../../http/paging.js';
import { batchProblemHandler } from '../../http/problem.js';
import { actorOf } from '../auth/auth.js';
import * as service from './time-entries.service.js';
import {
  BATCH_BODY_LIMIT,
  CreateTimeEntriesBatchBody,
  CreateTimeEntryBody,
  DEFAULT_LIMIT,
  ListTimeEntriesQuery,
  MAX_BATCH,
  PatchTimeEntryBody,
  TimeEntriesBatchSchema,
  TimeEntrySchema,
} from './time-entries.schemas.js';

const tags = ['time entries'];

export const timeEntryRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.post(
    '/time-entries',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        description:
          'Logs one entry (docs/api.md "Time entries"). An entry that would give its user more than ENTRY_QUOTA_PER_USER ' +
          'entries in the workspace (default 100,000) is refused with 409.',
        body: CreateTimeEntryBody,
        response: { 201: TimeEntrySchema, ...problemResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createEntry(ctx, actorOf(request), request.body)),
  );
  app.post(
    '/time-entries/batch',
    {
      config: { scope: 'write' },
      bodyLimit: BATCH_BODY_LIMIT,
      errorHandler: batchProblemHandler('entries'),
      schema: {
        tags,
        operationId: 'createTimeEntriesBatch',
        summary: 'Log many time entries at once, all or nothing',
        description:
          `Up to ${MAX_BATCH} entries, each following the rules of POST /time-entries (any workspace member for ` +
          'their own time; an admin/owner for another member; a project of the workspace readable by the entry user). ' +
          'Stored in one statement: when any entry is refused, none is stored and the 400 lists every refused entry ' +
          'in `errors` as `{ path: "/entries/<index>/<field>", message, index }`. A workspace the caller may not see ' +
          `reads like one that does not exist. More than ${MAX_BATCH} entries: 400; a body over ${BATCH_BODY_LIMIT / 1024 / 1024} MiB: 413. ` +
          'A batch that would give a user more than ENTRY_QUOTA_PER_USER entries in a workspace: 409, and nothing is stored.',
        body: CreateTimeEntriesBatchBody,
        response: { 201: TimeEntriesBatchSchema, 413: ProblemSchema, ...problemResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createEntries(ctx, actorOf(request), request.body)),
  );
  app.get(
    '/time-entries',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        querystring: ListTimeEntriesQuery,
        ...PAGED_HEADERS,
        response: {
          200: Type.Array(TimeEntrySchema, {
            description:
              'Newest first; the X-Total-Count header gives the size of the filtered set before limit/offset, and Link the next page (rel="next").',
          }),
          ...problemResponses,
        },
      },
    },
    async (request, reply) => {
      const page = await service.listEntries(ctx, actorOf(request), request.query);
      const { limit = DEFAULT_LIMIT, offset = 0 } = request.query;
      pageHeaders(reply, request, ctx.config.publicBaseUrl, { limit, offset }, page.items.length, page.total);
      return page.items;
    },
  );
  app.patch(
    '/time-entries/:id',
    {
      config: { scope: 'write' },
      schema: { tags, params: IdParams, body: PatchTimeEntryBody, response: { 200: TimeEntrySchema, ...problemResponses } },
    },
    async (request) => service.patchEntry(ctx, actorOf(request), request.params.id, request.body),
  );
  app.delete(
    '/time-entries/:id',
    { config: { scope: 'write' }, schema: { tags, params: IdParams, response: { 204: NoContent, ...problemResponses } } },
    async (request, reply) => {
      await service.deleteEntry(ctx, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
  done();
};
