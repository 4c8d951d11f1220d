/**
 * The baseline of every HTTP scenario: a bare Fastify 5 server in a process of its own, answering
 * with exactly the bytes, status and content type the real endpoint answered. Its routes come
 * from a JSON file named in BASELINE_ROUTES; it prints its port when it listens.
 *
 * With BASELINE_DB (`pglite`, or a PostgreSQL URL) each route also answers under `/floor/N/…`
 * after N sequential round trips of a prepared `select $1` on that engine: the least any request
 * that must consult the database can cost, so Chronicle's figures can be read against it.
 *
 * With BASELINE_DB naming the bench's data (the PostgreSQL database, or `pglite:<dir>`, a copy of
 * the embedded data directory taken before Chronicle's server opened it), each route also answers
 * under `/statements/<name>/…` after Chronicle's own statements for that request (STATEMENTS),
 * called directly through its repositories: the database's and the data layer's share of a
 * request, without Chronicle's HTTP hooks, services and serialisation.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import pg from 'pg';
import { openDatabase, type Db } from '../src/db/database.js';
import { newId } from '../src/lib/ids.js';
import { hashSecret } from '../src/lib/tokens.js';
import { findCredential, type CredentialLookup } from '../src/repositories/auth.repository.js';
import { findContentState } from '../src/repositories/discussion.repository.js';
import { findReportForReader, listReports } from '../src/repositories/reports.repository.js';
import { countReadableEntries, insertEntryIfAllowed, listReadableEntries } from '../src/repositories/time-entries.repository.js';
import { BENCH_USER, tokenOf } from './generate.js';

export interface BaselineRoute {
  method: 'GET' | 'POST';
  path: string;
  status: number;
  contentType: string;
  /** The body, base64. */
  body: string;
  /** The body's Content-Encoding, where the real endpoint sent it compressed. */
  contentEncoding?: string;
}

/** The bench user's token, as the auth hook finds it (the rate limit off, as in the bench). */
function benchCredential(): CredentialLookup {
  const now = new Date();
  return { kind: 'token', hash: hashSecret(tokenOf(BENCH_USER)), now, idleSince: now, charge: null };
}

async function credentialUserId(db: Db): Promise<string> {
  const found = await findCredential(db, benchCredential());
  if (!found) throw new Error('the bench token is unknown');
  return found.user.id;
}

/** The version a discussion's path names (`/api/v1/report-contents/:id/discussion`). */
function discussedContent(path: string): string {
  const id = /\/report-contents\/([^/?]+)\/discussion/.exec(path)?.[1];
  if (!id) throw new Error(`not a discussion's path: ${path}`);
  return id;
}

/**
 * Chronicle's statements for each request the bench measures against them, made as its services
 * make them (test/api/statements.test.ts pins their number), with the bench's arguments and the
 * request's path.
 */
export const STATEMENTS = {
  /** GET /api/v1/reports/r1: the credential and the report in one statement. */
  'report-read': (db: Db) => findReportForReader(db, 'r1', benchCredential()),
  /** GET /api/v1/reports?limit=50: the credential, then the page with its total. */
  'report-list': async (db: Db) => listReports(db, { ownerUserId: BENCH_USER, limit: 50, offset: 0 }, await credentialUserId(db)),
  /** GET /api/v1/time-entries?workspaceId=w00&tag=meeting&limit=50: the credential, then the page and its total at once. */
  'entry-list-by-tag': async (db: Db) => {
    const readerId = await credentialUserId(db);
    const filters = { workspaceId: 'w00', tag: 'meeting' };
    return Promise.all([listReadableEntries(db, readerId, filters, { limit: 50, offset: 0 }), countReadableEntries(db, readerId, filters)]);
  },
  /**
   * GET /api/v1/report-contents/:id/discussion: the credential, the version's state and the
   * reader's standing in one statement; the page itself is the process's (discussion-cache.ts).
   */
  discussion: (db: Db, path: string) => findContentState(db, discussedContent(path), benchCredential()),
  /** POST /api/v1/time-entries: the credential, then the insert that checks every rule. */
  'entry-create': async (db: Db) => {
    const userId = await credentialUserId(db);
    const entry = {
      id: newId(),
      workspaceId: 'w00',
      projectId: 'w00-p1',
      userId,
      start: new Date('2026-06-01T09:00:00Z'),
      minutes: 30,
      description: 'Benchmark entry',
      tags: ['bench'],
      billable: null,
      createdAt: new Date(),
    };
    if (!(await insertEntryIfAllowed(db, entry, userId, 100_000_000))) throw new Error('the bench entry was refused');
  },
} satisfies Record<string, (db: Db, path: string) => Promise<unknown>>;

