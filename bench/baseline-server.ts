/**
 * The baseline of every HTTP scenario: a bare Fastify 5 server in a process of its own, answering
 * with exactly the bytes, status and content type the real endpoint answered. Its routes come
 * from a JSON file named in BASELINE_ROUTES; it prints its port when it listens.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

export interface BaselineRoute {
  method: 'GET' | 'POST';
  path: string;
  status: number;
  contentType: string;
  /** The body, base64. */
  body: string;
}

async function main(): Promise<void> {
  const routes = JSON.parse(readFileSync(process.env.BASELINE_ROUTES ?? '', 'utf8')) as BaselineRoute[];
  const app = Fastify({ logger: false });
  for (const route of routes) {
    const body = Buffer.from(route.body, 'base64');
    // A POST parses its JSON body, as the real endpoint must, before it answers.
    app.route({
      method: route.method,
      url: route.path,
      handler: async (_request, reply) => reply.code(route.status).type(route.contentType).send(body),
    });
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
}

await main();
