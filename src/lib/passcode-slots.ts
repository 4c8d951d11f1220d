/**
 * A semaphore over PBKDF2 work (docs/operations.md "Resource limits"). Hashing a passcode is
 * deliberately slow and runs on a few hashing threads (hash-threads.ts); minting many passcode
 * links at once must not make a reader who types the right passcode wait behind them. Mints may
 * take only the slots not reserved for unlocks; unlocks may take any slot and are started first.
 */
export type PasscodeWork = 'unlock' | 'mint';

/** Passcode hashes at once per process; mints may take all but `PASSCODE_UNLOCK_RESERVE`. */
export const PASSCODE_SLOTS = 4;
export const PASSCODE_UNLOCK_RESERVE = 2;

export class PasscodeSlots {
  private inUse = 0;
  private readonly waiting: Record<PasscodeWork, (() => void)[]> = { unlock: [], mint: [] };

  /** `capacity` slots, of which `reservedForUnlocks` only unlocks may take. */
  constructor(
    private readonly capacity: number,
    private readonly reservedForUnlocks: number,
  ) {
    if (reservedForUnlocks >= capacity) throw new Error('passcode slots: the reserve must leave room for mints');
  }

  async run<T>(work: PasscodeWork, task: () => Promise<T>): Promise<T> {
    if (this.mayStart(work)) this.inUse += 1;
    else await new Promise<void>((resolve) => this.waiting[work].push(resolve));
    try {
      return await task();
    } finally {
      this.inUse -= 1;
      this.dispatch();
    }
  }

  /** What the slots hold right now (tests, metrics). */
  stats(): { inUse: number; waitingUnlocks: number; waitingMints: number } {
    return { inUse: this.inUse, waitingUnlocks: this.waiting.unlock.length, waitingMints: this.waiting.mint.length };
  }

  private mayStart(work: PasscodeWork): boolean {
    return this.inUse < (work === 'unlock' ? this.capacity : this.capacity - this.reservedForUnlocks);
  }

  private dispatch(): void {
    for (const work of ['unlock', 'mint'] as const) {
      while (this.waiting[work].length > 0 && this.mayStart(work)) {
        this.inUse += 1;
        this.waiting[work].shift()?.();
      }
    }
  }
}
