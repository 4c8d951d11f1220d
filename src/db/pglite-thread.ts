/**
 * The embedded engine in a thread of its own (src/db/pglite-worker.ts), so that the server's
 * thread parses HTTP, builds JSON and renders while queries execute: PGlite runs each query
 * synchronously in WebAssembly, and on the server's thread every query stopped everything else.
 *
 * The engine has one connection. Requests are posted as they come, so queries outside
 * transactions are pipelined; the worker runs requests' statements before background work's
 * (priority.ts). A transaction holds the connection from its BEGIN to its COMMIT or ROLLBACK:
 * whatever else is asked meanwhile waits here until it ends (as PGlite's own `transaction` makes
 * other queries wait), and the worker runs nothing else in between.
 */
import type { Worker } from 'node:worker_threads';
import { TransactionAbortedError, type Results } from '@electric-sql/pglite';
import { startWorker, workerEntryUrl } from '../lib/worker-thread.js';
import { backgroundMarks, type BackgroundMarks } from './priority.js';
import {
  rawTypesOf,
  readResults,
  serializeParams,
  shapeResults,
  typeParsers,
  type DrizzlePgliteClient,
  type RawResults,
  type ResultField,
  type TypeParsers,
} from './pglite-client.js';

/** What the server's thread asks the engine's thread. */
export type EngineAsk =
  | { op: 'run'; text: string; params: (string | null)[] }
  | { op: 'query'; text: string; values: unknown[] }
  | { op: 'script'; text: string }
  | { op: 'migrate'; folder: string }
  | { op: 'close' };

/**
 * `background`: background work (priority.ts), which yields to requests'. `tx`: the transaction
 * the request belongs to; `begins` and `ends` mark its first and last statements. While a
 * transaction is open the engine runs only its requests.
 */
export type EngineRequest = EngineAsk & { id: number; background: boolean; tx?: number; begins?: true; ends?: true };

/** A failure crossing threads: PostgreSQL's fields (code, constraint, detail, ...) kept as data. */
export interface EngineError {
  name: string;
  message: string;
  fields: Record<string, string | number | boolean | null>;
}

/**
 * The answer to request `id` (0: the engine opened, with the array types it parses, or why it did
 * not). A statement's answer (`run`) is the engine's bytes, transferred; this thread reads them.
 */
export type EngineReply = { id: number; result: unknown; error?: undefined } | { id: number; error: EngineError; result?: undefined };

type QueryOptions = Parameters<DrizzlePgliteClient['query']>[2];

export interface PgliteThread {
  /** What Drizzle calls: `query`, and `transaction` with a `query` of its own. */
  readonly client: DrizzlePgliteClient;
  /**
   * PGlite's own `query` (an unnamed statement, planned each time): the engine as PGlite itself
   * answers, for tests that compare with it or look at what the client left there.
   */
  query(text: string, values: readonly unknown[]): Promise<{ rows: unknown[]; fields: ResultField[]; affectedRows?: number }>;
  /** A script of several statements run as one; the last statement's rows. */
  script(text: string): Promise<{ rows: unknown[] }>;
  migrate(folder: string): Promise<void>;
  /** Closes the engine and ends the thread; every later call fails as a closed database. */
  close(): Promise<void>;
}

const WORKER_URL = await workerEntryUrl(import.meta.url, 'pglite-worker');

const ERROR_CLASSES: Record<string, ErrorConstructor> = { RangeError, TypeError, SyntaxError };

function revive(error: EngineError): Error {
  const revived = new (ERROR_CLASSES[error.name] ?? Error)(error.message);
  return Object.assign(revived, error.fields);
}

/**
 * Opens PGlite on `dataDir` (null: in memory, empty or from `image`, a data directory's tar) in a
 * thread of its own; resolves once it answers. `marks` tells which statements come from background
 * work (the process's own but in tests).
 */
