/**
 * The database behind Chronicle: embedded PGlite (default) or a PostgreSQL server, both through
 * one Drizzle schema and one migrations folder.
 */
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { PGlite } from '@electric-sql/pglite';
import { startPgliteThread } from './pglite-thread.js';
import { initialiseDataDir, tighten } from './pglite-setup.js';
import * as schema from './schema.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Db;
  /**
   * The same database, for writes of which a crash of the database itself may lose the last
   * fraction of a second: share-page view counts (docs/decisions.md "View counts commit without
   * waiting for the disk"). On PostgreSQL its connections commit with `synchronous_commit = off`
   * (the commit is in PostgreSQL's memory when it answers, so a crash of Chronicle loses nothing; a
   * crash of PostgreSQL or its machine loses at most about three `wal_writer_delay`s, 600 ms by
   * default). On PGlite it is `db`.
   */
  readonly relaxedDb: Db;
  /**
   * Runs pending migrations; safe to call twice and from several processes at once. `folder`
   * (tests of a migration's data step) replaces the project's migrations folder.
   */
  migrate(folder?: string): Promise<void>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /**
   * Calls `listener` with the SQL of every statement run through `db` until the returned function
   * is called (tests count statements per request with it).
   */
  observeQueries(listener: (sql: string) => void): () => void;
  /**
   * What opening changed that the operator should hear of, once (the app logs it): the embedded
   * engine's DATA_DIR made private. Empty otherwise.
   */
  readonly notices: readonly string[];
  /**
   * Plain SQL outside Drizzle, for the job engine (src/jobs/job-engine.ts): with `values`, one
   * parameterised statement; without, a script of several statements run as one.
   */
  executeSql(text: string, values?: readonly unknown[]): Promise<{ rows: unknown[] }>;
  /** Connections of the PostgreSQL pool (metrics); null on PGlite, which has one in-process connection. */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  close(): Promise<void>;
}

/** A Drizzle logger that tells whoever observes the database about each statement. */
function queryObservers() {
  const listeners = new Set<(sql: string) => void>();
  return {
    logger: {
      logQuery: (query: string) => {
        for (const listener of listeners) listener(query);
      },
    },
    observeQueries: (listener: (sql: string) => void): (() => void) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/** Arbitrary constant: serialises migrations of processes starting together on one server. */
const MIGRATION_LOCK_KEY = 7_246_301_115;

export interface DatabaseOptions {
  databaseUrl: string | null;
  /** PGlite directory; null keeps the embedded database in memory. */
  dataDir: string | null;
  /** PostgreSQL only: statement_timeout of every connection, ms; 0 or absent is none. */
  statementTimeoutMs?: number;
  /**
   * An in-memory PGlite only: starts from this image of a data directory (a tar, as PGlite's
   * `dumpDataDir` writes it) instead of initialising an empty one, which takes seconds. The tests
   * start each process's database from one migrated image (test/helpers/pglite-image.ts).
   */
  image?: Uint8Array;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.image && (options.databaseUrl || options.dataDir)) throw new Error('a database image applies to an in-memory PGlite only');
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.statementTimeoutMs ?? 0)
    : openPglite(options.dataDir, options.image ?? null);
}

async function openPglite(dataDir: string | null, image: Uint8Array | null): Promise<Database> {
  const { drizzle } = await import('drizzle-orm/pglite');
  const tightened = dataDir ? await initialiseDataDir(dataDir) : null;
  const notices = tightened
    ? [
        `DATA_DIR ${dataDir} was open to other users: made ${tightened.directories} directories 0700 and ${tightened.files} files 0600 (docs/operations.md "The embedded engine").`,
      ]
    : [];
  // The engine runs in a thread of its own (pglite-thread.ts); Drizzle gets its client.
  const thread = await startPgliteThread(dataDir, image);
  if (dataDir) tighten(dataDir);
  const observers = queryObservers();
  const db = drizzle(thread.client as unknown as PGlite, { schema, logger: observers.logger }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    relaxedDb: db,
    notices,
    observeQueries: observers.observeQueries,
    // With values, one statement through the named statements Drizzle's use (pg-boss asks the same
    // few texts again and again: planned once, not on every poll); without, a script.
    executeSql: (text, values) => (values && values.length > 0 ? thread.client.query(text, [...values]) : thread.script(text)),
    poolStats: () => null,
    migrate: (folder = MIGRATIONS_FOLDER) => thread.migrate(folder),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => thread.close(),
  };
}

async function openPostgres(url: string, statementTimeoutMs: number): Promise<Database> {
  const pg = (await import('pg')).default;
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  // A statement that runs away (a huge render, a pathological plan) is cancelled by the server
  // instead of holding a connection and its locks (docs/operations.md "Resource limits").
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5_000,
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
  });
  // `relaxedDb`'s connections: the view counter writes one statement at a time (view-counter.ts),
  // so two are plenty.
  const relaxedPool = new pg.Pool({
    connectionString: url,
    max: 2,
    connectionTimeoutMillis: 5_000,
    options: '-c synchronous_commit=off',
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
  });
  // A client that loses its server must not crash the process. The pool listens only to its idle
  // clients; a client checked out between two statements of a transaction (or whose socket closes
  // just after its query failed) emits 'error' with no listener, which would throw. The statement
  // that needed it rejects, and the pool discards the client when it is released.
  for (const each of [pool, relaxedPool]) {
    each.on('error', () => {});
    each.on('connect', (client) => client.on('error', () => {}));
  }
  const observers = queryObservers();
  const db = drizzle(pool, { schema, logger: observers.logger }) as unknown as Db;
  const relaxedDb = drizzle(relaxedPool, { schema, logger: observers.logger }) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    relaxedDb,
    notices: [],
    observeQueries: observers.observeQueries,
    executeSql: (text, values) => pool.query(text, values ? [...values] : undefined),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    migrate: async (folder = MIGRATIONS_FOLDER) => {
      const client = await pool.connect();
      try {
        // A migration over a large table may rightly run longer than a request's statement.
        await client.query('set statement_timeout = 0');
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        try {
          await migrate(drizzle(client, { schema }), { migrationsFolder: folder });
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
        }
      } finally {
        client.release();
      }
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      await Promise.all([pool.end(), relaxedPool.end()]);
    },
  };
}
