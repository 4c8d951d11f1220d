import { Type } from 'typebox';
import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams, NoContent } from '../../http/schemas.js';
import { PAGED_HEADERS, PageQuery, pageHeaders } from '../../http/paging.js';
import { pageOf } from '../../lib/paging.js';
import { actorOf, HEAVY_RATE_COST } from '../auth/auth.js';
import * as service from './schedules.service.js';
import { ScheduleBody, ScheduleRunSchema, ScheduleSchema } from './schedules.schemas.js';

const tags = ['schedules'];
const OWNER = "The report's owner only (still a member of every filtered workspace); anyone else gets 404, as if there were no schedule.";

export const scheduleRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.route(
    route({
      method: 'GET',
      url: '/reports/:id/schedule',
      scope: 'read',
      tags,
      operationId: 'getReportSchedule',
      summary: "A report's schedule",
      description: `The schedule with its next five runs in the owner's time zone; 404 when the report has none. ${OWNER}`,
      params: IdParams,
      response: { 200: ScheduleSchema },
      handler: async (request) => service.get(ctx, actorOf(request), request.params.id),
    }),
  );
  app.route(
    route({
      method: 'PUT',
      url: '/reports/:id/schedule',
      scope: 'write',
      tags,
      operationId: 'putReportSchedule',
      summary: 'Schedule a report',
      description:
        "Creates (201) or replaces (200) the schedule: each run renders a new version with the schedule's preset, as an edit would, " +
        'and sends it to the recipients who are still candidates. Recipients must be candidates now (400 naming why not, as a send). ' +
        `Replacing it skips runs already queued. ${OWNER}`,
      params: IdParams,
      body: ScheduleBody,
      response: { 200: ScheduleSchema, 201: ScheduleSchema },
      handler: async (request, reply) => {
        const { schedule, created } = await service.put(ctx, actorOf(request), request.params.id, request.body);
        return reply.code(created ? 201 : 200).send(schedule);
      },
    }),
  );
  app.route(
    route({
      method: 'DELETE',
      url: '/reports/:id/schedule',
      scope: 'write',
      tags,
      operationId: 'deleteReportSchedule',
      summary: 'Delete the schedule',
      description: `Ends the schedule; runs already queued are skipped, and the run history stays with the report. ${OWNER}`,
      params: IdParams,
      response: { 204: NoContent },
      handler: async (request, reply) => {
        await service.remove(ctx, actorOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/reports/:id/schedule/runs',
      scope: 'read',
      tags,
      operationId: 'listScheduleRuns',
      summary: 'Run history',
      description: `Every run of the report's schedules, newest occurrence first, with the version each made and whom it skipped and why. ${OWNER}`,
      params: IdParams,
      querystring: PageQuery,
      responseHeaders: PAGED_HEADERS,
      response: { 200: Type.Array(ScheduleRunSchema, { description: 'Newest occurrence first.' }) },
      handler: async (request, reply) => {
        const page = pageOf(request.query);
        const { items, total } = await service.runs(ctx, actorOf(request), request.params.id, page);
        pageHeaders(reply, request, ctx.config.publicBaseUrl, page, items.length, total);
        return items;
      },
    }),
  );
  app.route(
    route({
      method: 'POST',
      url: '/reports/:id/schedule/run-now',
      scope: 'write',
      rateCost: HEAVY_RATE_COST,
      tags,
      operationId: 'runScheduleNow',
      summary: 'Run the schedule now',
      description:
        'Queues a run at once (202 with the queued run; the run history shows its outcome). 404 without a schedule; 409 while another ' +
        `run of the report is queued or running. It costs ${HEAVY_RATE_COST} request units, like a render. ${OWNER}`,
      params: IdParams,
      response: { 202: ScheduleRunSchema },
      handler: async (request, reply) => reply.code(202).send(await service.runNow(ctx, actorOf(request), request.params.id)),
    }),
  );
  done();
};