export async function startPgliteThread(
  dataDir: string | null,
  image: Uint8Array | null = null,
  marks: BackgroundMarks = backgroundMarks,
): Promise<PgliteThread> {
  // The engine runs requests' statements before background work's: from now on work is marked.
  marks.track();
  const worker: Worker = startWorker(WORKER_URL, { workerData: { dataDir, image } });
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let closing: Promise<void> | null = null;
  /** Set once the thread cannot answer any more: every call fails with it. */
  let stopped: Error | null = null;

  const opened = new Promise<TypeParsers>((resolve, reject) => {
    waiting.set(0, {
      resolve: (arrayTypes) => {
        resolve(typeParsers(arrayTypes as [number, number][]));
      },
      reject,
    });
  });

  worker.on('message', (reply: EngineReply) => {
    const caller = waiting.get(reply.id);
    if (!caller) return;
    waiting.delete(reply.id);
    // The thread keeps the process alive only while something waits for it (or for its end).
    if (waiting.size === 0 && !closing) worker.unref();
    if (reply.error) caller.reject(revive(reply.error));
    else caller.resolve(reply.result);
  });
  const fail = (reason: Error) => {
    stopped ??= reason;
    for (const caller of waiting.values()) caller.reject(stopped);
    waiting.clear();
  };
  worker.on('error', (error) => {
    // A connection failure's code: requests answer 503, the readiness probe fails.
    fail(Object.assign(new Error(`the embedded database stopped: ${error.message}`), { code: '57P01' }));
  });
  let ended = false;
  worker.on('exit', (code) => {
    ended = true;
    fail(Object.assign(new Error(`the embedded database stopped (its thread exited with code ${code})`), { code: '57P01' }));
  });

  function call<T>(request: EngineAsk, inTransaction?: Pick<EngineRequest, 'tx' | 'begins' | 'ends'>): Promise<T> {
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      if (waiting.size === 0) worker.ref();
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...request, ...inTransaction, id, background: marks.isBackground() } satisfies EngineRequest);
    });
  }

  let parsers: TypeParsers;
  try {
    parsers = await opened;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  worker.unref();

  /** The end of the transaction holding the connection, while one does. */
  let holder: Promise<void> | null = null;
  /** The end of the last transaction asked for: transactions take the connection in turn. */
  let lastTransaction: Promise<void> = Promise.resolve();

  /** Posts `request` once no transaction holds the connection. */
  async function outside<T>(request: EngineAsk): Promise<T> {
    while (holder) await holder;
    return call<T>(request);
  }

  const ask = (text: string, params: unknown[]): EngineAsk => ({ op: 'run', text, params: serializeParams(params) });
  /** A statement's rows, read here from the answer the engine's thread handed over. */
  const rowsOf = (answer: Uint8Array, options: QueryOptions): RawResults => readResults(answer, rawTypesOf(options), parsers);
  const run = async <T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> =>
    shapeResults<T>(rowsOf(await outside<Uint8Array>(ask(text, params)), options), options);
  let nextTransaction = 1;

  const client: DrizzlePgliteClient = {
    query: run,
    async transaction<T>(work: Parameters<DrizzlePgliteClient['transaction']>[0]): Promise<T> {
      let release!: () => void;
      const end = new Promise<void>((resolve) => {
        release = resolve;
      });
      const before = lastTransaction;
      lastTransaction = end;
      // Transactions take turns: once the one before has ended, nothing holds the connection.
      await before;
      holder = end;
      const tx = nextTransaction++;
      let closed = false;
      /** COMMIT was sent: whatever it answers, the transaction is over (no ROLLBACK after it). */
      let committing = false;
      try {
        rowsOf(await call<Uint8Array>(ask('begin', []), { tx, begins: true }), undefined);
        try {
          const result = await work({
            query: async <R>(text: string, params: unknown[] = [], options?: QueryOptions) => {
              if (closed) throw new Error('Transaction is closed');
              return shapeResults<R>(rowsOf(await call<Uint8Array>(ask(text, params), { tx }), options), options);
            },
          });
          committing = true;
          const committed = rowsOf(await call<Uint8Array>(ask('commit', []), { tx, ends: true }), undefined);
          // A transaction that a failed statement aborted answers COMMIT with ROLLBACK: as PGlite's
          // own transaction does, that is a failure (25P02).
          if (committed.command === 'ROLLBACK') throw new TransactionAbortedError();
          return result as T;
        } catch (error) {
          if (!committing) await call(ask('rollback', []), { tx, ends: true }).catch(() => {});
          throw error;
        }
      } finally {
        closed = true;
        holder = null;
        release();
      }
    },
  };

  return {
    client,
    query: (text, values) => outside({ op: 'query', text, values: [...values] }),
    script: (text) => outside({ op: 'script', text }),
    migrate: (folder) => outside({ op: 'migrate', folder }),
    close() {
      closing ??= (async () => {
        if (ended) return;
        worker.ref();
        const exited = new Promise<void>((resolve) => {
          worker.once('exit', () => {
            resolve();
          });
        });
        await outside({ op: 'close' }).catch(() => {});
        stopped = new Error('PGlite is closed');
        await exited;
      })();
      return closing;
    },
  };
}
