/**
 * Report schedules (delivery.md §1): the schedule API, and runs driven by the pinned clock through
 * the scheduler's own steps (tick, then each queued run), as the job engine drives them in a
 * server. The engine itself, two processes and a crash are test/slow/schedules-engine.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, newUser, readOnlyToken, type TestContext, type TestUser } from '../helpers/test-app.js';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { builtInTemplateId, newReport, editReport, type TestReport } from '../helpers/report-factories.js';
import { rowsOf } from '../../src/db/rows.js';

let t: TestContext;
let owner: TestUser;
let ana: TestUser;
let outsider: TestUser;
let ws: string;
let wsName: string;
let report: TestReport;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

beforeEach(async () => {
  t.clock.set('2026-10-20T12:00:00.000Z');
  owner = await newUser(t, { timezone: 'Europe/Berlin' });
  ana = await newUser(t);
  outsider = await newUser(t);
  ({ id: ws, name: wsName } = await newWorkspace(t, owner));
  await addMember(t, ws, ana, 'member', owner.token);
  await t.post(
    '/api/v1/time-entries',
    { workspaceId: ws, start: '2026-10-19T08:00:00.000Z', minutes: 90, description: 'Review' },
    owner.token,
  );
  report = await newReport(t, owner, [ws], { name: 'Weekly hours' });
});

const schedule = (id = report.id) => `/api/v1/reports/${id}/schedule`;
const weekly = { frequency: 'weekly', weekday: 'monday', time: '09:00' };

/** The scheduler's steps at the clock's time: claim what is due, then work every queued run. */
async function runDue(): Promise<void> {
  await t.app.chronicle.scheduler.tick();
  const queued = rowsOf<{ id: string }>(
    await t.database.db.execute(sql`select id from schedule_runs where status = 'queued' order by scheduled_for`),
  );
  for (const { id } of queued) await t.app.chronicle.scheduler.execute(id);
}

const runsOf = async (id = report.id) => (await t.get(`${schedule(id)}/runs`, owner.token)).body as any[];

