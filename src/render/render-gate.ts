/**
 * Admission for report renders (docs/operations.md "Resource limits"). A render loads entries and
 * occupies a worker, so one user must not be able to take them all: each user has a few renders
 * running and a few waiting; past that the user gets 429, and past the process's whole waiting
 * room everyone gets 503. Both carry Retry-After. Share pages never pass through here (and the
 * render pool keeps a worker report renders cannot take), so a reader never waits behind renders.
 */
import { AppError } from '../lib/errors.js';

export interface RenderGateOptions {
  /** Renders one user may have running at once. */
  perUser: number;
  /** Renders one user may have waiting beyond those. */
  perUserQueue: number;
  /** Renders running at once in the process. */
  concurrency: number;
  /** Renders waiting in the process, all users together. */
  queue: number;
}

interface Waiter {
  userId: string;
  start(): void;
}

/** Seconds a refused client is told to wait: roughly the time a queue's worth of renders takes. */
export const RENDER_RETRY_AFTER_SECONDS = { user: 2, global: 5 } as const;

export class RenderGate {
  private readonly running = new Map<string, number>();
  private readonly waitingByUser = new Map<string, number>();
  private readonly waiting: Waiter[] = [];
  private active = 0;

  constructor(private readonly options: RenderGateOptions) {}

  /** Runs `task` when the user's and the process's limits allow; refuses at once when both queues are full. */
  async run<T>(userId: string, task: () => Promise<T>): Promise<T> {
    if (!this.mayStart(userId)) await this.enqueue(userId);
    else this.take(userId);
    try {
      return await task();
    } finally {
      this.release(userId);
    }
  }

  /** What the gate holds right now (tests, metrics). */
  stats(): { running: number; waiting: number } {
    return { running: this.active, waiting: this.waiting.length };
  }

  private mayStart(userId: string): boolean {
    return this.active < this.options.concurrency && (this.running.get(userId) ?? 0) < this.options.perUser;
  }

  private take(userId: string): void {
    this.active += 1;
    this.running.set(userId, (this.running.get(userId) ?? 0) + 1);
  }

  private enqueue(userId: string): Promise<void> {
    const queued = this.waitingByUser.get(userId) ?? 0;
    if (queued >= this.options.perUserQueue) {
      throw new AppError(
        'rate_limited',
        `You have ${this.options.perUser} renders running and ${this.options.perUserQueue} waiting, the most one user may; try again shortly.`,
        undefined,
        { 'Retry-After': String(RENDER_RETRY_AFTER_SECONDS.user) },
      );
    }
    if (this.waiting.length >= this.options.queue) {
      throw new AppError('unavailable', 'The server has too many renders waiting; try again shortly.', undefined, {
        'Retry-After': String(RENDER_RETRY_AFTER_SECONDS.global),
      });
    }
    this.waitingByUser.set(userId, queued + 1);
    return new Promise((resolve) => {
      this.waiting.push({ userId, start: resolve });
    });
  }

  private release(userId: string): void {
    this.active -= 1;
    const left = (this.running.get(userId) ?? 1) - 1;
    if (left === 0) this.running.delete(userId);
    else this.running.set(userId, left);
    this.dispatch();
  }

  /** Starts waiting renders in arrival order, skipping those of users already at their limit. */
  private dispatch(): void {
    for (let i = 0; i < this.waiting.length && this.active < this.options.concurrency;) {
      const waiter = this.waiting[i];
      if (!waiter) return;
      if (!this.mayStart(waiter.userId)) {
        i += 1;
        continue;
      }
      this.waiting.splice(i, 1);
      const queued = (this.waitingByUser.get(waiter.userId) ?? 1) - 1;
      if (queued === 0) this.waitingByUser.delete(waiter.userId);
      else this.waitingByUser.set(waiter.userId, queued);
      this.take(waiter.userId);
      waiter.start();
    }
  }
}
