/**
 * Group commit for share-page views. A view is answered only after the statement that counts it
 * has committed, so every page served is counted even if the process dies right after. Views
 * that arrive while a count is being written wait for the next one, which counts them all in
 * one statement: a lone view is written on the event loop's next turn, and a burst costs one
 * write per batch instead of one per view (and no queue of row-lock waits on the link's row).
 */

/**
 * Writes one batch (views per link token hash) and returns, for each link that still served, what
 * the statement found out about it besides (the viewer: its page's branding stamp).
 */
export type CountBatch<T> = (views: ReadonlyMap<string, number>) => Promise<ReadonlyMap<string, T>>;

interface Waiting<T> {
  views: number;
  settle: Array<{ resolve(counted: T | undefined): void; reject(error: unknown): void }>;
}

/** Resolves once the event loop has run what was already waiting: other requests' callbacks and writes. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class ViewCounter<T> {
  private pending = new Map<string, Waiting<T>>();
  private writing = false;

  constructor(private readonly countBatch: CountBatch<T>) {}

  /** Counts one view of the link; once committed, what its write returned for it, or undefined when the link no longer serves. */
  count(tokenHash: string): Promise<T | undefined> {
    return new Promise((resolve, reject) => {
      let waiting = this.pending.get(tokenHash);
      if (!waiting) {
        waiting = { views: 0, settle: [] };
        this.pending.set(tokenHash, waiting);
      }
      waiting.views += 1;
      waiting.settle.push({ resolve, reject });
      if (!this.writing) void this.write();
    });
  }

  /**
   * Writes batches until no view waits. Each batch is taken on the event loop's next turn, not at
   * once: the views of the requests already read join it, and the pages of the batch just counted
   * go out before the statement wakes the database (on a machine the database shares, the write
   * to it can cost this thread its core for as long as the statement runs). Measured on the share
   * page under load (PostgreSQL, 50 connections): 24,800-25,700 req/s against 22,000-23,000.
   */
  private async write(): Promise<void> {
    this.writing = true;
    try {
      await nextTurn();
      while (this.pending.size > 0) {
        const batch = this.pending;
        this.pending = new Map();
        // Links in one order whatever the views' arrival: two processes' batches that count the same
        // links lock their rows in the same order, so one waits for the other and neither deadlocks.
        const hashes = [...batch.keys()].sort();
        try {
          const counted = await this.countBatch(new Map(hashes.map((hash) => [hash, batch.get(hash)?.views ?? 0])));
          for (const [hash, waiting] of batch) for (const s of waiting.settle) s.resolve(counted.get(hash));
        } catch (error) {
          for (const waiting of batch.values()) for (const s of waiting.settle) s.reject(error);
        }
        await nextTurn();
      }
    } finally {
      this.writing = false;
    }
  }
}
