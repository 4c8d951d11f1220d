/**
 * The embedded engine's upkeep (docs/decisions.md "The embedded engine vacuums itself"). PGlite
 * runs PostgreSQL as one process without background workers, so neither autovacuum nor the
 * checkpointer ever runs there: left alone, every update and delete leaves its dead rows in place
 * (a counted view, a queued job, an edited entry), tables are never analysed (the planner guesses
 * without statistics), pages never become all-visible (an index-only scan reads the table anyway),
 * nothing freezes old rows before transaction IDs wrap around, and the write-ahead log grows until
 * the process stops. This module does what those processes would: it reads each table's counters
 * and the log's position, decides with PostgreSQL's own thresholds and the engine's own settings,
 * and vacuums or analyses each table that is due and checkpoints when one is due, one statement at
 * a time, as background work (priority.ts), so requests' statements go first.
 */
import type { Database } from './database.js';

/** A table's counters, as pg_stat_all_tables and pg_class hold them. */
export interface TableCounters {
  schema: string;
  table: string;
  /** pg_class.reltuples: the estimated rows; -1 until the table is first vacuumed or analysed. */
  tuples: number;
  /** Dead rows (left by updates and deletes) not yet removed. */
  dead: number;
  insertedSinceVacuum: number;
  modifiedSinceAnalyze: number;
  /** age(relfrozenxid): transactions since the table's oldest row that is not yet frozen. */
  xidAge: number;
}

/** The autovacuum settings the decision uses: the engine's own (PostgreSQL's defaults). */
export interface UpkeepSettings {
  vacuumThreshold: number;
  vacuumScaleFactor: number;
  insertThreshold: number;
  insertScaleFactor: number;
  analyzeThreshold: number;
  analyzeScaleFactor: number;
  freezeMaxAge: number;
}

export type UpkeepReason = 'wraparound' | 'dead_rows' | 'inserts' | 'changes';

export interface UpkeepTask {
  schema: string;
  table: string;
  vacuum: boolean;
  analyze: boolean;
  /** Why the table is due, the most pressing reason first. */
  reasons: UpkeepReason[];
}

/**
 * What autovacuum would do to each table now (PostgreSQL's documentation, "The Autovacuum
 * Daemon"): vacuum past `threshold + scale factor × rows` dead rows or inserted rows, or when its
 * oldest unfrozen row is older than the freeze age; analyse past `threshold + scale factor × rows`
 * changed rows. A table never yet counted has 0 rows for the formula, as autovacuum takes it.
 * Tables near wraparound come first, then by dead rows.
 */
export function dueUpkeep(tables: readonly TableCounters[], settings: UpkeepSettings): UpkeepTask[] {
  const tasks: (UpkeepTask & { dead: number; xidAge: number })[] = [];
  for (const t of tables) {
    const rows = Math.max(0, t.tuples);
    const reasons: UpkeepReason[] = [];
    if (t.xidAge > settings.freezeMaxAge) reasons.push('wraparound');
    if (t.dead > settings.vacuumThreshold + settings.vacuumScaleFactor * rows) reasons.push('dead_rows');
    if (t.insertedSinceVacuum > settings.insertThreshold + settings.insertScaleFactor * rows) reasons.push('inserts');
    // ANALYZE skips pg_statistic, whose rows are the statistics themselves; autovacuum never asks.
    const analyzable = !(t.schema === 'pg_catalog' && t.table === 'pg_statistic');
    const analyze = analyzable && t.modifiedSinceAnalyze > settings.analyzeThreshold + settings.analyzeScaleFactor * rows;
    if (analyze) reasons.push('changes');
    if (reasons.length === 0) continue;
    tasks.push({
      schema: t.schema,
      table: t.table,
      vacuum: reasons.some((r) => r !== 'changes'),
      analyze,
      reasons,
      dead: t.dead,
      xidAge: t.xidAge,
    });
  }
  const nearWraparound = (task: UpkeepTask): number => (task.reasons[0] === 'wraparound' ? 1 : 0);
  tasks.sort((a, b) => nearWraparound(b) - nearWraparound(a) || b.xidAge - a.xidAge || b.dead - a.dead);
  return tasks.map(({ schema, table, vacuum, analyze, reasons }) => ({ schema, table, vacuum, analyze, reasons }));
}

