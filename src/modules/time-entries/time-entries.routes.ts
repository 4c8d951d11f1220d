import { Type } from 'typebox';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams, NoContent, problemResponses } from '../../http/schemas.js';
import { actorOf } from '../auth/auth.js';
import * as service from './time-entries.service.js';
import { CreateTimeEntryBody, ListTimeEntriesQuery, PatchTimeEntryBody, TimeEntrySchema } from './time-entries.schemas.js';

const tags = ['time entries'];

export const timeEntryRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.post(
    '/time-entries',
    { config: { scope: 'write' }, schema: { tags, body: CreateTimeEntryBody, response: { 201: TimeEntrySchema, ...problemResponses } } },
    async (request, reply) => reply.code(201).send(await service.createEntry(ctx, actorOf(request), request.body)),
  );
  app.get(
    '/time-entries',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        querystring: ListTimeEntriesQuery,
        response: {
          200: Type.Array(TimeEntrySchema, {
            description: 'Newest first; the X-Total-Count header gives the size of the filtered set before limit/offset.',
          }),
          ...problemResponses,
        },
      },
    },
    async (request, reply) => {
      const page = await service.listEntries(ctx, actorOf(request), request.query);
      reply.header('x-total-count', String(page.total));
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
