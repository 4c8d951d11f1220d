/**
 * Work that no request waits for (jobs, tickers: mail, webhooks, schedule runs) runs in the
 * background context. On the embedded engine, whose one thread runs every statement in turn,
 * background statements yield to requests' (src/db/pglite-worker.ts), so a thousand mails being
 * sent do not slow the share page; on PostgreSQL the server schedules its connections itself.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const background = new AsyncLocalStorage<true>();

/** Runs `work`, and everything it starts (timers, callbacks, promises), as background work. */
export function inBackground<T>(work: () => T): T {
  return background.run(true, work);
}

/** Whether the caller runs as background work (see `inBackground`). */
export function isBackground(): boolean {
  return background.getStore() === true;
}
