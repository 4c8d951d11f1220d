/**
 * Mail sent by the job engine as a server sends it (delivery.md §3): each process's ticker hands
 * due messages to pg-boss and whichever process takes a job sends it, with two processes on one
 * database racing for the same messages; an SMTP server that answers 451 for a while gets every
 * message once when it recovers. The clock is pinned (moved on past a retry's backoff); the tests
 * wait for what the SMTP server received and what the database recorded, never for time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildPeerApp, buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { newReport, type TestReport } from '../helpers/report-factories.js';
import { peerDatabase } from '../helpers/test-database.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { rowsOf } from '../../src/db/rows.js';
import type { Database } from '../../src/db/database.js';

let smtp: TestSmtp;
let t: TestContext;
let peer: TestContext;
let peerDb: { database: Database; own: boolean };
let owner: TestUser;
let team: TestUser[];
let report: TestReport;

beforeAll(async () => {
  smtp = await startSmtp();
  const config = { jobPollSeconds: 0.5, scheduleTickSeconds: 1, smtpUrl: smtp.url };
  t = await buildTestApp({ jobs: true, config });
  peerDb = await peerDatabase();
  peer = await buildPeerApp(t, config, peerDb.database, true);
  t.clock.set('2026-10-20T12:00:00.000Z');
  owner = await newUser(t);
  const ws = (await newWorkspace(t, owner)).id;
  team = [];
  for (let i = 0; i < 12; i++) {
    const user = await newUser(t);
    await addMember(t, ws, user, 'member', owner.token);
    team.push(user);
  }
  report = await newReport(t, owner, [ws], { name: 'Mailed by the engine' });
});
afterAll(async () => {
  await peer.close();
  if (peerDb.own) await peerDb.database.close();
  await t.close();
  await smtp.close();
});

const statuses = async () =>
  rowsOf<{ status: string; n: number }>(
    await t.database.db.execute(sql`select status, count(*)::int as n from mail_messages group by status order by status`),
  );

describe('mail on the job engine', () => {
  it('sends every message of a send once, with two processes on one database', async () => {
    const sent = await t.post(`/api/v1/reports/${report.id}/send`, { recipientUserIds: team.map((u) => u.id) }, owner.token);
    expect(sent.status).toBe(201);
    await expect.poll(() => smtp.received.length, { timeout: 60_000, interval: 100 }).toBe(team.length);
    await expect.poll(statuses, { timeout: 60_000, interval: 200 }).toEqual([{ status: 'sent', n: team.length }]);
    expect(new Set(smtp.received.map((m) => m.parsed.messageId)).size).toBe(team.length);
    expect(smtp.received.map((m) => m.to).sort()).toEqual(team.map((u) => u.email.toLowerCase()).sort());
  });

  it('delivers every message once to a server that answers 451 for a while', async () => {
    await t.database.db.execute(sql`delete from mail_messages`);
    smtp.reset();
    smtp.refuse(451, 5);
    await t.post(`/api/v1/reports/${report.id}/send`, { recipientUserIds: team.slice(0, 6).map((u) => u.id) }, owner.token);
    // The refused ones wait out their backoff (30 s on the pinned clock), then go.
    await expect.poll(() => smtp.refusedCount(), { timeout: 60_000, interval: 100 }).toBe(5);
    await expect.poll(() => smtp.received.length, { timeout: 60_000, interval: 100 }).toBe(1);
    t.clock.advance(31_000);
    await expect.poll(() => smtp.received.length, { timeout: 60_000, interval: 100 }).toBe(6);
    await expect.poll(statuses, { timeout: 60_000, interval: 200 }).toEqual([{ status: 'sent', n: 6 }]);
    expect(new Set(smtp.received.map((m) => m.parsed.messageId)).size).toBe(6);
  });
});
