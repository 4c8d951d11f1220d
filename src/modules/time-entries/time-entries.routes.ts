import { Type } from 'typebox';
import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams, NoContent } from '../../http/schemas.js';
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
  app.route(
    route({
      method: 'POST',
      url: '/time-entries',
      scope: 'write',
      tags,
      operationId: 'createTimeEntry',
      summary: 'Record time',
      description:
        'Members of the workspace, for themselves; for someone else a workspace admin. The project must belong to the workspace (400).',
      body: CreateTimeEntryBody,
      response: { 201: TimeEntrySchema },
      handler: async (request, reply) => reply.code(201).send(await service.createEntry(ctx, actorOf(request), request.body)),
    }),
  );
  app.route(
    route({
      method: 'POST',
      url: '/time-entries/batch',
      scope: 'write',
      bodyLimit: BATCH_BODY_LIMIT,
      errorHandler: batchProblemHandler('entries'),
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
      response: { 201: TimeEntriesBatchSchema },
      problems: [413],
      handler: async (request, reply) => reply.code(201).send(await service.createEntries(ctx, actorOf(request), request.body)),
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/time-entries',
      scope: 'read',
      tags,
      operationId: 'listTimeEntries',
      summary: 'List time entries',
      description:
        "Entries the caller may read: their own, their projects' and, for workspace admins, all of the workspace. The total is in X-Total-Count.",
      querystring: ListTimeEntriesQuery,
      responseHeaders: PAGED_HEADERS,
      response: {
        200: Type.Array(TimeEntrySchema, {
          description:
            'Newest first; the X-Total-Count header gives the size of the filtered set before limit/offset, and Link the next page (rel="next").',
        }),
      },
      handler: async (request, reply) => {
        const page = await service.listEntries(ctx, actorOf(request), request.query);
        const { limit = DEFAULT_LIMIT, offset = 0 } = request.query;
        pageHeaders(reply, request, ctx.config.publicBaseUrl, { limit, offset }, page.items.length, page.total);
        return page.items;
      },
    }),
  );
  app.route(
    route({
      method: 'PATCH',
      url: '/time-entries/:id',
      scope: 'write',
      tags,
      operationId: 'updateTimeEntry',
      summary: 'Edit a time entry',
      description: "The entry's user or a workspace admin (403); an entry the caller cannot read answers 404.",
      params: IdParams,
      body: PatchTimeEntryBody,
      response: { 200: TimeEntrySchema },
      handler: async (request) => service.patchEntry(ctx, actorOf(request), request.params.id, request.body),
    }),
  );
  app.route(
    route({
      method: 'DELETE',
      url: '/time-entries/:id',
      scope: 'write',
      tags,
      operationId: 'deleteTimeEntry',
      summary: 'Delete a time entry',
      description: "The entry's user or a workspace admin (403); an entry the caller cannot read answers 404.",
      params: IdParams,
      response: { 204: NoContent },
      handler: async (request, reply) => {
        await service.deleteEntry(ctx, actorOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    }),
  );
  done();
};
