/**
 * More mail due at once than one tick hands to the job engine (delivery.md §3): the rest goes as
 * soon as the jobs have taken the first messages, not at the next interval. The messages are
 * written by an app that runs no job engine; a second app on the same database, whose interval
 * tick is an hour, sends them. The test waits for what the SMTP server received, never for time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildPeerApp, buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { newReport } from '../helpers/report-factories.js';
import { peerDatabase } from '../helpers/test-database.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { rowsOf } from '../../src/db/rows.js';
import type { Database } from '../../src/db/database.js';

/** Five sends to fifty teammates: more than the 200 messages one tick hands on. */
const SENDS = 5;
const TEAM = 50;

let smtp: TestSmtp;
let t: TestContext;
let sender: TestContext | null = null;
let senderDb: { database: Database; own: boolean } | null = null;
let owner: TestUser;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await buildTestApp({ config: { smtpUrl: smtp.url } });
  t.clock.set('2026-10-20T12:00:00.000Z');
  owner = await newUser(t);
  const ws = (await newWorkspace(t, owner)).id;
  const team: TestUser[] = [];
  for (let i = 0; i < TEAM; i++) {
    const user = await newUser(t);
    await addMember(t, ws, user, 'member', owner.token);
    team.push(user);
  }
  const report = await newReport(t, owner, [ws], { name: 'Mailed to the whole team' });
  for (let i = 0; i < SENDS; i++) {
    const sent = await t.post(`/api/v1/reports/${report.id}/send`, { recipientUserIds: team.map((u) => u.id) }, owner.token);
    expect(sent.status).toBe(201);
  }
});
afterAll(async () => {
  await sender?.close();
  if (senderDb?.own) await senderDb.database.close();
  await t.close();
  await smtp.close();
});

const statuses = async () =>
  rowsOf<{ status: string; n: number }>(
    await t.database.db.execute(sql`select status, count(*)::int as n from mail_messages group by status order by status`),
  );

describe('a mail backlog', () => {
  it('is sent whole without waiting for the next interval', async () => {
    expect(await statuses()).toEqual([{ status: 'queued', n: SENDS * TEAM }]);
    senderDb = await peerDatabase();
    sender = await buildPeerApp(t, { jobPollSeconds: 0.5, scheduleTickSeconds: 3_600, smtpUrl: smtp.url }, senderDb.database, true);
    await expect.poll(() => smtp.received.length, { timeout: 120_000, interval: 100 }).toBe(SENDS * TEAM);
    await expect.poll(statuses, { timeout: 60_000, interval: 200 }).toEqual([{ status: 'sent', n: SENDS * TEAM }]);
    expect(new Set(smtp.received.map((m) => m.parsed.messageId)).size).toBe(SENDS * TEAM);
  });
});
