import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type paths } from '../../packages/client/src/index.js';
import { buildTestApp, expectProblem, first, newUser, type TestContext, type TestUser, readOnlyToken } from '../helpers/test-app.js';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { editReport, newReport } from '../helpers/report-factories.js';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

type SendBody = paths['/api/v1/reports/{id}/send']['post']['requestBody']['content']['application/json'];

const messageOf = (id: string) => `/api/v1/inbox/${id}`;
const readOf = (id: string) => `/api/v1/inbox/${id}/read`;

const inbox = (user: TestUser) => unwrap(t.client(user.token).GET('/api/v1/inbox'));

/** A sender with a report over one workspace (one entry of their own), two teammates and an outsider. */
async function setup(reportName = 'Weekly') {
  const sender = await newUser(t, { name: 'Sender' });
  const alice = await newUser(t);
  const bob = await newUser(t);
  const outsider = await newUser(t);
  const workspace = await newWorkspace(t, sender);
  await addMember(t, workspace.id, alice, 'member', sender.token);
  await addMember(t, workspace.id, bob, 'admin', sender.token);
  const api = t.client(sender.token);
  await unwrap(
    api.POST('/api/v1/time-entries', {
      body: { workspaceId: workspace.id, start: '2026-11-03T09:00:00.000Z', minutes: 45, description: 'Planning' },
    }),
  );
  const report = await newReport(t, sender, [workspace.id], { name: reportName });
  const send = (body: SendBody) => unwrap(api.POST('/api/v1/reports/{id}/send', { params: { path: { id: report.id } }, body }));
  return { sender, alice, bob, outsider, workspace, report, send };
}

describe('GET /api/v1/inbox', () => {
  it("lists the caller's messages newest first, with the frozen fields", async () => {
    const { sender, alice, report, send } = await setup('Weekly');
    const other = await setup('Other');
    await addMember(t, other.workspace.id, alice, 'member', other.sender.token);
    t.clock.set('2026-12-01T09:00:00.000Z');
    try {
      await send({ recipientUserIds: [alice.id], message: 'Older' });
      t.clock.advance(1_000);
      await other.send({ recipientUserIds: [alice.id] });
      t.clock.advance(1_000);
      await send({ recipientUserIds: [alice.id], message: 'Newest' });
    } finally {
      t.clock.reset();
    }
    const messages = await inbox(alice);
    expect(messages.map((m) => m.sentAt)).toEqual(['2026-12-01T09:00:02.000Z', '2026-12-01T09:00:01.000Z', '2026-12-01T09:00:00.000Z']);
    expect(first(messages)).toEqual({
      id: first(messages).id,
      reportId: report.id,
      reportContentId: report.reportContentId,
      reportName: 'Weekly',
      version: 1,
      senderUserId: sender.id,
      senderName: 'Sender',
      message: 'Newest',
      sentAt: '2026-12-01T09:00:02.000Z',
      readAt: null,
      self: false,
    });
    expect(messages[1]).toMatchObject({ reportId: other.report.id, reportName: 'Other', message: null });
    expect(await inbox(sender)).toEqual([]);
  });

  it('breaks ties of sentAt by id, newest first', async () => {
    const { alice, send } = await setup();
    t.clock.set('2026-12-02T09:00:00.000Z');
    try {
      await send({ recipientUserIds: [alice.id] });
      await send({ recipientUserIds: [alice.id] });
    } finally {
      t.clock.reset();
    }
    const ids = (await inbox(alice)).map((m) => m.id);
    expect(ids).toEqual([...ids].sort().reverse());
  });

  it('keeps reportName and senderName as they were at send time', async () => {
    const { sender, alice, report, send } = await setup('Before');
    await send({ recipientUserIds: [alice.id] });
    await editReport(t, sender, report, { name: 'After' });
    expect((await t.patch('/api/v1/me', { name: 'Renamed sender' }, sender.token)).status).toBe(200);
    expect(first(await inbox(alice))).toMatchObject({ reportName: 'Before', senderName: 'Sender', version: 1 });
  });

  it('shows a self-copy in the sender inbox with self: true', async () => {
    const { sender, alice, send } = await setup();
    await send({ recipientUserIds: [alice.id], sendToSelf: true });
    const own = await inbox(sender);
    expect(own).toHaveLength(1);
    expect(first(own)).toMatchObject({ self: true, senderUserId: sender.id, readAt: null });
    expect(first(await inbox(alice)).self).toBe(false);
    const copy = await t.get(messageOf(first(own).id), sender.token);
    expect(copy.status).toBe(200);
    expect(copy.body.self).toBe(true);
  });
});

