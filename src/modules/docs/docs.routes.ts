/**
 * `GET /docs`: the interactive API reference (Swagger UI, served from its npm package, never a
 * CDN) over the server's OpenAPI document. "Try it out" calls the API on this origin with a bearer token typed
 * into "Authorize"; the page's CSP allows this origin's scripts, styles, images and requests only.
 */
import swaggerUi from '@fastify/swagger-ui';
import type { FeatureRoutes } from '../../http/types.js';

export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // The one inline style Swagger UI's bundle inserts, allowed by its hash alone (a Swagger UI whose
  // style differs fails the browser test in test/docs-and-cors.test.ts rather than look broken).
  "style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const docsRoutes: FeatureRoutes = (app, _options, done) => {
  // The reference's own routes are public pages, hidden from the document they show.
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, scope: 'public' };
    route.schema = { ...route.schema, hide: true };
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
  });
  void app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: DOCS_CSP,
    // It loads the document from /docs/json: the one the server builds from its own routes.
    uiConfig: { deepLinking: true, persistAuthorization: false },
  });
  done();
};
