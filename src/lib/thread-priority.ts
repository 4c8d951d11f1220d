/**
 * Render workers, file processes and hashing threads run below the event loop's priority
 * (docs/decisions.md "Render workers run at a lower priority"). On a server with few cores a
 * render, a diff, a template check or a passcode's hash in a worker competes for CPU with the main
 * thread that answers every request; at nice 10 the kernel gives the main thread the core whenever
 * it wants it, and the work takes what is left, so one client's heavy work cannot make everyone
 * else's answers slow. Linux keeps a nice value per thread, and
 * `os.setPriority` with a thread's id sets only that thread's. Elsewhere (or when /proc is not
 * there) nothing changes.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The nice value of a render worker's thread: 0 is normal, 19 the lowest. */
export const WORKER_NICE = 10;

/**
 * The nice value of a file process (file-process.ts): a render worker's. Threads the process starts
 * later take it from the thread that starts them. Not the lowest (19): beside two CPU-bound
 * processes at normal priority a file process at 19 got almost no CPU, and a one-page PDF took
 * longer than 30 s.
 */
export const FILE_NICE = WORKER_NICE;

/** The calling thread's id on Linux ("<pid>/task/<tid>" in /proc/thread-self); null elsewhere. */
export function currentThreadId(): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/** Lowers the calling thread's priority to `nice` (WORKER_NICE unless given); whether it could. */
export function lowerThreadPriority(nice: number = WORKER_NICE): boolean {
  const tid = currentThreadId();
  if (tid === null) return false;
  try {
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