/**
 * Every table's counters beside the engine's autovacuum settings, in one statement. The system
 * catalogs too, as autovacuum takes them: they bloat with every migration, and the database's own
 * age is its oldest table's, catalogs included. Tables and materialised views only: a TOAST table
 * is vacuumed with its table, and a partitioned table (the job engine's `jobs.job`) holds no rows
 * of its own (its partitions are listed themselves) while its `relfrozenxid` of 0 would read as the
 * oldest age there is.
 */
const COUNTERS = `
  select s.schemaname as schema, s.relname as table, c.reltuples::float8 as tuples,
    s.n_dead_tup::float8 as dead, s.n_ins_since_vacuum::float8 as inserted,
    s.n_mod_since_analyze::float8 as modified, age(c.relfrozenxid)::float8 as xid_age,
    current_setting('autovacuum_vacuum_threshold')::float8 as vacuum_threshold,
    current_setting('autovacuum_vacuum_scale_factor')::float8 as vacuum_scale_factor,
    current_setting('autovacuum_vacuum_insert_threshold')::float8 as insert_threshold,
    current_setting('autovacuum_vacuum_insert_scale_factor')::float8 as insert_scale_factor,
    current_setting('autovacuum_analyze_threshold')::float8 as analyze_threshold,
    current_setting('autovacuum_analyze_scale_factor')::float8 as analyze_scale_factor,
    current_setting('autovacuum_freeze_max_age')::float8 as freeze_max_age
  from pg_stat_all_tables s join pg_class c on c.oid = s.relid
  where c.relkind in ('r', 'm') and c.relpersistence <> 't'
  order by s.schemaname, s.relname`;

interface CounterRow {
  schema: string;
  table: string;
  tuples: number;
  dead: number;
  inserted: number;
  modified: number;
  xid_age: number;
  vacuum_threshold: number;
  vacuum_scale_factor: number;
  insert_threshold: number;
  insert_scale_factor: number;
  analyze_threshold: number;
  analyze_scale_factor: number;
  freeze_max_age: number;
}

/** The tables due for upkeep now, read from the engine. */
export async function readDueUpkeep(database: Pick<Database, 'executeSql'>): Promise<UpkeepTask[]> {
  // The engine publishes a statement's counts at most once a second; this pass reads all of them.
  await database.executeSql('select pg_stat_force_next_flush()');
  // Every number is a float8, which both drivers read as a JavaScript number.
  const rows = (await database.executeSql(COUNTERS)).rows as CounterRow[];
  const first = rows[0];
  if (!first) return [];
  const settings: UpkeepSettings = {
    vacuumThreshold: first.vacuum_threshold,
    vacuumScaleFactor: first.vacuum_scale_factor,
    insertThreshold: first.insert_threshold,
    insertScaleFactor: first.insert_scale_factor,
    analyzeThreshold: first.analyze_threshold,
    analyzeScaleFactor: first.analyze_scale_factor,
    freezeMaxAge: first.freeze_max_age,
  };
  const tables = rows.map((r) => ({
    schema: r.schema,
    table: r.table,
    tuples: r.tuples,
    dead: r.dead,
    insertedSinceVacuum: r.inserted,
    modifiedSinceAnalyze: r.modified,
    xidAge: r.xid_age,
  }));
  return dueUpkeep(tables, settings);
}

const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** The operation `task` is, as metrics and logs name it. */
export function upkeepOperation(task: Pick<UpkeepTask, 'vacuum' | 'analyze'>): 'vacuum' | 'analyze' | 'vacuum_analyze' {
  if (task.vacuum) return task.analyze ? 'vacuum_analyze' : 'vacuum';
  return 'analyze';
}

const COMMANDS: Record<ReturnType<typeof upkeepOperation>, string> = {
  vacuum: 'vacuum',
  analyze: 'analyze',
  vacuum_analyze: 'vacuum (analyze)',
};

/** The one statement that does `task`: VACUUM, ANALYZE, or VACUUM (ANALYZE). */
export function upkeepStatement(task: Pick<UpkeepTask, 'schema' | 'table' | 'vacuum' | 'analyze'>): string {
  return `${COMMANDS[upkeepOperation(task)]} ${quoteIdentifier(task.schema)}.${quoteIdentifier(task.table)}`;
}

export interface UpkeepOutcome {
  task: UpkeepTask;
  /** Null when done; otherwise why the statement failed (the pass goes on with the next table). */
  error: Error | null;
  /** How long the statement took, waiting for requests' statements included. */
  ms: number;
}

/**
 * One pass: finds the tables due and does each, one statement after another, each table's failure
 * its own (a table dropped meanwhile does not stop the others). `done` hears of each table.
 */
