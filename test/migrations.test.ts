/** Migrations are forward-only, numbered, and safe to run again and from processes starting together. */
import { readdirSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { MIGRATIONS_FOLDER, openDatabase, type Database } from '../src/db/database.js';
import { testDatabase } from './helpers/test-database.js';

const migrationFiles = readdirSync(MIGRATIONS_FOLDER).filter((f) => f.endsWith('.sql')).sort();

async function applied(database: Database): Promise<number> {
  const result = await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { n: number }[];
  return rows[0]!.n;
}

describe('migrations', () => {
  it('are numbered SQL files', () => {
    expect(migrationFiles.length).toBeGreaterThan(0);
    migrationFiles.forEach((file, i) => expect(file).toMatch(new RegExp(`^${String(i).padStart(4, '0')}_[a-z0-9_]+\\.sql$`)));
  });

  it('run again without effect', async () => {
    const database = await testDatabase();
    await database.migrate();
    await database.migrate();
    expect(await applied(database)).toBe(migrationFiles.length);
  });

  it.runIf(inject('pgTemplate'))('serialise when two processes migrate one fresh PostgreSQL database at once', async () => {
    const template = inject('pgTemplate')!;
    const name = `${template.runId}_migrate_race`;
    const admin = new pg.Client({ connectionString: template.baseUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const url = new URL(template.baseUrl);
    url.pathname = `/${name}`;
    const a = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
    const b = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
    try {
      await Promise.all([a.migrate(), b.migrate()]);
      expect(await applied(a)).toBe(migrationFiles.length);
    } finally {
      await a.close();
      await b.close();
      await admin.query(`drop database "${name}" with (force)`);
      await admin.end();
    }
  });
});
