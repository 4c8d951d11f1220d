/**
 * The embedded engine's upkeep (src/db/embedded-upkeep.ts): PostgreSQL's autovacuum thresholds
 * decided as autovacuum decides them, and a pass over a real embedded engine that vacuums and
 * analyses exactly the tables due, one failure not stopping the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import {
  checkpointDue,
  checkpointIfDue,
  dueUpkeep,
  readDueUpkeep,
  readWal,
  runUpkeep,
  upkeepOperation,
  upkeepStatement,
  type TableCounters,
  type UpkeepSettings,
  type WalCounters,
} from '../../src/db/embedded-upkeep.js';
import { pgliteImage } from '../helpers/pglite-image.js';

/** PostgreSQL's defaults, which the embedded engine keeps. */
const DEFAULTS: UpkeepSettings = {
  vacuumThreshold: 50,
  vacuumScaleFactor: 0.2,
  insertThreshold: 1000,
  insertScaleFactor: 0.2,
  analyzeThreshold: 50,
  analyzeScaleFactor: 0.1,
  freezeMaxAge: 200_000_000,
};

const table = (name: string, counters: Partial<TableCounters>): TableCounters => ({
  schema: 'public',
  table: name,
  tuples: 1000,
  dead: 0,
  insertedSinceVacuum: 0,
  modifiedSinceAnalyze: 0,
  xidAge: 1000,
  ...counters,
});

describe('which tables are due', () => {
  it('vacuums past 50 dead rows and a fifth of the table, not at the threshold itself', () => {
    // 1,000 rows: the threshold is 50 + 200 = 250 dead rows.
    expect(dueUpkeep([table('at', { dead: 250 })], DEFAULTS)).toEqual([]);
    expect(dueUpkeep([table('past', { dead: 251 })], DEFAULTS)).toEqual([
      { schema: 'public', table: 'past', vacuum: true, analyze: false, reasons: ['dead_rows'] },
    ]);
    // The threshold grows with the table: 100,000 rows take 20,050.
    expect(dueUpkeep([table('big', { tuples: 100_000, dead: 20_000 })], DEFAULTS)).toEqual([]);
    expect(dueUpkeep([table('big', { tuples: 100_000, dead: 20_051 })], DEFAULTS)).toHaveLength(1);
  });

  it('vacuums a table that only grows, past 1,000 inserts and a fifth of the table', () => {
    expect(dueUpkeep([table('log', { insertedSinceVacuum: 1200 })], DEFAULTS)).toEqual([]);
    expect(dueUpkeep([table('log', { insertedSinceVacuum: 1201 })], DEFAULTS)).toEqual([
      { schema: 'public', table: 'log', vacuum: true, analyze: false, reasons: ['inserts'] },
    ]);
  });

  it('analyses past 50 changed rows and a tenth of the table, without a vacuum when nothing else is due', () => {
    expect(dueUpkeep([table('t', { modifiedSinceAnalyze: 150 })], DEFAULTS)).toEqual([]);
    expect(dueUpkeep([table('t', { modifiedSinceAnalyze: 151 })], DEFAULTS)).toEqual([
      { schema: 'public', table: 't', vacuum: false, analyze: true, reasons: ['changes'] },
    ]);
    expect(dueUpkeep([table('t', { dead: 300, modifiedSinceAnalyze: 300 })], DEFAULTS)).toEqual([
      { schema: 'public', table: 't', vacuum: true, analyze: true, reasons: ['dead_rows', 'changes'] },
    ]);
  });

  it('counts a table never vacuumed nor analysed (reltuples -1) as empty, as autovacuum does', () => {
    expect(dueUpkeep([table('new', { tuples: -1, dead: 51, insertedSinceVacuum: 1001, modifiedSinceAnalyze: 51 })], DEFAULTS)).toEqual([
      { schema: 'public', table: 'new', vacuum: true, analyze: true, reasons: ['dead_rows', 'inserts', 'changes'] },
    ]);
    expect(dueUpkeep([table('new', { tuples: -1, dead: 50, insertedSinceVacuum: 1000, modifiedSinceAnalyze: 50 })], DEFAULTS)).toEqual([]);
  });

  it('vacuums a table whose oldest unfrozen row is past the freeze age, whatever else it counts, and such tables first', () => {
    const due = dueUpkeep(
      [
        table('busy', { dead: 100_000 }),
        table('old', { xidAge: 200_000_001 }),
        table('older', { xidAge: 300_000_000, modifiedSinceAnalyze: 1000 }),
        table('quiet', { xidAge: 199_999_999 }),
      ],
      DEFAULTS,
    );
    expect(due.map((t) => [t.table, t.reasons])).toEqual([
      ['older', ['wraparound', 'changes']],
      ['old', ['wraparound']],
      ['busy', ['dead_rows']],
    ]);
    expect(due.every((t) => t.vacuum)).toBe(true);
  });

  it('takes the busiest table first among the rest', () => {
    const due = dueUpkeep([table('a', { dead: 300 }), table('b', { dead: 900 }), table('c', { modifiedSinceAnalyze: 500 })], DEFAULTS);
    expect(due.map((t) => t.table)).toEqual(['b', 'a', 'c']);
  });

  it('never analyses pg_statistic, which ANALYZE writes and skips, but vacuums it', () => {
    const statistics = { ...table('pg_statistic', { modifiedSinceAnalyze: 10_000 }), schema: 'pg_catalog' };
    expect(dueUpkeep([statistics], DEFAULTS)).toEqual([]);
    expect(dueUpkeep([{ ...statistics, dead: 1000 }], DEFAULTS)).toEqual([
      { schema: 'pg_catalog', table: 'pg_statistic', vacuum: true, analyze: false, reasons: ['dead_rows'] },
    ]);
  });

  it('follows the engine’s own settings', () => {
    const eager = { ...DEFAULTS, vacuumThreshold: 0, vacuumScaleFactor: 0 };
    expect(dueUpkeep([table('t', { dead: 1 })], eager)).toHaveLength(1);
  });

  it('writes one statement per table, its names quoted', () => {
    expect(upkeepStatement({ schema: 'public', table: 'time_entries', vacuum: true, analyze: true })).toBe(
      'vacuum (analyze) "public"."time_entries"',
    );
    expect(upkeepStatement({ schema: 'jobs', table: 'job', vacuum: true, analyze: false })).toBe('vacuum "jobs"."job"');
    expect(upkeepStatement({ schema: 'public', table: 'odd "name"; drop table x', vacuum: false, analyze: true })).toBe(
      'analyze "public"."odd ""name""; drop table x"',
    );
    expect([upkeepOperation({ vacuum: true, analyze: true }), upkeepOperation({ vacuum: true, analyze: false })]).toEqual([
      'vacuum_analyze',
      'vacuum',
    ]);
    expect(upkeepOperation({ vacuum: false, analyze: true })).toBe('analyze');
  });
});