export async function runUpkeep(
  database: Pick<Database, 'executeSql'>,
  done: (outcome: UpkeepOutcome) => void = () => {},
): Promise<UpkeepOutcome[]> {
  const outcomes: UpkeepOutcome[] = [];
  for (const task of await readDueUpkeep(database)) {
    let error: Error | null = null;
    const started = performance.now();
    try {
      await database.executeSql(upkeepStatement(task));
    } catch (caught) {
      error = caught instanceof Error ? caught : new Error(String(caught));
    }
    const outcome = { task, error, ms: performance.now() - started };
    outcomes.push(outcome);
    done(outcome);
  }
  return outcomes;
}

// ---------------------------------------------------------------------------------------------
// Checkpoints: the embedded engine has no checkpointer either, so its write-ahead log grows
// without end and a crash replays all of it since the engine opened

/** Where the write-ahead log stands against the last checkpoint, with the engine's checkpoint settings. */
export interface WalCounters {
  /** When the last checkpoint was taken (pg_control_checkpoint). */
  checkpointAt: Date;
  /** Bytes of log written since the last checkpoint's record. */
  bytesSinceCheckpoint: number;
  /** Bytes of log since the last checkpoint's redo point: what recovery after a crash would replay. */
  bytesSinceRedo: number;
  checkpointTimeoutSeconds: number;
  maxWalBytes: number;
  completionTarget: number;
}

export type CheckpointReason = 'time' | 'wal';

/**
 * Log written after a checkpoint's record beyond this is new work to make durable in the data
 * files; less is the record itself (a WAL page is 8 KiB).
 */
const WAL_ACTIVITY_BYTES = 8192;

/**
 * When PostgreSQL's checkpointer would take one: once the log since the last checkpoint's redo
 * point reaches `max_wal_size / (1 + checkpoint_completion_target)` (its trigger for a checkpoint
 * "because of WAL"), or `checkpoint_timeout` after the last one if anything was written since.
 */
export function checkpointDue(wal: WalCounters, now: Date): CheckpointReason | null {
  if (wal.bytesSinceRedo >= wal.maxWalBytes / (1 + wal.completionTarget)) return 'wal';
  const age = now.getTime() - wal.checkpointAt.getTime();
  if (wal.bytesSinceCheckpoint > WAL_ACTIVITY_BYTES && age >= wal.checkpointTimeoutSeconds * 1000) return 'time';
  return null;
}

/** The log's position against the last checkpoint, and the settings in their base units (s, MB). */
const WAL = `
  select extract(epoch from c.checkpoint_time)::float8 as checkpoint_epoch,
    (pg_current_wal_insert_lsn() - c.checkpoint_lsn)::float8 as since_checkpoint,
    (pg_current_wal_insert_lsn() - c.redo_lsn)::float8 as since_redo,
    (select setting::float8 from pg_settings where name = 'checkpoint_timeout') as timeout_seconds,
    (select setting::float8 from pg_settings where name = 'max_wal_size') as max_wal_mb,
    (select setting::float8 from pg_settings where name = 'checkpoint_completion_target') as completion_target
  from pg_control_checkpoint() c`;

interface WalRow {
  checkpoint_epoch: number;
  since_checkpoint: number;
  since_redo: number;
  timeout_seconds: number;
  max_wal_mb: number;
  completion_target: number;
}

export async function readWal(database: Pick<Database, 'executeSql'>): Promise<WalCounters> {
  const [row] = (await database.executeSql(WAL)).rows as WalRow[];
  if (!row) throw new Error('pg_control_checkpoint() returned no row');
  return {
    checkpointAt: new Date(row.checkpoint_epoch * 1000),
    bytesSinceCheckpoint: row.since_checkpoint,
    bytesSinceRedo: row.since_redo,
    checkpointTimeoutSeconds: row.timeout_seconds,
    maxWalBytes: row.max_wal_mb * 1024 * 1024,
    completionTarget: row.completion_target,
  };
}

/**
 * Takes a checkpoint when one is due at `now` (the application's clock): the data files get every
 * change the log holds, so recovery after a crash replays only what came after, and the log's old
 * segments are recycled instead of piling up. Null when none was due.
 */
export async function checkpointIfDue(
  database: Pick<Database, 'executeSql'>,
  now: Date,
): Promise<{ reason: CheckpointReason; ms: number } | null> {
  const reason = checkpointDue(await readWal(database), now);
  if (reason === null) return null;
  const started = performance.now();
  await database.executeSql('checkpoint');
  return { reason, ms: performance.now() - started };
}
