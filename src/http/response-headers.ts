/**
 * The response headers the server sends, declared in the OpenAPI document as reusable
 * `components.headers`. Some follow from a response's status or the route's authentication (every
 * response has X-Request-Id, every 429 and API 503 Retry-After); the others a route names in its
 * definition's `responseHeaders` (route.ts).
 */
const integer = { type: 'integer' as const, minimum: 0 };
const text = { type: 'string' as const };

export const HEADERS = {
  'X-Request-Id': { description: "The request's id: the client's own X-Request-Id when well-formed, otherwise a new one.", schema: text },
  'X-Total-Count': { description: 'The size of the whole list (after filters, before `limit` and `offset`).', schema: integer },
  Link: { description: 'While items remain after this page: `<URL of the next page>; rel="next"` (RFC 8288).', schema: text },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: integer },
  ETag: {
    description:
      'A strong entity tag of the answer: sent back in `If-None-Match`, it gets 304 Not Modified while nothing changed. A report\'s is its version (`"3"`), also for `If-Match` on the next edit.',
    schema: text,
  },
  'RateLimit-Limit': { description: "The token's request units per minute (while API_RATE_LIMIT is on).", schema: integer },
  'RateLimit-Remaining': { description: 'The units left in this minute.', schema: integer },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: integer },
  'RateLimit-Policy': { description: 'The policy, `<limit>;w=60`.', schema: text },
  'WWW-Authenticate': { description: 'The authentication scheme, or the scope the token lacks (RFC 6750).', schema: text },
  'Set-Cookie': {
    description: "The web app's session cookie (HttpOnly, SameSite=Lax), set on sign-in and cleared on sign-out.",
    schema: text,
  },
  'Content-Disposition': { description: 'An attachment file name for the Markdown download.', schema: text },
  'Cache-Control': {
    description:
      '`no-store` on answers that hold a secret (a new token, share links and their tokens, a set-password link, a new session cookie) and on share pages: no browser or proxy keeps them. A workspace logo under its versioned URL is `public, max-age=31536000, immutable`, otherwise `no-cache`.',
    schema: text,
  },
  Vary: {
    description:
      '`Accept`: the same URL answers JSON or Markdown by the Accept header. `Accept-Encoding` on an answer that may be sent compressed: a share page, an API answer of 8 KiB or more.',
    schema: text,
  },
  'Content-Encoding': {
    description:
      "`br` or `gzip` when the answer is sent compressed, as the request's Accept-Encoding allows: a share page, or an API answer of JSON, Markdown or CSV of 8 KiB or more (never one that holds a secret, nor one sent while the process's compression slots are taken). Absent otherwise.",
    schema: text,
  },
  'X-Content-Type-Options': { description: '`nosniff`: browsers keep the declared content type.', schema: text },
  'Content-Security-Policy': {
    description:
      "The share page's policy: no script, images only from this origin (the workspace logo), its styles by hash (the page's own and its accent colour's), forms only to itself, no framing.",
    schema: text,
  },
  'Referrer-Policy': { description: '`no-referrer`: links on a share page never leak its URL.', schema: text },
  'X-Robots-Tag': { description: '`noindex, nofollow`: search engines leave share pages alone.', schema: text },
} as const;
export type HeaderName = keyof typeof HEADERS;

/** The schema key a route names its extra response headers under; app.ts moves them into the document. */
export const RESPONSE_HEADERS = 'x-response-headers';

const RATE_LIMIT: readonly HeaderName[] = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy'];

/** What every answer of the public viewer carries (share-page.ts `VIEWER_HEADERS`). */
export const VIEWER_RESPONSE_HEADERS: readonly HeaderName[] = [
  'Cache-Control',
  'X-Content-Type-Options',
  'Content-Security-Policy',
  'Referrer-Policy',
  'X-Robots-Tag',
];

/**
 * A route marked `secret` answers `Cache-Control: no-store` (app.ts); this adds the header to the
 * declaration of each of its success responses (route.ts).
 */
export function declareSecretRoute(schema: Record<string, unknown>): Record<string, unknown> {
  const named = { ...((schema[RESPONSE_HEADERS] ?? {}) as Record<string, readonly HeaderName[]>) };
  for (const status of Object.keys(schema.response ?? {})) {
    if (/^2\d\d$/.test(status)) named[status] = [...(named[status] ?? []), 'Cache-Control'];
  }
  return { ...schema, [RESPONSE_HEADERS]: named };
}

/** Adds the headers of one operation of the document, as references to `components.headers`. */
export function declareHeaders(operation: Record<string, unknown>, path: string): void {
  const named = (operation[RESPONSE_HEADERS] ?? {}) as Partial<Record<string, readonly HeaderName[]>>;
  Reflect.deleteProperty(operation, RESPONSE_HEADERS);
  const security = operation.security as unknown[] | undefined;
  const bearer = !Array.isArray(security) || security.length > 0;
  const responses = (operation.responses ?? {}) as Record<string, { headers?: Record<string, unknown> }>;
  for (const [status, response] of Object.entries(responses)) {
    const code = Number(status);
    const names = new Set<HeaderName>(['X-Request-Id', ...(named[status] ?? [])]);
    if (code === 429 || (code === 503 && path !== '/readyz')) names.add('Retry-After');
    // An API answer of 8 KiB or more may be compressed (http/compression.ts).
    if (code === 200 && path.startsWith('/api/')) for (const name of ['Vary', 'Content-Encoding'] as const) names.add(name);
    if (bearer && ((code >= 200 && code < 300) || code === 429)) for (const name of RATE_LIMIT) names.add(name);
    // The viewer's wrong-passcode page is a 401 without a challenge.
    if ((code === 401 && !path.startsWith('/share/')) || (bearer && code === 403)) names.add('WWW-Authenticate');
    response.headers = Object.fromEntries([...names].map((name) => [name, { $ref: `#/components/headers/${name}` }]));
  }
}
