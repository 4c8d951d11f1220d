/** GET /metrics after some traffic, METRICS_TOKEN, and X-Request-Id on responses and in the log. */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { loggerOptions } from '../../src/http/logging.js';
import { buildPeerApp, buildTestApp, expectProblem, newUser, testConfig, type TestContext } from '../helpers/test-app.js';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { newReport, newTemplate } from '../helpers/report-factories.js';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const found = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe('GET /metrics', () => {
  it('counts requests, renders, sends, share views and passcode failures, and shows the render queue and pool', async () => {
    const owner = await newUser(t);
    const mate = await newUser(t);
    const ws = await newWorkspace(t, owner);
    await addMember(t, ws.id, mate, 'member', owner.token);
    await t.post('/api/v1/time-entries', { workspaceId: ws.id, start: '2026-11-02T09:00:00Z', minutes: 30 }, owner.token);
    const report = await newReport(t, owner, [ws.id]);
    expect((await t.post(`/api/v1/reports/${report.id}/send`, { recipientUserIds: [mate.id], message: 'hi' }, owner.token)).status).toBe(
      201,
    );
    const open = await t.post(`/api/v1/reports/${report.id}/shares`, {}, owner.token);
    const locked = await t.post(`/api/v1/reports/${report.id}/shares`, { passcode: 'correct-horse' }, owner.token);
    expect((await t.request('GET', `/share/${open.body.token}`, { token: null })).status).toBe(200);
    expect((await t.request('POST', `/share/${locked.body.token}`, { token: null, headers: FORM, raw: 'passcode=wrong-one' })).status).toBe(
      401,
    );
    // A render that runs out of memory is a failed render (it fails at once; a time limit would race a busy machine).
    const slow = await newTemplate(t, '{% assign s = "xxxxxxxx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s }}');
    const preview = await t.post(
      '/api/v1/reports/preview',
      { name: 'Slow', templateId: slow, filters: { workspaceIds: [ws.id], dateRange: 'today' } },
      owner.token,
    );
    expectProblem(preview, 400);

    const res = await t.request('GET', '/metrics', { token: null });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0.0.4/);
    const text = res.text;
    expect(
      sample(text, 'chronicle_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/workspaces', status_code: '201' }),
    ).toBe(1);
    expect(
      sample(text, 'chronicle_http_request_duration_seconds_count', { method: 'GET', route: '/share/:token', status_code: '200' }),
    ).toBe(1);
    expect(sample(text, 'chronicle_http_request_duration_seconds_bucket', { route: '/share/:token', le: '+Inf' })).toBe(1);
    expect(sample(text, 'chronicle_renders_total', { kind: 'report', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'chronicle_renders_total', { kind: 'report', outcome: 'failed' })).toBe(1);
    expect(sample(text, 'chronicle_renders_total', { kind: 'page', outcome: 'ok' })).toBe(1);
    expect(sample(text, 'chronicle_render_duration_seconds_count', { kind: 'report' })).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'chronicle_report_sends_total')).toBe(1);
    expect(sample(text, 'chronicle_share_views_total')).toBe(1);
    expect(sample(text, 'chronicle_share_passcode_failures_total', { reason: 'wrong' })).toBe(1);
    expect(sample(text, 'chronicle_render_queue_depth')).toBe(0);
    expect(sample(text, 'chronicle_render_workers', { state: 'busy' })).toBe(0);
    expect(sample(text, 'chronicle_process_resident_memory_bytes')).toBeGreaterThan(0);
    if (t.database.kind === 'postgres') {
      expect(sample(text, 'chronicle_db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'chronicle_db_pool_connections', { state: 'waiting' })).toBe(0);
    } else {
      expect(sample(text, 'chronicle_db_pool_connections', { state: 'in_use' })).toBeUndefined();
    }
    // Route patterns only: no share token, no id from a URL.
    expect(text).not.toContain(open.body.token);
    expect(text).not.toContain(report.id);
  });

  it('shows the event-loop delay, the render gate, the passcode and password slots, overload refusals and held refusals', async () => {
    const text = (await t.request('GET', '/metrics', { token: null })).text;
    expect(sample(text, 'chronicle_event_loop_delay_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'chronicle_render_gate_renders', { state: 'running' })).toBe(0);
    expect(sample(text, 'chronicle_render_gate_renders', { state: 'waiting' })).toBe(0);
    expect(sample(text, 'chronicle_passcode_slots', { state: 'in_use' })).toBe(0);
    expect(sample(text, 'chronicle_passcode_slots', { state: 'waiting_unlock' })).toBe(0);
    expect(sample(text, 'chronicle_passcode_slots', { state: 'waiting_mint' })).toBe(0);
    expect(sample(text, 'chronicle_password_slots', { state: 'in_use' })).toBe(0);
    expect(sample(text, 'chronicle_password_slots', { state: 'waiting' })).toBe(0);
    expect(sample(text, 'chronicle_overload_refusals_total')).toBe(0);
    expect(sample(text, 'chronicle_refusals_held')).toBe(0);
  });

  it('labels unknown paths as one route, so they cannot grow the label set', async () => {
    await t.get('/no/such/path/1');
    await t.get('/no/such/path/2');
    const text = (await t.request('GET', '/metrics', { token: null })).text;
    expect(
      sample(text, 'chronicle_http_request_duration_seconds_count', { route: 'unmatched', status_code: '404' }),
    ).toBeGreaterThanOrEqual(2);
    expect(text).not.toContain('/no/such/path');
  });

  it('needs METRICS_TOKEN as a bearer token when it is set', async () => {
    const peer = await buildPeerApp(t, { metricsToken: 'metrics-secret-0123456789' });
    try {
      const none = expectProblem(await peer.request('GET', '/metrics', { token: null }), 401);
      expect(none.detail).toContain('METRICS_TOKEN');
      expectProblem(await peer.request('GET', '/metrics', { token: 'metrics-secret-012345678' }), 401);
      const res = await peer.request('GET', '/metrics', { token: 'metrics-secret-0123456789' });
      expect(res.status).toBe(200);
      expect(res.text).toContain('chronicle_http_request_duration_seconds');
    } finally {
      await peer.close();
    }
  });
});

describe('X-Request-Id', () => {
  it('echoes a well-formed id from the client and replaces anything else', async () => {
    const kept = await t.request('GET', '/api/v1/me', { headers: { 'x-request-id': 'trace-42.A_b' } });
    expect(kept.headers['x-request-id']).toBe('trace-42.A_b');
    const max = 'a'.repeat(128);
    expect((await t.request('GET', '/healthz', { headers: { 'x-request-id': max } })).headers['x-request-id']).toBe(max);
    for (const bad of ['a'.repeat(129), 'has space', 'semi;colon', 'new\\nline', '']) {
      const res = await t.request('GET', '/healthz', { headers: { 'x-request-id': bad } });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });

  it('is on every response: errors, unknown routes, the viewer, malformed URLs', async () => {
    for (const res of [
      await t.get('/api/v1/me', null),
      await t.get('/nowhere'),
      await t.request('GET', '/share/not-a-token', { token: null }),
      await t.request('GET', `/api/v1/reports/${'x'.repeat(200)}`),
      await t.request('GET', '/metrics', { token: null, headers: { 'x-request-id': 'scrape-1' } }),
    ]) {
      expect(res.headers['x-request-id']).toBeTruthy();
    }
  });

  it('is in every log line of a request', async () => {
    let log = '';
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        log += String(chunk);
        callback();
      },
    });
    const app = await buildApp({
      config: testConfig({ logLevel: 'debug' }),
      database: t.database,
      loggerInstance: pino(loggerOptions('debug') as object, stream),
    });
    try {
      await app.inject({ method: 'GET', url: '/api/v1/me', headers: { 'x-request-id': 'from-client-1' } });
      await app.inject({ method: 'GET', url: '/healthz' });
      const lines = log
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { reqId?: string; msg: string });
      const requestLines = lines.filter((l) => l.msg === 'request' || l.msg === 'incoming request');
      expect(requestLines).toHaveLength(4);
      expect(requestLines.filter((l) => l.reqId === 'from-client-1')).toHaveLength(2);
      for (const line of requestLines) expect(line.reqId).toBeTruthy();
    } finally {
      await app.close();
    }
  });
});
