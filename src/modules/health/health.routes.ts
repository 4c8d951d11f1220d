import { Type } from 'typebox';
import type { App, AppContext } from '../../http/types.js';

/** Operational endpoints outside /api/v1 (platform.md section 2). */
export function healthRoutes(app: App, ctx: AppContext): void {
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
      try {
        await ctx.database.ping();
        return { status: 'ready' };
      } catch {
        return reply.code(503).send({ status: 'database unavailable' });
      }
    },
  );
  app.get(
    '/openapi.json',
    { config: { scope: 'public' }, schema: { hide: true } },
    async () => app.swagger(),
  );
}
