/**
 * An HTTP server on loopback that receives webhook deliveries in the tests: it keeps each
 * request's headers and body and answers it with the next of its answers.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

export interface WebhookReceiver {
  /** The endpoint's URL (path /hook). */
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** A server on `host` answering each request with the next of `answers` (the last one repeats). */
export async function startWebhookReceiver(
  answers: { status: number; headers?: Record<string, string> }[] = [{ status: 204 }],
  host = '127.0.0.1',
): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers[Math.min(received.length - 1, answers.length - 1)] ?? { status: 204 };
      response.writeHead(answer.status, answer.headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      ),
  };
}
