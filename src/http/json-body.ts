/**
 * The API's JSON body parser: Fastify's own (with its prototype-poisoning checks), plus two rules.
 * Arrays and objects may nest at most MAX_JSON_DEPTH levels: checked on the text before it is
 * parsed, so no later step (validation, error messages, logging) ever recurses through a body
 * nested 100,000 levels deep. And JSON can spell a lone UTF-16 surrogate (`"\ud800"`), which no
 * database text can hold: the drivers would store U+FFFD in its place, silently changing what the
 * client sent. Such a body is refused with a 400 that names the field instead.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../lib/errors.js';

/** A `\uD800`-`\uDFFF` escape: the only way a lone surrogate reaches a parsed body. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;
/** In Unicode mode a surrogate range matches only unpaired ones; a pair is one code point. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * How deep arrays and objects may nest in a JSON body (docs/api.md "Conventions"). The deepest
 * legitimate body (a batch of time entries: body, list, entry, tags) nests 4 levels.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether the JSON text nests arrays and objects deeper than `limit`: one pass over the text,
 * skipping strings (a `[` inside one is text). Malformed JSON is left to the parser.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  if (text.length <= limit) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) i = endOfString(text, i);
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth += 1;
      if (depth > limit) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth -= 1;
  }
  return false;
}

/** The index of the quote closing the string opened at `open`: the first after an even run of backslashes. */
function endOfString(text: string, open: number): number {
  let quote = text.indexOf('"', open + 1);
  while (quote !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return text.length;
}

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
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(badRequest(`The JSON body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`));
      return;
    }
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

/**
 * For a route whose body may be left out (`optionalBody`): a request without any body reaches
 * validation as undefined, which an object schema refuses, so it becomes `{}` first.
 */
export async function emptyBodyIsEmptyObject(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}
