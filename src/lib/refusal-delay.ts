/**
 * Rate-limit refusals (429) are answered after a short delay (REFUSAL_DELAY_MS; docs/operations.md
 * "Rate limit"). A client that ignores Retry-After and sends again at once would otherwise get as
 * many refusals a second as its connections can carry: each costs little, but a thousand a second
 * take a core that the share page and everyone else's requests need. Held for a second, a client
 * with 64 requests in flight is refused 64 times a second, whatever it does. A well-behaved client
 * waits Retry-After anyway and never notices.
 *
 * Holding costs a socket and a timer, no statement and no CPU; at most `maxHeld` refusals are held
 * at once in a process, past that they are answered at once, so a client with thousands of
 * connections cannot make the process keep thousands of sockets for it. Closing the app answers
 * every held refusal at once.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Refusals one process holds at once; more are answered without delay. */
export const REFUSALS_HELD_MAX = 1_024;

export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

const timerSleep: Sleep = async (ms, signal) => {
  try {
    await sleep(ms, undefined, { signal });
  } catch {
    // Aborted: the app is closing; answer now.
  }
};

export class RefusalDelay {
  private held = 0;
  private readonly closing = new AbortController();

  constructor(
    private readonly delayMs: number,
    private readonly maxHeld: number = REFUSALS_HELD_MAX,
    private readonly wait: Sleep = timerSleep,
  ) {}

  /** Resolves when a refusal may be answered: after the delay, or at once when it is off, full or closing. */
  async hold(): Promise<void> {
    if (this.delayMs <= 0 || this.held >= this.maxHeld || this.closing.signal.aborted) return;
    this.held++;
    try {
      await this.wait(this.delayMs, this.closing.signal);
    } finally {
      this.held--;
    }
  }

  /** Answers every held refusal now and holds no more (the app is closing). */
  close(): void {
    this.closing.abort();
  }

  stats(): { held: number } {
    return { held: this.held };
  }
}
