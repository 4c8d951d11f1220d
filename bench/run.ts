/**
 * `npm run bench`: request throughput of the main read paths on an in-memory PGlite, each quoted as
 * a ratio to a baseline measured in the same run (GET /api/v1/me: auth plus one query), because
 * absolute numbers on a shared machine say little.
 */
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { openDatabase } from '../src/db/database.js';
import type { App } from '../src/http/types.js';
import { BUILTIN_TEMPLATES } from '../src/render/builtin-templates.js';
import { buildRenderContext, type RenderEntryInput } from '../src/render/render-context.js';
import { createRenderPool } from '../src/render/render-pool.js';
import { renderTemplate } from '../src/render/template-engine.js';

const TOKEN = 'bench-bootstrap-admin-token-0123456789abcdef';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);

interface Result {
  name: string;
  opsPerSec: number;
  msPerOp: number;
}

async function measure(name: string, op: () => Promise<unknown>): Promise<Result> {
  for (let i = 0; i < 10; i++) await op();
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < SECONDS * 1000) {
    await op();
    n++;
  }
  const elapsed = performance.now() - start;
  return { name, opsPerSec: (n / elapsed) * 1000, msPerOp: elapsed / n };
}

async function call(app: App, method: string, url: string, payload?: unknown, token: string | null = TOKEN) {
  const res = await app.inject({
    method: method as 'GET',
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  if (res.statusCode >= 400) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return res.body ? JSON.parse(res.body.startsWith('<') ? '{}' : res.body) : null;
}

const database = await openDatabase({ databaseUrl: null, dataDir: null });
await database.migrate();
const app = await buildApp({
  config: {
    databaseUrl: null,
    dataDir: null,
    host: '127.0.0.1',
    port: 0,
    publicBaseUrl: 'http://bench.local',
    bootstrapAdminToken: TOKEN,
    logLevel: 'silent',
    shareKey: Buffer.alloc(32, 3),
  },
  database,
  logger: false,
});

try {
  const ws = await call(app, 'POST', '/api/v1/workspaces', { name: 'Bench' });
  const project = await call(app, 'POST', `/api/v1/workspaces/${ws.id}/projects`, { name: 'Bench project' });
  const ENTRIES = 2000;
  for (let i = 0; i < ENTRIES; i += 100) {
    await Promise.all(
      Array.from({ length: 100 }, (_, j) =>
        call(app, 'POST', '/api/v1/time-entries', {
          workspaceId: ws.id,
          projectId: (i + j) % 2 ? project.id : null,
          start: new Date(Date.UTC(2026, 9, 1) + (i + j) * 3_600_000).toISOString(),
          minutes: 15 + ((i + j) % 90),
          description: `Entry ${i + j} with | pipes and [links](https://x.example)`,
          tags: [`t${(i + j) % 7}`],
        }),
      ),
    );
  }
  const templates = await call(app, 'GET', '/api/v1/templates');
  const timesheet = templates.find((t: { name: string }) => /timesheet/i.test(t.name)).id;
  const body = { name: 'Bench', templateId: timesheet, filters: { workspaceIds: [ws.id], dateRange: { from: '2026-10-01', to: '2026-12-31' } } };
  const report = await call(app, 'POST', '/api/v1/reports', body);
  for (let i = 0; i < 200; i++) await call(app, 'POST', '/api/v1/reports', { ...body, filters: { ...body.filters, dateRange: { from: '2026-10-01', to: '2026-10-02' } } });
  await call(app, 'POST', `/api/v1/reports/${report.id}/send`, { sendToSelf: true });
  for (let i = 0; i < 500; i += 50) {
    await Promise.all(Array.from({ length: 50 }, (_, j) => call(app, 'POST', `/api/v1/report-contents/${report.reportContentId}/comments`, { body: `Comment ${i + j}` })));
  }
  const share = await call(app, 'POST', `/api/v1/reports/${report.id}/shares`, {});

  const results: Result[] = [];
  results.push(await measure('baseline: GET /api/v1/me', () => call(app, 'GET', '/api/v1/me')));
  results.push(await measure('GET /api/v1/reports (201 reports)', () => call(app, 'GET', '/api/v1/reports')));
  results.push(await measure('GET /api/v1/reports/:id', () => call(app, 'GET', `/api/v1/reports/${report.id}`)));
  results.push(await measure(`POST /api/v1/reports/preview (${ENTRIES} entries, timesheet)`, () => call(app, 'POST', '/api/v1/reports/preview', body)));
  results.push(await measure('GET discussion (500 comments)', () => call(app, 'GET', `/api/v1/report-contents/${report.reportContentId}/discussion`)));
  results.push(await measure('GET /share/:token (public page)', () => call(app, 'GET', `/share/${share.token}`, undefined, null)));

  // The price of rendering in a worker: the same template and context on this thread vs in the pool.
  const entries: RenderEntryInput[] = Array.from({ length: ENTRIES }, (_, i) => ({
    id: String(i),
    start: new Date(Date.UTC(2026, 9, 1) + i * 3_600_000),
    minutes: 30,
    description: `Entry ${i}`,
    tags: ['a'],
    project: { id: 'p', name: 'Project' },
    user: { id: 'u', name: 'User' },
    workspace: { id: 'w', name: 'Workspace' },
  }));
  const context = buildRenderContext({
    report: { id: 'r', name: 'Bench', note: null, version: 1 },
    period: { from: '2026-10-01', to: '2026-12-31', preset: null },
    timezone: 'UTC',
    generatedAt: new Date(),
    owner: { id: 'u', name: 'User', email: 'u@example.com' },
    workspaces: [{ id: 'w', name: 'Workspace' }],
    template: { id: 't', name: 'Timesheet' },
    entries,
    aggregates: { totalMinutes: ENTRIES * 30, entryCount: ENTRIES, byProject: [], byUser: [], byTag: [], byDay: [] },
  });
  const source = BUILTIN_TEMPLATES.find((x) => x.key === 'timesheet')!.body;
  const pool = createRenderPool({ size: 1 });
  try {
    results.push(await measure(`render timesheet of ${ENTRIES} entries on the main thread`, () => renderTemplate(source, context)));
    results.push(await measure(`render timesheet of ${ENTRIES} entries in a worker`, () => pool.render([source], context)));
  } finally {
    await pool.close();
  }

  const base = results[0]!;
  console.log(`\n${'benchmark'.padEnd(58)} ${'ops/s'.padStart(9)} ${'ms/op'.padStart(9)} ${'x baseline'.padStart(11)}`);
  for (const r of results) {
    console.log(`${r.name.padEnd(58)} ${r.opsPerSec.toFixed(1).padStart(9)} ${r.msPerOp.toFixed(2).padStart(9)} ${(r.msPerOp / base.msPerOp).toFixed(1).padStart(11)}`);
  }
} finally {
  await app.close();
  await database.close();
}
