/**
 * The PGlite protocol client (src/db/pglite-client.ts) on an in-memory PGlite of its own, wired to
 * Drizzle as src/db/database.ts wires it, both in the thread that owns the engine and from another
 * thread (src/db/pglite-thread.ts, as the server runs it): parameters reach the engine unchanged, rows come back as
 * PGlite's own `query` gives them, errors keep their SQLSTATE and leave the client usable, each SQL
 * text is prepared once, and concurrent callers run one after the other.
 *
 * Skipped when the run is on PostgreSQL (TEST_DATABASE_URL): the client serves PGlite alone, and
 * the run without it covers it.
 */
import { PGlite, protocol, type Results } from '@electric-sql/pglite';
import { asc, eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { boolean, date, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pgConstraint, pgErrorCode } from '../../src/db/errors.js';
import { answersWithError, bindAndExecute, protocolRunner, type DrizzlePgliteClient } from '../../src/db/pglite-client.js';
import { inProcessClient } from '../helpers/pglite-in-process.js';
import { pgliteFromImage, pgliteImage } from '../helpers/pglite-image.js';
import { startPgliteThread } from '../../src/db/pglite-thread.js';
import { rowsOf } from '../../src/db/rows.js';

/** The column kinds Chronicle's schema uses (src/db/schema.ts), on tables of this file's own. */
const parents = pgTable('parents', { id: text('id').primaryKey() });
const items = pgTable('items', {
  id: serial('id').primaryKey(),
  parentId: text('parent_id').references(() => parents.id),
  name: text('name').notNull().unique(),
  minutes: integer('minutes'),
  done: boolean('done').notNull().default(false),
  start: timestamp('start', { withTimezone: true, precision: 3, mode: 'date' }),
  period: date('period', { mode: 'string' }),
  tags: text('tags')
    .array()
    .notNull()
    .default(sql`'{}'`),
  data: jsonb('data'),
});
const log = pgTable('log', { seq: serial('seq').primaryKey(), who: text('who').notNull() });
const counter = pgTable('counter', { id: integer('id').primaryKey(), n: integer('n').notNull() });

const DDL = `
  create table parents (id text primary key);
  create table items (
    id serial primary key,
    parent_id text constraint items_parent_id_fkey references parents (id),
    name text not null constraint items_name_unique unique,
    minutes integer,
    done boolean not null default false,
    start timestamptz(3),
    period date,
    tags text[] not null default '{}',
    data jsonb
  );
  create table log (seq serial primary key, who text not null);
  create table counter (id integer primary key, n integer not null);`;

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/** The client under test, with PGlite's own API on the same engine for setting up and looking in. */
interface Engine {
  client: DrizzlePgliteClient;
  exec(text: string): Promise<unknown>;
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[]; fields: { name: string }[] }>;
  /** PGlite's own query on an engine of its own: what the client's rows must equal. */
  own(text: string, params: unknown[], options?: Parameters<PGlite['query']>[2]): Promise<Results<unknown>>;
  close(): Promise<void>;
}

const ENGINES: [string, () => Promise<Engine>][] = [
  [
    'in the thread that owns PGlite',
    async () => {
      const pg = await pgliteFromImage('blank');
      return {
        client: inProcessClient(pg),
        exec: (text) => pg.exec(text),
        query: (text, params) => pg.query(text, params),
        own: (text, params, options) => pg.query(text, params, options),
        close: () => pg.close(),
      };
    },
  ],
  [
    'from the server’s thread, PGlite in its own (pglite-thread.ts)',
    async () => {
      const thread = await startPgliteThread(null, pgliteImage('blank'));
      const reference = await pgliteFromImage('blank');
      return {
        client: thread.client,
        exec: (text) => thread.script(text),
        query: (text, params = []) => thread.query(text, params),
        own: (text, params, options) => reference.query(text, params, options),
        close: async () => {
          await thread.close();
          await reference.close();
        },
      };
    },
  ],
];

