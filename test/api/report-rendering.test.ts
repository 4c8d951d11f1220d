/**
 * The rendering pipeline over HTTP: presets resolved in the owner's timezone at a pinned "now",
 * hostile templates refused with a useful 400 that persists nothing, and the built-in templates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, expectProblem, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';
import { newProject, newWorkspace } from '../helpers/factories.js';
import { builtInTemplateId, newReport, newTemplate } from '../helpers/report-factories.js';

let t: TestContext;
beforeAll(async () => {
  // Hostile templates here are stopped at a short limit; the honest ones need a fraction of it.
  t = await buildTestApp({ config: { renderTimeLimitMs: 500 } });
});
afterAll(() => t.close());

async function presetRange(user: TestUser, workspaceId: string, preset: string, now: string) {
  t.clock.set(now);
  try {
    const res = await t.post(
      '/api/v1/reports/preview',
      { name: 'P', templateId: await builtInTemplateId(t), filters: { workspaceIds: [workspaceId], dateRange: preset } },
      user.token,
    );
    expect(res.status).toBe(200);
    return res.body.filters.dateRange as { from: string; to: string };
  } finally {
    t.clock.reset();
  }
}

describe('date presets at a pinned instant', () => {
  // 2026-11-22T11:00Z is Monday 2026-11-23 01:00 in Kiritimati (UTC+14)
  // and Sunday 2026-11-22 03:00 in Los Angeles (UTC-8).
  const now = '2026-11-22T11:00:00.000Z';
  const expected: Record<string, Record<string, [string, string]>> = {
    'Pacific/Kiritimati': {
      today: ['2026-11-23', '2026-11-23'],
      yesterday: ['2026-11-22', '2026-11-22'],
      last_7_days: ['2026-11-17', '2026-11-23'],
      last_30_days: ['2026-10-25', '2026-11-23'],
      this_week: ['2026-11-23', '2026-11-29'],
      last_week: ['2026-11-16', '2026-11-22'],
      this_month: ['2026-11-01', '2026-11-30'],
      last_month: ['2026-10-01', '2026-10-31'],
    },
    'America/Los_Angeles': {
      today: ['2026-11-22', '2026-11-22'],
      yesterday: ['2026-11-21', '2026-11-21'],
      last_7_days: ['2026-11-16', '2026-11-22'],
      last_30_days: ['2026-10-24', '2026-11-22'],
      this_week: ['2026-11-16', '2026-11-22'],
      last_week: ['2026-11-09', '2026-11-15'],
      this_month: ['2026-11-01', '2026-11-30'],
      last_month: ['2026-10-01', '2026-10-31'],
    },
  };
  for (const [timezone, presets] of Object.entries(expected)) {
    it(`resolves every preset in ${timezone} and stores the absolute range`, async () => {
      const user = await newUser(t, { timezone });
      const ws = await newWorkspace(t, user);
      for (const [preset, [from, to]] of Object.entries(presets)) {
        expect({ preset, ...(await presetRange(user, ws.id, preset, now)) }).toEqual({ preset, from, to });
      }
      t.clock.set(now);
      const report = await newReport(t, user, [ws.id], { filters: { dateRange: 'last_week' } });
      t.clock.reset();
      const [from, to] = presets.last_week!;
      expect(report.filters).toMatchObject({ dateRange: { from, to } });
      expect((await t.get(`/api/v1/reports/${report.id}`, user.token)).body.filters.dateRange).toEqual({ from, to });
    });
  }

  it('resolves month presets at a year boundary and in a leap year', async () => {
    const user = await newUser(t, { timezone: 'Europe/Berlin' });
    const ws = await newWorkspace(t, user);
    expect(await presetRange(user, ws.id, 'last_month', '2026-01-01T00:30:00.000Z')).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(await presetRange(user, ws.id, 'this_month', '2028-02-10T12:00:00.000Z')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
  });

  it('counts a week across the autumn DST change in Los Angeles whole, with the 25-hour day', async () => {
    const user = await newUser(t, { timezone: 'America/Los_Angeles' });
    const ws = await newWorkspace(t, user);
    // Week of Monday 2026-10-26 .. Sunday 2026-11-01 (DST ends 2026-11-01 at 02:00 local).
    const entry = (start: string, minutes: number) => t.post('/api/v1/time-entries', { workspaceId: ws.id, start, minutes }, user.token);
    await entry('2026-10-26T07:00:00.000Z', 1); // Monday 00:00 PDT: in
    await entry('2026-10-26T06:59:00.000Z', 2); // Sunday 23:59 PDT the week before: out
    await entry('2026-11-02T07:59:00.000Z', 4); // Sunday 23:59 PST: in (the last day has 25 hours)
    await entry('2026-11-02T08:00:00.000Z', 8); // Monday 00:00 PST: out
    t.clock.set('2026-11-04T20:00:00.000Z');
    const report = await newReport(t, user, [ws.id], { filters: { dateRange: 'last_week' } });
    t.clock.reset();
    expect(report.filters).toMatchObject({ dateRange: { from: '2026-10-26', to: '2026-11-01' } });
    expect(report.totalMinutes).toBe(5);
  });

  it('renders a period reaching past the years entries can start in, with the entries at both ends', async () => {
    for (const timezone of ['UTC', 'America/New_York', 'Pacific/Kiritimati']) {
      const user = await newUser(t, { timezone });
      const ws = await newWorkspace(t, user);
      const entry = (start: string, minutes: number) => t.post('/api/v1/time-entries', { workspaceId: ws.id, start, minutes }, user.token);
      expect((await entry('1000-01-01T00:00:00.000Z', 1)).status).toBe(201);
      expect((await entry('9999-12-31T23:59:59.999Z', 2)).status).toBe(201);
      // In New York the last instant of 9999 in UTC is on 9999-12-31; in Kiritimati, in 10000.
      const last = await newReport(t, user, [ws.id], { filters: { dateRange: { from: '9999-12-01', to: '9999-12-31' } } });
      expect(last.totalMinutes, timezone).toBe(timezone === 'Pacific/Kiritimati' ? 0 : 2);
      // West of Greenwich (Kiritimati kept its local mean time, UTC-10:29, until 1901) the first instant of 1000 in UTC is on 999-12-31.
      const thousand = await newReport(t, user, [ws.id], { filters: { dateRange: { from: '1000-01-01', to: '1000-01-01' } } });
      expect(thousand.totalMinutes, timezone).toBe(timezone === 'UTC' ? 1 : 0);
    }
  });

  it('refuses a range that starts before the year 1000, where no entry can be, naming the field', async () => {
    const user = await newUser(t);
    const ws = await newWorkspace(t, user);
    for (const from of ['0000-01-01', '0999-12-31']) {
      const body = {
        name: 'Old',
        templateId: await builtInTemplateId(t),
        filters: { workspaceIds: [ws.id], dateRange: { from, to: '0999-12-31' } },
      };
      for (const path of ['/api/v1/reports/preview', '/api/v1/reports']) {
        const problem = expectProblem(await t.post(path, body, user.token), 400);
        expect(problem.errors).toEqual([{ path: '/filters/dateRange/from', message: 'must be in the years 1000 to 9999, as entries are' }]);
      }
    }
    expect((await t.get('/api/v1/reports', user.token)).body).toEqual([]);
    // An edit to such a range is refused the same way and leaves the report as it was.
    const report = await newReport(t, user, [ws.id]);
    const edit = {
      name: 'Old',
      templateId: report.templateId,
      filters: { workspaceIds: [ws.id], dateRange: { from: '0999-12-31', to: '1000-01-01' } },
    };
    const problem = expectProblem(await t.patch(`/api/v1/reports/${report.id}`, edit, user.token), 400);
    expect(problem.errors).toEqual([{ path: '/filters/dateRange/from', message: 'must be in the years 1000 to 9999, as entries are' }]);
    expect((await t.get(`/api/v1/reports/${report.id}`, user.token)).body).toMatchObject({
      version: 1,
      filters: { dateRange: { from: '2026-11-01', to: '2026-11-30' } },
    });
  });

  it('counts the first hour of a day whose midnight happens twice in that day, as its row shows it', async () => {
    const user = await newUser(t, { timezone: 'America/Havana' });
    const ws = await newWorkspace(t, user);
    // Havana went from 01:00 back to 00:00 on 2024-11-03: the first 00:00 was at 04:00 UTC.
    const entry = (start: string, minutes: number) => t.post('/api/v1/time-entries', { workspaceId: ws.id, start, minutes }, user.token);
    await entry('2024-11-03T03:59:00.000Z', 1); // 2024-11-02 23:59: out
    await entry('2024-11-03T04:30:00.000Z', 2); // 2024-11-03 00:30, the first time: in
    await entry('2024-11-03T05:30:00.000Z', 4); // 2024-11-03 00:30, the second time: in
    const report = await newReport(t, user, [ws.id], { filters: { dateRange: { from: '2024-11-03', to: '2024-11-03' } } });
    expect(report.totalMinutes).toBe(6);
    const before = await newReport(t, user, [ws.id], { filters: { dateRange: { from: '2024-11-02', to: '2024-11-02' } } });
    expect(before.totalMinutes).toBe(1);
  });
});

describe('hostile templates', () => {
  let owner: TestUser;
  let ws: { id: string };
  beforeAll(async () => {
    owner = await newUser(t);
    ws = await newWorkspace(t, owner);
    await t.post(
      '/api/v1/time-entries',
      { workspaceId: ws.id, start: '2026-11-03T09:00:00.000Z', minutes: 30, description: 'x' },
      owner.token,
    );
  });

  it('refuses a template with a syntax error when it is saved, naming the line', async () => {
    const res = await t.post('/api/v1/templates', { name: 'Broken', body: 'ok\n{% if %}' });
    const problem = expectProblem(res, 400);
    expect(JSON.stringify(problem.errors)).toMatch(/line 2/);
  });

  it.each([
    ['a runtime error', 'line one\n{{ "abc" | duration }}', /line 2/],
    ['an endless loop', '{% for i in (1..100000000) %}{{ i }}{% endfor %}', /limit/i],
    ['nested loops', '{% for a in (1..100000) %}{% for b in (1..100000) %}x{% endfor %}{% endfor %}', /limit/i],
    [
      'a string that doubles itself',
      '{% assign s = "xxxxxxxxxx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s }}',
      /limit/i,
    ],
    ['huge output', '{% for i in (1..100000) %}{{ "0123456789012345678901234567890123456789" }}{% endfor %}', /limit|too large/i],
  ])('answers %s with 400, persists nothing, and keeps serving', async (_label, body, message) => {
    const template = await newTemplate(t, body);
    const before = (await t.get('/api/v1/reports', owner.token)).headers['x-total-count'];
    const res = await t.post(
      '/api/v1/reports',
      { name: 'Evil', templateId: template, filters: { workspaceIds: [ws.id], dateRange: { from: '2026-11-01', to: '2026-11-30' } } },
      owner.token,
    );
    const problem = expectProblem(res, 400);
    expect(problem.detail).toMatch(message);
    expect(problem.detail).not.toMatch(/node_modules|\/work\/|at .*:\d+:\d+/);
    expect((await t.get('/api/v1/reports', owner.token)).headers['x-total-count']).toBe(before);
    expect((await t.get('/healthz', null)).status).toBe(200);
    const preview = await t.post(
      '/api/v1/reports/preview',
      { name: 'Evil', templateId: template, filters: { workspaceIds: [ws.id], dateRange: 'today' } },
      owner.token,
    );
    expectProblem(preview, 400);
  });

  it('keeps answering other requests while a hostile template runs', async () => {
    const template = await newTemplate(t, '{% for a in (1..100000) %}{% for b in (1..100000) %}x{% endfor %}{% endfor %}');
    let evilDone = false;
    const evil = t
      .post('/api/v1/reports', { name: 'Evil', templateId: template, filters: { workspaceIds: [ws.id], dateRange: 'today' } }, owner.token)
      .finally(() => (evilDone = true));
    const renderer = t.app.chronicle.renderer;
    while (renderer.stats().busy === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    expect((await t.get('/healthz', null)).status).toBe(200);
    expect((await t.get('/api/v1/me', owner.token)).status).toBe(200);
    // Both answered while the hostile render still held its worker.
    expect(evilDone).toBe(false);
    expectProblem(await evil, 400);
  });

  it('cannot reach prototypes or the process through the context', async () => {
    const template = await newTemplate(
      t,
      '[{{ report.constructor }}][{{ entries.__proto__ }}][{{ owner.constructor.name }}][{{ process }}]',
    );
    const report = await newReport(t, owner, [ws.id], { templateId: template });
    expect(report.renderedMarkdown).toContain('[][][][]');
  });
});

describe('built-in templates', () => {
  it('render timesheet, summary and weekly status with GFM tables and escaped user text', async () => {
    const owner = await newUser(t, { name: 'Owner | with pipe' });
    const ws = await newWorkspace(t, owner, 'WS');
    const project = await newProject(t, ws.id, owner.token, 'Proj [x](https://evil.example)');
    await t.post(
      '/api/v1/time-entries',
      {
        workspaceId: ws.id,
        projectId: project.id,
        start: '2026-11-03T09:00:00.000Z',
        minutes: 125,
        description: 'Cell | breaker\nnew line ![i](https://evil.example/t.png)',
        tags: ['tag|x'],
      },
      owner.token,
    );
    const templates = (await t.get('/api/v1/templates')).body.filter((x: { builtIn: boolean }) => x.builtIn);
    expect(templates.length).toBeGreaterThanOrEqual(3);
    for (const template of templates) {
      const report = await newReport(t, owner, [ws.id], { templateId: template.id, note: 'The *note*' });
      const body = report.renderedMarkdown
        .split(/\n---\n/)
        .slice(1)
        .join('\n---\n');
      expect(body).toMatch(/^\|.*\|$/m);
      expect(body).toMatch(/^\|\s*-+/m);
      expect(body).not.toContain('](https://evil.example');
      expect(body).not.toContain('Cell | breaker');
      expect(body).toContain('2h 05m');
    }
  });
});
