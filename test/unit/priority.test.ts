/**
 * Background work is marked only once the embedded engine's thread, the one reader of the mark,
 * has started (src/db/priority.ts): before that, as on a PostgreSQL server, `inBackground` only
 * runs its work and no AsyncLocalStorage is in use. Each test imports a fresh copy of the module.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

type Priority = typeof import('../../src/db/priority.js');

async function freshPriority(): Promise<Priority> {
  vi.resetModules();
  return import('../../src/db/priority.js');
}

afterEach(() => {
  vi.resetModules();
});

describe('background work', () => {
  it('is not marked before the embedded engine starts: inBackground only runs the work', async () => {
    const { inBackground, isBackground } = await freshPriority();
    expect(inBackground(() => 42)).toBe(42);
    expect(inBackground(() => isBackground())).toBe(false);
    expect(await inBackground(async () => (await Promise.resolve(), isBackground()))).toBe(false);
  });

  it('is marked, through timers and promises, once tracked, and nothing else is', async () => {
    const { inBackground, isBackground, trackBackgroundWork } = await freshPriority();
    trackBackgroundWork();
    trackBackgroundWork();
    expect(inBackground(() => isBackground())).toBe(true);
    expect(await inBackground(async () => (await Promise.resolve(), isBackground()))).toBe(true);
    const later = await inBackground(
      () =>
        new Promise<boolean>((resolve) => {
          setTimeout(() => {
            resolve(isBackground());
          }, 0);
        }),
    );
    expect(later).toBe(true);
    expect(isBackground()).toBe(false);
    expect(await (async () => (await Promise.resolve(), isBackground()))()).toBe(false);
  });

  it('is tracked from the moment the engine’s thread starts', async () => {
    const { isBackground, inBackground } = await freshPriority();
    const { startPgliteThread } = await import('../../src/db/pglite-thread.js');
    const { pgliteImage } = await import('../helpers/pglite-image.js');
    const thread = await startPgliteThread(null, pgliteImage('blank'));
    try {
      expect(inBackground(() => isBackground())).toBe(true);
    } finally {
      await thread.close();
    }
  });
});
