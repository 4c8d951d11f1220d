/**
 * Work that no request waits for (jobs, tickers: mail, webhooks, schedule runs) runs in the
 * background context. On the embedded engine, whose one thread runs every statement in turn,
 * background statements yield to requests' (src/db/pglite-worker.ts), so a thousand mails being
 * sent do not slow the share page; on PostgreSQL the server schedules its connections itself.
 *
 * The context is an AsyncLocalStorage, kept only once the embedded engine's thread, the one
 * reader of the mark, starts (`trackBackgroundWork`), and enabled only while background work is
 * under way. On Node 20 an enabled storage makes the process track every promise it creates
 * (async hooks): kept on for good, that cost the PostgreSQL server about a twelfth of a share
 * page's CPU for a mark nobody read, and the embedded server about a sixth of the throughput of a
 * route that reads nothing (`/favicon.ico`), for marks read only while a job or tick runs. So the
 * storage is enabled when the first background work starts and disabled when the last one ends:
 * between pg-boss's polls and the tickers' passes, requests run with no promise tracked. Work that
 * a background task leaves running after it ends (a timer it set and did not wait for) may run
 * unmarked then: everything Chronicle starts in the background is awaited by its task, and
 * pg-boss's own statements are marked one by one (job-engine.ts). (Node 24's storage rides on
 * context frames, which cost a promise nothing; there disabling it changes nothing.)
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** The background mark of one process (`backgroundMarks`), or of one test. */
export interface BackgroundMarks {
  /** Marks background work from now on (pglite-thread.ts calls it as the engine starts). */
  track(): void;
  /** Runs `work`, and everything it starts (timers, callbacks, promises), as background work. */
  run<T>(work: () => T): T;
  /** Whether the caller runs as background work; always false until tracked. */
  isBackground(): boolean;
}

/** A mark of its own, untracked: the process has one (below); a test makes its own. */
export function createBackgroundMarks(): BackgroundMarks {
  let storage: AsyncLocalStorage<true> | null = null;
  /** Background tasks under way: the storage is enabled while there is one. */
  let running = 0;
  const ended = () => {
    running -= 1;
    if (running === 0) storage?.disable();
  };
  return {
    track: () => {
      storage ??= new AsyncLocalStorage<true>();
    },
    run: (work) => {
      if (!storage) return work();
      running += 1;
      let result: ReturnType<typeof work>;
      try {
        // run() enables a disabled storage again.
        result = storage.run(true, work);
      } catch (error) {
        ended();
        throw error;
      }
      if (isThenable(result)) result.then(ended, ended);
      else ended();
      return result;
    },
    isBackground: () => storage?.getStore() === true,
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as PromiseLike<unknown>).then === 'function'
  );
}

/** The process's mark, which the job engine, the outbox and the embedded engine's thread share. */
export const backgroundMarks: BackgroundMarks = createBackgroundMarks();

/** Runs `work`, and everything it starts (timers, callbacks, promises), as background work. */
export function inBackground<T>(work: () => T): T {
  return backgroundMarks.run(work);
}
