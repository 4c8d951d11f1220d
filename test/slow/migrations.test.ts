/** Migrations are forward-only, numbered, and safe to run again and from processes starting together. */
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { MIGRATIONS_FOLDER, openDatabase, type Database } from '../../src/db/database.js';
import { pgliteImage } from '../helpers/pglite-image.js';
import { testDatabase } from '../helpers/test-database.js';
import { rowsOf } from '../../src/db/rows.js';

const migrationFiles = readdirSync(MIGRATIONS_FOLDER)
  .filter((f) => f.endsWith('.sql'))
  .sort();

async function applied(database: Database): Promise<number> {
  const result = await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  const rows = rowsOf<{ n: number }>(result);
  return rows[0]!.n;
}

describe('migrations', () => {
  it('are numbered SQL files, in increasing order', () => {
    expect(migrationFiles.length).toBeGreaterThan(0);
    // Numbers may skip one reserved by a change that lands later; they never repeat or go back.
    const numbers = migrationFiles.map((file) => {
      expect(file).toMatch(/^\d{4}_[a-z0-9_]+\.sql$/);
      return Number(file.slice(0, 4));
    });
    expect(numbers[0]).toBe(0);
    numbers.slice(1).forEach((n, i) => {
      expect(n).toBeGreaterThan(numbers[i]!);
    });
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

/** A copy of the migrations folder whose journal stops after the first `count` migrations. */
function migrationsUpTo(count: number): string {
  const folder = mkdtempSync(join(tmpdir(), 'chronicle-migrations-'));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, count);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

/**
 * A fresh, empty database of the engine under test: a PostgreSQL database of its own, or a new
 * in-memory PGlite from the blank image (initialised, nothing migrated).
 */
async function freshDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const template = inject('pgTemplate');
  if (!template) {
    const database = await openDatabase({ databaseUrl: null, dataDir: null, image: pgliteImage('blank') });
    return { database, drop: () => database.close() };
  }
  const name = `${template.runId}_data_migration`;
  const admin = new pg.Client({ connectionString: template.baseUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(template.baseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
  return {
    database,
    drop: async () => {
      await database.close();
      await admin.query(`drop database "${name}" with (force)`);
      await admin.end();
    },
  };
}

describe('0004_recipient_rule', () => {
  it('decides restricts_recipients for rows rendered before it, and leaves the undecidable null', async () => {
    const { database, drop } = await freshDatabase();
    const folder = migrationsUpTo(4);
    try {
      await database.migrate(folder);
      await database.db.execute(sql`insert into users (id, name, email) values ('u1', 'Owner', 'owner@example.com')`);
      await database.db.execute(sql`insert into workspaces (id, name) values ('w1', 'W')`);
      // [id, snapshot_project_ids, restricting_project_ids]: what renders before 0004 stored.
      const legacy: [string, string, string][] = [
        ['unknown-scope', 'null', 'null'],
        ['no-projects', "'{}'", 'null'],
        ['own-projects-only', "'{p1}'", "'{}'"],
        ['teammate-project', "'{p1,p2}'", "'{p2}'"],
        ['undecidable', "'{p1}'", 'null'],
      ];
      for (const [id, snapshot, restricting] of legacy) {
        // The report's key to its first version is deferred: both rows go in one transaction.
        await database.db.transaction(async (tx) => {
          await tx.execute(
            sql.raw(`insert into reports (id, owner_user_id, template_id, name, filters, workspace_ids, period_from, period_to,
              snapshot_project_ids, restricting_project_ids, version, current_content_id)
              values ('${id}', 'u1', 't', '${id}', '{}', '{w1}', '2026-11-01', '2026-11-30', ${snapshot}, ${restricting}, 1, 'c-${id}')`),
          );
          await tx.execute(
            sql.raw(`insert into report_contents (id, report_id, version, rendered_markdown, total_minutes, snapshot_project_ids)
              values ('c-${id}', '${id}', 1, '# x', 0, '{}')`),
          );
        });
      }

      await database.migrate();
      const result = await database.db.execute(sql`select id, restricts_recipients from reports order by id`);
      const rows = rowsOf<{
        id: string;
        restricts_recipients: boolean | null;
      }>(result);
      expect(Object.fromEntries(rows.map((r) => [r.id, r.restricts_recipients]))).toEqual({
        'unknown-scope': null,
        'no-projects': false,
        'own-projects-only': false,
        'teammate-project': true,
        undecidable: null,
      });
      const columns = await database.db.execute(
        sql`select column_name from information_schema.columns where table_name = 'reports' and column_name = 'restricting_project_ids'`,
      );
      expect(rowsOf(columns).length).toBe(0);
    } finally {
      rmSync(folder, { recursive: true, force: true });
      await drop();
    }
  });
});

describe('0006_version_history', () => {
  it('gives existing links the number of the version they serve, and existing versions no summary', async () => {
    const { database, drop } = await freshDatabase();
    const folder = migrationsUpTo(6);
    try {
      await database.migrate(folder);
      await database.db.execute(sql`insert into users (id, name, email) values ('u1', 'Owner', 'owner@example.com')`);
      await database.db.execute(sql`insert into workspaces (id, name) values ('w1', 'W')`);
      await database.db.transaction(async (tx) => {
        await tx.execute(
          sql.raw(`insert into reports (id, owner_user_id, template_id, name, filters, workspace_ids, period_from, period_to, version, current_content_id)
            values ('r1', 'u1', 't', 'R', '{}', '{w1}', '2026-11-01', '2026-11-30', 2, 'c2')`),
        );
        for (const version of [1, 2]) {
          await tx.execute(
            sql.raw(`insert into report_contents (id, report_id, version, rendered_markdown, total_minutes, snapshot_project_ids)
              values ('c${version}', 'r1', ${version}, '# v${version}', 0, '{}')`),
          );
        }
      });
      for (const version of [1, 2]) {
        await database.db.execute(
          sql.raw(`insert into shares (id, report_id, report_content_id, created_by_user_id, token_hash, token_encrypted)
            values ('s${version}', 'r1', 'c${version}', 'u1', 'h${version}', 'e${version}')`),
        );
      }

      await database.migrate();
      const shares = rowsOf<{ id: string; version: number }>(await database.db.execute(sql`select id, version from shares order by id`));
      expect(shares).toEqual([
        { id: 's1', version: 1 },
        { id: 's2', version: 2 },
      ]);
      const summaries = rowsOf<{ summary: unknown }>(await database.db.execute(sql`select summary from report_contents`));
      expect(summaries).toEqual([{ summary: null }, { summary: null }]);
      // A link's version must be its content's.
      await expect(
        database.db.execute(
          sql.raw(`insert into shares (id, report_id, report_content_id, version, created_by_user_id, token_hash, token_encrypted)
            values ('s3', 'r1', 'c1', 2, 'u1', 'h3', 'e3')`),
        ),
      ).rejects.toThrow();
    } finally {
      rmSync(folder, { recursive: true, force: true });
      await drop();
    }
  });
});

describe('0011_billing_clients', () => {
  it('makes existing entries non-billable, existing projects clientless, existing workspaces EUR with rates for admins', async () => {
    const { database, drop } = await freshDatabase();
    const folder = migrationsUpTo(11);
    try {
      await database.migrate(folder);
      await database.db.execute(sql`insert into users (id, name, email) values ('u1', 'Owner', 'owner@example.com')`);
      await database.db.execute(sql`insert into workspaces (id, name) values ('w1', 'W')`);
      await database.db.execute(sql`insert into projects (id, workspace_id, name) values ('p1', 'w1', 'P')`);
      await database.db.execute(
        sql`insert into time_entries (id, workspace_id, project_id, user_id, start, minutes) values
          ('e1', 'w1', 'p1', 'u1', '2026-11-02T09:00:00Z', 30), ('e2', 'w1', null, 'u1', '2026-11-02T10:00:00Z', 15)`,
      );

      await database.migrate();
      const entries = rowsOf<{ id: string; billable: boolean }>(
        await database.db.execute(sql`select id, billable from time_entries order by id`),
      );
      expect(entries).toEqual([
        { id: 'e1', billable: false },
        { id: 'e2', billable: false },
      ]);
      const projects = rowsOf(await database.db.execute(sql`select client_id, billable_by_default from projects`));
      expect(projects).toEqual([{ client_id: null, billable_by_default: false }]);
      const workspaces = rowsOf(await database.db.execute(sql`select currency, rates_visible_to from workspaces`));
      expect(workspaces).toEqual([{ currency: 'EUR', rates_visible_to: 'admins' }]);

      // A client of another workspace is refused; deleting a client keeps its project, without a client.
      await database.db.execute(sql`insert into workspaces (id, name) values ('w2', 'Other')`);
      await database.db.execute(sql`insert into clients (id, workspace_id, name) values ('c1', 'w1', 'Acme'), ('c2', 'w2', 'Acme')`);
      await expect(database.db.execute(sql`update projects set client_id = 'c2' where id = 'p1'`)).rejects.toThrow();
      await database.db.execute(sql`update projects set client_id = 'c1' where id = 'p1'`);
      await expect(database.db.execute(sql`insert into clients (id, workspace_id, name) values ('c3', 'w1', 'ACME')`)).rejects.toThrow();
      await database.db.execute(sql`delete from clients where id = 'c1'`);
      const after = rowsOf(await database.db.execute(sql`select id, workspace_id, client_id from projects`));
      expect(after).toEqual([{ id: 'p1', workspace_id: 'w1', client_id: null }]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
      await drop();
    }
  });
});

describe('0012_billing_rates', () => {
  it('adds rates to an existing database: one row per level and date, keys that match the level, rows that go with their project or user', async () => {
    const { database, drop } = await freshDatabase();
    const folder = migrationsUpTo(12);
    try {
      await database.migrate(folder);
      await database.db.execute(sql`insert into users (id, name, email) values ('u1', 'Owner', 'owner@example.com')`);
      await database.db.execute(sql`insert into workspaces (id, name) values ('w1', 'W'), ('w2', 'Other')`);
      await database.db.execute(sql`insert into projects (id, workspace_id, name) values ('p1', 'w1', 'P'), ('p2', 'w2', 'Q')`);

      await database.migrate();
      const insert = (id: string, project: string | null, user: string | null, level: string, minor: number | null = 100) =>
        database.db.execute(
          sql`insert into rates (id, workspace_id, project_id, user_id, level, effective_from, currency, minor)
            values (${id}, 'w1', ${project}, ${user}, ${level}, '2026-01-01', 'EUR', ${minor})`,
        );
      await insert('r1', 'p1', 'u1', 'project_member');
      await insert('r2', 'p1', null, 'project');
      await insert('r3', null, 'u1', 'workspace_member');
      await insert('r4', null, null, 'workspace', null);
      // A second row for a level and date, null keys included, is refused.
      await expect(insert('r5', null, null, 'workspace')).rejects.toThrow();
      await expect(insert('r6', 'p1', null, 'project')).rejects.toThrow();
      // Keys that do not match the level, a project of another workspace, a bad amount or currency.
      await expect(insert('r7', 'p1', null, 'workspace')).rejects.toThrow();
      await expect(insert('r8', null, 'u1', 'project_member')).rejects.toThrow();
      await expect(insert('r9', 'p2', null, 'project')).rejects.toThrow();
      await expect(insert('r10', null, 'u1', 'other')).rejects.toThrow();
      await expect(insert('r11', 'p1', 'u1', 'project_member', -1)).rejects.toThrow();
      await expect(insert('r12', 'p1', 'u1', 'project_member', 100_000_001)).rejects.toThrow();
      await expect(
        database.db.execute(
          sql`insert into rates (id, workspace_id, level, effective_from, currency, minor) values ('r13', 'w1', 'workspace', '2026-02-01', 'eur', 1)`,
        ),
      ).rejects.toThrow();

      await database.db.execute(sql`delete from projects where id = 'p1'`);
      expect(rowsOf(await database.db.execute(sql`select id from rates order by id`))).toEqual([{ id: 'r3' }, { id: 'r4' }]);
      await database.db.execute(sql`delete from users where id = 'u1'`);
      expect(rowsOf(await database.db.execute(sql`select id from rates order by id`))).toEqual([{ id: 'r4' }]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
      await drop();
    }
  });
});

describe('0013_user_locale', () => {
  it("gives existing users the locale 'en' and bounds its length", async () => {
    const { database, drop } = await freshDatabase();
    const folder = migrationsUpTo(13);
    try {
      await database.migrate(folder);
      await database.db.execute(
        sql`insert into users (id, name, email, timezone) values ('u1', 'Owner', 'owner@example.com', 'Europe/Berlin'), ('u2', 'Member', 'member@example.com', 'UTC')`,
      );

      await database.migrate();
      const users = rowsOf(await database.db.execute(sql`select id, timezone, locale from users order by id`));
      expect(users).toEqual([
        { id: 'u1', timezone: 'Europe/Berlin', locale: 'en' },
        { id: 'u2', timezone: 'UTC', locale: 'en' },
      ]);
      await database.db.execute(sql`update users set locale = 'de-DE' where id = 'u1'`);
      await expect(database.db.execute(sql`update users set locale = '' where id = 'u1'`)).rejects.toThrow();
      await expect(database.db.execute(sql`update users set locale = ${'a'.repeat(36)} where id = 'u1'`)).rejects.toThrow();
    } finally {
      rmSync(folder, { recursive: true, force: true });
      await drop();
    }
  });
});

describe('0014_report_options', () => {
  it("gives existing reports the default options with their owner's locale", async () => {
    const { database, drop } = await freshDatabase();
    const folder = migrationsUpTo(14);
    try {
      await database.migrate(folder);
      await database.db.execute(
        sql`insert into users (id, name, email, locale) values ('u1', 'Owner', 'owner@example.com', 'de'), ('u2', 'Other', 'other@example.com', 'en')`,
      );
      await database.db.execute(sql`insert into workspaces (id, name) values ('w1', 'W')`);
      for (const [id, owner] of [
        ['r1', 'u1'],
        ['r2', 'u2'],
      ] as const) {
        // The report's key to its content is checked at commit: both rows go in one transaction.
        await database.db.transaction(async (tx) => {
          await tx.execute(sql`insert into reports (id, owner_user_id, template_id, name, filters, workspace_ids, period_from, period_to,
              version, current_content_id)
            values (${id}, ${owner}, 'builtin-timesheet', 'R', '{}'::jsonb, array['w1'], '2026-01-01', '2026-01-31', 1, ${`c-${id}`})`);
          await tx.execute(sql`insert into report_contents (id, report_id, version, rendered_markdown, total_minutes, snapshot_project_ids)
            values (${`c-${id}`}, ${id}, 1, '# R', 0, '{}')`);
        });
      }

      await database.migrate();
      const rows = rowsOf<{ id: string; options: unknown }>(await database.db.execute(sql`select id, options from reports order by id`));
      const defaults = { rounding: { mode: 'none' }, hideAmounts: false, billable: 'all', durationFormat: 'hm' };
      expect(rows).toEqual([
        { id: 'r1', options: { ...defaults, locale: 'de' } },
        { id: 'r2', options: { ...defaults, locale: 'en' } },
      ]);
      // A report written without options (a process of the earlier release, mid-upgrade) gets the defaults.
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into reports (id, owner_user_id, template_id, name, filters, workspace_ids, period_from, period_to,
            version, current_content_id)
          values ('r3', 'u1', 'builtin-timesheet', 'R', '{}'::jsonb, array['w1'], '2026-01-01', '2026-01-31', 1, 'c-r3')`);
        await tx.execute(sql`insert into report_contents (id, report_id, version, rendered_markdown, total_minutes, snapshot_project_ids)
          values ('c-r3', 'r3', 1, '# R', 0, '{}')`);
      });
      expect(rowsOf(await database.db.execute(sql`select options from reports where id = 'r3'`))).toEqual([
        { options: { ...defaults, locale: 'en' } },
      ]);
      await expect(database.db.execute(sql`update reports set options = '[]'::jsonb where id = 'r1'`)).rejects.toThrow();
      await expect(database.db.execute(sql`update reports set options = null where id = 'r1'`)).rejects.toThrow();
    } finally {
      rmSync(folder, { recursive: true, force: true });
      await drop();
    }
  });
});

describe('0024_document_storage', () => {
  it('stores datasets as they are, and documents with LZ4 where the server has it', async () => {
    const database = await testDatabase();
    const settings = rowsOf<{ lz4: boolean }>(
      await database.db.execute(sql`select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`),
    );
    const lz4 = settings[0]!.lz4;
    const columns = rowsOf<{ name: string; storage: string; compression: string }>(
      await database.db.execute(sql`
        select c.relname || '.' || a.attname as name, a.attstorage as storage, a.attcompression::text as compression
        from pg_attribute a join pg_class c on c.oid = a.attrelid
        where c.relname in ('report_datasets', 'report_contents') and a.attname in ('data', 'rendered_markdown', 'summary')
        order by 1`),
    );
    const method = lz4 ? 'l' : '';
    expect(columns).toEqual([
      { name: 'report_contents.rendered_markdown', storage: 'x', compression: method },
      { name: 'report_contents.summary', storage: 'x', compression: method },
      { name: 'report_datasets.data', storage: 'e', compression: '' },
    ]);
  });
});
