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
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (reply.statusCode !== 200 || request.routeOptions.config.secret) return payload;
    if (!request.url.startsWith('/api/') && !DOCUMENT_ROUTES.has(request.routeOptions.url ?? '')) return payload;
    if (typeof payload !== 'string' && !(payload instanceof Uint8Array)) return payload;
    if (reply.hasHeader('content-encoding')) return payload;
    if (!COMPRESSIBLE_TYPE.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    // A string's length is at most its UTF-8 size: most answers are told apart without counting bytes.
    const size =
      typeof payload === 'string' ? (payload.length >= options.minBytes ? Buffer.byteLength(payload) : payload.length) : payload.byteLength;
    if (size < options.minBytes) return payload;
    addVary(reply, 'Accept-Encoding');
    const encoding = acceptedEncoding(request.headers['accept-encoding']);
    if (!encoding || running >= options.slots) return payload;
    running += 1;
    try {
      const compressed = await compress(payload, encoding);
      if (compressed.byteLength >= size) return payload;
      void reply.header('content-encoding', encoding);
      reply.removeHeader('content-length');
      return compressed;
    } catch (error) {
      request.log.warn({ err: error }, 'an answer could not be compressed; sent as it is');
      return payload;
    } finally {
      running -= 1;
    }
  });
}
