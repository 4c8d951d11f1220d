/**
 * What a client hears when Node's HTTP parser gives up on its connection before any route runs:
 * the request took longer than REQUEST_TIMEOUT_MS (headers or body never finished), its headers
 * were too large, or it was not HTTP. The answer is a problem+json like every other error
 * (docs/api.md "Conventions"), then the connection is closed: nothing more can be read from it.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';

const PROBLEMS: Record<string, { status: number; type: string; detail: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    type: 'request_timeout',
    detail: 'The request was not received in full in time; the connection is closed.',
  },
  HPE_HEADER_OVERFLOW: { status: 431, type: 'validation', detail: 'The request headers are too large.' },
};
const MALFORMED = { status: 400, type: 'validation', detail: 'The request is not valid HTTP.' };

/** The bytes of the answer to a connection the parser gave up on (exported for tests). */
export function clientErrorResponse(code: string | undefined): string {
  const problem = (code === undefined ? undefined : PROBLEMS[code]) ?? MALFORMED;
  const title = STATUS_CODES[problem.status] ?? 'Error';
  const body = JSON.stringify({ type: `urn:chronicle:problem:${problem.type}`, title, status: problem.status, detail: problem.detail });
  return (
    `HTTP/1.1 ${problem.status} ${title}\r\nContent-Type: application/problem+json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** Fastify's clientErrorHandler: `this` is the Fastify instance. */
export function clientErrorHandler(this: { log: FastifyBaseLogger }, error: Error & { code?: string }, socket: Socket): void {
  // A reset connection is gone already; there is no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // A client's doing, not the server's: debug, so a slow or broken client cannot flood the log.
  this.log.debug({ code: error.code, remoteAddress: socket.remoteAddress }, 'client connection error');
  // Once a response has begun on this socket, another status line would corrupt it.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) socket.write(clientErrorResponse(error.code));
  socket.destroy();
}
