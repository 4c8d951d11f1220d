/**
 * Schedules worked by the job engine as a server works them (pg-boss over the app's own
 * database): runs found by each process's ticker and worked by whichever process takes the job,
 * with two processes on one database racing for the same due occurrences. The clock is pinned;
 * the tests wait for the runs' recorded outcomes, never for time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildPeerApp, buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { newReport } from '../helpers/report-factories.js';
import { peerDatabase } from '../helpers/test-database.js';
import { rowsOf } from '../../src/db/rows.js';
import type { Database } from '../../src/db/database.js';

const FAST = { jobPollSeconds: 0.5, scheduleTickSeconds: 1 };
let t: TestContext;
let peer: TestContext;
let peerDb: { database: Database; own: boolean };
let owner: TestUser;
let ana: TestUser;
let ws: string;

beforeAll(async () => {
  t = await buildTestApp({ jobs: true, config: FAST });
  peerDb = await peerDatabase();
  peer = await buildPeerApp(t, FAST, peerDb.database, true);
  t.clock.set('2026-10-20T12:00:00.000Z');
  owner = await newUser(t, { timezone: 'America/St_Johns' });
  ana = await newUser(t);
  ws = (await newWorkspace(t, owner)).id;
  await addMember(t, ws, ana, 'member', owner.token);
  await t.post('/api/v1/time-entries', { workspaceId: ws, start: '2026-10-19T12:00:00.000Z', minutes: 45 }, owner.token);
});
afterAll(async () => {
  await peer.close();
  if (peerDb.own) await peerDb.database.close();
  await t.close();
});

const runsOf = async (reportId: string) => (await t.get(`/api/v1/reports/${reportId}/schedule/runs`, owner.token)).body as any[];
const finished = (runs: any[]) => runs.filter((r) => r.status !== 'queued' && r.status !== 'running');

describe('schedules on the job engine', () => {
  it('runs a due occurrence on its own, and a run-now, through the engine', async () => {
    const report = await newReport(t, owner, [ws], { name: 'Daily' });
    await t.put(`/api/v1/reports/${report.id}/schedule`, { frequency: 'daily', time: '08:30', recipientUserIds: [ana.id] }, owner.token);
    // 08:30 in St. John's (-02:30 in October) on Wednesday 21 October.
    t.clock.set('2026-10-21T11:00:00.000Z');
    await expect.poll(async () => finished(await runsOf(report.id)), { timeout: 60_000, interval: 200 }).toHaveLength(1);
    expect((await runsOf(report.id))[0]).toMatchObject({
      scheduledFor: '2026-10-21T11:00:00.000Z',
      status: 'succeeded',
      version: 2,
      delivered: 1,
    });

    const now = await t.post(`/api/v1/reports/${report.id}/schedule/run-now`, {}, owner.token);
    expect(now.status).toBe(202);
    await expect.poll(async () => finished(await runsOf(report.id)), { timeout: 60_000, interval: 200 }).toHaveLength(2);
    expect((await runsOf(report.id)).find((r) => r.id === now.body.id)).toMatchObject({ status: 'succeeded', version: 3 });
  });

  it('works every due occurrence exactly once with two processes on one database', async () => {
    const reports = [];
    for (let i = 0; i < 6; i++) {
      const report = await newReport(t, owner, [ws], { name: `Weekly ${i}` });
      await t.put(
        `/api/v1/reports/${report.id}/schedule`,
        { frequency: 'weekly', weekday: 'friday', time: '17:00', recipientUserIds: [ana.id] },
        owner.token,
      );
      reports.push(report);
    }
    // Both processes tick on their own timers and race for the same six occurrences.
    t.clock.set('2026-10-23T20:00:00.000Z');
    for (const report of reports) {
      await expect.poll(async () => finished(await runsOf(report.id)), { timeout: 60_000, interval: 200 }).toHaveLength(1);
    }
    // Give both tickers and workers more turns: nothing more may happen.
    await Promise.all([t.app.chronicle.scheduler.tick(), peer.app.chronicle.scheduler.tick()]);
    const counts = rowsOf<{ runs: number; versions: number; sends: number }>(
      await t.database.db.execute(sql`
        select r.id,
          (select count(*) from schedule_runs s where s.report_id = r.id)::int as runs,
          (select count(*) from report_contents c where c.report_id = r.id)::int as versions,
          (select count(*) from sends s where s.report_id = r.id)::int as sends
        from reports r where r.id in (${sql.join(
          reports.map((r) => sql`${r.id}`),
          sql`, `,
        )})`),
    );
    expect(counts).toHaveLength(6);
    for (const row of counts) expect(row).toMatchObject({ runs: 1, versions: 2, sends: 1 });
    expect(((await t.get('/api/v1/inbox', ana.token)).body as any[]).filter((m) => m.reportName.startsWith('Weekly'))).toHaveLength(6);
  });

  it('takes over a run whose process died mid-run, once it has been silent long enough', async () => {
    const report = await newReport(t, owner, [ws], { name: 'Taken over' });
    await t.put(`/api/v1/reports/${report.id}/schedule`, { frequency: 'weekly', weekday: 'monday', time: '09:00' }, owner.token);
    // A process took the run and died before its transaction committed: the run says running,
    // nothing else was written. (What a SIGKILL leaves; see the crash test for the process kill.)
    const runId = 'run-of-a-dead-process';
    await t.database.db.execute(sql`
      insert into schedule_runs (id, report_id, trigger, scheduled_for, revision, status, attempts, queued_at, started_at)
      select ${runId}, report_id, 'manual', ${'2026-10-23T20:00:00.000Z'}::timestamptz, revision, 'running', 1, ${'2026-10-23T20:00:00.000Z'}::timestamptz, ${'2026-10-23T20:00:00.000Z'}::timestamptz
      from report_schedules where report_id = ${report.id}`);
    // Not yet stale: nobody takes it.
    await t.app.chronicle.scheduler.execute(runId);
    expect((await runsOf(report.id))[0]).toMatchObject({ status: 'running' });
    // Sixteen minutes later the tickers find it stranded and the engine works it.
    t.clock.set('2026-10-23T20:16:00.000Z');
    await expect.poll(async () => finished(await runsOf(report.id)), { timeout: 60_000, interval: 200 }).toHaveLength(1);
    expect((await runsOf(report.id))[0]).toMatchObject({ id: runId, status: 'succeeded', version: 2 });
    expect((await t.get(`/api/v1/reports/${report.id}`, owner.token)).body.version).toBe(2);
  });
});
