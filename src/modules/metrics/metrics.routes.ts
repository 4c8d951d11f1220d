import { Type } from 'typebox';
import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { AppError } from '../../lib/errors.js';
import { sameSecret } from '../../lib/tokens.js';

/** GET /metrics (docs/operations.md "Metrics"): Prometheus text, behind METRICS_TOKEN when set. */
export const metricsRoutes: FeatureRoutes = (app, { ctx }, done) => {
  const expected = ctx.config.metricsToken;
  app.route(
    route({
      method: 'GET',
      url: '/metrics',
      scope: 'public',
      tags: ['operations'],
      operationId: 'getMetrics',
      summary: 'Prometheus metrics',
      description:
        'Request latency by route and status, renders, sends, share views, passcode failures, the render queue and the ' +
        'PostgreSQL pool, in the Prometheus text format. Open unless METRICS_TOKEN is set; then it needs ' +
        '`Authorization: Bearer <METRICS_TOKEN>` (401 otherwise).',
      response: { 200: Type.String({ description: 'text/plain; version=0.0.4' }) },
      problems: [401],
      handler: async (request, reply) => {
        if (expected !== null) {
          const match = /^Bearer ([^\s]+)$/.exec(request.headers.authorization ?? '');
          if (!match?.[1] || !sameSecret(match[1], expected)) {
            throw new AppError('unauthorized', 'GET /metrics needs the METRICS_TOKEN as a bearer token.', undefined, {
              'WWW-Authenticate': 'Bearer realm="metrics"',
            });
          }
        }
        const { contentType, text } = await ctx.metrics.render();
        return reply.type(contentType).send(text);
      },
    }),
  );
  done();
};
