/**
 * Share-page view counts commit without waiting for the disk (database.ts `relaxedDb`,
 * docs/decisions.md "View counts commit without waiting for the disk"); every other write waits.
 * On PostgreSQL only: the embedded engine has one connection, and `relaxedDb` is its `db`.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { rowsOf } from '../../src/db/rows.js';

describe.runIf(process.env.TEST_DATABASE_URL)('relaxed commits (PostgreSQL)', () => {
  it('are the view counter’s connections only, and they keep the statement timeout', async () => {
    const database = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL ?? '', dataDir: null, statementTimeoutMs: 250 });
    try {
      const setting = async (db: typeof database.db) =>
        rowsOf<{ sync: string; timeout: string }>(
          await db.execute(sql`select current_setting('synchronous_commit') as sync, current_setting('statement_timeout') as timeout`),
        )[0];
      expect(await setting(database.relaxedDb)).toEqual({ sync: 'off', timeout: '250ms' });
      expect(await setting(database.db)).toEqual({ sync: 'on', timeout: '250ms' });
    } finally {
      await database.close();
    }
  });
});
