/**
 * Discussion pages cached per revision (discussion-cache.ts, migration 0022): a second read of
 * an unchanged discussion is answered from the process's copy (one statement fewer), and every
 * write a discussion read shows, made through another process or straight in the database, gives
 * the next read the database's current page.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { newReport, type TestReport } from '../helpers/report-factories.js';
import { ADMIN_TOKEN, buildPeerApp, buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';

let t: TestContext;
/** Another process on the same database, with a cache of its own. */
let peer: TestContext;
let owner: TestUser;
let reader: TestUser;
let workspaceId: string;

beforeAll(async () => {
  t = await buildTestApp();
  peer = await buildPeerApp(t);
  owner = await newUser(t, { name: 'Olive Owner', imageUrl: 'https://example.com/olive.png' });
  reader = await newUser(t, { name: 'Rita Reader' });
  workspaceId = (await newWorkspace(t, owner)).id;
  await addMember(t, workspaceId, reader, 'member', owner.token);
});
afterAll(async () => {
  await peer.close();
  await t.close();
});

const url = (report: TestReport) => `/api/v1/report-contents/${report.reportContentId}/discussion`;

async function sentReport(): Promise<TestReport> {
  const report = await newReport(t, owner, [workspaceId], { name: 'Weekly hours' });
  expect((await t.post(`/api/v1/reports/${report.id}/send`, { recipientUserIds: [reader.id] }, owner.token)).status).toBe(201);
  return report;
}

/** The statements one request runs (their SQL). */
async function statementsOf(request: () => Promise<{ status: number }>): Promise<string[]> {
  const seen: string[] = [];
  const stop = t.database.observeQueries((text) => seen.push(text));
  try {
    expect((await request()).status).toBe(200);
  } finally {
    stop();
  }
  return seen;
}

/** What the reader sees now, read through `t` (whose cache holds the last page it built). */
async function readerSees(report: TestReport): Promise<{ body: Record<string, unknown>; total: string }> {
  const res = await t.get(url(report), reader.token);
  expect(res.status).toBe(200);
  return { body: res.body as Record<string, unknown>, total: res.headers['x-total-count'] as string };
}

