/**
 * What the embedded engine's thread adds to the protocol client (src/db/pglite-thread.ts and
 * pglite-worker.ts; the client's own behaviour is tested through it in pglite-client.test.ts):
 * requests' statements before background work's without shutting it out, nothing else inside a
 * transaction, a closed engine that fails as an unavailable database, and a thread that keeps a
 * process alive only while something waits for it.
 *
 * Skipped when the run is on PostgreSQL (TEST_DATABASE_URL): the thread serves PGlite alone.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/db/errors.js';
import { inBackground } from '../../src/db/priority.js';
import { startPgliteThread, type PgliteThread } from '../../src/db/pglite-thread.js';
import { pgliteImage } from '../helpers/pglite-image.js';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe.skipIf(onPostgres)('the embedded engine’s thread', () => {
  let thread: PgliteThread;
  beforeAll(async () => {
    thread = await startPgliteThread(null, pgliteImage('blank'));
    await thread.script('create table seen (seq serial primary key, who text not null)');
  });
  afterAll(async () => {
    await thread.close();
  });

  /** Who wrote to `seen`, in the order the engine ran the writes. */
  async function order(): Promise<string[]> {
    const { rows } = await thread.client.query<{ who: string }>('select who from seen order by seq');
    await thread.script('truncate seen');
    return rows.map((r) => r.who);
  }

  const write = (who: string) => thread.client.query('insert into seen (who) values ($1)', [who]);

  it('runs requests’ statements before background work asked for earlier, without shutting the background out', async () => {
    const background = inBackground(() => Array.from({ length: 20 }, (_, i) => write(`b${i}`)));
    const foreground = Array.from({ length: 20 }, (_, i) => write(`f${i}`));
    await Promise.all([...background, ...foreground]);
    const seen = await order();
    expect(seen).toHaveLength(40);
    // Each kind keeps its own order.
    expect(seen.filter((w) => w.startsWith('b'))).toEqual(Array.from({ length: 20 }, (_, i) => `b${i}`));
    expect(seen.filter((w) => w.startsWith('f'))).toEqual(Array.from({ length: 20 }, (_, i) => `f${i}`));
    // The requests' writes are done long before the background's, though asked for after them...
    expect(seen.indexOf('f19')).toBeLessThan(seen.indexOf('b19'));
    expect(seen.slice(0, 12).filter((w) => w.startsWith('f')).length).toBeGreaterThanOrEqual(8);
    // ...and background work still gets a turn while requests wait (a tenth of the engine's time).
    expect(seen.slice(0, 20).some((w) => w.startsWith('b'))).toBe(true);
  });

  it('runs nothing else between a transaction’s statements, background or not, and what waited runs after it', async () => {
    let inside!: () => void;
    const begun = new Promise<void>((resolve) => {
      inside = resolve;
    });
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    const transaction = inBackground(() =>
      thread.client.transaction(async (tx) => {
        await tx.query('insert into seen (who) values ($1)', ['t1']);
        inside();
        await held;
        await tx.query('insert into seen (who) values ($1)', ['t2']);
      }),
    );
    await begun;
    const meanwhile = [write('f1'), inBackground(() => write('b1')), write('f2')];
    letGo();
    await Promise.all([transaction, ...meanwhile]);
    const seen = await order();
    expect(seen.slice(0, 2)).toEqual(['t1', 't2']);
    expect(seen.slice(2).sort()).toEqual(['b1', 'f1', 'f2']);
    expect(seen.indexOf('f1')).toBeLessThan(seen.indexOf('f2'));
  });

  it('reads rows on the server’s thread exactly as PGlite’s own query parses them, arrays of every kind included', async () => {
    const text = `select 'a''b'::text as t, 42::int4 as i, 9007199254740993::int8 as big, 1.50::numeric as n, true as b,
      '2026-11-30'::date as d, '2026-11-30 10:00:00+00'::timestamptz as ts, '{"k":[1,"x"]}'::jsonb as j, '\\x00ff'::bytea as raw,
      array['a', null, 'c,d']::text[] as texts, array[1, 2]::int4[] as ints, array[true, false]::bool[] as bools,
      array['2026-01-01']::date[] as dates, array['2026-01-01 00:00:00+00']::timestamptz[] as instants,
      array['{"a":1}']::jsonb[] as docs, array[1.5]::numeric[] as decimals, array[array[1, 2], array[3, 4]]::int4[] as nested,
      array['0e8d2f3a-9b3c-4d5e-8f60-718293a4b5c6']::uuid[] as ids, null::text[] as none, '{}'::text[] as empty`;
    const ours = await thread.client.query<Record<string, unknown>>(text);
    const theirs = await thread.query(text, []);
    expect(ours.rows).toEqual(theirs.rows);
    expect(ours.fields).toEqual(theirs.fields);
    expect(ours.rows[0]).toMatchObject({
      texts: ['a', null, 'c,d'],
      ints: [1, 2],
      nested: [
        [1, 2],
        [3, 4],
      ],
      empty: [],
    });
  });

  it('fails a statement with PostgreSQL’s own fields, inside a transaction or not, and runs the next as ever', async () => {
    await thread.script('create table once (id int primary key)');
    await thread.client.query('insert into once values (1)');
    const outside = await thread.client.query('insert into once values (1)').then(
      () => expect.fail('expected a unique violation'),
      (e: unknown) => e,
    );
    expect(outside).toMatchObject({ code: '23505', constraint: 'once_pkey', table: 'once' });
    const inside = await thread.client
      .transaction(async (tx) => {
        await tx.query('insert into once values (2)');
        await tx.query('insert into once values (1)');
      })
      .then(
        () => expect.fail('expected a unique violation'),
        (e: unknown) => e,
      );
    expect(inside).toMatchObject({ code: '23505', constraint: 'once_pkey' });
    // The failed transaction left nothing and holds nothing: both kinds of call go on.
    await thread.client.transaction(async (tx) => {
      await tx.query('insert into once values (3)');
    });
    const { rows } = await thread.client.query<{ id: number }>('select id from once order by id');
    expect(rows.map((r) => r.id)).toEqual([1, 3]);
  });

  it('after close, fails every call as an unavailable database (503), and closes once however often asked', async () => {
    const own = await startPgliteThread(null, pgliteImage('blank'));
    await own.client.query('select 1');
    await Promise.all([own.close(), own.close()]);
    for (const call of [own.client.query('select 1'), own.script('select 1'), own.client.transaction(async () => {})]) {
      const error = await call.then(
        () => expect.fail('expected the call to fail'),
        (e: unknown) => e,
      );
      expect(isDatabaseUnavailable(error)).toBe(true);
    }
  });

  it('keeps a process alive while it waits for the engine and lets it end once nothing does, closed or not', async () => {
    // From the blank image, as the tests' own databases start (initialising one takes seconds).
    const script = (closes: boolean) => `
      import { readFileSync } from 'node:fs';
      import { openDatabase } from './src/db/database.ts';
      const image = readFileSync(${JSON.stringify(inject('pgliteImages').blank)});
      const database = await openDatabase({ databaseUrl: null, dataDir: null, image });
      setTimeout(async () => {
        const rows = (await database.executeSql('select count(*)::int as n from pg_class where false', [])).rows;
        console.log('rows', JSON.stringify(rows));
        ${closes ? "await database.close(); console.log('closed');" : ''}
      }, 0);`;
    // Both at once: each is a process of its own.
    await Promise.all(
      [true, false].map(async (closes) => {
        const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(closes)], {
          cwd: ROOT,
          timeout: 60_000,
        });
        expect(stdout).toBe(`rows [{"n":0}]\n${closes ? 'closed\n' : ''}`);
      }),
    );
  });
});
