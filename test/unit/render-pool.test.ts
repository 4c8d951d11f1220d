import { afterEach, describe, expect, it } from 'vitest';
import { createRenderPool, type RenderPool } from '../../src/render/render-pool.js';
import { TemplateError } from '../../src/render/template-engine.js';

let pool: RenderPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

async function failure(promise: Promise<unknown>): Promise<TemplateError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TemplateError);
  return error as TemplateError;
}

describe('render pool', () => {
  it('renders several sources against one context in order', async () => {
    pool = createRenderPool({ size: 1 });
    expect(await pool.render(['a{{ x }}', '{{ x | plus: 1 }}', ''], { x: 1 })).toEqual(['a1', '2', '']);
  });

  it('passes template errors through with line and kind', async () => {
    pool = createRenderPool({ size: 1 });
    const error = await failure(pool.render(['ok\n{{ "abc" | duration }}'], {}));
    expect(error).toMatchObject({ kind: 'runtime', line: 2 });
  });

  it('runs jobs in parallel up to its size and queues the rest', async () => {
    pool = createRenderPool({ size: 2 });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => pool!.render(['{{ n }}'], { n: i })));
    expect(results.map((r) => r[0])).toEqual(Array.from({ length: 10 }, (_, i) => String(i)));
  });

  it('stops a job at the hard deadline, replaces the worker and goes on', async () => {
    pool = createRenderPool({ size: 1, deadlineMs: 100 });
    // A fresh worker's first job may also spend the start-up allowance; warm it up first.
    expect(await pool.render(['warm'], {})).toEqual(['warm']);
    const slow = '{% for a in (1..100000) %}{% for b in (1..100000) %}x{% endfor %}{% endfor %}';
    const error = await failure(pool.render([slow], {}));
    expect(error.kind).toBe('limit');
    expect(error.message).toMatch(/time limit/);
    expect(await pool.render(['fine'], {})).toEqual(['fine']);
    expect(await pool.render(['still fine'], {})).toEqual(['still fine']);
  });

  it('stops a job whose worker runs out of heap, and the next job gets a fresh worker', async () => {
    pool = createRenderPool({ size: 1, maxHeapMb: 16 });
    const huge = { rows: Array.from({ length: 200_000 }, (_, i) => ({ i, text: `row ${i} `.repeat(20) })) };
    const error = await failure(pool.render(['{{ rows | size }}'], huge));
    expect(error.kind).toBe('limit');
    expect(await pool.render(['{{ n }}'], { n: 7 })).toEqual(['7']);
  });

  it('keeps the event loop free while a template runs', async () => {
    pool = createRenderPool({ size: 1 });
    const slow = pool.render(['{% for a in (1..100000) %}{% for b in (1..100000) %}x{% endfor %}{% endfor %}'], {}).catch(() => 'stopped');
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    await slow;
    clearInterval(timer);
    // The render took about its 2 s time limit; a blocked loop would have ticked once or not at all.
    expect(ticks).toBeGreaterThan(20);
  });

  it('refuses work once closed', async () => {
    pool = createRenderPool({ size: 1 });
    await pool.close();
    await expect(pool.render(['x'], {})).rejects.toThrow(/closed/);
  });
});

describe('share pages in the pool', () => {
  it('renders a page off the main thread, the same bytes as on it', async () => {
    const { renderReportPage } = await import('../../src/render/share-page.js');
    pool = createRenderPool({ size: 1 });
    const input = {
      name: 'Week <1>',
      period: { from: '2026-11-02', to: '2026-11-08' },
      ownerName: 'Ada',
      generatedAt: '2026-11-09T08:00:00.000Z',
      timezone: 'Europe/Berlin',
      version: 2,
      bodyMarkdown: '# Hello\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n',
    };
    expect(await pool.renderPage(input)).toBe(renderReportPage(input));
  });
});
