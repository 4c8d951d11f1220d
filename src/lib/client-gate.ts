/**
 * Admission per client for the public routes that guess secrets (sign-in, set-password links,
 * passcode unlocks; docs/operations.md "Resource limits"). Their throttles count attempts in the
 * database, which is right for a count several processes share, but each count is a statement:
 * a client with 64 requests in flight held the database's connections (and, on the embedded
 * engine, its one connection) with counts that would all be refused, and everyone else's share
 * pages waited behind them. Here a client (an address, an IPv6 /64: client-block.ts) may have a
 * few such requests running in this process; more are refused at once with a 429, before any
 * statement. This is admission, not the attempt count: nothing another process must know is kept.
 */
import { LRUCache } from 'lru-cache';
import { clientBlock } from './client-block.js';
import { AppError } from './errors.js';

/** Requests of one client that may run at once in one process, per gate. */
export const CLIENT_IN_FLIGHT = 4;
/** What a refused client is told to wait: these requests answer within a second or two. */
export const CLIENT_RETRY_AFTER_SECONDS = 1;

export class ClientGate {
  private readonly running = new Map<string, number>();
  /** Throttle keys the database refused, with the start of the window that refused them. */
  private readonly refused = new LRUCache<string, number>({ max: 10_000 });

  constructor(private readonly perClient: number = CLIENT_IN_FLIGHT) {
    if (perClient < 1) throw new Error('client gate: at least one request per client');
  }

  /** Admits one request of this client: its release, or null when the client has `perClient` running here. */
  admit(address: string): (() => void) | null {
    const key = clientBlock(address);
    const now = this.running.get(key) ?? 0;
    if (now >= this.perClient) return null;
    this.running.set(key, now + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(key) ?? 1) - 1;
      if (left === 0) this.running.delete(key);
      else this.running.set(key, left);
    };
  }

  /** Runs `task` unless this client already has `perClient` requests running here; then 429. */
  async run<T>(address: string, task: () => Promise<T>): Promise<T> {
    const release = this.admit(address);
    if (!release) {
      throw new AppError(
        'rate_limited',
        `At most ${this.perClient} password requests of one client are handled at once; wait for an answer first.`,
        undefined,
        { 'Retry-After': String(CLIENT_RETRY_AFTER_SECONDS) },
      );
    }
    try {
      return await task();
    } finally {
      release();
    }
  }

  /**
   * Remembers that a throttle in the database refused `key` in the window that began at
   * `windowStartedAt`, so that this process refuses it again without a statement until the window
   * ends: a refused client that keeps trying costs no database work.
   */
  remember(key: string, windowStartedAt: Date): void {
    this.refused.set(key, windowStartedAt.getTime());
  }

  /** The start of the window in which `key` was refused, while that window of `windowMs` lasts; else null. */
  refusedSince(key: string, now: Date, windowMs: number): Date | null {
    const since = this.refused.get(key);
    if (since === undefined) return null;
    if (now.getTime() >= since && now.getTime() < since + windowMs) return new Date(since);
    this.refused.delete(key);
    return null;
  }

  /** Clients with requests running, and the requests (tests, metrics). */
  stats(): { clients: number; requests: number } {
    let requests = 0;
    for (const count of this.running.values()) requests += count;
    return { clients: this.running.size, requests };
  }
}