describe.skipIf(onPostgres)('an answer’s bytes', () => {
  it('tell a failure (an ErrorResponse among the messages) from rows, without reading the rows', async () => {
    const pg = await pgliteFromImage('blank');
    try {
      const runner = protocolRunner(pg);
      const rows = await runner.run("select generate_series(1, 3) as n, repeat('E', 100) as e", []);
      expect(answersWithError(rows)).toBe(false);
      expect(answersWithError(await runner.run('select 1 / $1::int as n', ['1']))).toBe(false);
      expect(answersWithError(await runner.run('select 1 / $1::int as n', ['0']))).toBe(true);
      // The answer is a buffer of its own (transferable), not a view of the engine's memory or of Node's pool.
      expect(rows.byteOffset).toBe(0);
      expect(rows.buffer.byteLength).toBe(rows.byteLength);
    } finally {
      await pg.close();
    }
  });
});

describe.skipIf(onPostgres).each(ENGINES)('the PGlite protocol client, %s', (_, open) => {
  let pg: Engine;
  let client: DrizzlePgliteClient;
  let db: ReturnType<typeof drizzle<{ parents: typeof parents; items: typeof items; log: typeof log; counter: typeof counter }>>;

  beforeAll(async () => {
    pg = await open();
    await pg.exec(DDL);
    client = pg.client;
    db = drizzle(client as unknown as PGlite, { schema: { parents, items, log, counter } });
  });
  afterAll(async () => {
    await pg.close();
  });
  beforeEach(async () => {
    await pg.exec('truncate items, parents, log, counter restart identity cascade');
  });

  async function one<T>(text: string, params: unknown[] = []): Promise<T> {
    const { rows } = await client.query<T>(text, params);
    expect(rows).toHaveLength(1);
    return rows[0]!;
  }

  /** The error a promise rejects with (it must reject). */
  async function failure(promise: Promise<unknown>): Promise<unknown> {
    return promise.then(
      () => expect.fail('expected the statement to fail'),
      (error: unknown) => error,
    );
  }

  /** Named statements the engine holds for the client; `text` narrows to one SQL text. Asked through PGlite's own query. */
  async function serverStatements(text?: string): Promise<string[]> {
    const { rows } = await pg.query(
      `select name from pg_prepared_statements where name like 'chronicle\\_%' and ($1::text is null or statement = $1::text)`,
      [text ?? null],
    );
    return (rows as { name: string }[]).map((r) => r.name);
  }

  async function stillUsable(): Promise<void> {
    expect(await one<{ ok: number }>('select 1 as ok')).toEqual({ ok: 1 });
  }

  describe('bindAndExecute', () => {
    it('writes one Bind with each value in text form and its length in bytes, then Describe, Execute and Sync', () => {
      const values = ['é😀', null, '', 'x'.repeat(70_000), '\uFFFF'];
      const message = Buffer.from(bindAndExecute('chronicle_7', values));
      let at = 0;
      const cString = () => {
        const end = message.indexOf(0, at);
        const s = message.toString('utf8', at, end);
        at = end + 1;
        return s;
      };
      expect(String.fromCharCode(message[0]!)).toBe('B');
      const length = message.readInt32BE(1);
      at = 5;
      expect(cString()).toBe(''); // the unnamed portal
      expect(cString()).toBe('chronicle_7');
      expect(message.readInt16BE(at)).toBe(0); // no format codes: every parameter is text
      expect(message.readUInt16BE(at + 2)).toBe(values.length);
      at += 4;
      const read: (string | null)[] = [];
      for (let i = 0; i < values.length; i++) {
        const n = message.readInt32BE(at);
        at += 4;
        read.push(n === -1 ? null : message.toString('utf8', at, at + n));
        at += Math.max(n, 0);
      }
      expect(read).toEqual(values);
      expect(message.readInt16BE(at)).toBe(0); // no format codes: every result column is text
      at += 2;
      expect(at).toBe(1 + length);
      const { serialize } = protocol;
      const tail = Buffer.concat([serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]);
      expect(message.subarray(at)).toEqual(tail);
    });
  });

  describe('parameters', () => {
    it.each([
      ['plain ASCII', 'Design review'],
      ['the empty string', ''],
      ['two- and three-byte characters', 'Überprüfung, café, 会議 €'],
      ['emoji (surrogate pairs, a ZWJ sequence)', 'Launch 🚀👩🏽‍💻'],
      ['U+FFFF and U+FFFD', '\uFFFF\uFFFD'],
      ['combining marks and right-to-left text', 'e\u0301 שלום'],
      ['quotes, backslashes, newlines and tabs', `it's "done" \\ c:\\path\nnext\r\n\ttab`],
      ['what looks like SQL or an array literal', `'); drop table items; -- {a,"b"} NULL`],
    ])('keep %s, byte for byte', async (_, value) => {
      expect(await one('select $1::text as v, octet_length($1::text) as n', [value])).toEqual({ v: value, n: Buffer.byteLength(value) });
    });

    it('keep a string of a mebibyte among other parameters, in order', async () => {
      const big = 'é😀x'.repeat(150_000);
      const row = await one(
        'select $1::text as a, $2::text as b, octet_length($3::text) as n, $3::text = $4::text as same, $5::text as z',
        ['first', null, big, big, 'last'],
      );
      expect(row).toEqual({ a: 'first', b: null, n: Buffer.byteLength(big), same: true, z: 'last' });
    });

    it('write a lone surrogate (not valid UTF-16) as U+FFFD, as every UTF-8 encoder does', async () => {
      expect(await one('select $1::text as v', ['a\uD800b'])).toEqual({ v: 'a\uFFFDb' });
    });

    it('refuse a NUL character with 22021 (PostgreSQL text cannot hold one)', async () => {
      expect(pgErrorCode(await failure(client.query('select $1::text as v', ['a\u0000b'])))).toBe('22021');
      await stillUsable();
    });

    it('send null and undefined as SQL NULL', async () => {
      expect(await one('select $1::text is null as a, $2::int is null as b', [null, undefined])).toEqual({ a: true, b: true });
    });

    it('send integers, and bigints beyond 2^53 exactly', async () => {
      expect(
        await one('select $1::int as a, $2::int as b, $3::int as c, $4::bigint as d', [0, -42, 2_147_483_647, 9_007_199_254_740_993n]),
      ).toEqual({
        a: 0,
        b: -42,
        c: 2_147_483_647,
        d: 9_007_199_254_740_993n,
      });
      expect(pgErrorCode(await failure(client.query('select $1::int as v', [2_147_483_648])))).toBe('22003');
    });

    it('send booleans as PostgreSQL and node-postgres spell them, whatever type the server infers', async () => {
      expect(await one('select $1::boolean as a, $2::boolean as b, $3::text as c, $4::jsonb as d', [true, false, false, true])).toEqual({
        a: true,
        b: false,
        c: 'false',
        d: true,
      });
    });

    it('send timestamptz from ISO strings (any offset) and from Dates, to the millisecond', async () => {
      const row = await one<{ a: Date; b: Date; c: Date; same: boolean }>(
        'select $1::timestamptz as a, $2::timestamptz as b, $3::timestamptz as c, $1::timestamptz = $2::timestamptz as same',
        ['2026-06-01T09:30:00.125Z', '2026-06-01T11:30:00.125+02:00', new Date('2026-06-01T09:30:00.125Z')],
      );
      expect(row.same).toBe(true);
      for (const at of [row.a, row.b, row.c]) expect(at.toISOString()).toBe('2026-06-01T09:30:00.125Z');
    });

    it('send text[] arrays whose items hold commas, quotes, backslashes, braces, spaces and the word NULL', async () => {
      const tags = ['a,b', 'a "quoted" tag', 'back\\slash', '\\"', '{braces}', ' spaced ', '', 'NULL', 'null', '🚀', 'é\uFFFF'];
      expect(await one('select $1::text[] as tags, cardinality($1::text[]) as n', [tags])).toEqual({ tags, n: tags.length });
    });

    it('send a null item as NULL, the empty array as {}, int[] and nested arrays', async () => {
      expect(
        await one('select $1::text[] as a, $2::text[] as b, cardinality($2::text[]) as n, $3::int[] as c, $4::int[] as d', [
          ['x', null, 'NULL'],
          [],
          [1, -2, 3],
          [
            [1, 2],
            [3, 4],
          ],
        ]),
      ).toEqual({
        a: ['x', null, 'NULL'],
        b: [],
        n: 0,
        c: [1, -2, 3],
        d: [
          [1, 2],
          [3, 4],
        ],
      });
    });

    it('send jsonb as Chronicle does (a JSON string, as the batch insert sends its rows) and plain objects as JSON', async () => {
      const rows = [
        { k: 0, description: 'é😀 "quoted" \\ \n', tags: ['a,b', 'NULL'], minutes: 30 },
        { k: 1, description: '\uFFFF', tags: [], minutes: null },
      ];
      const { rows: back } = await client.query<{ k: number; description: string; tags: string[]; minutes: number | null }>(
        'select * from jsonb_to_recordset($1::jsonb) as v(k int, description text, tags text[], minutes int) order by k',
        [JSON.stringify(rows)],
      );
      expect(back).toEqual(rows);
      expect(await one('select $1::jsonb as doc', [{ a: [1, 'é'], b: { c: null } }])).toEqual({ doc: { a: [1, 'é'], b: { c: null } } });
    });

    it('send a JavaScript array as a PostgreSQL array literal, as node-postgres does, even where jsonb is expected', async () => {
      // Chronicle sends jsonb as a JSON string (JSON.stringify), never as an array.
      expect(pgErrorCode(await failure(client.query('select $1::jsonb as doc', [[1, 2]])))).toBe('22P02');
      await stillUsable();
    });

    it('send bytea from a Uint8Array (Chronicle stores none, the client supports it)', async () => {
      const bytes = new Uint8Array([0, 1, 0x7f, 0xfe, 0xff]);
      expect(await one('select $1::bytea as b, length($1::bytea) as n', [bytes])).toEqual({ b: bytes, n: 5 });
    });

    it('send up to 65,535 parameters (the protocol limit), and refuse more without breaking the client', async () => {
      const values = Array.from({ length: 40_000 }, (_, i) => i % 7);
      const placeholders = values.map((_, i) => `$${i + 1}::int`).join(',');
      expect(await one(`select cardinality(array[${placeholders}]) as n, (array[${placeholders}])[40000] as last`, values)).toEqual({
        n: 40_000,
        last: values[39_999],
      });
      // More cannot be written into a Bind message: refused before anything is sent.
      await expect(
        client.query(
          'select $1::int as n',
          Array.from({ length: 65_536 }, () => 1),
        ),
      ).rejects.toThrow(RangeError);
      await stillUsable();
    });

    it('reject a wrong number of parameters with 08P01, the client staying usable', async () => {
      expect(pgErrorCode(await failure(client.query('select $1::int as a', [1, 2])))).toBe('08P01');
      expect(pgErrorCode(await failure(client.query('select $1::int as a, $2::int as b', [1])))).toBe('08P01');
      await stillUsable();
    });
  });

  describe('results', () => {
    const EVERY_TYPE = `select 1::int as int4, 2::smallint as int2, 42::bigint as int8, 9007199254740993::bigint as huge,
      count(*) over () as total, 1.50::numeric as num, 0.5::float8 as f8, true as yes, 'x'::text as txt, 'y'::varchar as vc,
      '2026-06-01 09:30:00.125+00'::timestamptz as at, '2026-06-01 09:30:00'::timestamp as local, '2026-06-01'::date as day,
      '1 day 02:00'::interval as span, '{a,"b,c",NULL}'::text[] as tags, '{1,2}'::int[] as ints, '{}'::text[] as none,
      array['2026-06-01 09:30:00+00'::timestamptz] as ats, '{"a":[1,"é"],"b":null}'::jsonb as doc, '{"b":1}'::json as plain,
      '\\x00ff'::bytea as raw, null::text as nothing, null::int[] as no_ints, '0190a3a4-8f0e-7c1a-9b2d-3e4f5a6b7c8d'::uuid as id`;

    it('are the rows and fields of PGlite’s own query, in object and array mode, with and without the caller’s parsers', async () => {
      const drizzleParsers = { [1184]: (value: string) => value, [1082]: (value: string) => value, [1185]: (value: string) => value };
      for (const options of [undefined, { rowMode: 'array' as const }, { rowMode: 'array' as const, parsers: drizzleParsers }]) {
        const ours = await client.query(EVERY_TYPE, [], options);
        const own = await pg.own(EVERY_TYPE, [], options);
        expect(ours.rows).toEqual(own.rows);
        expect(ours.fields).toEqual(own.fields);
      }
    });

    it('parse each type as Chronicle expects: numbers, counts as numbers, Dates, arrays, json, bytes', async () => {
      expect(await one(EVERY_TYPE)).toEqual({
        int4: 1,
        int2: 2,
        int8: 42,
        huge: 9_007_199_254_740_993n,
        total: 1,
        num: '1.50',
        f8: 0.5,
        yes: true,
        txt: 'x',
        vc: 'y',
        at: new Date('2026-06-01T09:30:00.125Z'),
        local: expect.any(Date),
        day: expect.any(Date),
        span: '1 day 02:00:00',
        tags: ['a', 'b,c', null],
        ints: [1, 2],
        none: [],
        ats: [new Date('2026-06-01T09:30:00Z')],
        doc: { a: [1, 'é'], b: null },
        plain: { b: 1 },
        raw: new Uint8Array([0, 0xff]),
        nothing: null,
        no_ints: null,
        id: '0190a3a4-8f0e-7c1a-9b2d-3e4f5a6b7c8d',
      });
    });

    it('never hand NULL to a parser, and let the caller’s parsers win over PGlite’s', async () => {
      const seen: string[] = [];
      const { rows } = await client.query<[string, string | null]>("select '2026-06-01 09:30:00+00'::timestamptz, null::timestamptz", [], {
        rowMode: 'array',
        parsers: { [1184]: (value: string) => (seen.push(value), `parsed ${value}`) },
      });
      expect(rows).toEqual([['parsed 2026-06-01 09:30:00+00', null]]);
      expect(seen).toEqual(['2026-06-01 09:30:00+00']);
    });

    it('through Drizzle: instants as Dates, dates as strings, arrays, jsonb, booleans, and counts as numbers', async () => {
      await db.insert(items).values({
        name: 'a',
        minutes: 30,
        done: true,
        start: new Date('2026-06-01T09:30:00.125Z'),
        period: '2026-06-01',
        tags: ['x', 'a,b'],
        data: { summary: 'é😀', n: [1, 2] },
      });
      const [row] = await db.select().from(items);
      expect(row).toEqual({
        id: 1,
        parentId: null,
        name: 'a',
        minutes: 30,
        done: true,
        start: new Date('2026-06-01T09:30:00.125Z'),
        period: '2026-06-01',
        tags: ['x', 'a,b'],
        data: { summary: 'é😀', n: [1, 2] },
      });
      expect(await db.$count(items)).toBe(1);
      // A raw statement keeps timestamptz as PostgreSQL writes it (Drizzle's parsers) and counts as numbers (PGlite's).
      const raw = rowsOf(await db.execute(sql`select ${items.start} as "start", count(*) as "n" from ${items} group by ${items.start}`));
      expect(raw).toEqual([{ start: '2026-06-01 09:30:00.125+00', n: 1 }]);
    });

    it('are empty with their fields still described when nothing matches', async () => {
      const result = await client.query('select id, name from items where id = $1', [404]);
      expect(result.rows).toEqual([]);
      expect(result.fields).toEqual([
        { name: 'id', dataTypeID: 23 },
        { name: 'name', dataTypeID: 25 },
      ]);
      expect(await db.select().from(items).where(eq(items.id, 404))).toEqual([]);
    });

    it('count the rows an insert, update or delete touched in affectedRows (a select or DDL counts none)', async () => {
      const affected = async (text: string, params: unknown[] = []) => (await client.query(text, params)).affectedRows;
      expect(await affected("insert into items (name) values ('a'), ('b'), ('c')")).toBe(3);
      expect(await affected('update items set minutes = $1 where name <> $2', [5, 'c'])).toBe(2);
      expect(await affected('update items set minutes = 1 where false')).toBe(0);
      expect(await affected('delete from items where name = $1', ['a'])).toBe(1);
      expect(await affected('select * from items')).toBe(0);
      expect(await affected('create temporary table scratch (x int)')).toBe(0);
      const returning = await client.query('insert into items (name) values ($1) returning name', ['d']);
      expect(returning.rows).toEqual([{ name: 'd' }]);
      expect(returning.affectedRows).toBe(1);
    });

    it('are unaffected by notices and warnings, which are not reported', async () => {
      const result = await client.query("do $$ begin raise notice 'hello'; raise warning 'careful'; end $$");
      expect(result).toEqual({ rows: [], fields: [], affectedRows: 0 });
      await client.query('create table if not exists items (id int)'); // NOTICE: relation "items" already exists, skipping
      expect(await one("select set_config('application_name', 'chronicle', false) as v")).toEqual({ v: 'chronicle' });
    });
  });

  describe('errors', () => {
    it.each([
      ['23505 (unique)', "insert into items (name) values ('dup'), ('dup')", '23505'],
      ['23503 (foreign key)', "insert into items (name, parent_id) values ('orphan', 'nobody')", '23503'],
      ['22P02 (invalid text)', "select 'x'::int", '22P02'],
      ['42601 (syntax)', 'selec 1', '42601'],
      ['42P01 (no such table)', 'select * from nowhere', '42P01'],
      ['42601 (two statements in one)', 'select 1; select 2', '42601'],
    ])('surface %s with its SQLSTATE, the client staying usable', async (_, text, code) => {
      const error = await failure(client.query(text));
      expect(error).toMatchObject({ code });
      await stillUsable();
      // And again: a failed statement is never remembered as prepared, so it fails the same way.
      expect(await failure(client.query(text))).toMatchObject({ code });
      await stillUsable();
    });

    it('reach Chronicle through Drizzle’s wrapper with their SQLSTATE and constraint', async () => {
      await db.insert(parents).values({ id: 'p' });
      await db.insert(items).values({ name: 'taken', parentId: 'p' });
      const duplicate = await failure(db.insert(items).values({ name: 'taken' }));
      expect([pgErrorCode(duplicate), pgConstraint(duplicate)]).toEqual(['23505', 'items_name_unique']);
      const orphan = await failure(db.insert(items).values({ name: 'orphan', parentId: 'nobody' }));
      expect([pgErrorCode(orphan), pgConstraint(orphan)]).toEqual(['23503', 'items_parent_id_fkey']);
      expect(await db.select({ name: items.name }).from(items)).toEqual([{ name: 'taken' }]);
    });

    it('leave concurrent callers their own results when some statements fail', async () => {
      const outcomes = await Promise.allSettled(
        Array.from({ length: 30 }, (_, i) => client.query<{ n: number }>('select $1::int * 2 as n', [i % 3 === 0 ? 'not a number' : i])),
      );
      outcomes.forEach((outcome, i) => {
        if (i % 3 === 0) expect(outcome).toMatchObject({ status: 'rejected', reason: { code: '22P02' } });
        else expect(outcome).toMatchObject({ status: 'fulfilled', value: { rows: [{ n: 2 * i }] } });
      });
    });

    it('report a statement PGlite fails to prepare without saying why (operators nested 3,000 deep), and do not remember it', async () => {
      // PGlite 0.5 answers Parse with ReadyForQuery alone past a few hundred nested operators on
      // a process's main thread, past one or two thousand in a worker thread (PostgreSQL reports
      // 54001 far deeper): the statement does not exist, so it must not be remembered.
      const deep = `select ${Array.from({ length: 3_000 }, () => '1').join(' + ')} as n`;
      for (let i = 0; i < 2; i++) await expect(client.query(deep)).rejects.toThrow(/did not prepare the statement/);
      expect(await serverStatements(deep)).toEqual([]);
      expect(await one(`select ${Array.from({ length: 100 }, () => '1').join(' + ')} as n`)).toEqual({ n: 100 });
    });
  });

  describe('prepared statements', () => {
    it('prepare a SQL text once and execute it many times with different parameters', async () => {
      const text = 'select $1::int + $2::int as sum, $3::text as label';
      for (let i = 0; i < 200; i++) expect(await one(text, [i, 1, `n${i}`])).toEqual({ sum: i + 1, label: `n${i}` });
      expect(await serverStatements(text)).toHaveLength(1);
    });

    it('keep two texts under two names, alternating', async () => {
      const a = 'select $1::text as a';
      const b = 'select $1::int as b';
      for (let i = 0; i < 10; i++) {
        expect(await one(a, [`x${i}`])).toEqual({ a: `x${i}` });
        expect(await one(b, [i])).toEqual({ b: i });
      }
      const [nameA, nameB] = [await serverStatements(a), await serverStatements(b)];
      expect(nameA).toHaveLength(1);
      expect(nameB).toHaveLength(1);
      expect(nameA[0]).not.toBe(nameB[0]);
    });

    it('run Drizzle prepared queries with placeholders; the name given to prepare() is not used, the SQL text is the key', async () => {
      await db.insert(items).values([{ name: 'a' }, { name: 'b' }]);
      const byName = db
        .select({ id: items.id })
        .from(items)
        .where(eq(items.name, sql.placeholder('name')))
        .prepare('lookup');
      // The same name for another statement: node-postgres would refuse it on a connection that
      // has the first ("Prepared statements must be unique"); here each keeps its own SQL text.
      const byId = db
        .select({ name: items.name })
        .from(items)
        .where(eq(items.id, sql.placeholder('id')))
        .prepare('lookup');
      for (let i = 0; i < 5; i++) {
        expect(await byName.execute({ name: 'b' })).toEqual([{ id: 2 }]);
        expect(await byId.execute({ id: 1 })).toEqual([{ name: 'a' }]);
      }
      expect(await byName.execute({ name: 'nobody' })).toEqual([]);
      // One SQL text under two Drizzle names shares one server statement.
      const again = db
        .select({ id: items.id })
        .from(items)
        .where(eq(items.name, sql.placeholder('name')))
        .prepare('lookup_again');
      expect(await again.execute({ name: 'a' })).toEqual([{ id: 1 }]);
      expect(await serverStatements(byName.getQuery().sql)).toHaveLength(1);
    });

    it('keep the 500 most recently used statements and close the others', async () => {
      const flood = Array.from({ length: 500 }, (_, i) => `select ${i} as flood_${i}`);
      for (const text of flood) await client.query(text);
      // Every statement made before the flood has been evicted; the cache holds the flood, oldest first.
      await client.query(flood[0]!); // now the most recently used
      await client.query('select 1 as after_flood_1'); // evicts flood[1], the least recently used
      await client.query('select 1 as after_flood_2'); // closes flood[1], evicts flood[2]
      expect(await serverStatements(flood[0])).toHaveLength(1);
      expect(await serverStatements(flood[1])).toEqual([]);
      expect((await serverStatements()).length).toBeLessThanOrEqual(501);
      // An evicted text is simply prepared again.
      expect(await one(flood[1]!)).toEqual({ flood_1: 1 });
      expect(await serverStatements(flood[1])).toHaveLength(1);
    });

    it('keep a statement failing with 0A000 once DDL changes its result columns (Chronicle changes its schema only by migrations, at start-up)', async () => {
      await pg.exec('create table shape (a int)');
      const text = 'select * from shape';
      expect((await client.query(text)).fields.map((f) => f.name)).toEqual(['a']);
      await pg.exec('alter table shape add column b int');
      // PostgreSQL does not re-plan a named statement whose result type changed; PGlite's own
      // query, with the unnamed statement, prepares afresh each time.
      for (let i = 0; i < 2; i++) expect(pgErrorCode(await failure(client.query(text)))).toBe('0A000');
      expect((await pg.query(text)).fields.map((f) => f.name)).toEqual(['a', 'b']);
      await pg.exec('drop table shape');
    });

    it('fail with 42P05 when the name it picks already holds other SQL, then go on with the next name', async () => {
      // Names are chronicle_1, chronicle_2, ... per client, so a second client on the same PGlite
      // would collide with the first this way: database.ts makes one client per PGlite.
      await client.query('select 1 as latest');
      const latest = Math.max(...(await serverStatements()).map((name) => Number(name.slice('chronicle_'.length))));
      const taken = `chronicle_${latest + 1}`;
      await pg.exec(`prepare ${taken} as select 'other SQL'`);
      expect(pgErrorCode(await failure(client.query('select 2 as collides')))).toBe('42P05');
      expect(await one('select 2 as collides')).toEqual({ collides: 2 });
      expect(await serverStatements('select 2 as collides')).toEqual([`chronicle_${latest + 2}`]);
      await pg.exec(`deallocate ${taken}`);
    });
  });

  describe('transactions', () => {
    it('commit what the work did', async () => {
      const result = await db.transaction(async (tx) => {
        await tx.insert(log).values([{ who: 'a' }, { who: 'b' }]);
        return (await tx.select().from(log)).length;
      });
      expect(result).toBe(2);
      expect(await db.select({ who: log.who }).from(log).orderBy(asc(log.seq))).toEqual([{ who: 'a' }, { who: 'b' }]);
    });

    it('roll back everything when a statement fails, rethrowing its SQLSTATE', async () => {
      const error = await failure(
        db.transaction(async (tx) => {
          await tx.insert(log).values({ who: 'lost' });
          await tx.insert(items).values({ name: 'orphan', parentId: 'nobody' });
        }),
      );
      expect(pgErrorCode(error)).toBe('23503');
      expect(await db.select().from(log)).toEqual([]);
      await stillUsable();
    });

    it('roll back on tx.rollback()', async () => {
      await expect(
        db.transaction(async (tx) => {
          await tx.insert(log).values({ who: 'lost' });
          tx.rollback();
        }),
      ).rejects.toThrow('Rollback');
      expect(await db.select().from(log)).toEqual([]);
    });

    it('refuse to commit work that swallowed a failed statement (25P02)', async () => {
      const error = await failure(
        db.transaction(async (tx) => {
          await tx.insert(log).values({ who: 'lost' });
          const inner = await failure(tx.insert(items).values({ name: 'orphan', parentId: 'nobody' }));
          expect(pgErrorCode(inner)).toBe('23503');
          expect(pgErrorCode(await failure(tx.select().from(log)))).toBe('25P02');
        }),
      );
      expect(pgErrorCode(error)).toBe('25P02');
      expect(await db.select().from(log)).toEqual([]);
      await stillUsable();
    });

    it('nest as Drizzle does, with savepoints: a failed inner transaction undoes only its own work', async () => {
      await db.transaction(async (tx) => {
        await tx.insert(log).values({ who: 'outer' });
        await tx.transaction(async (inner) => {
          await inner.insert(log).values({ who: 'kept' });
        });
        const error = await failure(
          tx.transaction(async (inner) => {
            await inner.insert(log).values({ who: 'undone' });
            await inner.insert(items).values({ name: 'orphan', parentId: 'nobody' });
          }),
        );
        expect(pgErrorCode(error)).toBe('23503');
        await tx.insert(log).values({ who: 'after' });
      });
      expect((await db.select({ who: log.who }).from(log).orderBy(asc(log.seq))).map((r) => r.who)).toEqual(['outer', 'kept', 'after']);
    });

    it('share prepared statements with queries outside a transaction', async () => {
      const text = 'select $1::text as inside';
      await one(text, ['out']);
      await client.transaction(async (tx) => {
        expect((await tx.query(text, ['in'])).rows).toEqual([{ inside: 'in' }]);
      });
      expect(await serverStatements(text)).toHaveLength(1);
    });

    it('refuse a query through a transaction that has ended', async () => {
      let ended: Parameters<Parameters<DrizzlePgliteClient['transaction']>[0]>[0] | undefined;
      await client.transaction(async (tx) => {
        ended = tx;
      });
      await expect(Promise.resolve().then(() => ended!.query('select 1'))).rejects.toThrow('Transaction is closed');
      await stillUsable();
    });
  });

  describe('concurrent callers', () => {
    it('run two transactions started at once one after the other, without interleaving or losing an update', async () => {
      await db.insert(counter).values({ id: 1, n: 0 });
      const events: string[] = [];
      const work = (who: string) =>
        db.transaction(async (tx) => {
          events.push(`${who} begins`);
          const [row] = await tx.select({ n: counter.n }).from(counter).where(eq(counter.id, 1));
          await tx.insert(log).values({ who: `${who}1` });
          await tx.insert(log).values({ who: `${who}2` });
          await tx
            .update(counter)
            .set({ n: row!.n + 1 })
            .where(eq(counter.id, 1));
          events.push(`${who} ends`);
        });
      await Promise.all([work('a'), work('b')]);
      const order = (await db.select({ who: log.who }).from(log).orderBy(asc(log.seq))).map((r) => r.who);
      expect([
        ['a1', 'a2', 'b1', 'b2'],
        ['b1', 'b2', 'a1', 'a2'],
      ]).toContainEqual(order);
      expect(events).toEqual(
        order[0] === 'a1' ? ['a begins', 'a ends', 'b begins', 'b ends'] : ['b begins', 'b ends', 'a begins', 'a ends'],
      );
      expect(await db.select({ n: counter.n }).from(counter)).toEqual([{ n: 2 }]);
    });

    it('make a query outside a transaction wait until the transaction ends', async () => {
      let outside: Promise<string[]> | undefined;
      let answered = false;
      await db.transaction(async (tx) => {
        await tx.insert(log).values({ who: 'in' });
        outside = db
          .select({ who: log.who })
          .from(log)
          .then((rows) => {
            answered = true;
            return rows.map((r) => r.who);
          });
        // Every statement of the transaction gives the waiting query a chance it must not take.
        for (let i = 0; i < 5; i++) await tx.select().from(log);
        expect(answered).toBe(false);
      });
      expect(await outside).toEqual(['in']);
    });

    it('give each of many concurrent queries of one statement its own result', async () => {
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => client.query<{ n: number }>('select $1::int * 2 as n', [i])));
      expect(results.map((r) => r.rows)).toEqual(Array.from({ length: 50 }, (_, i) => [{ n: 2 * i }]));
    });
  });
});
