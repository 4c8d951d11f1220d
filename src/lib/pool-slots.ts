/**
 * What the render pool's workers (render-pool.ts), the file pool's processes (file-pool.ts) and the
 * hashing threads (hash-threads.ts) keep alike: a slot runs one job at a time, is stopped once it has sat idle, and is dropped, failing
 * its job, when it dies or overruns; a fresh one starts on demand.
 */
import type { Worker } from 'node:worker_threads';

export interface PoolSlot<J extends { reject(error: Error): void }> {
  job: J | null;
  /** The running job's deadline. */
  timer: NodeJS.Timeout | null;
  idleTimer: NodeJS.Timeout | null;
}

export interface SlotRunner<S> {
  /** The slot's thread or process stops keeping the event loop alive (it has no job). */
  release(slot: S): void;
  /** Stops the slot's thread or process for good; its exit then fails nothing. */
  stop(slot: S): void;
  /** Starts what waits, once a slot is free or gone. */
  dispatch(): void;
  /** A slot idle this long is stopped, giving its memory back. */
  idleMs: number;
}

/**
 * The runner of slots that each hold a worker thread (the render pool's, the hashing threads): an
 * idle thread no longer keeps the process alive, and a stopped one is terminated with its exit
 * listener removed first, so its owner does not take the exit for a crash.
 */
export function threadRunner<S extends { worker: Worker }>(dispatch: () => void, idleMs: number): SlotRunner<S> {
  return {
    release: (slot) => {
      slot.worker.unref();
    },
    stop: (slot) => {
      slot.worker.removeAllListeners('exit');
      void slot.worker.terminate();
    },
    dispatch,
    idleMs,
  };
}

export interface SlotKeeping<S> {
  /** The slot's job is over: its deadline is cleared and the slot is free. */
  finish: (slot: S) => void;
  /** Stops the slot once it has sat idle for the runner's `idleMs`. */
  idle: (slot: S) => void;
  /** Takes an idle slot out of the pool. */
  retire: (slot: S) => void;
  /** Drops a slot that died or overran, failing its job with `error`. */
  fail: (slot: S, error: Error) => void;
}

export function slotKeeping<J extends { reject(error: Error): void }, S extends PoolSlot<J>>(
  slots: S[],
  runner: SlotRunner<S>,
): SlotKeeping<S> {
  function finish(slot: S): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    runner.release(slot);
  }

  function drop(slot: S): boolean {
    const index = slots.indexOf(slot);
    if (index === -1) return false;
    slots.splice(index, 1);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    return true;
  }

  function retire(slot: S): void {
    if (slot.job || !drop(slot)) return;
    runner.stop(slot);
  }

  return {
    finish,
    retire,
    idle: (slot) => {
      slot.idleTimer = setTimeout(() => {
        retire(slot);
      }, runner.idleMs);
      slot.idleTimer.unref();
    },
    fail: (slot, error) => {
      if (!drop(slot)) return;
      const job = slot.job;
      finish(slot);
      runner.stop(slot);
      job?.reject(error);
      runner.dispatch();
    },
  };
}
