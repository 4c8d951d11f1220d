import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRenderPool, defaultPoolSize, memoryAvailable, SHORT_MEMORY_BYTES, type RenderPool } from '../../src/render/render-pool.js';
import { frontMatterMeta } from '../../src/modules/history/front-matter-meta.js';
import { checkedMeta, versionMeta } from '../../src/modules/history/version-meta.js';
import { buildDocument } from '../../packages/document/src/index.js';
import { WORKER_NICE } from '../../src/lib/thread-priority.js';
import { BASE_LIMITS } from '../../src/render/template-engine.js';
import { failure, waitUntil } from '../helpers/render-pools.js';

let pool: RenderPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

/** One pool for the tests that need no options of their own (a worker takes a while to start). */
let shared: RenderPool;
beforeAll(() => {
  shared = createRenderPool({ size: 2 });
});
afterAll(() => shared.close());

describe('render pool', () => {
  it('renders several sources against one context in order', async () => {
    expect(await shared.render(['a{{ x }}', '{{ x | plus: 1 }}', ''], { x: 1 })).toEqual(['a1', '2', '']);
  });

  it('passes template errors through with line and kind', async () => {
    const error = await failure(shared.render(['ok\n{{ "abc" | duration }}'], {}));
    expect(error).toMatchObject({ kind: 'runtime', line: 2 });
  });

  it('runs jobs in parallel up to its size and queues the rest', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => shared.render(['{{ n }}'], { n: i })));
    expect(results.map((r) => r[0])).toEqual(Array.from({ length: 10 }, (_, i) => String(i)));
    expect(shared.stats()).toMatchObject({ busy: 0, queued: 0 });
    expect(shared.stats().workers).toBeLessThanOrEqual(2);
  });

  it('renders a report from its frame and the entries as the database sends them', async () => {
    const entries = JSON.stringify([
      ['e2', '2026-03-09T10:00:00.000Z', '2026-03-09', '11:00', 30, 'second', [], null, 'u1', 'w1'],
      ['e1', '2026-03-09T08:00:00.000Z', '2026-03-09', '09:00', 60, 'first', ['a'], 'p1', 'u1', 'w1'],
    ]);
    const frame = {
      report: { id: 'r1', name: 'R', note: null, version: 1 },
      period: { from: '2026-03-09', to: '2026-03-09', preset: null },
      timezone: 'Europe/Paris',
      generatedAt: '2026-03-10T08:00:00.000Z',
      owner: { id: 'u1', name: 'Ada', email: 'ada@example.com' },
      workspaces: [{ id: 'w1', name: 'W' }],
      template: { id: 't1', name: 'T' },
      aggregates: {
        totalMinutes: 90,
        entryCount: 2,
        byProject: [
          { id: 'p1', name: 'Web', minutes: 60, entryCount: 1 },
          { id: null, name: 'No project', minutes: 30, entryCount: 1 },
        ],
        byUser: [{ id: 'u1', name: 'Ada', minutes: 90, entryCount: 2 }],
        byTag: [{ tag: 'a', minutes: 60, entryCount: 1 }],
        byDay: [{ date: '2026-03-09', minutes: 90, entryCount: 2 }],
      },
    };
    const source =
      '{% for e in entries %}{{ e.time }} {{ e.project.name | default: "-" }} {{ e.user.name }};{% endfor %}{{ totals.minutes }}';
    expect(await shared.renderReport({ sources: [source], frame, entriesJson: entries, limits: BASE_LIMITS })).toEqual([
      '09:00 Web Ada;11:00 - Ada;90',
    ]);
    expect(await shared.renderReport({ sources: [source], frame, entriesJson: null, limits: BASE_LIMITS })).toEqual(['90']);
  });

  it('keeps a worker for share pages that report renders cannot take', async () => {
    const single = createRenderPool({ size: 1 });
    try {
      const pageInput = {
        name: 'P',
        period: { from: '2026-01-01', to: '2026-01-01' },
        ownerName: 'A',
        generatedAt: '2026-01-02T00:00:00.000Z',
        timezone: 'UTC',
        version: 1,
        bodyMarkdown: 'x',
      };
      const order: string[] = [];
      const slow = single.render(['{% for i in (1..20000) %}x{% endfor %}'], {}).then(() => order.push('first report'));
      const report = single.render(['r'], {}).then(() => order.push('queued report'));
      // The second report waits for the one report worker ...
      expect(single.stats()).toEqual({ workers: 1, busy: 1, queued: 1 });
      const page = single.renderPage(pageInput).then(() => order.push('page'));
      // ... while the page starts at once on the worker kept for pages.
      expect(single.stats()).toEqual({ workers: 2, busy: 2, queued: 1 });
      await Promise.all([slow, report, page]);
      expect(order.indexOf('first report')).toBeLessThan(order.indexOf('queued report'));
    } finally {
      await single.close();
    }
  });

  it('lays out one PDF at a time, other renders going on beside it, and the next PDF after it', async () => {
    const pdf = (on: RenderPool, title: string) =>
      on.file({
        format: 'pdf',
        pdf: {
          markdown: `# ${title}\n\n| a | b |\n|---|---|\n${'| x | 1 |\n'.repeat(20)}`,
          title,
          period: { from: '2026-01-01', to: '2026-01-31' },
          ownerName: 'A',
          version: 1,
          generatedAt: '2026-02-01T00:00:00.000Z',
          timezone: 'UTC',
          locale: 'en',
        },
      });
    const one = (pool = createRenderPool({ size: 2 }));
    const order: string[] = [];
    const first = pdf(one, 'First').then((bytes) => (order.push('first pdf'), bytes));
    const second = pdf(one, 'Second').then((bytes) => (order.push('second pdf'), bytes));
    // The second PDF waits although a worker is free ...
    expect(one.stats()).toEqual({ workers: 1, busy: 1, queued: 1 });
    const render = one.render(['r'], {});
    // ... which a render behind it takes at once.
    expect(one.stats()).toEqual({ workers: 2, busy: 2, queued: 1 });
    const [a, b, r] = await Promise.all([first, second, render]);
    expect(r).toEqual(['r']);
    for (const bytes of [a, b]) expect(Buffer.from(bytes).subarray(0, 5).toString()).toBe('%PDF-');
    // The second started only once the first was done (the render's order next to them is the threads').
    expect(order.filter((o) => o.endsWith('pdf'))).toEqual(['first pdf', 'second pdf']);
    await one.close();

    // With two PDF slots, two are laid out at once, and a third waits.
    const two = (pool = createRenderPool({ size: 2, pdfSlots: 2 }));
    const three = [pdf(two, 'One'), pdf(two, 'Two'), pdf(two, 'Three')];
    expect(two.stats()).toEqual({ workers: 2, busy: 2, queued: 1 });
    expect(await Promise.all(three)).toHaveLength(3);
  });

  it('stops a job at the hard deadline, replaces the worker and goes on', async () => {
    pool = createRenderPool({ size: 1, deadlineMs: 100 });
    // The quick renders get a minute, as a busy machine may need; the endless one 300 ms.
    const roomy = { ...BASE_LIMITS, timeMs: 60_000 };
    // A fresh worker's first job may also spend the start-up allowance; warm it up first.
    expect(await pool.render(['warm'], {}, roomy)).toEqual(['warm']);
    const slow = '{% for a in (1..100000) %}{% for b in (1..100000) %}x{% endfor %}{% endfor %}';
    const error = await failure(pool.render([slow], {}, { ...BASE_LIMITS, timeMs: 300 }));
    expect(error.kind).toBe('limit');
    expect(error.message).toMatch(/time limit exceeded \(300 ms\)/);
    expect(await pool.render(['fine'], {}, roomy)).toEqual(['fine']);
    expect(await pool.render(['still fine'], {}, roomy)).toEqual(['still fine']);
  });

  it('stops a job whose worker runs out of heap, and the next job gets a fresh worker', async () => {
    pool = createRenderPool({ size: 1, maxHeapMb: 16 });
    const huge = { rows: Array.from({ length: 200_000 }, (_, i) => ({ i, text: `row ${i} `.repeat(20) })) };
    const error = await failure(pool.render(['{{ rows | size }}'], huge));
    expect(error.kind).toBe('limit');
    expect(await pool.render(['{{ n }}'], { n: 7 })).toEqual(['7']);
  });

  it('keeps the event loop free while a template runs', async () => {
    let finished = false;
    const slow = shared
      .render(['{% for a in (1..100000) %}{% for b in (1..100000) %}x{% endfor %}{% endfor %}'], {}, { ...BASE_LIMITS, timeMs: 500 })
      .catch(() => 'stopped')
      .finally(() => (finished = true));
    await waitUntil(() => shared.stats().busy === 1);
    // The event loop goes round many times while the render runs in its worker.
    for (let turn = 0; turn < 100; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(finished).toBe(false);
    expect(shared.stats()).toMatchObject({ busy: 1, queued: 0 });
    expect(await slow).toBe('stopped');
  });

  it.runIf(existsSync('/proc/thread-self'))(`runs its workers at nice ${WORKER_NICE}, below the event loop`, async () => {
    expect(await shared.render(['{{ n }}'], { n: 1 })).toEqual(['1']);
    // Field 19 of a thread's stat is its nice value; the fields before it hold no spaces after the name's ")".
    const niceOf = (tid: string) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ')[16]);
    const nice = readdirSync('/proc/self/task').map(niceOf);
    expect(nice).toContain(WORKER_NICE);
    // The main thread (whose id is the process's) keeps its priority.
    expect(niceOf(String(process.pid))).toBe(0);
  });

  it('refuses work once closed', async () => {
    pool = createRenderPool({ size: 1 });
    await pool.close();
    await expect(pool.render(['x'], {})).rejects.toThrow(/closed/);
  });
});

