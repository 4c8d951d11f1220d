/**
 * One page of a list (docs/api.md "Conventions"): `limit` items from `offset`, and the size of
 * the whole list, so a client can page through anything without the server ever answering with
 * all of it.
 */
export interface Page {
  limit: number;
  offset: number;
}

export interface Paged<T> {
  items: T[];
  /** The size of the whole list, before limit and offset. */
  total: number;
}

/** Items per page when a list request names no `limit`; 200 is the most a request may ask for. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 200;

export function pageOf(query: { limit?: number | undefined; offset?: number | undefined }): Page {
  return { limit: query.limit ?? DEFAULT_PAGE_SIZE, offset: query.offset ?? 0 };
}

/**
 * The list's size from rows that carry `count(*) over ()`: any row has it; a page past the end
 * has none, and only then is the list counted on its own (`count`).
 */
export async function totalOf(rows: readonly { total: number }[], page: Page, count: () => Promise<number>): Promise<number> {
  const first = rows[0];
  if (first) return first.total;
  return page.offset > 0 ? count() : 0;
}