describe('GET /api/v1/inbox/:id', () => {
  it('returns the message with the delivered version rendered', async () => {
    const { alice, report, send } = await setup();
    await send({ recipientUserIds: [alice.id] });
    const message = first(await inbox(alice));
    const res = await t.get(messageOf(message.id), alice.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...message, renderedMarkdown: report.renderedMarkdown });
    expect((await t.get(messageOf(message.id), await readOnlyToken(t, alice))).status).toBe(200);
  });

  it('is 404 for anyone but the recipient, the sender and an instance admin included', async () => {
    const { sender, alice, bob, outsider, send } = await setup();
    await send({ recipientUserIds: [alice.id, bob.id] });
    const message = first(await inbox(alice));
    const instanceAdmin = await newUser(t, { instanceAdmin: true });
    for (const user of [sender, bob, outsider, instanceAdmin]) {
      expectProblem(await t.get(messageOf(message.id), user.token), 404);
      expectProblem(await t.post(readOf(message.id), undefined, user.token), 404);
    }
    expectProblem(await t.get(messageOf('no-such-message'), alice.token), 404);
    expectProblem(await t.post(readOf('no-such-message'), undefined, alice.token), 404);
    expect(first(await inbox(alice)).readAt).toBeNull();
  });
});

describe('POST /api/v1/inbox/:id/read', () => {
  it('sets readAt once; a second read keeps the first instant', async () => {
    const { alice, bob, send } = await setup();
    await send({ recipientUserIds: [alice.id, bob.id] });
    const message = first(await inbox(alice));
    try {
      t.clock.set('2026-12-03T08:00:00.000Z');
      const first = await t.post(readOf(message.id), undefined, alice.token);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ ...message, readAt: '2026-12-03T08:00:00.000Z' });
      t.clock.advance(3_600_000);
      const second = await t.post(readOf(message.id), undefined, alice.token);
      expect(second.status).toBe(200);
      expect(second.body.readAt).toBe('2026-12-03T08:00:00.000Z');
    } finally {
      t.clock.reset();
    }
    expect((await t.get(messageOf(message.id), alice.token)).body.readAt).toBe('2026-12-03T08:00:00.000Z');
    expect(first(await inbox(alice)).readAt).toBe('2026-12-03T08:00:00.000Z');
    // Reading one recipient's copy marks nobody else's.
    expect(first(await inbox(bob)).readAt).toBeNull();
  });

  it('needs the write scope (403 for a read-only token)', async () => {
    const { alice, send } = await setup();
    await send({ recipientUserIds: [alice.id] });
    const message = first(await inbox(alice));
    expectProblem(await t.post(readOf(message.id), undefined, await readOnlyToken(t, alice)), 403);
    expect(first(await inbox(alice)).readAt).toBeNull();
  });
});

describe('deletions', () => {
  it("removes a report's deliveries with the report", async () => {
    const { sender, alice, report, send } = await setup();
    await send({ recipientUserIds: [alice.id], sendToSelf: true });
    const message = first(await inbox(alice));
    expect((await t.del(`/api/v1/reports/${report.id}`, sender.token)).status).toBe(204);
    expect(await inbox(alice)).toEqual([]);
    expect(await inbox(sender)).toEqual([]);
    expectProblem(await t.get(messageOf(message.id), alice.token), 404);
    expectProblem(await t.post(readOf(message.id), undefined, alice.token), 404);
  });

  it("removes a deleted account's inbox, and the messages it sent", async () => {
    const { sender, alice, bob, workspace, report, send } = await setup();
    await send({ recipientUserIds: [alice.id, bob.id] });
    expect((await t.del(`/api/v1/users/${alice.id}`)).status).toBe(204);
    const [batch] = (await t.get(`/api/v1/reports/${report.id}/sends`, sender.token)).body;
    expect(batch.recipients.map((r: { userId: string }) => r.userId)).toEqual([bob.id]);

    const message = first(await inbox(bob));
    // A workspace's sole owner cannot leave members behind, so bob takes it over first.
    await addMember(t, workspace.id, bob, 'owner');
    expect((await t.del(`/api/v1/users/${sender.id}`)).status).toBe(204);
    expect(await inbox(bob)).toEqual([]);
    expectProblem(await t.get(messageOf(message.id), bob.token), 404);
  });
});
