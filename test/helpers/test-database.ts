/**
 * The database a test file runs on: one per worker process (PGlite in memory by default, or a
 * PostgreSQL database cloned from the run's migrated template), emptied before each file.
 */
import { inject } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/database.js';
import { rowsOf } from '../../src/db/rows.js';

const KEY = Symbol.for('chronicle.testDatabase');
type Holder = { [KEY]?: Promise<Database> };

async function create(): Promise<Database> {
  const template = inject('pgTemplate');
  if (!template) {
    const database = await openDatabase({ databaseUrl: null, dataDir: null });
    await database.migrate();
    return database;
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
  return openDatabase({ databaseUrl: url.toString(), dataDir: null });
}

/** This worker's database, created on first use. */
export function testDatabase(): Promise<Database> {
  const holder = globalThis as Holder;
  holder[KEY] ??= create();
  return holder[KEY];
}

/** Empties every application table (migrations bookkeeping lives in another schema). */
export async function resetDatabase(database: Database): Promise<void> {
  const result = await database.db.execute<{ tablename: string }>(sql`select tablename from pg_tables where schemaname = 'public'`);
  const rows = rowsOf<{ tablename: string }>(result);
  if (rows.length === 0) return;
  const list = rows.map((r) => `"${r.tablename}"`).join(', ');
  await database.db.execute(sql.raw(`truncate ${list} restart identity cascade`));
}
