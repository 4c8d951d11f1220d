/**
 * The API's JSON body parser: Fastify's own (with its prototype-poisoning checks), plus one rule.
 * JSON can spell a lone UTF-16 surrogate (`"\ud800"`), which no database text can hold: the
 * drivers would store U+FFFD in its place, silently changing what the client sent. Such a body is
 * refused with a 400 that names the field instead.
 */
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../lib/errors.js';

/** A `\uD800`-`\uDFFF` escape: the only way a lone surrogate reaches a parsed body. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;
/** In Unicode mode a surrogate range matches only unpaired ones; a pair is one code point. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

const pointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** The JSON Pointer of the first string or key holding a lone surrogate, or null. */
export function loneSurrogatePath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path : null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = loneSurrogatePath(item, `${path}/${i}`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (LONE_SURROGATE.test(key)) return `${path}/${pointer(key)}`;
      const found = loneSurrogatePath(item, `${path}/${pointer(key)}`);
      if (found !== null) return found;
    }
  }
  return null;
}

export function registerJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    void parse(request, text, (error, value) => {
      if (error) {
        done(error);
        return;
      }
      const path = SURROGATE_ESCAPE.test(text) ? loneSurrogatePath(value) : null;
      if (path === null) done(null, value);
      else {
        done(
          badRequest('The request is not valid.', [
            { path, message: 'must be valid Unicode: a \\uD800-\\uDFFF escape without its pair cannot be stored' },
          ]),
        );
      }
    });
  });
}
