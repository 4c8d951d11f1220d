/**
 * A job this process queues itself starts at once (job-engine.ts `send` wakes the process's own
 * worker), not at the queue's next poll: here the process polls only every ten minutes, so a
 * run-now that waited for a poll would not finish within the test's minute. Stopping the engine
 * waits for what pg-boss leaves under way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { newReport } from '../helpers/report-factories.js';
import { testDatabase } from '../helpers/test-database.js';
import { pino } from 'pino';
import type { Database } from '../../src/db/database.js';
import { startJobEngine, type JobQueue } from '../../src/jobs/job-engine.js';
import { rowsOf } from '../../src/db/rows.js';
import { sql } from 'drizzle-orm';

let t: TestContext;
let owner: TestUser;
let ana: TestUser;
let ws: string;

beforeAll(async () => {
  t = await buildTestApp({ jobs: true, config: { jobPollSeconds: 600, scheduleTickSeconds: 3_600 } });
  t.clock.set('2026-10-20T12:00:00.000Z');
  owner = await newUser(t);
  ana = await newUser(t);
  ws = (await newWorkspace(t, owner)).id;
  await addMember(t, ws, ana, 'member', owner.token);
  await t.post('/api/v1/time-entries', { workspaceId: ws, start: '2026-10-19T12:00:00.000Z', minutes: 45 }, owner.token);
});
afterAll(() => t.close());

describe('a job the process queues itself', () => {
  it('runs a run-now at once, without waiting for the next poll', async () => {
    const report = await newReport(t, owner, [ws], { name: 'Weekly' });
    const schedule = { frequency: 'weekly', weekday: 'monday', time: '09:00', recipientUserIds: [ana.id] };
    expect((await t.put(`/api/v1/reports/${report.id}/schedule`, schedule, owner.token)).status).toBe(201);
    const now = await t.post(`/api/v1/reports/${report.id}/schedule/run-now`, {}, owner.token);
    expect(now.status).toBe(202);
    const runs = async () =>
      (await t.get(`/api/v1/reports/${report.id}/schedule/runs`, owner.token)).body as { id: string; status: string }[];
    await expect
      .poll(async () => (await runs()).find((run) => run.id === now.body.id)?.status, { timeout: 60_000, interval: 100 })
      .toBe('succeeded');
    expect((await t.get(`/api/v1/reports/${report.id}`, owner.token)).body.version).toBe(2);
  });
});

describe('stopping the job engine', () => {
  it('waits for the statement that marks a job done, which pg-boss does not wait for itself', async () => {
    const database = await testDatabase();
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const events: string[] = [];
    let seen = (): void => undefined;
    const completing = new Promise<void>((resolve) => (seen = resolve));
    // The same database, with pg-boss's "completed" statement held until the test lets it go.
    const gated: Database = {
      ...database,
      executeSql: async (text, values) => {
        if (!/SET completed_on = now\(\)/.test(text)) return database.executeSql(text, values);
        seen();
        await held;
        const result = await database.executeSql(text, values);
        events.push('job marked done');
        return result;
      },
    };
    const queue: JobQueue<{ n: number }> = {
      name: 'wake-stop-test',
      expireInSeconds: 60,
      retryLimit: 0,
      retryDelaySeconds: 1,
      handle: async () => undefined,
    };
    const engine = await startJobEngine(gated, pino({ level: 'silent' }), [queue], {
      pollingIntervalSeconds: 600,
      work: true,
    });
    await engine.send(queue, { n: 1 }, 'one');
    await completing;
    const stopped = engine.stop().then(() => events.push('engine stopped'));
    // Without the wait, pg-boss's stop resolves at once here; the statement is let go only after.
    setTimeout(release, 300);
    await stopped;
    expect(events).toEqual(['job marked done', 'engine stopped']);
  });
});

describe('handing on many jobs at once', () => {
  it('queues each waiting key once, in one statement per hand-on, however often a ticker hands it on', async () => {
    const database = await testDatabase();
    const inserts: string[] = [];
    const counting: Database = {
      ...database,
      executeSql: (text, values) => {
        if (/INSERT INTO jobs\.job/i.test(text)) inserts.push(text);
        return database.executeSql(text, values);
      },
    };
    const queue: JobQueue<{ key: string }> = {
      name: 'send-all-test',
      expireInSeconds: 60,
      retryLimit: 0,
      retryDelaySeconds: 1,
      handle: async () => undefined,
    };
    // A process that only queues: the jobs stay waiting, as due messages do between two ticks.
    const engine = await startJobEngine(counting, pino({ level: 'silent' }), [queue], { pollingIntervalSeconds: 600, work: false });
    try {
      const jobs = (keys: string[]) => keys.map((key) => ({ data: { key }, key }));
      await engine.sendAll(queue, jobs(['a', 'b', 'c']));
      await engine.sendAll(queue, jobs(['a', 'b', 'c', 'd']));
      await engine.sendAll(queue, jobs(['c', 'd']));
      await engine.sendAll(queue, []);
      expect(inserts).toHaveLength(3);
      const waiting = rowsOf<{ key: string; data: { key: string } }>(
        await database.db.execute(sql`select singleton_key as key, data from jobs.job where name = ${queue.name} and state = 'created'`),
      );
      expect(waiting.map((job) => job.key).sort()).toEqual(['a', 'b', 'c', 'd']);
      expect(waiting.every((job) => job.data.key === job.key)).toBe(true);
    } finally {
      await engine.stop();
    }
  });
});
