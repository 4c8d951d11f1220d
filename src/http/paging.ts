/** The paging convention of list endpoints on the wire (docs/api.md "Conventions"): query, X-Total-Count, Link. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { HeaderName } from './response-headers.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page } from '../lib/paging.js';

export const PageQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_PAGE_SIZE,
        description: `Items per page, 1-${MAX_PAGE_SIZE}; default ${DEFAULT_PAGE_SIZE}.`,
      }),
    ),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'Items to skip; default 0.' })),
  },
  { additionalProperties: false },
);
export type PageQuery = Static<typeof PageQuery>;

/** What a paged list's description says about its headers. */
export const PAGED =
  'Paged: `limit` (default 100, at most 200) and `offset`; X-Total-Count carries the whole list\'s size and Link the next page (rel="next").';

/** A paged list's headers, for its route's `responseHeaders` (the OpenAPI document declares them). */
export const PAGED_HEADERS: Readonly<Record<number, readonly HeaderName[]>> = { 200: ['X-Total-Count', 'Link'] };

/**
 * X-Total-Count, and `Link: <…>; rel="next"` (RFC 8288) while items remain after this page. The
 * next page's URL keeps every other query parameter of the request.
 */
export function pageHeaders(reply: FastifyReply, request: FastifyRequest, baseUrl: string, page: Page, shown: number, total: number): void {
  reply.header('X-Total-Count', String(total));
  if (page.offset + shown >= total || shown === 0) return;
  const [path = '', query = ''] = request.url.split('?', 2);
  const params = new URLSearchParams(query);
  params.set('limit', String(page.limit));
  params.set('offset', String(page.offset + shown));
  reply.header('Link', `<${baseUrl}${path}?${params.toString()}>; rel="next"`);
}