describe('when a checkpoint is due', () => {
  const at = new Date('2026-11-30T10:00:00.000Z');
  const wal = (counters: Partial<WalCounters>): WalCounters => ({
    checkpointAt: at,
    bytesSinceCheckpoint: 100_000,
    bytesSinceRedo: 100_000,
    checkpointTimeoutSeconds: 300,
    maxWalBytes: 1024 * 1024 * 1024,
    completionTarget: 0.9,
    ...counters,
  });
  const later = (seconds: number) => new Date(at.getTime() + seconds * 1000);

  it('takes one checkpoint_timeout after the last, when the log has grown since', () => {
    expect(checkpointDue(wal({}), later(299))).toBeNull();
    expect(checkpointDue(wal({}), later(300))).toBe('time');
    // Only the last checkpoint's own record since: nothing to make durable.
    expect(checkpointDue(wal({ bytesSinceCheckpoint: 8192 }), later(3600))).toBeNull();
    expect(checkpointDue(wal({ bytesSinceCheckpoint: 8193 }), later(3600))).toBe('time');
  });

  it('takes one sooner once the log since the redo point reaches max_wal_size / (1 + checkpoint_completion_target)', () => {
    const trigger = (1024 * 1024 * 1024) / 1.9;
    expect(checkpointDue(wal({ bytesSinceRedo: trigger - 1 }), later(1))).toBeNull();
    expect(checkpointDue(wal({ bytesSinceRedo: trigger }), later(1))).toBe('wal');
  });
});

