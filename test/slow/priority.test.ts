/**
 * Background work is marked only once the embedded engine's thread, the one reader of the mark,
 * has started (src/db/priority.ts): before that, as on a PostgreSQL server, `inBackground` only
 * runs its work and no AsyncLocalStorage is in use. Each test makes marks of its own rather than
 * a fresh copy of the module: resetting the module registry would give the files this process runs
 * next classes other than those of the objects they share (a render pool, a database).
 */
import { describe, expect, it } from 'vitest';
import { createBackgroundMarks } from '../../src/db/priority.js';
import { startPgliteThread } from '../../src/db/pglite-thread.js';
import { pgliteImage } from '../helpers/pglite-image.js';

/** Whether AsyncLocalStorage rides on context frames (Node 24 by default, Node 22 with a flag) rather than async hooks. */
const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
const CONTEXT_FRAMES =
  Number(process.versions.node.split('.')[0]) >= 24
    ? !flags.includes('--no-async-context-frame')
    : flags.includes('--experimental-async-context-frame');

describe('background work', () => {
  it('is not marked before the embedded engine starts: inBackground only runs the work', async () => {
    const marks = createBackgroundMarks();
    expect(marks.run(() => 42)).toBe(42);
    expect(marks.run(() => marks.isBackground())).toBe(false);
    expect(await marks.run(async () => (await Promise.resolve(), marks.isBackground()))).toBe(false);
  });

  it('is marked, through timers and promises, once tracked, and nothing else is', async () => {
    const marks = createBackgroundMarks();
    marks.track();
    marks.track();
    expect(marks.run(() => marks.isBackground())).toBe(true);
    expect(await marks.run(async () => (await Promise.resolve(), marks.isBackground()))).toBe(true);
    const later = await marks.run(
      () =>
        new Promise<boolean>((resolve) => {
          setTimeout(() => {
            resolve(marks.isBackground());
          }, 0);
        }),
    );
    expect(later).toBe(true);
    expect(marks.isBackground()).toBe(false);
    expect(await (async () => (await Promise.resolve(), marks.isBackground()))()).toBe(false);
  });

  it('is marked while any background task is under way, each to its end, and not after the last ends', async () => {
    const marks = createBackgroundMarks();
    marks.track();
    let releaseFirst!: () => void;
    let releaseSecond!: () => void;
    const first = marks.run(async () => {
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      return marks.isBackground();
    });
    const second = marks.run(async () => {
      await new Promise<void>((resolve) => (releaseSecond = resolve));
      // Still marked after the first task has ended and its mark was let go.
      await Promise.resolve();
      return marks.isBackground();
    });
    releaseFirst();
    expect(await first).toBe(true);
    releaseSecond();
    expect(await second).toBe(true);
    // Nothing under way, the storage is disabled: a timer a task set and did not wait for runs
    // unmarked where the storage rides on async hooks (Node 20 and 22). Where it rides on context
    // frames (Node 24), which cost a promise nothing, disabling it changes nothing there.
    let leftBehind: Promise<boolean> = Promise.resolve(true);
    await marks.run(async () => {
      leftBehind = new Promise<boolean>((resolve) => {
        setTimeout(() => {
          resolve(marks.isBackground());
        }, 0);
      });
    });
    if (!CONTEXT_FRAMES) expect(await leftBehind).toBe(false);
    // A task that throws, or returns at once, lets its mark go too; the next one is marked again.
    expect(() =>
      marks.run(() => {
        throw new Error('a task that fails at once');
      }),
    ).toThrow('a task that fails at once');
    expect(marks.run(() => 7)).toBe(7);
    await expect(marks.run(() => Promise.reject(new Error('a task that fails later')))).rejects.toThrow('fails later');
    expect(marks.isBackground()).toBe(false);
    expect(await marks.run(async () => (await new Promise((resolve) => setImmediate(resolve)), marks.isBackground()))).toBe(true);
  });

  it('is tracked from the moment the engine’s thread starts', async () => {
    const marks = createBackgroundMarks();
    expect(marks.run(() => marks.isBackground())).toBe(false);
    const thread = await startPgliteThread(null, pgliteImage('blank'), marks);
    try {
      expect(marks.run(() => marks.isBackground())).toBe(true);
    } finally {
      await thread.close();
    }
  });
});
