/**
 * A feature's ticker (job-engine.ts `startTicker`): a tick now, one every interval, and one more
 * when asked (`soon`), never two asked for at once, none after `stop`. On fake timers: the test
 * moves time itself.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTicker, type Ticker } from '../../src/jobs/job-engine.js';

let ticks: number;
let ticker: Ticker | null;
const tick = () => {
  ticks += 1;
  return Promise.resolve();
};

beforeEach(() => {
  vi.useFakeTimers();
  ticks = 0;
  ticker = null;
});
afterEach(() => {
  ticker?.stop();
  vi.useRealTimers();
});

describe('a ticker', () => {
  it('ticks at once and then every interval', () => {
    ticker = startTicker(tick, 30_000, () => {});
    expect(ticks).toBe(1);
    vi.advanceTimersByTime(29_999);
    expect(ticks).toBe(1);
    vi.advanceTimersByTime(1);
    expect(ticks).toBe(2);
    vi.advanceTimersByTime(60_000);
    expect(ticks).toBe(4);
  });

  it('ticks once more when asked, once however often it is asked meanwhile', () => {
    ticker = startTicker(tick, 30_000, () => {});
    ticker.soon(1_000);
    ticker.soon(50);
    ticker.soon(1_000);
    vi.advanceTimersByTime(999);
    expect(ticks).toBe(1);
    vi.advanceTimersByTime(1);
    expect(ticks).toBe(2);
    // Once that tick has run, it may be asked for again.
    ticker.soon(50);
    vi.advanceTimersByTime(50);
    expect(ticks).toBe(3);
  });

  it('ticks no more once stopped, not even one asked for', () => {
    ticker = startTicker(tick, 30_000, () => {});
    ticker.soon(1_000);
    ticker.stop();
    ticker.soon(50);
    vi.advanceTimersByTime(120_000);
    expect(ticks).toBe(1);
  });

  it('reports a failed tick and goes on ticking', async () => {
    const errors: unknown[] = [];
    let fail = true;
    ticker = startTicker(
      () => {
        ticks += 1;
        return fail ? Promise.reject(new Error('database down')) : Promise.resolve();
      },
      30_000,
      (error) => errors.push(error),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(errors).toEqual([new Error('database down')]);
    fail = false;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(ticks).toBe(2);
    expect(errors).toHaveLength(1);
  });
});
