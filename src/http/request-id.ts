/** A client's X-Request-Id is kept when it is short and plain, so it can go into logs and headers as is. */
const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function requestIdOf(header: string | string[] | undefined): string | null {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : null;
}
