/**
 * Work that no request waits for (jobs, tickers: mail, webhooks, schedule runs) runs in the
 * background context. On the embedded engine, whose one thread runs every statement in turn,
 * background statements yield to requests' (src/db/pglite-worker.ts), so a thousand mails being
 * sent do not slow the share page; on PostgreSQL the server schedules its connections itself.
 *
 * The context is an AsyncLocalStorage, kept only once the embedded engine's thread, the one
 * reader of the mark, starts (`trackBackgroundWork`). On Node 20 a storage in use makes the
 * process track every promise it creates (async hooks), which cost the PostgreSQL server about a
 * twelfth of a share page's CPU for a mark nobody read; without a storage `inBackground` only
 * runs its work.
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
  return {
    track: () => {
      storage ??= new AsyncLocalStorage<true>();
    },
    run: (work) => (storage ? storage.run(true, work) : work()),
    isBackground: () => storage?.getStore() === true,
  };
}

/** The process's mark, which the job engine, the outbox and the embedded engine's thread share. */
export const backgroundMarks: BackgroundMarks = createBackgroundMarks();

/** Runs `work`, and everything it starts (timers, callbacks, promises), as background work. */
export function inBackground<T>(work: () => T): T {
  return backgroundMarks.run(work);
}
