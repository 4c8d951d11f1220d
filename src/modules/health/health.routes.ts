import { Type } from 'typebox';
import type { FeatureRoutes } from '../../http/types.js';
import { isOverloaded, OVERLOAD_RETRY_AFTER_SECONDS } from '../../lib/event-loop-pressure.js';

/** Operational endpoints outside /api/v1 (docs/api.md "Configuration and start-up"). */
export const healthRoutes: FeatureRoutes = (app, { ctx }, done) => {
  const status = Type.Object({ status: Type.String() });
  app.get(
    '/healthz',
    { config: { scope: 'public' }, schema: { tags: ['operations'], security: [], response: { 200: status } } },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/readyz',
    {
      config: { scope: 'public' },
      schema: { tags: ['operations'], security: [], response: { 200: status, 503: status } },
    },
    async (_request, reply) => {
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
  );
  app.get('/openapi.json', { config: { scope: 'public' }, schema: { hide: true } }, async () => app.swagger());
  done();
};
