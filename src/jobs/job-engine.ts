/**
 * Durable jobs in the application's own database (docs/decisions.md "Job engine"): pg-boss 10
 * over the database Chronicle already has, through `Database.executeSql`, so the same engine runs
 * on PostgreSQL and on embedded PGlite. Jobs survive restarts; a job whose process dies is
 * retried when it expires. What a job does must still be idempotent: the engine may run a job
 * twice (an expired attempt that was only slow), so the work it starts decides in the database
 * whether it has already been done (schedule-runner.ts `claimRun`).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.js';
import { inBackground } from '../db/priority.js';

export interface JobQueue<T extends object> {
  name: string;
  /** How long an attempt may run before the job counts as abandoned and is retried. */
  expireInSeconds: number;
  retryLimit: number;
  retryDelaySeconds: number;
  /** Jobs one fetch takes (default 1), worked one after another. */
  batchSize?: number;
  handle(data: T): Promise<void>;
}

export interface JobEngine {
  /** Queues `data`; a job with the same key already waiting is not queued again. */
  send<T extends object>(queue: JobQueue<T>, data: T, key: string): Promise<void>;
  /**
   * Queues each of `jobs` as `send` does, in one statement: a ticker hands on all it found due at
   * once, most of them usually still waiting from its last tick.
   */
  sendAll<T extends object>(queue: JobQueue<T>, jobs: readonly { data: T; key: string }[]): Promise<void>;
  stop(): Promise<void>;
}

export interface JobEngineOptions {
  /** How often each process asks for new jobs, seconds (pg-boss polls; 0.5 is its least). */
  pollingIntervalSeconds: number;
  /** Whether this process works the queues (JOB_WORKER); without it, it only queues jobs. */
  work: boolean;
}

/** The schema pg-boss keeps its tables in, apart from the application's. */
export const JOBS_SCHEMA = 'jobs';

/** Starts the engine (creating or upgrading its schema) and works the given queues in this process. */
export async function startJobEngine(
  database: Database,
  log: FastifyBaseLogger,
  queues: readonly JobQueue<object>[],
  options: JobEngineOptions,
): Promise<JobEngine> {
  const { default: PgBoss } = await import('pg-boss');
  /** pg-boss's statements and the jobs this process is working, until each settles. */
  const pending = new Set<Promise<unknown>>();
  const track = <T>(promise: Promise<T>): Promise<T> => {
    pending.add(promise);
    const settled = () => pending.delete(promise);
    promise.then(settled, settled);
    return promise;
  };
  const executeSql = (text: string, values: unknown[]) => track(database.executeSql(text, values));
  /** Statements in the caller's context: a request's send is the request's, not background work. */
  const callers = { executeSql };
  const boss = new PgBoss({
    // Every other statement of pg-boss's is background work: its polls, completions and upkeep run
    // from timers of its own, which no background task waits for (priority.ts).
    db: { executeSql: (text: string, values: unknown[]) => inBackground(() => executeSql(text, values)) },
    schema: JOBS_SCHEMA,
    migrate: true,
    supervise: true,
    // Chronicle's schedules keep their own times (schedule-runner.ts); pg-boss's cron is not used.
    schedule: false,
  });
  boss.on('error', (error: unknown) => {
    log.error({ err: error }, 'job engine error');
  });
  await boss.start();
  /** This process's worker per queue, woken when it queues a job itself. */
  const workers = new Map<string, string>();
  for (const queue of queues) {
    await boss.createQueue(queue.name, {
      name: queue.name,
      // One waiting and one running job per key: a run queued twice is worked once at a time.
      policy: 'stately',
      retryLimit: queue.retryLimit,
      retryDelay: queue.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: queue.expireInSeconds,
    });
    if (!options.work) continue;
    let workerId: string | null = null;
    workerId = await boss.work<object>(
      queue.name,
      { pollingIntervalSeconds: options.pollingIntervalSeconds, batchSize: queue.batchSize ?? 1 },
      async (jobs) => {
        for (const job of jobs) await track(inBackground(() => queue.handle(job.data)));
        // A queue that had work fetches again at once: pg-boss would otherwise wait a whole
        // polling interval after every batch, and a send to 50 people would take minutes.
        if (jobs.length > 0 && workerId) boss.notifyWorker(workerId);
      },
    );
    workers.set(queue.name, workerId);
  }
  // A job this process queued (a run-now, a message) starts at once where it works the queue, not
  // at its next poll; processes that do not work it find it at theirs.
  const wake = (queue: { name: string }) => {
    const workerId = workers.get(queue.name);
    if (workerId) boss.notifyWorker(workerId);
  };
  return {
    async send(queue, data, key) {
      await boss.send(queue.name, data, { singletonKey: key, db: callers });
      wake(queue);
    },
    async sendAll(queue, jobs) {
      if (jobs.length === 0) return;
      // pg-boss's insert takes the queue's settings as send does, and skips a key already waiting
      // (the queue's policy is a unique index; the statement does nothing on a conflict).
      await boss.insert(
        jobs.map(({ data, key }) => ({ name: queue.name, data, singletonKey: key })),
        { db: callers },
      );
      wake(queue);
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 10_000, close: false });
      // pg-boss marks a job done without waiting for that statement, and a fetch under way when it
      // stops still hands its jobs to the worker: wait until none of it is left, so that nothing
      // reaches the database after it closes.
      while (pending.size > 0) {
        await Promise.allSettled([...pending]);
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}

/**
 * How soon a tick that found more due work than it hands on at once (mail, webhooks: 200) runs
 * again. Those rows stay due until a job takes them, so one tick cannot hand on the rest; without
 * this, they would wait for the next interval (SCHEDULE_TICK_SECONDS), and a backlog would leave at
 * 200 per interval instead of at the pace its jobs are worked.
 */
export const BACKLOG_TICK_MS = 1_000;

/** A feature's ticker (`startTicker`). */
export interface Ticker {
  /** Ticks once more in `ms`, unless a tick asked for this way is already coming. */
  soon(ms: number): void;
  stop(): void;
}

/**
 * Runs `tick` now, every `intervalMs`, and when asked (`soon`), its timers unref'd so they never
 * keep a process alive, reporting a failed tick to `onError` and going on. Each feature's ticker
 * (schedules, mail, webhooks) finds its due work in the database and hands it to the engine; a
 * tick is background work, whoever asked for it.
 */
export function startTicker(tick: () => Promise<unknown>, intervalMs: number, onError: (error: unknown) => void): Ticker {
  const run = () => {
    inBackground(tick).catch(onError);
  };
  let stopped = false;
  let coming: NodeJS.Timeout | null = null;
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    soon(ms) {
      if (stopped || coming) return;
      coming = setTimeout(() => {
        coming = null;
        run();
      }, ms);
      coming.unref();
    },
    stop() {
      stopped = true;
      clearInterval(timer);
      if (coming) clearTimeout(coming);
      coming = null;
    },
  };
}
