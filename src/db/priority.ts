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

let background: AsyncLocalStorage<true> | null = null;

/** Marks background work from now on in this process (pglite-thread.ts calls it as the engine starts). */
export function trackBackgroundWork(): void {
  background ??= new AsyncLocalStorage<true>();
}

/** Runs `work`, and everything it starts (timers, callbacks, promises), as background work. */
export function inBackground<T>(work: () => T): T {
  return background ? background.run(true, work) : work();
}

/** Whether the caller runs as background work (see `inBackground`); always false until tracked. */
export function isBackground(): boolean {
  return background?.getStore() === true;
}
