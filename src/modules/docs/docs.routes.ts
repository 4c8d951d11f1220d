/**
 * `GET /docs`: the interactive API reference (Swagger UI, served from its npm package, never a
 * CDN) over the server's OpenAPI document. "Try it out" calls the API on this origin with a bearer token typed
 * into "Authorize"; the page's CSP allows this origin's scripts, styles, images and requests only.
 */
import swaggerUi from '@fastify/swagger-ui';
import type { FeatureRoutes } from '../../http/types.js';
import { sendProblem } from '../../http/problem.js';
import { AppError } from '../../lib/errors.js';

export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // The one inline style Swagger UI's bundle inserts, allowed by its hash alone (a Swagger UI whose
  // style differs fails the browser test in test/api/docs-and-cors.test.ts rather than look broken).
  "style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The longest path under /docs/static/ worth looking up: Swagger UI's own file names are short. */
const MAX_STATIC_PATH = 256;

/**
 * Whether a /docs/static/ path names a file the reference could have: decodable, short, no NUL,
 * no backslash, no `.` or `..` segment. Anything else (a path probe) is a 404 before the file
 * system is asked, since the static server's own refusals (ENAMETOOLONG, a NUL in a path) are 500s.
 */
export function isPlausibleStaticPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  if (!path.startsWith('/docs/static/')) return true;
  if (path.length > MAX_STATIC_PATH) return false;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  return !/[\\\0]/.test(decoded) && !/(^|\/)\.\.?(\/|$)/.test(decoded);
}

const noSuchFile = () => new AppError('not_found', 'No such file in the API reference.');

export const docsRoutes: FeatureRoutes = (app, _options, done) => {
  // The reference's own routes are public pages, hidden from the document they show.
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, scope: 'public' };
    route.schema = { ...route.schema, hide: true };
  });
  app.addHook('onRequest', async (request) => {
    if (!isPlausibleStaticPath(request.url)) throw noSuchFile();
  });
  // What the static files' server still refuses is the client's doing: a 404, logged at info.
  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    if (error instanceof AppError) return sendProblem(reply, error);
    request.log.info({ err: { message: error.message, code: (error as { code?: string }).code } }, 'API reference: no such file');
    return sendProblem(reply, noSuchFile());
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
