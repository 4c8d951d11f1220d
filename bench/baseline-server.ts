/**
 * The baseline of every HTTP scenario: a bare Fastify 5 server in a process of its own, answering
 * with exactly the bytes, status and content type the real endpoint answered. Its routes come
 * from a JSON file named in BASELINE_ROUTES; it prints its port when it listens.
 *
 * With BASELINE_DB (`pglite`, or a PostgreSQL URL) each route also answers under `/floor/N/…`
 * after N sequential round trips of a prepared `select $1` on that engine: the least any request
 * that must consult the database can cost, so Chronicle's figures can be read against it.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import pg from 'pg';
import { openDatabase } from '../src/db/database.js';

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
  const roundTrip = await databaseRoundTrip(process.env.BASELINE_DB);
  for (const route of routes) {
    const body = Buffer.from(route.body, 'base64');
    // A POST parses its JSON body, as the real endpoint must, before it answers.
    app.route({
      method: route.method,
      url: route.path,
      handler: async (_request, reply) => reply.code(route.status).type(route.contentType).send(body),
    });
    if (roundTrip) {
      app.route({
        method: route.method,
        url: `/floor/:n${route.path}`,
        handler: async (request, reply) => {
          const n = Number((request.params as { n: string }).n);
          for (let i = 0; i < n; i++) await roundTrip(i);
          return reply.code(route.status).type(route.contentType).send(body);
        },
      });
    }
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
}

/** One prepared round trip to the engine named by `db`, or null without one. */
async function databaseRoundTrip(db: string | undefined): Promise<((i: number) => Promise<unknown>) | null> {
  if (!db) return null;
  if (db === 'pglite') {
    // As Chronicle reaches the embedded engine: in its own thread, each SQL text prepared once.
    const { db: lite } = await openDatabase({ databaseUrl: null, dataDir: null });
    return (i) => lite.execute(sql`select ${i}::int as n`);
  }
  const pool = new pg.Pool({ connectionString: db, max: 10 });
  return (i) => pool.query({ name: 'floor', text: 'select $1::int as n', values: [i] });
}

await main();
