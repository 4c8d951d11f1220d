/**
 * The answer to a path no route serves. An API client gets a problem (platform.md §1); a browser
 * opening a page outside the API (a mistyped or outdated address: `/login`, `/reports/…`) gets a
 * page that says so and leads to the app, rather than a JSON document it would show as text.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';
import { NO_SUCH_PAGE, VIEWER_HEADERS } from '../render/share-page.js';
import { redactUrl } from './logging.js';
import { sendProblem } from './problem.js';

/**
 * Whether `Accept` names `text/html` with a quality above 0, as every browser's request for a
 * page does (`text/html,application/xhtml+xml,…`); API clients and tools ask for JSON or `*\/*`,
 * which keep the problem.
 */
export function asksForPage(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((range) => {
    const [type = '', ...parameters] = range.split(';');
    if (type.trim().toLowerCase() !== 'text/html') return false;
    const quality = parameters.map((parameter) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(parameter)?.[1]).find((q) => q !== undefined);
    return quality === undefined || Number(quality) > 0;
  });
}

const PAGE_BYTES = Buffer.byteLength(NO_SUCH_PAGE);

export function notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split('?')[0] ?? '';
  const api = path === '/api' || path.startsWith('/api/');
  // Outside the API the answer depends on Accept: a cache must not give one kind to the other.
  if (!api) void reply.header('vary', 'Accept');
  if (!api && (request.method === 'GET' || request.method === 'HEAD') && asksForPage(request.headers.accept)) {
    void reply.code(404).headers(VIEWER_HEADERS);
    // HEAD: GET's headers, its length included, and no body.
    return request.method === 'HEAD' ? reply.header('content-length', PAGE_BYTES).send() : reply.send(NO_SUCH_PAGE);
  }
  return sendProblem(reply, new AppError('not_found', `No route ${request.method} ${redactUrl(path)}.`));
}
