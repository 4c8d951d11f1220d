/**
 * Serves the built web app (docs/web.md) under /app/: hashed assets cached for a year, the
 * HTML never cached and under a strict Content-Security-Policy (no inline script or style, no
 * other origin). Every other path under /app/ is a screen of the app and gets its HTML. Text files
 * go out as the Brotli or gzip copy the build wrote beside them (web/vite.config.ts `precompress`)
 * to a browser that accepts it.
 */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FeatureRoutes } from './types.js';

/** dist/web beside the compiled server, or under the project root when running from sources. */
export function webAppDir(): string {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  return basename(root) === 'dist' ? join(root, 'web') : join(root, 'dist', 'web');
}

export const APP_HTML_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-cache',
  'Content-Security-Policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "font-src 'self'",
    "manifest-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
});

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The build's compressed copies (`index.html.br`): sent in the file's place, never at their own path. */
const COMPRESSED_COPY = /\.(?:br|gz)$/;

export const webAppRoutes: FeatureRoutes = (app, _options, done) => {
  // The app's files are public pages (the app signs in through the API), hidden from OpenAPI;
  // the static plugin's routes cannot take route options, so the scope is declared here.
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, scope: 'public' };
    route.schema = { ...route.schema, hide: true };
  });
  const dir = webAppDir();
  const built = existsSync(join(dir, 'index.html'));
  app.get('/', { schema: { hide: true } }, (_request, reply) => reply.redirect('/app/', 303));
  if (!built) {
    app.get('/app/*', { schema: { hide: true } }, (_request, reply) =>
      reply.code(503).type('text/plain; charset=utf-8').send('The web app is not built: run `npm run build`.\n'),
    );
    done();
    return;
  }
  void app.register(fastifyStatic, {
    root: dir,
    prefix: '/app/',
    index: false,
    wildcard: false,
    redirect: false,
    cacheControl: false,
    preCompressed: true,
    globIgnore: ['**/*.br', '**/*.gz'],
    setHeaders: (res, sent) => {
      // The file itself, whichever copy of it is sent.
      const path = sent.replace(COMPRESSED_COPY, '');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      // The answer depends on Accept-Encoding wherever a compressed copy may be sent.
      res.setHeader('Vary', 'Accept-Encoding');
      if (path.endsWith('.html')) {
        for (const [name, value] of Object.entries(APP_HTML_HEADERS)) res.setHeader(name, value);
      } else {
        res.setHeader('Cache-Control', path.includes(join(dir, 'assets')) ? IMMUTABLE : 'no-cache');
      }
    },
  });
  app.get('/app', { schema: { hide: true } }, (_request, reply) => reply.redirect('/app/', 301));
  // A screen of the app (its router reads the path); a missing asset stays a 404.
  app.get('/app/*', { schema: { hide: true } }, (request, reply) => {
    if (request.url.startsWith('/app/assets/')) {
      return reply.code(404).type('text/plain; charset=utf-8').header('Cache-Control', 'no-store').send('Not found\n');
    }
    return reply.headers(APP_HTML_HEADERS).sendFile('index.html');
  });
  done();
};
