/**
 * API answers compressed for clients that accept it (docs/decisions.md "API answers are compressed
 * while a slot is free"): a 200 under /api/ (or the OpenAPI document, as JSON or as the API
 * reference's JSON and YAML) of at least `minBytes` of JSON, Markdown, CSV or YAML goes out
 * Brotli- or gzip-compressed as `Accept-Encoding` allows. Compressing runs in libuv's thread pool,
 * at most `slots` at once per process; an answer that finds every slot taken goes out as it is,
 * at once, so compression never queues a request. Answers that hold a secret (a route marked
 * `secret`: new tokens, share links) are never compressed, nor is anything smaller than
 * `minBytes`, where the headers cost about what compression saves.
 *
 * The entity tag stays the one of the answer as it is (conditional.ts compares it before this
 * runs): a report's tag is its version, which `If-Match` sends back, and a client revalidates
 * either encoding with it. Every answer that could have been compressed says `Vary: Accept-Encoding`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { acceptedEncoding, compressBody, type ContentEncoding } from '../lib/compression.js';
import type { App } from './types.js';

/** Types worth compressing: JSON (problem+json is never a 200), Markdown, CSV and the OpenAPI document's YAML. */
const COMPRESSIBLE_TYPE = /^(?:application\/json|text\/markdown|text\/csv|application\/x-yaml)\b/;

/** Outside /api/, the OpenAPI document: at /openapi.json, and as the API reference loads it (docs.routes.ts). */
const DOCUMENT_ROUTES: ReadonlySet<string> = new Set(['/openapi.json', '/docs/json', '/docs/yaml']);

export interface CompressionOptions {
  /** The smallest answer compressed, in bytes. */
  minBytes: number;
  /** Compressions running at once per process. */
  slots: number;
  /** Replaced in tests. */
  compress?: (body: string | Uint8Array, encoding: ContentEncoding) => Promise<Buffer>;
}

/** `Vary` with `name` added to what the route set (the version read already varies by Accept). */
export function addVary(reply: FastifyReply, name: string): void {
  const current = reply.getHeader('vary');
  const names = typeof current === 'string' && current !== '' ? current.split(',').map((part) => part.trim()) : [];
  if (!names.some((part) => part.toLowerCase() === name.toLowerCase())) names.push(name);
  void reply.header('vary', names.join(', '));
}

export function registerCompression(app: App, options: CompressionOptions): void {
  const compress = options.compress ?? compressBody;
  let running = 0;
  // A callback hook: most answers pass it untouched, and an async one would cost each a promise.
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
    const body = compressible(request, reply, payload, options.minBytes);
    if (!body) {
      done(null, payload);
      return;
    }
    addVary(reply, 'Accept-Encoding');
    const encoding = acceptedEncoding(request.headers['accept-encoding']);
    if (!encoding || running >= options.slots) {
      done(null, payload);
      return;
    }
    running += 1;
    let compressing: Promise<Buffer>;
    try {
      compressing = compress(body.payload, encoding);
    } catch (error) {
      // A compressor that throws rather than rejects: the answer still goes out, as it is.
      compressing = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    compressing.then(
      (compressed) => {
        running -= 1;
        if (compressed.byteLength >= body.size) {
          done(null, payload);
          return;
        }
        void reply.header('content-encoding', encoding);
        reply.removeHeader('content-length');
        done(null, compressed);
      },
      (error: unknown) => {
        running -= 1;
        request.log.warn({ err: error }, 'an answer could not be compressed; sent as it is');
        done(null, payload);
      },
    );
  });
}

/** The answer's body and size when it is one to compress (its route, status, type and size), else null. */
function compressible(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  minBytes: number,
): { payload: string | Uint8Array; size: number } | null {
  if (reply.statusCode !== 200 || request.routeOptions.config.secret) return null;
  if (!request.url.startsWith('/api/') && !DOCUMENT_ROUTES.has(request.routeOptions.url ?? '')) return null;
  if (typeof payload !== 'string' && !(payload instanceof Uint8Array)) return null;
  if (reply.hasHeader('content-encoding')) return null;
  if (!COMPRESSIBLE_TYPE.test(String(reply.getHeader('content-type') ?? ''))) return null;
  // A string's length is at most its UTF-8 size: most answers are told apart without counting bytes.
  const size =
    typeof payload === 'string' ? (payload.length >= minBytes ? Buffer.byteLength(payload) : payload.length) : payload.byteLength;
  return size < minBytes ? null : { payload, size };
}
