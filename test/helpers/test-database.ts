/**
 * The database a test file runs on: one per worker process (PGlite in memory by default, or a
 * PostgreSQL database cloned from the run's migrated template), emptied before each file.
 */
import { inject } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/database.js';
import { rowsOf } from '../../src/db/rows.js';
import { perProcess } from './per-process.js';
import { pgliteImage } from './pglite-image.js';

/** The connection URL of this process's PostgreSQL database, once made; null on PGlite. */
const databaseUrl = () => perProcess('testDatabaseUrl', () => ({ url: null as string | null }));

async function create(): Promise<Database> {
  const template = inject('pgTemplate');
  if (!template) {
    return openDatabase({ databaseUrl: null, dataDir: null, image: pgliteImage('migrated') });
  }
  const name = `${template.runId}_w${process.env.VITEST_POOL_ID ?? process.pid}`;
  const admin = new pg.Client({ connectionString: template.baseUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.query(`create database "${name}" template "${template.runId}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(template.baseUrl);
  url.pathname = `/${name}`;
  databaseUrl().url = url.toString();
  return openDatabase({ databaseUrl: url.toString(), dataDir: null });
}

/**
 * Another connection pool to this worker's database, as a second process would have: on
 * PostgreSQL a pool of its own, on PGlite the same instance (an embedded database has one owner).
 * Close it (when it is not the worker's own) after the app that uses it.
 */
export async function peerDatabase(): Promise<{ database: Database; own: boolean }> {
  const database = await testDatabase();
  const { url } = databaseUrl();
  if (!url) return { database, own: false };
  return { database: await openDatabase({ databaseUrl: url, dataDir: null }), own: true };
}

/** The connection URL of this worker's PostgreSQL database (after `testDatabase()`); null on PGlite. */
export function testDatabaseUrl(): string | null {
  return databaseUrl().url;
}

/** This worker's database, created on first use. */
export function testDatabase(): Promise<Database> {
  return perProcess('testDatabase', create);
}

/**
 * Empties every application table (migrations bookkeeping lives in another schema), in one
 * statement: a `delete` of each table with foreign keys and triggers off for the transaction
 * (`session_replication_role = replica`). A test file's tables hold a few rows to a few thousand,
 * and deleting them took 5-35 ms where `truncate`, which gives every table and index new files,
 * took 30-85 ms on PGlite and 90-140 ms on PostgreSQL. A role that may not set
 * `session_replication_role` (only superusers may) gets the `truncate`.
 */
export async function resetDatabase(database: Database): Promise<void> {
  try {
    await database.db.execute(
      sql.raw(`do $$
        declare t text;
        begin
          set local session_replication_role = replica;
          for t in select tablename from pg_tables where schemaname = 'public' loop
            execute format('delete from %I', t);
          end loop;
        end $$`),
    );
    return;
  } catch (error) {
    if ((error as { code?: string }).code !== '42501') throw error;
  }
  const result = await database.db.execute<{ tablename: string }>(sql`select tablename from pg_tables where schemaname = 'public'`);
  const rows = rowsOf<{ tablename: string }>(result);
  if (rows.length === 0) return;
  const list = rows.map((r) => `"${r.tablename}"`).join(', ');
  await database.db.execute(sql.raw(`truncate ${list} restart identity cascade`));
}