export type StatementsName = keyof typeof STATEMENTS;

/**
 * The routes of one method and path, one per Content-Encoding the real endpoint answered in: a
 * request gets the compressed answer its Accept-Encoding names, else the one sent as it is (the
 * reports list is measured both ways on the same path).
 */
function answerer(variants: readonly BaselineRoute[]): (request: FastifyRequest, reply: FastifyReply) => FastifyReply {
  const answers = variants.map((route) => ({
    route,
    body: Buffer.from(route.body, 'base64'),
    headers: route.contentEncoding ? { 'content-encoding': route.contentEncoding } : {},
  }));
  const plain = answers.find((answer) => !answer.route.contentEncoding) ?? answers[0]!;
  return (request, reply) => {
    const accepted = request.headers['accept-encoding'] ?? '';
    const { route, body, headers } =
      answers.find((answer) => answer.route.contentEncoding && accepted.includes(answer.route.contentEncoding)) ?? plain;
    return reply.code(route.status).type(route.contentType).headers(headers).send(body);
  };
}

async function main(): Promise<void> {
  const routes = JSON.parse(readFileSync(process.env.BASELINE_ROUTES ?? '', 'utf8')) as BaselineRoute[];
  const app = Fastify({ logger: false });
  const { roundTrip, db } = await databaseRoundTrip(process.env.BASELINE_DB);
  const byPath = new Map<string, BaselineRoute[]>();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    byPath.set(key, [...(byPath.get(key) ?? []), route]);
  }
  for (const variants of byPath.values()) {
    const { method, path } = variants[0]!;
    const answer = answerer(variants);
    // A POST parses its JSON body, as the real endpoint must, before it answers.
    app.route({ method, url: path, handler: async (request, reply) => answer(request, reply) });
    if (roundTrip) {
      app.route({
        method,
        url: `/floor/:n${path}`,
        handler: async (request, reply) => {
          const n = Number((request.params as { n: string }).n);
          for (let i = 0; i < n; i++) await roundTrip(i);
          return answer(request, reply);
        },
      });
    }
    if (db) {
      app.route({
        method,
        url: `/statements/:name${path}`,
        handler: async (request, reply) => {
          const name = (request.params as { name: string }).name;
          if (!Object.hasOwn(STATEMENTS, name)) return reply.code(404).send();
          await STATEMENTS[name as StatementsName](db, path);
          return answer(request, reply);
        },
      });
    }
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
}

/**
 * One prepared round trip to the engine named by `db`, and Chronicle's database layer on the bench's
 * data where `db` names it; nulls without an engine.
 */
async function databaseRoundTrip(db: string | undefined): Promise<{ roundTrip: ((i: number) => Promise<unknown>) | null; db: Db | null }> {
  if (!db) return { roundTrip: null, db: null };
  if (db.startsWith('pglite')) {
    // As Chronicle reaches the embedded engine: in its own thread, each SQL text prepared once.
    const dataDir = db.startsWith('pglite:') ? db.slice('pglite:'.length) : null;
    const { db: lite } = await openDatabase({ databaseUrl: null, dataDir });
    return { roundTrip: (i) => lite.execute(sql`select ${i}::int as n`), db: dataDir ? lite : null };
  }
  const pool = new pg.Pool({ connectionString: db, max: 10 });
  const { db: chronicle } = await openDatabase({ databaseUrl: db, dataDir: null });
  return { roundTrip: (i) => pool.query({ name: 'floor', text: 'select $1::int as n', values: [i] }), db: chronicle };
}

await main();