describe('the schedule API', () => {
  it("creates, reads and replaces a schedule, with its next five runs in the owner's zone", async () => {
    const created = await t.put(schedule(), { ...weekly, recipientUserIds: [ana.id], message: 'For Monday' }, owner.token);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      reportId: report.id,
      frequency: 'weekly',
      weekday: 'monday',
      dayOfMonth: null,
      time: '09:00',
      timezone: 'Europe/Berlin',
      dateRange: 'last_week',
      recipientUserIds: [ana.id],
      sendToSelf: false,
      message: 'For Monday',
      active: true,
    });
    // Berlin leaves summer time on 25 October: the runs stay at 09:00 on the wall clock.
    expect(created.body.nextRuns).toEqual([
      '2026-10-26T09:00:00.000+01:00',
      '2026-11-02T09:00:00.000+01:00',
      '2026-11-09T09:00:00.000+01:00',
      '2026-11-16T09:00:00.000+01:00',
      '2026-11-23T09:00:00.000+01:00',
    ]);
    expect((await t.get(schedule(), owner.token)).body).toEqual(created.body);

    const replaced = await t.put(schedule(), { frequency: 'monthly', dayOfMonth: 'last', time: '18:30', active: false }, owner.token);
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      frequency: 'monthly',
      dayOfMonth: 'last',
      weekday: null,
      dateRange: 'last_month',
      active: false,
      nextRuns: [],
    });
    const resumed = await t.put(
      schedule(),
      { frequency: 'monthly', dayOfMonth: 'last', time: '18:30', dateRange: 'this_month' },
      owner.token,
    );
    expect(resumed.body.nextRuns.slice(0, 2)).toEqual(['2026-10-31T18:30:00.000+01:00', '2026-11-30T18:30:00.000+01:00']);
    expect(resumed.body.dateRange).toBe('this_month');
  });

  it('refuses fields that do not fit the frequency, bad times and values, naming each', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ frequency: 'weekly', time: '09:00' }, '/weekday'],
      [{ frequency: 'daily', weekday: 'monday', time: '09:00' }, '/weekday'],
      [{ frequency: 'monthly', time: '09:00' }, '/dayOfMonth'],
      [{ frequency: 'weekly', weekday: 'monday', dayOfMonth: 3, time: '09:00' }, '/dayOfMonth'],
      [{ frequency: 'monthly', dayOfMonth: 29, time: '09:00' }, '/dayOfMonth'],
      [{ frequency: 'daily', time: '24:00' }, '/time'],
      [{ frequency: 'daily', time: '9:00' }, '/time'],
      [{ frequency: 'hourly', time: '09:00' }, '/frequency'],
      [{ frequency: 'weekly', weekday: 'someday', time: '09:00' }, '/weekday'],
      [{ frequency: 'daily', time: '09:00', dateRange: 'next_week' }, '/dateRange'],
      [{ frequency: 'daily', time: '09:00', message: 'x'.repeat(1001) }, '/message'],
      [{ frequency: 'daily', time: '09:00', recipientUserIds: Array.from({ length: 51 }, (_, i) => `u${i}`) }, '/recipientUserIds'],
      [{ frequency: 'daily', time: '09:00', cron: '* * * * *' }, ''],
    ];
    for (const [body, path] of cases) {
      const res = await t.put(schedule(), body, owner.token);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      if (path) expect(JSON.stringify(res.body.errors), JSON.stringify(body)).toContain(path);
    }
    const notCandidate = await t.put(schedule(), { ...weekly, recipientUserIds: [outsider.id] }, owner.token);
    expect(notCandidate.status).toBe(400);
    expect(notCandidate.body.errors[0]).toMatchObject({ path: '/recipientUserIds/0' });
    expect((await t.get(schedule(), owner.token)).status).toBe(404);
  });

  it('belongs to the owner alone: 404 for everyone else, 403 for a read-only token that writes', async () => {
    expect((await t.put(schedule(), weekly, owner.token)).status).toBe(201);
    for (const other of [ana, outsider]) {
      expect((await t.get(schedule(), other.token)).status).toBe(404);
      expect((await t.put(schedule(), weekly, other.token)).status).toBe(404);
      expect((await t.del(schedule(), other.token)).status).toBe(404);
      expect((await t.get(`${schedule()}/runs`, other.token)).status).toBe(404);
      expect((await t.post(`${schedule()}/run-now`, {}, other.token)).status).toBe(404);
    }
    const readOnly = await readOnlyToken(t, owner);
    expect((await t.get(schedule(), readOnly)).status).toBe(200);
    expect((await t.put(schedule(), weekly, readOnly)).status).toBe(403);
    expect((await t.get(schedule('no-such-report'), owner.token)).status).toBe(404);
    expect((await t.get(schedule(), null)).status).toBe(401);
  });

  it('deletes the schedule, keeps the history, and dies with the report', async () => {
    await t.put(schedule(), { frequency: 'daily', time: '09:00' }, owner.token);
    t.clock.set('2026-10-21T07:00:00.000Z');
    await runDue();
    expect(await runsOf()).toHaveLength(1);
    expect((await t.del(schedule(), owner.token)).status).toBe(204);
    expect((await t.del(schedule(), owner.token)).status).toBe(404);
    expect(await runsOf()).toHaveLength(1);
    await t.put(schedule(), { frequency: 'daily', time: '09:00' }, owner.token);
    expect((await t.del(`/api/v1/reports/${report.id}`, owner.token)).status).toBe(204);
    const left = rowsOf<{ n: number }>(
      await t.database.db.execute(
        sql`select (select count(*) from schedule_runs where report_id = ${report.id})::int + (select count(*) from report_schedules where report_id = ${report.id})::int as n`,
      ),
    );
    expect(left[0]!.n).toBe(0);
  });
});

