/**
 * More mail and more webhook deliveries due at once than one tick hands to the job engine
 * (delivery.md §3 and §4; job-engine.ts BACKLOG_TICK_MS): the rest go as soon as the jobs have
 * taken the first ones, not at the next interval. An app that runs no job engine writes them; a
 * second app on the same database, whose interval tick is an hour, sends them. The tests wait for
 * what the SMTP and HTTP servers on loopback received, never for time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildPeerApp, buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { newReport } from '../helpers/report-factories.js';
import { peerDatabase } from '../helpers/test-database.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { rowsOf } from '../../src/db/rows.js';
import { enqueueWebhookEvent } from '../../src/modules/webhooks/webhook-events.js';
import type { Database } from '../../src/db/database.js';

/** Five sends to fifty teammates, and 250 events to one endpoint: more than the 200 one tick hands on. */
const SENDS = 5;
const TEAM = 50;
const EVENTS = 250;

/** Both apps may deliver webhooks to this test's server on 127.0.0.1. */
const WEBHOOKS = { webhookAllowHttp: true, webhookAllowPrivate: true };

let smtp: TestSmtp;
let hook: WebhookReceiver;
let t: TestContext;
let sender: TestContext;
let senderDb: { database: Database; own: boolean };

beforeAll(async () => {
  smtp = await startSmtp();
  hook = await startWebhookReceiver();
  t = await buildTestApp({ config: { smtpUrl: smtp.url, ...WEBHOOKS } });
  t.clock.set('2026-10-20T12:00:00.000Z');
  const owner = await newUser(t);
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
  const endpoint = await t.post(`/api/v1/workspaces/${ws}/webhooks`, { url: hook.url, events: ['report.version.created'] }, owner.token);
  expect(endpoint.status, endpoint.text).toBe(201);
  await t.database.db.transaction(async (tx) => {
    for (let i = 0; i < EVENTS; i++) {
      await enqueueWebhookEvent(tx, [ws], 'report.version.created', { report: { id: `r${i}`, name: 'R' }, links: {} }, t.clock.now());
    }
  });
  expect(await statuses('mail_messages')).toEqual([{ status: 'queued', n: SENDS * TEAM }]);
  expect(await statuses('webhook_deliveries')).toEqual([{ status: 'queued', n: EVENTS }]);
  senderDb = await peerDatabase();
  sender = await buildPeerApp(
    t,
    { jobPollSeconds: 0.5, scheduleTickSeconds: 3_600, smtpUrl: smtp.url, ...WEBHOOKS },
    senderDb.database,
    true,
  );
});
afterAll(async () => {
  await sender.close();
  if (senderDb.own) await senderDb.database.close();
  await t.close();
  await smtp.close();
  await hook.close();
});

async function statuses(table: 'mail_messages' | 'webhook_deliveries') {
  return rowsOf<{ status: string; n: number }>(
    await t.database.db.execute(sql`select status, count(*)::int as n from ${sql.identifier(table)} group by status order by status`),
  );
}

describe('a backlog larger than one tick', () => {
  it('of mail is sent whole without waiting for the next interval', async () => {
    await expect.poll(() => smtp.received.length, { timeout: 120_000, interval: 100 }).toBe(SENDS * TEAM);
    await expect.poll(() => statuses('mail_messages'), { timeout: 60_000, interval: 200 }).toEqual([{ status: 'sent', n: SENDS * TEAM }]);
    expect(new Set(smtp.received.map((m) => m.parsed.messageId)).size).toBe(SENDS * TEAM);
  });

  it('of webhook deliveries is delivered whole without waiting for the next interval', async () => {
    await expect.poll(() => hook.received.length, { timeout: 120_000, interval: 100 }).toBe(EVENTS);
    await expect
      .poll(() => statuses('webhook_deliveries'), { timeout: 60_000, interval: 200 })
      .toEqual([{ status: 'succeeded', n: EVENTS }]);
  });
});
