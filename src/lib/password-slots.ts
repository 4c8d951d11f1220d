/**
 * A semaphore over scrypt work (docs/operations.md "Resource limits"): sign-in checks, the check
 * that an unknown account burns, password changes and set-password links. scrypt is deliberately
 * slow and memory-hard and runs on the hashing threads (hash-threads.ts), which passcode unlocks
 * (PBKDF2) share; so at most `capacity` hashes run at once in the process, at most `maxWaiting`
 * wait, and past that the request is refused at once (503 with Retry-After) instead of queueing
 * without end.
 */
import { AppError } from './errors.js';

/**
 * One scrypt at a time per process: on a 2-core server it leaves a core to the event loop, and
 * the hashing threads keep one each for the passcode slots.
 */
export const PASSWORD_HASH_SLOTS = 1;
/** At the default cost (2^16) a hash takes about 0.1-0.2 s, so the last in a full queue waits two or three seconds. */
export const PASSWORD_HASH_QUEUE = 16;

export class PasswordSlots {
  private inUse = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly capacity: number,
    private readonly maxWaiting: number,
    private readonly retryAfterSeconds = 3,
  ) {
    if (capacity < 1 || maxWaiting < 0) throw new Error('password slots: at least one slot and a queue of zero or more');
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.inUse < this.capacity) this.inUse += 1;
    else if (this.waiting.length >= this.maxWaiting) {
      throw new AppError('unavailable', 'Too many password checks are under way; try again in a moment.', undefined, {
        'Retry-After': String(this.retryAfterSeconds),
      });
    } else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so the count never dips below it.
      if (next) next();
      else this.inUse -= 1;
    }
  }

  /** What the slots hold right now (tests, metrics). */
  stats(): { inUse: number; waiting: number } {
    return { inUse: this.inUse, waiting: this.waiting.length };
  }
}
