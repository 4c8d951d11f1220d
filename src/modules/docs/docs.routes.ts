/**
 * `GET /docs`: the interactive API reference (Swagger UI, served from its npm package, never a
 * CDN) over the server's OpenAPI document. "Try it out" calls the API on this origin with a bearer token typed
 * into "Authorize"; the page's CSP allows this origin's scripts, styles, images and requests only.
 * Its scripts and styles go out Brotli- or gzip-compressed, compressed once per process.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { addVary } from '../../http/compression.js';
import type { FeatureRoutes } from '../../http/types.js';
import { sendProblem } from '../../http/problem.js';
import { acceptedEncoding } from '../../lib/compression.js';
import { createCompressedCopies, type CompressedCopies } from '../../lib/compressed-copies.js';
import { AppError } from '../../lib/errors.js';
import { ICON_SVG } from '../site/site-icon.js';

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

/** Swagger UI's own files, the directory @fastify/swagger-ui serves /docs/static/ from. */
const STATIC_DIR = join(dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui')), 'static');

/** A file directly in that directory, by a plain name (`swagger-ui-bundle.js`); null for any other path. */
function staticFileName(url: string): string | null {
  const path = url.split('?')[0] ?? '';
  if (!path.startsWith('/docs/static/')) return null;
  const name = path.slice('/docs/static/'.length);
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(name) ? name : null;
}

/** What is worth compressing among them: scripts, styles, HTML and SVG (the PNG icons are compressed already). */
const COMPRESSIBLE_TYPE = /^(?:application\/javascript|text\/(?:javascript|css|html)|image\/svg\+xml)\b/;

/**
 * The copies of the reference's files: the largest, Swagger UI's bundle, is 1.7 MB and 0.4 MB as
 * Brotli; every file worth compressing in both encodings comes to about 1.3 MB, so all of them
 * stay, and a process compresses each file in each encoding once in its life (about 0.3 s of the
 * thread pool in all): no client can make it compress again. Four at once, so that a first visit's
 * scripts and styles (three files, asked for together) all come compressed.
 */
const REFERENCE_COPIES = { maxBytes: 4 * 1024 * 1024, slots: 4, maxSourceBytes: 4 * 1024 * 1024 };

/** Files smaller than this go as they are: the reference's own small stylesheet saves fewer bytes than the headers cost. */
const MIN_COMPRESSED_BYTES = 1024;

/**
 * A file of the reference, as `Accept-Encoding` allows: the copy in that encoding, made on the
 * first request that asks (docs/decisions.md "The API reference's files are compressed once"). The
 * static server has already answered conditional and range requests; its weak entity tag stands
 * for every encoding of the file, and a compressed answer offers no ranges.
 */
function compressReferenceFiles(copies: CompressedCopies) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200) return payload;
    const name = staticFileName(request.url);
    if (name === null || !COMPRESSIBLE_TYPE.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    addVary(reply, 'Accept-Encoding');
    const encoding = acceptedEncoding(request.headers['accept-encoding']);
    const size = Number(reply.getHeader('content-length'));
    if (!encoding || !Number.isSafeInteger(size) || size < MIN_COMPRESSED_BYTES) return payload;
    const copy = await copies.compressed(name, encoding, size, () => readFile(join(STATIC_DIR, name)));
    if (!copy) return payload;
    // The file's stream is not read: closed here, so its descriptor does not wait for the collector.
    (payload as Partial<Readable> | null)?.destroy?.();
    reply.removeHeader('accept-ranges');
    void reply.header('content-encoding', encoding).header('content-length', copy.length);
    return request.method === 'HEAD' ? null : copy;
  };
}

/**
 * The top bar's logo: Chronicle's name, as the web app's header shows it, white on the bar's dark
 * background (by default the bar shows the plugin's own). A data URL, which the CSP's `img-src`
 * allows.
 */
const REFERENCE_LOGO = {
  type: 'image/svg+xml',
  content: Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="132" height="32" viewBox="0 0 132 32" role="img" aria-label="Chronicle">' +
      '<text x="0" y="24" fill="#ffffff" font-family="system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif" font-size="24" font-weight="700">Chronicle</text>' +
      '</svg>',
  ),
};

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
  app.addHook('onSend', compressReferenceFiles(createCompressedCopies(REFERENCE_COPIES)));
  void app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: DOCS_CSP,
    logo: REFERENCE_LOGO,
    // The tab's title and icon are Chronicle's (the plugin's are Swagger's).
    theme: {
      title: 'Chronicle API reference',
      favicon: [{ filename: 'favicon.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: ICON_SVG }],
    },
    // It loads the document from /docs/json: the one the server builds from its own routes.
    uiConfig: { deepLinking: true, persistAuthorization: false },
  });
  done();
};
