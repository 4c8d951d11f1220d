import { describe, expect, it } from 'vitest';
import { ViewCounter } from '../../src/modules/shares/view-counter.js';

/** A batch writer whose writes finish only when the test says so. */
function controlledWriter(counted: (hash: string) => boolean = () => true) {
  const batches: Map<string, number>[] = [];
  const finish: Array<(error?: Error) => void> = [];
  const write = (views: ReadonlyMap<string, number>) =>
    new Promise<ReadonlyMap<string, true>>((resolve, reject) => {
      batches.push(new Map(views));
      finish.push((error) => {
        if (error) reject(error);
        else resolve(new Map([...views.keys()].filter(counted).map((hash) => [hash, true] as const)));
      });
    });
  return { batches, finish, write };
}

/** Resolves once the counter has started its `n`th write (it takes a batch on the event loop's next turn). */
const written = (writer: ReturnType<typeof controlledWriter>, n: number) =>
  expect.poll(() => writer.batches.length, { interval: 1 }).toBe(n);

describe('ViewCounter', () => {
  it('writes on the next turn the views of this one together, and those that arrive meanwhile in the next write', async () => {
    const writer = controlledWriter();
    const counter = new ViewCounter(writer.write);
    const first = [counter.count('a'), counter.count('b')];
    // Not at once: the other requests already read add their views to the batch.
    expect(writer.batches).toHaveLength(0);
    await written(writer, 1);
    expect(writer.batches[0]).toEqual(
      new Map([
        ['a', 1],
        ['b', 1],
      ]),
    );

    const waiting = [counter.count('a'), counter.count('c'), counter.count('a')];
    expect(writer.batches).toHaveLength(1);
    writer.finish[0]!();
    expect(await Promise.all(first)).toEqual([true, true]);
    await written(writer, 2);
    expect(writer.batches[1]).toEqual(
      new Map([
        ['a', 2],
        ['c', 1],
      ]),
    );
    writer.finish[1]!();
    expect(await Promise.all(waiting)).toEqual([true, true, true]);
  });

  it('writes a batch in the links’ order, whatever order their views came in', async () => {
    const writer = controlledWriter();
    const counter = new ViewCounter(writer.write);
    const waiting = ['c', 'x', 'a', 'c', 'b'].map((hash) => counter.count(hash));
    await written(writer, 1);
    // Two processes' batches over the same links then lock their rows in one order: no deadlock.
    expect([...writer.batches[0]!]).toEqual([
      ['a', 1],
      ['b', 1],
      ['c', 2],
      ['x', 1],
    ]);
    writer.finish[0]!();
    expect(await Promise.all(waiting)).toEqual([true, true, true, true, true]);
  });

  it('answers undefined for a link the write did not count, and true for the others', async () => {
    const writer = controlledWriter((hash) => hash !== 'revoked');
    const counter = new ViewCounter(writer.write);
    const views = [counter.count('live'), counter.count('revoked')];
    await written(writer, 1);
    writer.finish[0]!();
    expect(await Promise.all(views)).toEqual([true, undefined]);
  });

  it('fails every view of a batch whose write fails, and goes on with the next', async () => {
    const writer = controlledWriter();
    const counter = new ViewCounter(writer.write);
    const failed = counter.count('a');
    await written(writer, 1);
    writer.finish[0]!(new Error('database away'));
    await expect(failed).rejects.toThrow('database away');
    const next = counter.count('a');
    await written(writer, 2);
    writer.finish[1]!();
    expect(await next).toBe(true);
  });
});