describe('the pool’s size', () => {
  const GiB = 1024 ** 3;

  it('has a report worker per core, two to four, and one where the process has less than 2 GiB', () => {
    expect(defaultPoolSize(2, 24 * GiB)).toBe(2);
    expect(defaultPoolSize(1, 24 * GiB)).toBe(2);
    expect(defaultPoolSize(3, 8 * GiB)).toBe(3);
    expect(defaultPoolSize(16, 64 * GiB)).toBe(4);
    expect(defaultPoolSize(2, SHORT_MEMORY_BYTES)).toBe(2);
    expect(defaultPoolSize(2, SHORT_MEMORY_BYTES - 1)).toBe(1);
    expect(defaultPoolSize(8, 1 * GiB)).toBe(1);
  });

  it('reads the memory of a container’s limit, or of the machine where there is none', () => {
    expect(memoryAvailable(GiB, 24 * GiB)).toBe(GiB);
    // Node reports no limit as 0, as nothing, or as a number beyond the machine's memory.
    expect(memoryAvailable(0, 24 * GiB)).toBe(24 * GiB);
    expect(memoryAvailable(undefined, 24 * GiB)).toBe(24 * GiB);
    expect(memoryAvailable(2 ** 64, 24 * GiB)).toBe(24 * GiB);
  });
});

