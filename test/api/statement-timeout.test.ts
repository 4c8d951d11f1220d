/**
 * On PostgreSQL every connection carries DATABASE_STATEMENT_TIMEOUT_MS as its statement_timeout,
 * and a statement it cancels answers 503 problem+json with Retry-After, not a 500.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { rowsOf } from '../../src/db/rows.js';
import { problemHandler } from '../../src/http/problem.js';
import Fastify from 'fastify';

describe.runIf(process.env.TEST_DATABASE_URL)('statement_timeout (PostgreSQL)', () => {
  it('is set on every connection, and a cancelled statement is a 503 with Retry-After', async () => {
    const database = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL ?? '', dataDir: null, statementTimeoutMs: 250 });
    const app = Fastify({ logger: false });
    try {
      const [shown] = rowsOf<{ statement_timeout: string }>(await database.db.execute(sql`show statement_timeout`));
      expect(shown?.statement_timeout).toBe('250ms');
      app.setErrorHandler(problemHandler);
      app.get('/slow', async () => database.db.execute(sql`select pg_sleep(5)`));
      const res = await app.inject({ method: 'GET', url: '/slow' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.headers['retry-after']).toBe('5');
    } finally {
      await app.close();
      await database.close();
    }
  });
});
