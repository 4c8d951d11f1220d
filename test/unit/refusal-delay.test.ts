import { describe, expect, it } from 'vitest';
import { RefusalDelay, type Sleep } from '../../src/lib/refusal-delay.js';

/** A wait the test ends by hand; records each delay it was asked for. */
function manualSleep() {
  const pending: { ms: number; release: () => void }[] = [];
  const sleep: Sleep = (ms, signal) =>
    new Promise<void>((resolve) => {
      pending.push({ ms, release: resolve });
      signal.addEventListener(
        'abort',
        () => {
          resolve();
        },
        { once: true },
      );
    });
  return { sleep, pending };
}

/** Whether `promise` has settled once everything already queued has run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('RefusalDelay', () => {
  it('holds a refusal for its delay, and counts it while it is held', async () => {
    const { sleep, pending } = manualSleep();
    const delay = new RefusalDelay(1_000, 8, sleep);
    const held = delay.hold();
    expect(await settled(held)).toBe(false);
    expect(delay.stats()).toEqual({ held: 1 });
    expect(pending.map((p) => p.ms)).toEqual([1_000]);
    pending[0]!.release();
    await held;
    expect(delay.stats()).toEqual({ held: 0 });
  });

  it('answers at once when the delay is 0', async () => {
    const { sleep, pending } = manualSleep();
    const delay = new RefusalDelay(0, 8, sleep);
    expect(await settled(delay.hold())).toBe(true);
    expect(pending).toHaveLength(0);
  });

  it('holds at most maxHeld at once; the rest are answered at once', async () => {
    const { sleep, pending } = manualSleep();
    const delay = new RefusalDelay(1_000, 2, sleep);
    const first = [delay.hold(), delay.hold()];
    expect(await settled(delay.hold())).toBe(true);
    expect(delay.stats()).toEqual({ held: 2 });
    for (const p of pending) p.release();
    await Promise.all(first);
    // Room again once they are answered.
    const again = delay.hold();
    expect(await settled(again)).toBe(false);
    pending[2]!.release();
    await again;
  });

  it('answers every held refusal when closed, and holds none after', async () => {
    const { sleep } = manualSleep();
    const delay = new RefusalDelay(1_000, 8, sleep);
    const held = [delay.hold(), delay.hold()];
    delay.close();
    await Promise.all(held);
    expect(delay.stats()).toEqual({ held: 0 });
    expect(await settled(delay.hold())).toBe(true);
  });

  it('waits on a real timer by default, and close cuts it short', async () => {
    const delay = new RefusalDelay(60_000);
    const held = delay.hold();
    expect(await settled(held)).toBe(false);
    delay.close();
    await held;
    expect(delay.stats()).toEqual({ held: 0 });
  });
});