describe('discussion pages cached per revision', () => {
  it('answer a second read of an unchanged discussion without building the document again, byte for byte', async () => {
    const report = await sentReport();
    await t.post(`/api/v1/report-contents/${report.reportContentId}/comments`, { body: 'First' }, owner.token);
    const cold = await statementsOf(() => t.get(url(report), reader.token));
    const first = await t.get(url(report), reader.token);
    const warm = await statementsOf(() => t.get(url(report), reader.token));
    expect(warm.length).toBe(cold.length - 1);
    expect(warm.some((text) => text.includes('json_build_object'))).toBe(false);
    const second = await t.get(url(report), reader.token);
    expect(second.text).toBe(first.text);
    expect(second.headers.etag).toBe(first.headers.etag);
  });

  it('show every change made through another process: comments added, edited and deleted, reactions on and off', async () => {
    const report = await sentReport();
    const base = `/api/v1/report-contents/${report.reportContentId}`;
    await readerSees(report);
    const added = await peer.post(`${base}/comments`, { body: 'From the other process' }, owner.token);
    expect(added.status).toBe(201);
    let seen = await readerSees(report);
    expect((seen.body.comments as { body: string }[]).map((c) => c.body)).toEqual(['From the other process']);
    expect(seen.total).toBe('1');

    expect((await peer.patch(`${base}/comments/${added.body.id}`, { body: 'Edited' }, owner.token)).status).toBe(200);
    seen = await readerSees(report);
    expect((seen.body.comments as { body: string }[])[0]?.body).toBe('Edited');

    expect((await peer.put(`${base}/reactions`, { emoji: 'heart' }, owner.token)).status).toBeLessThan(300);
    seen = await readerSees(report);
    expect(seen.body.reactions).toEqual([expect.objectContaining({ emoji: 'heart', count: 1, userNames: ['Olive Owner'] })]);
    expect((await peer.put(`${base}/reactions`, { emoji: 'heart' }, owner.token)).status).toBeLessThan(300);
    expect((await readerSees(report)).body.reactions).toEqual([]);

    expect((await peer.del(`${base}/comments/${added.body.id}`, owner.token)).status).toBe(204);
    seen = await readerSees(report);
    expect(seen.body.comments).toEqual([]);
    expect(seen.total).toBe('0');
  });

  it('show a participant’s new name (in reactions) and avatar (on comments), and what an account deletion removes', async () => {
    const report = await sentReport();
    const base = `/api/v1/report-contents/${report.reportContentId}`;
    const guest = await newUser(t, { name: 'Gus Guest', imageUrl: 'https://example.com/gus.png' });
    await addMember(t, workspaceId, guest, 'member', owner.token);
    const other = await newReport(t, owner, [workspaceId]);
    await t.post(`/api/v1/reports/${other.id}/send`, { recipientUserIds: [reader.id, guest.id] }, owner.token);
    await t.post(`/api/v1/reports/${report.id}/send`, { recipientUserIds: [guest.id] }, owner.token);
    await t.post(`${base}/comments`, { body: 'Guest here' }, guest.token);
    await t.put(`${base}/reactions`, { emoji: 'rocket' }, guest.token);
    await readerSees(report);

    expect((await peer.patch('/api/v1/me', { name: 'Gus Renamed' }, guest.token)).status).toBe(200);
    let seen = await readerSees(report);
    expect(seen.body.reactions).toEqual([expect.objectContaining({ emoji: 'rocket', userNames: ['Gus Renamed'] })]);
    // The comment keeps the name it was written under; its avatar is the author's current one.
    expect(seen.body.comments).toEqual([
      expect.objectContaining({ authorName: 'Gus Guest', authorImageUrl: 'https://example.com/gus.png' }),
    ]);
    expect((await peer.patch('/api/v1/me', { imageUrl: 'https://example.com/gus-2.png' }, guest.token)).status).toBe(200);
    seen = await readerSees(report);
    expect(seen.body.comments).toEqual([expect.objectContaining({ authorImageUrl: 'https://example.com/gus-2.png' })]);

    expect((await peer.del(`/api/v1/users/${guest.id}`, ADMIN_TOKEN)).status).toBe(204);
    seen = await readerSees(report);
    expect(seen.body.reactions).toEqual([]);
    expect(seen.body.comments).toEqual([expect.objectContaining({ body: 'Guest here', authorUserId: null, authorImageUrl: null })]);
  });

  it('show a version’s first send (the page says whether the version was sent), and writes made straight in the database', async () => {
    const report = await newReport(t, owner, [workspaceId]);
    const ownerSees = async () => (await t.get(url(report), owner.token)).body as { shared: boolean; reactions: unknown[] };
    expect((await ownerSees()).shared).toBe(false);
    expect((await peer.post(`/api/v1/reports/${report.id}/send`, { recipientUserIds: [reader.id] }, owner.token)).status).toBe(201);
    expect((await ownerSees()).shared).toBe(true);
    await t.database.db.execute(
      sql`insert into reactions (id, report_content_id, comment_id, user_id, emoji, created_at) values ('direct', ${report.reportContentId}, null, ${reader.id}, 'eyes', now())`,
    );
    expect((await ownerSees()).reactions).toEqual([expect.objectContaining({ emoji: 'eyes', userNames: ['Rita Reader'] })]);
  });

  it('leave deleting a report with a discussion to its cascades', async () => {
    const report = await sentReport();
    await t.post(`/api/v1/report-contents/${report.reportContentId}/comments`, { body: 'Soon gone' }, owner.token);
    await t.put(`/api/v1/report-contents/${report.reportContentId}/reactions`, { emoji: 'eyes' }, reader.token);
    expect((await t.del(`/api/v1/reports/${report.id}`, owner.token)).status).toBe(204);
    expect((await t.get(url(report), owner.token)).status).toBe(404);
  });
});