describe('a pass over the embedded engine', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: null, dataDir: null, image: pgliteImage('blank') });
  });
  afterAll(async () => {
    await database.close();
  });

  interface Stats {
    dead: number;
    vacuums: number;
    analyses: number;
    tuples: number;
  }
  async function stats(name: string): Promise<Stats> {
    await database.executeSql('select pg_stat_force_next_flush()');
    const { rows } = await database.executeSql(
      `select s.n_dead_tup::int as dead, s.vacuum_count::int as vacuums, s.analyze_count::int as analyses, c.reltuples::int as tuples
       from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.relname = $1`,
      [name],
    );
    return rows[0] as Stats;
  }

  it('vacuums and analyses the tables due and leaves the others; a second pass finds nothing', async () => {
    await database.executeSql(`create table grown (id int primary key, n int not null default 0);
      insert into grown select g from generate_series(1, 2000) g;
      create table small (id int primary key); insert into small select g from generate_series(1, 10) g;
      create table parted (k int not null) partition by list (k); create table parted_one partition of parted for values in (1)`);
    // A partitioned table (its relfrozenxid is 0) is never due itself, as the job engine's jobs.job;
    // its partitions are tables like any other.
    const due = await readDueUpkeep(database);
    expect(due).toEqual([{ schema: 'public', table: 'grown', vacuum: true, analyze: true, reasons: ['inserts', 'changes'] }]);
    await database.executeSql('insert into parted select 1 from generate_series(1, 1001)');
    expect((await readDueUpkeep(database)).map((t) => t.table)).toEqual(['grown', 'parted_one']);
    await database.executeSql('drop table parted');

    const outcomes = await runUpkeep(database);
    expect(outcomes.map((o) => [o.task.table, o.error])).toEqual([['grown', null]]);
    expect(await stats('grown')).toEqual({ dead: 0, vacuums: 1, analyses: 1, tuples: 2000 });
    expect(await stats('small')).toMatchObject({ vacuums: 0, analyses: 0 });
    expect(await runUpkeep(database)).toEqual([]);

    // 400 updated rows leave 400 dead (under 50 + 400) but change more than 50 + 200: analysed only.
    await database.executeSql('update grown set n = 1 where id <= 400');
    expect(await runUpkeep(database)).toMatchObject([{ task: { table: 'grown', vacuum: false, analyze: true }, error: null }]);
    expect(await stats('grown')).toEqual({ dead: 400, vacuums: 1, analyses: 2, tuples: 2000 });
    // 100 more are past the dead rows' threshold: vacuumed, and the dead rows gone.
    await database.executeSql('update grown set n = 2 where id > 1900');
    expect(await runUpkeep(database)).toMatchObject([{ task: { table: 'grown', vacuum: true, reasons: ['dead_rows'] }, error: null }]);
    expect(await stats('grown')).toMatchObject({ dead: 0, vacuums: 2 });
  });

  it('checkpoints when one is due, which the engine never does by itself', async () => {
    const before = await readWal(database);
    expect(before).toMatchObject({ checkpointTimeoutSeconds: 300, maxWalBytes: 1024 ** 3, completionTarget: 0.9 });
    await database.executeSql(`create table logged (id int primary key, body text not null);
      insert into logged select g, repeat('x', 200) from generate_series(1, 5000) g`);
    const written = await readWal(database);
    expect(written.bytesSinceRedo).toBeGreaterThan(before.bytesSinceRedo + 1_000_000);
    const after = (seconds: number) => new Date(written.checkpointAt.getTime() + seconds * 1000);
    expect(await checkpointIfDue(database, after(60))).toBeNull();
    expect(await checkpointIfDue(database, after(301))).toMatchObject({ reason: 'time' });
    const checkpointed = await readWal(database);
    // The redo point moved up to the log's end: a crash now replays almost nothing.
    expect(checkpointed.bytesSinceRedo).toBeLessThan(8192);
    expect(checkpointed.checkpointAt.getTime()).toBeGreaterThanOrEqual(written.checkpointAt.getTime());
    // Nothing written since: the next one is not due, however late.
    expect(await checkpointIfDue(database, after(86_400))).toBeNull();
    await database.executeSql('drop table logged');
  });

  it('keeps the system catalogs too, which every migration churns', async () => {
    const columns = Array.from({ length: 10 }, (_, i) => `c${i} int`).join(', ');
    const churn = Array.from({ length: 80 }, (_, i) => `create table churn${i} (${columns}); drop table churn${i};`).join('\n');
    await database.executeSql(churn);
    const due = await readDueUpkeep(database);
    expect(due).toContainEqual(expect.objectContaining({ schema: 'pg_catalog', table: 'pg_attribute', vacuum: true }));
    const outcomes = await runUpkeep(database);
    expect(outcomes.filter((o) => o.error !== null)).toEqual([]);
    expect((await readDueUpkeep(database)).filter((t) => t.schema === 'pg_catalog')).toEqual([]);
  });

  it('goes on past a table whose statement fails, and says which', async () => {
    await database.executeSql(`create table doomed (id int primary key); insert into doomed select g from generate_series(1, 1500) g;
      create table kept (id int primary key); insert into kept select g from generate_series(1, 1200) g`);
    // The first table of the pass is dropped between reading the counters and its statement.
    const dropping: Pick<Database, 'executeSql'> = {
      executeSql: async (text, values) => {
        if (text.includes('"doomed"')) await database.executeSql('drop table doomed');
        return database.executeSql(text, values);
      },
    };
    const heard: string[] = [];
    const outcomes = await runUpkeep(dropping, ({ task }) => heard.push(task.table));
    expect(outcomes.map((o) => o.task.table)).toEqual(['doomed', 'kept']);
    expect(outcomes[0]?.error?.message).toMatch(/doomed.*does not exist/);
    expect(outcomes[1]?.error).toBeNull();
    expect(heard).toEqual(['doomed', 'kept']);
    expect(await stats('kept')).toMatchObject({ vacuums: 1, analyses: 1, tuples: 1200 });
  });
});
