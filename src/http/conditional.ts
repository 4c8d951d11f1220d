/**
 * Conditional reads (RFC 9110 §13.1.2): a route marked `conditional` answers with a strong entity
 * tag of what it sends (`ETag`), and answers 304 Not Modified, without a body, to a request whose
 * `If-None-Match` names that tag, so a client that polls a report, a version or a discussion
 * pays for a few headers while nothing changed. Access is checked as for any read: the tag is
 * compared only once the handler has produced the answer the caller may see.
 */
import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from './types.js';
import { NoContent } from './schemas.js';

/**
 * The entity tag of a representation: a hash of its bytes (identity, not secrecy: SHA-1 is the
 * cheapest hash Node has, about a millisecond per megabyte).
 */
export function entityTag(body: string | Uint8Array): string {
  return `"${hash('sha1', body, 'base64url')}"`;
}

/**
 * Whether `If-None-Match` names `tag`: `*`, or a list in which one tag equals it by the weak
 * comparison If-None-Match uses (a `W/` prefix is ignored on either side).
 */
export function matchesIfNoneMatch(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = (candidate: string) => candidate.trim().replace(/^W\//, '');
  return header.split(',').some((candidate) => opaque(candidate) === opaque(tag));
}

/** The 304 a conditional route may answer, as the document declares it. */
export const NOT_MODIFIED = {
  ...NoContent,
  description: 'Not modified: the representation still has the entity tag sent in If-None-Match. No body.',
};

/**
 * Tags every 200 of a conditional GET (unless its handler set a tag of its own, such as a
 * report's version) and turns it into a 304 when the request's If-None-Match names the tag.
 */
export function registerConditionalReads(app: App): void {
  // A callback hook, as every answer passes it (an async one costs each a promise).
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
    done(null, conditionalAnswer(request, reply, payload));
  });
}

/** The payload to send: as it is, or null for a 304 when If-None-Match names the answer's tag. */
function conditionalAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  if (!request.routeOptions.config.conditional || request.method !== 'GET' || reply.statusCode !== 200) return payload;
  if (typeof payload !== 'string' && !(payload instanceof Uint8Array)) return payload;
  const own = reply.getHeader('etag');
  const tag = typeof own === 'string' ? own : entityTag(payload);
  void reply.header('etag', tag);
  if (!matchesIfNoneMatch(request.headers['if-none-match'], tag)) return payload;
  void reply.code(304);
  reply.removeHeader('content-type');
  reply.removeHeader('content-disposition');
  return null;
}