describe('share pages in the pool', () => {
  it('renders a page off the main thread, the same bytes as on it', async () => {
    const { renderReportPage } = await import('../../src/render/share-page.js');
    const input = {
      name: 'Week <1>',
      period: { from: '2026-11-02', to: '2026-11-08' },
      ownerName: 'Ada',
      generatedAt: '2026-11-09T08:00:00.000Z',
      timezone: 'Europe/Berlin',
      version: 2,
      bodyMarkdown: '# Hello\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n',
    };
    expect(await shared.renderPage(input)).toBe(renderReportPage(input));
  });
});

describe('the analyze task', () => {
  it('parses and analyses templates in a worker, answering syntax errors instead of failing', async () => {
    const pool = createRenderPool({ size: 1 });
    try {
      const [good, bad] = await pool.analyze(['{{ totals.minutes }}{% for e in entries %}{{ e.id }}{% endfor %}', '{% if %}']);
      expect(good).toEqual({ ok: true, paths: [['totals', 'minutes'], ['entries']] });
      expect(bad).toMatchObject({ ok: false, error: { kind: 'syntax', line: 1 } });
    } finally {
      await pool.close();
    }
  });
});

describe('the front matter task', () => {
  it("reads versions' front matters in a worker as the server's own thread reads them, in order", async () => {
    const W1 = '0193b7e0-0000-7000-8000-000000000001';
    const W2 = '0193b7e0-0000-7000-8000-000000000002';
    const document = (name: string, filters: Record<string, unknown>) =>
      buildDocument(
        {
          report: { id: 'r1', name, version: 1 },
          owner: { id: 'u1', name: 'Ana' },
          period: { from: '2026-11-01', to: '2026-11-30' },
          timezone: 'Europe/Berlin',
          generatedAt: '2026-12-01T10:00:00.000Z',
          template: { id: 't1', name: 'Timesheet' },
          filters,
          totalMinutes: 90,
        },
        '# Body\n',
      );
    const headers = [
      document('First', { workspaceIds: [W1], dateRange: { from: '2026-11-01', to: '2026-11-30' } }),
      document('Second: a “name”', { workspaceIds: [W2], dateRange: { from: '2026-11-01', to: '2026-11-30' } }),
      'no front matter at all',
      '---\n[unclosed\n',
    ];
    const pool = createRenderPool({ size: 1 });
    try {
      const read = await pool.versionMeta(headers);
      expect(read).toEqual(headers.map(frontMatterMeta));
      // Checked on the server's thread, they are what it reads itself.
      expect(read.map(checkedMeta)).toEqual(headers.map(versionMeta));
      expect(read.map((meta) => meta?.name ?? null)).toEqual(['First', 'Second: a “name”', null, null]);
      expect(read[0]).toEqual({
        name: 'First',
        templateId: 't1',
        filters: { workspaceIds: [W1], dateRange: { from: '2026-11-01', to: '2026-11-30' } },
      });
      expect(await pool.versionMeta([])).toEqual([]);
    } finally {
      await pool.close();
    }
  });
});