describe('runs', () => {
  it('runs Monday to Friday at 09:00 Berlin time across the end of summer time, a new version and a delivery each', async () => {
    t.clock.set('2026-10-23T00:00:00.000Z');
    await t.put(schedule(), { frequency: 'daily', time: '09:00', recipientUserIds: [ana.id], message: 'Yesterday' }, owner.token);
    // A tick every hour for a week: Friday 23 October to Friday 30 October 2026.
    const start = Date.parse('2026-10-23T00:30:00.000Z');
    for (let hour = 0; hour < 24 * 8; hour++) {
      t.clock.set(new Date(start + hour * 3_600_000));
      await runDue();
    }
    const runs = await runsOf();
    expect(runs.map((r) => r.scheduledFor).reverse()).toEqual([
      '2026-10-23T07:00:00.000Z', // Friday, summer time (+02:00)
      '2026-10-26T08:00:00.000Z', // Monday, winter time (+01:00)
      '2026-10-27T08:00:00.000Z',
      '2026-10-28T08:00:00.000Z',
      '2026-10-29T08:00:00.000Z',
      '2026-10-30T08:00:00.000Z',
    ]);
    expect(runs.every((r) => r.status === 'succeeded' && r.delivered === 1 && r.trigger === 'schedule' && r.error === null)).toBe(true);
    expect(runs.map((r) => r.version).reverse()).toEqual([2, 3, 4, 5, 6, 7]);
    // The last run rendered "yesterday" as of its own day in Berlin.
    const current = (await t.get(`/api/v1/reports/${report.id}`, owner.token)).body;
    expect(current).toMatchObject({ version: 7, filters: { dateRange: { from: '2026-10-29', to: '2026-10-29' } } });
    const inbox = (await t.get('/api/v1/inbox', ana.token)).body as any[];
    expect(inbox).toHaveLength(6);
    expect(inbox.every((m) => m.message === 'Yesterday')).toBe(true);
  });

  it('skips a recipient who is no longer a candidate, naming them and why (partial)', async () => {
    await t.put(schedule(), { ...weekly, recipientUserIds: [ana.id], sendToSelf: true }, owner.token);
    await t.del(`/api/v1/workspaces/${ws}/members/${ana.id}`, owner.token);
    t.clock.set('2026-10-26T08:00:00.000Z');
    await runDue();
    const [run] = await runsOf();
    expect(run).toMatchObject({ status: 'partial', delivered: 0, version: 2 });
    // In words for the owner, who reads them in the app and in a mail: no ids.
    expect(run.skipped).toEqual([{ userId: ana.id, name: ana.name, reason: `is no longer a member of \u201c${wsName}\u201d` }]);
    expect(((await t.get('/api/v1/inbox', owner.token)).body as any[]).length).toBe(1);
  });

  it('records a failed render with its reason and sends nothing', async () => {
    const templateId = await builtInTemplateId(t);
    await t.put(schedule(), { ...weekly, recipientUserIds: [ana.id] }, owner.token);
    expect((await t.patch(`/api/v1/templates/${templateId}`, { enabled: false })).status).toBe(200);
    t.clock.set('2026-10-26T08:00:00.000Z');
    await runDue();
    const [run] = await runsOf();
    expect(run).toMatchObject({ status: 'failed', version: null, delivered: 0 });
    expect(run.error).toContain('disabled');
    expect((await t.get(`/api/v1/reports/${report.id}`, owner.token)).body.version).toBe(1);
    expect((await t.get('/api/v1/inbox', ana.token)).body).toHaveLength(0);
    await t.patch(`/api/v1/templates/${templateId}`, { enabled: true });
  });

  it('makes up an occurrence missed by less than 24 hours once, and records older ones as skipped', async () => {
    await t.put(schedule(), { frequency: 'daily', time: '09:00' }, owner.token);
    // Nothing ran from Tuesday morning until Friday 10:00 Berlin time.
    t.clock.set('2026-10-30T09:00:00.000Z');
    await runDue();
    await runDue();
    const runs = await runsOf();
    expect(runs.map((r) => [r.scheduledFor, r.status])).toEqual([
      ['2026-10-30T08:00:00.000Z', 'succeeded'],
      ['2026-10-29T08:00:00.000Z', 'skipped'],
      ['2026-10-28T08:00:00.000Z', 'skipped'],
      ['2026-10-27T08:00:00.000Z', 'skipped'],
      ['2026-10-26T08:00:00.000Z', 'skipped'],
      ['2026-10-23T07:00:00.000Z', 'skipped'],
      ['2026-10-22T07:00:00.000Z', 'skipped'],
      ['2026-10-21T07:00:00.000Z', 'skipped'],
    ]);
    expect(runs[1].error).toContain('24 hours');
    expect((await t.get(`/api/v1/reports/${report.id}`, owner.token)).body.version).toBe(2);
  });

  it('skips a run queued before the report was edited or the schedule changed', async () => {
    await t.put(schedule(), weekly, owner.token);
    t.clock.set('2026-10-26T08:00:00.000Z');
    await t.app.chronicle.scheduler.tick();
    await editReport(t, owner, report, { name: 'Weekly hours, edited' });
    await runDue();
    const [run] = await runsOf();
    expect(run).toMatchObject({ status: 'skipped', version: null });
    expect(run.error).toContain('changed');
    expect((await t.get(`/api/v1/reports/${report.id}`, owner.token)).body.version).toBe(2);
  });

  it("follows the owner's time zone from the next run when it changes", async () => {
    await t.put(schedule(), weekly, owner.token);
    expect((await t.patch('/api/v1/me', { timezone: 'America/Los_Angeles' }, owner.token)).status).toBe(200);
    const moved = (await t.get(schedule(), owner.token)).body;
    expect(moved.timezone).toBe('America/Los_Angeles');
    expect(moved.nextRuns[0]).toBe('2026-10-26T09:00:00.000-07:00');
    t.clock.set('2026-10-26T08:00:00.000Z');
    await runDue();
    expect(await runsOf()).toHaveLength(0);
    t.clock.set('2026-10-26T16:00:00.000Z');
    await runDue();
    expect((await runsOf()).map((r) => [r.scheduledFor, r.status])).toEqual([['2026-10-26T16:00:00.000Z', 'succeeded']]);
  });

  it('runs now: one at a time per report, then as any run', async () => {
    expect((await t.post(`${schedule()}/run-now`, {}, owner.token)).status).toBe(404);
    await t.put(schedule(), { ...weekly, recipientUserIds: [ana.id] }, owner.token);
    const queued = await t.post(`${schedule()}/run-now`, {}, owner.token);
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({ trigger: 'manual', status: 'queued', scheduledFor: '2026-10-20T12:00:00.000Z' });
    const again = await t.post(`${schedule()}/run-now`, {}, owner.token);
    expect(again.status).toBe(409);
    await t.app.chronicle.scheduler.execute(queued.body.id);
    const [run] = await runsOf();
    expect(run).toMatchObject({ id: queued.body.id, status: 'succeeded', delivered: 1, version: 2 });
    expect((await t.post(`${schedule()}/run-now`, {}, owner.token)).status).toBe(202);
  });

  it('works each occurrence once however many ticks and executions race for it', async () => {
    await t.put(schedule(), { ...weekly, recipientUserIds: [ana.id] }, owner.token);
    t.clock.set('2026-10-26T08:00:00.000Z');
    const scheduler = t.app.chronicle.scheduler;
    await Promise.all([scheduler.tick(), scheduler.tick(), scheduler.tick()]);
    const [run] = await runsOf();
    await Promise.all([scheduler.execute(run.id), scheduler.execute(run.id), scheduler.execute(run.id)]);
    const runs = await runsOf();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'succeeded', version: 2, delivered: 1 });
    expect((await t.get(`/api/v1/reports/${report.id}`, owner.token)).body.version).toBe(2);
    expect((await t.get('/api/v1/inbox', ana.token)).body).toHaveLength(1);
  });
});
