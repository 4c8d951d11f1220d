/**
 * A job this process queues itself starts at once (job-engine.ts `send` wakes the process's own
 * worker), not at the queue's next poll: here the process polls only every ten minutes, so a
 * run-now that waited for a poll would not finish within the test's minute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { newReport } from '../helpers/report-factories.js';

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
