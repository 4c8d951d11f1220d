import { Type } from 'typebox';
import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { isOverloaded, OVERLOAD_RETRY_AFTER_SECONDS } from '../../lib/event-loop-pressure.js';

const tags = ['operations'];

/** Operational endpoints outside /api/v1 (docs/api.md "Configuration and start-up"). */
export const healthRoutes: FeatureRoutes = (app, { ctx }, done) => {
  const status = Type.Object({ status: Type.String() });
  app.route(
    route({
      method: 'GET',
      url: '/healthz',
      scope: 'public',
      tags,
      operationId: 'getLiveness',
      summary: 'Liveness probe',
      description: 'Public. 200 while the process is up.',
      response: { 200: status },
      handler: async () => ({ status: 'ok' }),
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/readyz',
      scope: 'public',
      tags,
      operationId: 'getReadiness',
      summary: 'Readiness probe',
      description:
        'Public. 200 `ready` when the database answers and the event loop keeps up; 503 `database unavailable`, or 503 ' +
        '`overloaded` with Retry-After while new requests are refused (OVERLOAD_EVENT_LOOP_DELAY_MS).',
      response: { 200: status, 503: status },
      handler: async (_request, reply) => {
        // Not ready for more while new requests are being refused: a balancer sends them elsewhere.
        if (isOverloaded(ctx.pressure, ctx.config.overloadEventLoopDelayMs)) {
          return reply.code(503).header('retry-after', String(OVERLOAD_RETRY_AFTER_SECONDS)).send({ status: 'overloaded' });
        }
        try {
          await ctx.database.ping();
          return { status: 'ready' };
        } catch {
          return reply.code(503).send({ status: 'database unavailable' });
        }
      },
    }),
  );
  app.get('/openapi.json', { config: { scope: 'public' }, schema: { hide: true } }, async () => app.swagger());
  done();
};
