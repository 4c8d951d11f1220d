/**
 * Renders are bounded (docs/operations.md "Resource limits"): per user a few running and a few
 * waiting, then 429 with Retry-After; a bounded waiting room for the process, then 503 with
 * Retry-After; a most-entries limit checked before any entry is loaded; and share pages answer
 * while renders are held. Renders are held by occupying the render gate with tasks the test
 * releases itself, so every figure is a count, not a timing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RenderGate } from '../../src/render/render-gate.js';
import { newWorkspace } from '../helpers/factories.js';
import { builtInTemplateId, newReport, newTemplate } from '../helpers/report-factories.js';
import { hold } from '../helpers/render-gate.js';
import { buildPeerApp, buildTestApp, expectProblem, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';

const PER_USER = 1;
const PER_USER_QUEUE = 1;
const QUEUE = 2;

let t: TestContext;
let owner: TestUser;
let workspaceId: string;
let templateId: string;

beforeAll(async () => {
  t = await buildTestApp({
    config: { renderUserConcurrency: PER_USER, renderUserQueue: PER_USER_QUEUE, renderQueueMax: QUEUE, renderMaxEntries: 5 },
  });
  owner = await newUser(t);
  workspaceId = (await newWorkspace(t, owner)).id;
  templateId = await builtInTemplateId(t);
  for (let i = 0; i < 5; i++) {
    const res = await t.post('/api/v1/time-entries', { workspaceId, start: `2026-11-0${i + 2}T09:00:00Z`, minutes: 30 }, owner.token);
    expect(res.status).toBe(201);
  }
});
afterAll(() => t.close());

const previewBody = (dateRange: object | string = { from: '2026-11-01', to: '2026-11-30' }) => ({
  name: 'P',
  templateId,
  filters: { workspaceIds: [workspaceId], dateRange },
});

describe('render admission', () => {
  it(`lets one user have ${PER_USER} render running and ${PER_USER_QUEUE} waiting; the next gets 429 with Retry-After`, async () => {
    const gate = t.app.chronicle.renderGate;
    const running = hold(gate, owner.id);
    await running.started;
    const waiting = t.post('/api/v1/reports/preview', previewBody(), owner.token);
    // The queued preview is in the gate's waiting room before the next one is sent.
    await expect.poll(() => gate.stats().waiting, { timeout: 60_000, interval: 5 }).toBe(1);
    const refused = await t.post('/api/v1/reports/preview', previewBody(), owner.token);
    expect(expectProblem(refused, 429).detail).toMatch(/renders running/);
    expect(refused.headers['retry-after']).toBe('2');
    // Someone else renders meanwhile.
    const other = await newUser(t);
    const ws = await newWorkspace(t, other);
    expect(
      (await t.post('/api/v1/reports/preview', { ...previewBody(), filters: { workspaceIds: [ws.id], dateRange: 'today' } }, other.token))
        .status,
    ).toBe(200);
    running.release();
    await running.done;
    expect((await waiting).status).toBe(200);
  });

  it(`answers 503 with Retry-After once ${QUEUE} renders wait in the process`, async () => {
    const gate = t.app.chronicle.renderGate;
    const capacity = t.app.chronicle.renderer.reportSlots * 2;
    const holders = Array.from({ length: capacity }, (_, i) => hold(gate, `holder-${i}`));
    await Promise.all(holders.map((h) => h.started));
    const queued = Array.from({ length: QUEUE }, (_, i) => hold(gate, `queued-${i}`));
    expect(gate.stats()).toEqual({ running: capacity, waiting: QUEUE });
    const refused = await t.post('/api/v1/reports/preview', previewBody(), owner.token);
    expectProblem(refused, 503);
    expect(refused.headers['retry-after']).toBe('5');
    holders.forEach((h) => {
      h.release();
    });
    await Promise.all(queued.map((h) => h.started));
    queued.forEach((h) => {
      h.release();
    });
    await Promise.all([...holders, ...queued].map((h) => h.done));
    expect(gate.stats()).toEqual({ running: 0, waiting: 0 });
    expect((await t.post('/api/v1/reports/preview', previewBody(), owner.token)).status).toBe(200);
  });

  it('serves a share page while every render slot is held', async () => {
    const report = await newReport(t, owner, [workspaceId]);
    const share = await t.post(`/api/v1/reports/${report.id}/shares`, {}, owner.token);
    const gate = t.app.chronicle.renderGate;
    const holders = Array.from({ length: t.app.chronicle.renderer.reportSlots * 2 }, (_, i) => hold(gate, `h-${i}`));
    await Promise.all(holders.map((h) => h.started));
    const page = await t.request('GET', `/share/${share.body.token}`, { token: null });
    expect(page.status).toBe(200);
    holders.forEach((h) => {
      h.release();
    });
    await Promise.all(holders.map((h) => h.done));
  });

  it('admits a version diff through the same gate: 429 once the user has a render running and one waiting', async () => {
    const report = await newReport(t, owner, [workspaceId]);
    const query = `from=${report.reportContentId}&to=${report.reportContentId}`;
    const gate = t.app.chronicle.renderGate;
    const running = hold(gate, owner.id);
    await running.started;
    const waiting = t.get(`/api/v1/reports/${report.id}/diff?${query}`, owner.token);
    await expect.poll(() => gate.stats().waiting, { timeout: 60_000, interval: 5 }).toBe(1);
    const refused = await t.get(`/api/v1/reports/${report.id}/diff?${query}`, owner.token);
    expect(expectProblem(refused, 429).detail).toMatch(/renders running/);
    expect(refused.headers['retry-after']).toBe('2');
    running.release();
    await running.done;
    const admitted = await waiting;
    expect(admitted.status).toBe(200);
    expect(admitted.body.markdownDiff).toBe('');
  });

  it('still lets 30 parallel edits of one report all succeed with one render per user at a time, on two processes', async () => {
    const report = await newReport(t, owner, [workspaceId]);
    const peer = await buildPeerApp(t, { renderUserConcurrency: PER_USER, renderUserQueue: 0, renderQueueMax: QUEUE });
    try {
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          (i % 2 ? peer : t).patch(`/api/v1/reports/${report.id}`, { name: `Edit ${i}`, templateId, filters: report.filters }, owner.token),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
      expect([...results.map((r) => r.body.version as number)].sort((a, b) => a - b)).toEqual(results.map((_, i) => i + 2));
    } finally {
      await peer.close();
    }
  });
});

describe('RENDER_MAX_ENTRIES', () => {
  it('renders exactly the limit, and refuses one more with a 400 naming the limit', async () => {
    expect((await t.post('/api/v1/reports/preview', previewBody(), owner.token)).status).toBe(200);
    const sixth = await t.post('/api/v1/time-entries', { workspaceId, start: '2026-11-20T09:00:00Z', minutes: 30 }, owner.token);
    expect(sixth.status).toBe(201);
    const refused = expectProblem(await t.post('/api/v1/reports/preview', previewBody(), owner.token), 400);
    expect(refused.detail).toMatch(/more than 5 entries, the most one report may render \(RENDER_MAX_ENTRIES\)/);
    expect(refused.errors).toEqual([{ path: '/filters', message: 'matches more than 5 entries' }]);
    expectProblem(await t.post('/api/v1/reports', previewBody(), owner.token), 400);
  });

  it('defaults to 20,000, with RENDER_MAX_BYTES at 4 MiB (docs/decisions.md "Render bounds")', async () => {
    const { loadConfig } = await import('../../src/config.js');
    const config = loadConfig({ SHARE_KEY: Buffer.alloc(32, 1).toString('base64') });
    expect(config.renderMaxEntries).toBe(20_000);
    expect(config.renderMaxBytes).toBe(4 * 1024 * 1024);
  });
});

describe('RENDER_MAX_BYTES', () => {
  it('counts the descriptions and tags a render would read, before loading any, and refuses past the limit with a 400 naming it', async () => {
    const bytes = await buildTestApp({ config: { renderMaxBytes: 1_024 } });
    try {
      const member = await newUser(bytes);
      const ws = (await newWorkspace(bytes, member)).id;
      const december = { from: '2026-12-01', to: '2026-12-31' };
      const body = (templateId: string) => ({ name: 'P', templateId, filters: { workspaceIds: [ws], dateRange: december } });
      const timesheet = await builtInTemplateId(bytes);
      const log = async (start: string, description: string, tags: string[] = []) => {
        const res = await bytes.post('/api/v1/time-entries', { workspaceId: ws, start, minutes: 30, description, tags }, member.token);
        expect(res.status).toBe(201);
      };
      // 1,000 bytes of description ("é" is two bytes) and 24 of tags: exactly the limit.
      await log('2026-12-01T09:00:00Z', 'é'.repeat(500), ['a'.repeat(12), 'b'.repeat(12)]);
      expect((await bytes.post('/api/v1/reports/preview', body(timesheet), member.token)).status).toBe(200);
      await log('2026-12-02T09:00:00Z', 'x');
      const refused = expectProblem(await bytes.post('/api/v1/reports/preview', body(timesheet), member.token), 400);
      expect(refused.detail).toMatch(/more than 1,024 bytes of descriptions and tags, the most one report may render \(RENDER_MAX_BYTES\)/);
      expect(refused.errors).toEqual([{ path: '/filters', message: 'matches more than 1024 bytes of descriptions and tags' }]);
      expectProblem(await bytes.post('/api/v1/reports', body(timesheet), member.token), 400);
      // A template that reads only the totals reads no description, and renders.
      const totalsOnly = await newTemplate(bytes, '{{ totals.minutes }} minutes');
      const preview = await bytes.post('/api/v1/reports/preview', body(totalsOnly), member.token);
      expect(preview.status).toBe(200);
      expect(preview.body.renderedMarkdown).toContain('60 minutes');
    } finally {
      await bytes.close();
    }
  });
});

describe('RenderGate', () => {
  it('starts waiting renders in arrival order, skipping users at their limit', async () => {
    const gate = new RenderGate({ perUser: 1, perUserQueue: 2, concurrency: 2, queue: 10 });
    const order: string[] = [];
    const a1 = hold(gate, 'a');
    const a2 = hold(gate, 'a');
    const b1 = hold(gate, 'b');
    await Promise.all([a1.started, b1.started]);
    expect(gate.stats()).toEqual({ running: 2, waiting: 1 });
    void a2.started.then(() => order.push('a2'));
    const c1 = hold(gate, 'c');
    void c1.started.then(() => order.push('c1'));
    b1.release();
    await c1.started;
    a1.release();
    await a2.started;
    expect(order).toEqual(['c1', 'a2']);
    a2.release();
    c1.release();
    await Promise.all([a1.done, a2.done, b1.done, c1.done]);
    expect(gate.stats()).toEqual({ running: 0, waiting: 0 });
  });
});
