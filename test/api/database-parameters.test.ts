/**
 * Parameters reach the database unchanged, whatever their size and characters. On PGlite they go
 * through Chronicle's own protocol client (src/db/pglite-client.ts `bindAndExecute`), which writes
 * the Bind message itself; on PostgreSQL through the pg driver.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { rowsOf } from '../../src/db/rows.js';
import { testDatabase } from '../helpers/test-database.js';

let database: Database;

beforeAll(async () => {
  database = await testDatabase();
});

async function echo(value: unknown, type: string): Promise<{ text: string | null; bytes: number | null }> {
  const [row] = rowsOf<{ text: string | null; bytes: number | null }>(
    await database.db.execute(
      sql`select (${value}::${sql.raw(type)})::text as "text", octet_length((${value}::${sql.raw(type)})::text) as "bytes"`,
    ),
  );
  return row!;
}

describe('statement parameters', () => {
  it.each([
    ['plain ASCII', 'Design review'],
    ['the empty string', ''],
    ['two-byte characters', 'Überprüfung, café'],
    ['three-byte characters', '会議 €'],
    ['four-byte characters (surrogate pairs)', 'Launch 🚀👩🏽‍💻'],
    ['quotes, backslashes and newlines', `it's "done" \\ c:\\path\nnext line\r\n\ttab`],
  ])('keep %s, byte for byte', async (_, value) => {
    expect(await echo(value, 'text')).toEqual({ text: value, bytes: Buffer.byteLength(value) });
  });

  it('keep a parameter of a few hundred kilobytes among others, in order', async () => {
    const big = 'é😀x'.repeat(60_000);
    const [row] = rowsOf<{ a: string; b: string | null; c: number; d: string }>(
      await database.db.execute(
        sql`select ${'first'}::text as a, ${null}::text as b, octet_length(${big}::text) as c, ${'last'}::text as d`,
      ),
    );
    expect(row).toEqual({ a: 'first', b: null, c: Buffer.byteLength(big), d: 'last' });
  });

  it('keep null, numbers, booleans, instants and arrays', async () => {
    expect((await echo(null, 'text')).text).toBeNull();
    expect((await echo(-42, 'int')).text).toBe('-42');
    expect((await echo(true, 'boolean')).text).toBe('true');
    expect((await echo(new Date('2026-06-01T09:30:00.125Z'), 'timestamptz')).text).toMatch(/^2026-06-01 09:30:00\.125(\+00)?/);
    const tags = ['a "quoted" tag', 'back\\slash', 'comma, inside', '🚀', ''];
    const [row] = rowsOf<{ tags: string[] }>(await database.db.execute(sql`select ${sql.param(tags)}::text[] as tags`));
    expect(row!.tags).toEqual(tags);
  });
});
