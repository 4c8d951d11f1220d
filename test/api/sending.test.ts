import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { reports } from '../../src/db/schema.js';
import { parseDocument } from '../../packages/document/src/index.js';
import { buildTestApp, expectProblem, newUser, type TestContext, type TestUser, readOnlyToken } from '../helpers/test-app.js';
import { addMember, addProjectMember, newProject, newTeam, newWorkspace } from '../helpers/factories.js';
import { editReport, newReport, type TestReport } from '../helpers/report-factories.js';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const recipientsOf = (reportId: string) => `/api/v1/reports/${reportId}/recipients`;
const sendOf = (reportId: string) => `/api/v1/reports/${reportId}/send`;
const sendsOf = (reportId: string) => `/api/v1/reports/${reportId}/sends`;

async function entry(user: TestUser, workspaceId: string, projectId?: string, description = 'Work'): Promise<void> {
  const res = await t.post(
    '/api/v1/time-entries',
    { workspaceId, ...(projectId ? { projectId } : {}), start: '2026-11-03T09:00:00.000Z', minutes: 60, description },
    user.token,
  );
  if (res.status !== 201) throw new Error(`entry failed: ${res.status} ${res.text}`);
}

async function candidateIds(report: { id: string }, owner: TestUser): Promise<string[]> {
  const res = await t.get(recipientsOf(report.id), owner.token);
  expect(res.status).toBe(200);
  return res.body.map((c: { id: string }) => c.id);
}

/** Lets `n` turns of the event loop pass. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

async function inbox(user: TestUser): Promise<any[]> {
  const res = await t.get('/api/v1/inbox', user.token);
  expect(res.status).toBe(200);
  return res.body;
}

/** One workspace owned by `owner` with an admin, two plain members and a project; plus an outsider. */
async function team() {
  const { owner, admin, plain: alice, outsider, workspace } = await newTeam(t);
  const bob = await newUser(t);
  await addMember(t, workspace.id, bob, 'member', owner.token);
  const project = await newProject(t, workspace.id, owner.token);
  return { owner, admin, alice, bob, outsider, workspace, project };
}

/** A team and a report of the owner's unassigned entries (no project restriction). */
async function teamWithReport(fields: Parameters<typeof newReport>[3] = {}) {
  const tm = await team();
  await entry(tm.owner, tm.workspace.id);
  const report = await newReport(t, tm.owner, [tm.workspace.id], fields);
  return { ...tm, report };
}

describe('GET /api/v1/reports/:id/recipients', () => {
  it('lists members across every workspace of the report, minus the sender, newest user first, then id desc', async () => {
    const owner = await newUser(t, { name: 'Owner' });
    let zed: TestUser, amy1: TestUser, amy2: TestUser;
    try {
      // Zed is made first but is the newest account; the two Amys share an instant.
      t.clock.set('2026-01-03T00:00:00.000Z');
      zed = await newUser(t, { name: 'Zed', imageUrl: 'https://example.com/zed.png' });
      t.clock.set('2026-01-01T00:00:00.000Z');
      amy1 = await newUser(t, { name: 'Amy' });
      amy2 = await newUser(t, { name: 'Amy' });
    } finally {
      t.clock.reset();
    }
    expect(amy2.id > amy1.id).toBe(true);
    const outsider = await newUser(t, { name: 'Aaron' });
    const ws1 = await newWorkspace(t, owner);
    const ws2 = await newWorkspace(t, owner);
    const ws3 = await newWorkspace(t, outsider);
    await addMember(t, ws1.id, zed, 'member', owner.token);
    await addMember(t, ws2.id, amy1, 'admin', owner.token);
    await addMember(t, ws1.id, amy2, 'member', owner.token);
    await addMember(t, ws2.id, amy2, 'member', owner.token);
    await addMember(t, ws3.id, owner, 'member', outsider.token);
    const report = await newReport(t, owner, [ws1.id, ws2.id]);
    expect(report.snapshotProjectIds).toEqual([]);

    const res = await t.get(recipientsOf(report.id), owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { id: zed.id, name: 'Zed', email: zed.email, imageUrl: 'https://example.com/zed.png' },
      ...[amy2, amy1].map((u) => ({ id: u.id, name: 'Amy', email: u.email, imageUrl: null })),
    ]);
  });

  it("keeps only users who can read every project of a teammate's entries: project members and workspace admins", async () => {
    const { owner, admin, alice, bob, workspace, project } = await team();
    const other = await newProject(t, workspace.id, owner.token);
    const carol = await newUser(t);
    await addMember(t, workspace.id, carol, 'member', owner.token);
    await addProjectMember(t, project.id, alice.id, owner.token);
    await addProjectMember(t, other.id, alice.id, owner.token);
    await addProjectMember(t, project.id, bob.id, owner.token);
    await entry(alice, workspace.id, project.id);
    await entry(alice, workspace.id, other.id);
    const report = await newReport(t, owner, [workspace.id], { filters: { userIds: [alice.id] } });
    expect([...(report.snapshotProjectIds as string[])].sort()).toEqual([project.id, other.id].sort());

    // bob reads one of the two projects, carol none: both drop out.
    expect((await candidateIds(report, owner)).sort()).toEqual([admin.id, alice.id].sort());
    const problem = expectProblem(await t.post(sendOf(report.id), { recipientUserIds: [bob.id, carol.id] }, owner.token), 400);
    expect(problem.errors?.map((e) => e.path)).toEqual(['/recipientUserIds/0', '/recipientUserIds/1']);
  });

  it("imposes no project restriction for the owner's own entries on a project", async () => {
    const { owner, admin, alice, bob, workspace, project } = await team();
    await entry(owner, workspace.id, project.id);
    const report = await newReport(t, owner, [workspace.id]);
    expect(report.snapshotProjectIds).toEqual([project.id]);
    expect(report).not.toHaveProperty('restrictingProjectIds');

    // None of the members belongs to the project, yet each may receive the owner's own time.
    expect((await candidateIds(report, owner)).sort()).toEqual([admin.id, alice.id, bob.id].sort());
    const res = await t.post(sendOf(report.id), { recipientUserIds: [alice.id] }, owner.token);
    expect(res.status).toBe(201);
    expect(res.body.delivered).toBe(1);
    expect(await inbox(alice)).toHaveLength(1);
  });

  it("restricts by every snapshot project, the owner's own included, once a teammate's entry is on a project", async () => {
    const { owner, admin, alice, bob, workspace, project } = await team();
    const other = await newProject(t, workspace.id, owner.token);
    await addProjectMember(t, project.id, alice.id, owner.token);
    await addProjectMember(t, project.id, bob.id, owner.token);
    await addProjectMember(t, other.id, bob.id, owner.token);
    // The owner's entry is on `other`, alice's (a teammate's) on `project`.
    await entry(owner, workspace.id, other.id);
    await entry(alice, workspace.id, project.id);
    const report = await newReport(t, owner, [workspace.id], { filters: { userIds: [owner.id, alice.id] } });
    expect([...(report.snapshotProjectIds as string[])].sort()).toEqual([project.id, other.id].sort());

    // alice reads `project` only: not a candidate, and a send to her is refused whole. bob reads
    // both and the workspace admin reads every project.
    expect((await candidateIds(report, owner)).sort()).toEqual([admin.id, bob.id].sort());
    const problem = expectProblem(await t.post(sendOf(report.id), { recipientUserIds: [bob.id, alice.id] }, owner.token), 400);
    // The refusal names the project alice cannot read (`other`), and where the candidates are listed.
    expect(problem.errors).toEqual([
      {
        path: '/recipientUserIds/1',
        message: `is not a recipient candidate: cannot read project "${other.name}" (${other.id}) of this version`,
      },
    ]);
    expect(problem.detail).toContain(`GET /api/v1/reports/${report.id}/recipients`);
    expect(await inbox(bob)).toHaveLength(0);
    const sent = await t.post(sendOf(report.id), { recipientUserIds: [admin.id, bob.id] }, owner.token);
    expect(sent.status).toBe(201);
    expect(sent.body.delivered).toBe(2);
  });

  it('says why a recipient is refused: no membership names the workspace, the owner is pointed to sendToSelf', async () => {
    const { owner, alice, outsider, workspace, report } = await teamWithReport();
    const res = await t.post(sendOf(report.id), { recipientUserIds: [alice.id, outsider.id, owner.id] }, owner.token);
    const problem = expectProblem(res, 400);
    expect(problem.errors).toEqual([
      {
        path: '/recipientUserIds/1',
        message: `is not a recipient candidate: not a member of workspace "${workspace.name}" (${workspace.id})`,
      },
      { path: '/recipientUserIds/2', message: 'is the owner of this report; set sendToSelf for a copy in your own inbox' },
    ]);
    expect(problem.detail).toContain(`/api/v1/reports/${report.id}/recipients`);
    expect(await inbox(alice)).toHaveLength(0);
  });

  it("imposes no project restriction for a teammate's unassigned entries beside the owner's own projects", async () => {
    const { owner, admin, alice, bob, workspace, project } = await team();
    await entry(owner, workspace.id, project.id);
    await entry(alice, workspace.id);
    const report = await newReport(t, owner, [workspace.id], { filters: { userIds: [owner.id, alice.id] } });
    expect(report.snapshotProjectIds).toEqual([project.id]);
    expect((await candidateIds(report, owner)).sort()).toEqual([admin.id, alice.id, bob.id].sort());
  });

  it('drops a recipient who loses project membership', async () => {
    const { owner, admin, alice, bob, workspace, project } = await team();
    await addProjectMember(t, project.id, alice.id, owner.token);
    await addProjectMember(t, project.id, bob.id, owner.token);
    await entry(bob, workspace.id, project.id);
    const report = await newReport(t, owner, [workspace.id], { filters: { userIds: [bob.id] } });
    expect(await candidateIds(report, owner)).toContain(alice.id);

    expect((await t.del(`/api/v1/projects/${project.id}/members/${alice.id}`, owner.token)).status).toBe(204);
    expect((await candidateIds(report, owner)).sort()).toEqual([admin.id, bob.id].sort());
    const problem = expectProblem(await t.post(sendOf(report.id), { recipientUserIds: [alice.id] }, owner.token), 400);
    expect(problem.errors?.map((e) => e.path)).toEqual(['/recipientUserIds/0']);
  });

  it("imposes no project restriction for a report of only the owner's unassigned entries", async () => {
    const { owner, admin, alice, bob, report } = await teamWithReport();
    expect(report.snapshotProjectIds).toEqual([]);
    expect((await candidateIds(report, owner)).sort()).toEqual([admin.id, alice.id, bob.id].sort());
  });

  it('makes nobody eligible while snapshotProjectIds is unknown (null)', async () => {
    const { owner, alice, report } = await teamWithReport();
    // Reports rendered before the snapshot scope was tracked carry null; no API call can make one.
    await t.database.db.update(reports).set({ snapshotProjectIds: null }).where(eq(reports.id, report.id));
    expect(await candidateIds(report, owner)).toEqual([]);
    expectProblem(await t.post(sendOf(report.id), { recipientUserIds: [alice.id] }, owner.token), 400);
  });

  it('makes nobody eligible while the restriction is undecided (a row rendered before it was tracked), until a re-render', async () => {
    const { owner, admin, alice, bob, workspace, project } = await team();
    await entry(owner, workspace.id, project.id);
    const report = await newReport(t, owner, [workspace.id]);
    expect((await candidateIds(report, owner)).length).toBe(3);

    // No API call can make such a row; migration 0004 leaves undecidable rows null.
    await t.database.db.update(reports).set({ restrictsRecipients: null }).where(eq(reports.id, report.id));
    expect(await candidateIds(report, owner)).toEqual([]);
    expectProblem(await t.post(sendOf(report.id), { recipientUserIds: [admin.id] }, owner.token), 400);

    const edited = await editReport(t, owner, report);
    expect((await candidateIds(edited, owner)).sort()).toEqual([admin.id, alice.id, bob.id].sort());
  });

  it('is owner-only: 404 for a workspace admin who can read the report, an instance admin and others', async () => {
    const { admin, alice, outsider, report } = await teamWithReport();
    const instanceAdmin = await newUser(t, { instanceAdmin: true });
    expect((await t.get(`/api/v1/reports/${report.id}`, admin.token)).status).toBe(200);
    for (const user of [admin, instanceAdmin, alice, outsider]) expectProblem(await t.get(recipientsOf(report.id), user.token), 404);
    expectProblem(await t.get(recipientsOf('no-such-report')), 404);
  });

  it('is 404 for an owner who has left one of the report workspaces', async () => {
    const owner = await newUser(t);
    const other = await newUser(t);
    const ws1 = await newWorkspace(t, owner);
    const ws2 = await newWorkspace(t, other);
    await addMember(t, ws2.id, owner, 'member', other.token);
    const report = await newReport(t, owner, [ws1.id, ws2.id]);
    expect(await candidateIds(report, owner)).toEqual([other.id]);
    expect((await t.del(`/api/v1/workspaces/${ws2.id}/members/${owner.id}`, owner.token)).status).toBe(204);
    expectProblem(await t.get(recipientsOf(report.id), owner.token), 404);
    expectProblem(await t.post(sendOf(report.id), { recipientUserIds: [other.id] }, owner.token), 404);
  });

  it('needs only the read scope', async () => {
    const { owner, report } = await teamWithReport();
    expect((await t.get(recipientsOf(report.id), await readOnlyToken(t, owner))).status).toBe(200);
  });
});

describe('POST /api/v1/reports/:id/send', () => {
  it('delivers the current version and answers 201 with the batch', async () => {
    const { owner, alice, bob, report } = await teamWithReport();
    t.clock.set('2026-12-01T10:00:00.000Z');
    try {
      const res = await t.post(sendOf(report.id), { recipientUserIds: [alice.id, bob.id], message: 'Please review' }, owner.token);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: res.body.id,
        delivered: 2,
        reportContentId: report.reportContentId,
        version: 1,
        sentAt: '2026-12-01T10:00:00.000Z',
      });
    } finally {
      t.clock.reset();
    }
    for (const user of [alice, bob]) {
      const messages = await inbox(user);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({
        reportId: report.id,
        reportContentId: report.reportContentId,
        version: 1,
        message: 'Please review',
        self: false,
      });
    }
  });

  it.each([
    [{}, 'empty body'],
    [{ recipientUserIds: [] }, 'no recipients'],
    [{ recipientUserIds: [], sendToSelf: false }, 'no recipients, no self-copy'],
  ])('400 without a recipient or sendToSelf (%j, %s)', async (body, _label) => {
    const { owner, report } = await teamWithReport();
    expectProblem(await t.post(sendOf(report.id), body, owner.token), 400);
  });

  it.each([
    ['51 recipients', (a: string) => ({ recipientUserIds: Array.from({ length: 51 }, () => a) }), '/recipientUserIds'],
    ['a 1001-char message', (a: string) => ({ recipientUserIds: [a], message: 'x'.repeat(1001) }), '/message'],
    ['an unknown property', (a: string) => ({ recipientUserIds: [a], cc: [a] }), '/cc'],
    ['recipient ids not an array', (a: string) => ({ recipientUserIds: a }), '/recipientUserIds'],
    ['a non-string recipient id', (_a: string) => ({ recipientUserIds: [42] }), '/recipientUserIds/0'],
    ['sendToSelf not a boolean', (a: string) => ({ recipientUserIds: [a], sendToSelf: 'yes' }), '/sendToSelf'],
  ])('400 for %s', async (_label, body, path) => {
    const { owner, alice, report } = await teamWithReport();
    const problem = expectProblem(await t.post(sendOf(report.id), body(alice.id), owner.token), 400);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
    expect(await inbox(alice)).toEqual([]);
  });

  it('accepts 50 recipients and a 1000-char message', async () => {
    const { owner, alice, report } = await teamWithReport();
    const res = await t.post(
      sendOf(report.id),
      { recipientUserIds: Array.from({ length: 50 }, () => alice.id), message: 'm'.repeat(1000) },
      owner.token,
    );
    expect(res.status).toBe(201);
    expect(res.body.delivered).toBe(1);
  });

  it('refuses the whole send when any recipient is not a candidate, naming each bad entry', async () => {
    const { owner, alice, bob, outsider, report } = await teamWithReport();
    const res = await t.post(
      sendOf(report.id),
      { recipientUserIds: [alice.id, bob.id, outsider.id, owner.id, 'no-such-user'], sendToSelf: true },
      owner.token,
    );
    const problem = expectProblem(res, 400);
    expect(problem.errors?.map((e) => e.path)).toEqual(['/recipientUserIds/2', '/recipientUserIds/3', '/recipientUserIds/4']);
    expect(res.text).not.toContain(outsider.id);
    expect(await inbox(alice)).toEqual([]);
    expect(await inbox(bob)).toEqual([]);
    expect(await inbox(owner)).toEqual([]);
    expect((await t.get(sendsOf(report.id), owner.token)).body).toEqual([]);
  });

  it('delivers a repeated recipient id once', async () => {
    const { owner, alice, bob, report } = await teamWithReport();
    const res = await t.post(sendOf(report.id), { recipientUserIds: [alice.id, bob.id, alice.id, alice.id] }, owner.token);
    expect(res.status).toBe(201);
    expect(res.body.delivered).toBe(2);
    expect(await inbox(alice)).toHaveLength(1);
    const [entry] = (await t.get(sendsOf(report.id), owner.token)).body;
    expect(entry.recipients.map((r: { userId: string }) => r.userId).sort()).toEqual([alice.id, bob.id].sort());
  });

  it('does not count the self-copy in delivered', async () => {
    const { owner, alice, report } = await teamWithReport();
    const both = await t.post(sendOf(report.id), { recipientUserIds: [alice.id], sendToSelf: true }, owner.token);
    expect(both.status).toBe(201);
    expect(both.body.delivered).toBe(1);
    const selfOnly = await t.post(sendOf(report.id), { sendToSelf: true }, owner.token);
    expect(selfOnly.status).toBe(201);
    expect(selfOnly.body.delivered).toBe(0);
    const own = await inbox(owner);
    expect(own).toHaveLength(2);
    expect(own.every((m) => m.self === true && m.senderUserId === owner.id)).toBe(true);
    expect(await inbox(alice)).toHaveLength(1);
  });

  it('stores a blank message as null and keeps any other message as written', async () => {
    const { owner, alice, bob, report } = await teamWithReport();
    expect((await t.post(sendOf(report.id), { recipientUserIds: [alice.id], message: '  \n ' }, owner.token)).status).toBe(201);
    expect((await t.post(sendOf(report.id), { recipientUserIds: [bob.id], message: ' Hi **there** ' }, owner.token)).status).toBe(201);
    expect((await inbox(alice))[0].message).toBeNull();
    expect((await inbox(bob))[0].message).toBe(' Hi **there** ');
  });

  it('is owner-only: 404 for a workspace admin, an instance admin, a recipient and a missing report', async () => {
    const { owner, admin, alice, report } = await teamWithReport();
    const instanceAdmin = await newUser(t, { instanceAdmin: true });
    for (const user of [admin, instanceAdmin, alice]) {
      expectProblem(await t.post(sendOf(report.id), { recipientUserIds: [owner.id] }, user.token), 404);
    }
    expectProblem(await t.post(sendOf('no-such-report'), { sendToSelf: true }, owner.token), 404);
    expect(await inbox(owner)).toEqual([]);
  });

  it('needs the write scope (403 for a read-only token)', async () => {
    const { owner, alice, report } = await teamWithReport();
    const res = await t.post(sendOf(report.id), { recipientUserIds: [alice.id] }, await readOnlyToken(t, owner));
    expectProblem(res, 403);
    expect(await inbox(alice)).toEqual([]);
  });

  it('keeps a delivered copy unchanged by later edits; a new send delivers the new version', async () => {
    const { owner, alice, report } = await teamWithReport({ name: 'November' });
    const sent = await t.post(sendOf(report.id), { recipientUserIds: [alice.id] }, owner.token);
    const edited = await editReport(t, owner, report, { name: 'November (final)', note: 'Amended' });
    expect(edited.version).toBe(2);
    expect(edited.renderedMarkdown).not.toBe(report.renderedMarkdown);

    const [message] = await inbox(alice);
    const copy = await t.get(`/api/v1/inbox/${message.id}`, alice.token);
    expect(copy.status).toBe(200);
    expect(copy.body).toMatchObject({ version: 1, reportContentId: sent.body.reportContentId, reportName: 'November' });
    expect(copy.body.renderedMarkdown).toBe(report.renderedMarkdown);

    const again = await t.post(sendOf(report.id), { recipientUserIds: [alice.id] }, owner.token);
    expect(again.body).toMatchObject({ version: 2, reportContentId: edited.reportContentId });
    const newest = (await inbox(alice))[0];
    expect(newest).toMatchObject({ version: 2, reportName: 'November (final)' });
    expect((await t.get(`/api/v1/inbox/${newest.id}`, alice.token)).body.renderedMarkdown).toBe(edited.renderedMarkdown);
  });

  it('delivers one whole version when a send races an edit', async () => {
    const { owner, alice, report } = await teamWithReport({ name: 'Race 0' });
    let current: TestReport = report;
    const versions = new Map<number, string>([[1, report.reportContentId]]);
    // Staggered starts (in event-loop turns) land the send before, during and after the edit's commit.
    const delays = [-1, 0, 1, 2, 4, 8, 16, 32];
    for (const [i, delay] of delays.entries()) {
      const send = () => t.post(sendOf(report.id), { recipientUserIds: [alice.id] }, owner.token);
      const [sent, edited] = await Promise.all([
        delay < 0 ? send() : turns(delay).then(send),
        editReport(t, owner, current, { name: `Race ${i + 1}` }),
      ]);
      expect(sent.status).toBe(201);
      versions.set(edited.version, edited.reportContentId);
      expect([edited.version - 1, edited.version]).toContain(sent.body.version);
      current = edited;
    }
    const messages = await inbox(alice);
    expect(messages).toHaveLength(8);
    for (const message of messages) {
      // The delivery names a real (content id, version) pair of this report...
      expect(versions.get(message.version)).toBe(message.reportContentId);
      // ...and the document it serves is that version, with the name it had then.
      const copy = await t.get(`/api/v1/inbox/${message.id}`, alice.token);
      const { frontMatter } = parseDocument(copy.body.renderedMarkdown);
      expect(frontMatter?.report).toEqual({ id: report.id, name: message.reportName, version: message.version });
    }
  });
});

describe('GET /api/v1/reports/:id/sends', () => {
  it('lists batches newest first with their teammate recipients, self-copy flag and message', async () => {
    const { owner, alice, bob, report } = await teamWithReport();
    await t.patch(`/api/v1/users/${alice.id}`, { name: 'Alice' });
    await t.patch(`/api/v1/users/${bob.id}`, { name: 'Bob' });
    t.clock.set('2026-12-01T10:00:00.000Z');
    let first: any;
    let second: any;
    try {
      first = (await t.post(sendOf(report.id), { recipientUserIds: [bob.id, alice.id], message: 'First' }, owner.token)).body;
      t.clock.advance(60_000);
      second = (await t.post(sendOf(report.id), { recipientUserIds: [alice.id], sendToSelf: true }, owner.token)).body;
    } finally {
      t.clock.reset();
    }
    const res = await t.get(sendsOf(report.id), owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: second.id,
        sentAt: '2026-12-01T10:01:00.000Z',
        reportContentId: report.reportContentId,
        version: 1,
        // The owner also sees the mail each delivery caused (test/api/mail.test.ts).
        recipients: [{ userId: alice.id, name: 'Alice', mail: { status: 'queued', error: null } }],
        sendToSelf: true,
        message: null,
        readCount: 0,
      },
      {
        id: first.id,
        sentAt: '2026-12-01T10:00:00.000Z',
        reportContentId: report.reportContentId,
        version: 1,
        recipients: [
          { userId: alice.id, name: 'Alice', mail: { status: 'queued', error: null } },
          { userId: bob.id, name: 'Bob', mail: { status: 'queued', error: null } },
        ],
        sendToSelf: false,
        message: 'First',
        readCount: 0,
      },
    ]);
  });

  it('shows readCount to the owner only; an instance admin and a workspace admin see 0', async () => {
    const { owner, admin, alice, bob, report } = await teamWithReport();
    const instanceAdmin = await newUser(t, { instanceAdmin: true });
    await t.post(sendOf(report.id), { recipientUserIds: [alice.id, bob.id], sendToSelf: true }, owner.token);
    for (const user of [alice, owner]) {
      const [message] = await inbox(user);
      expect((await t.post(`/api/v1/inbox/${message.id}/read`, undefined, user.token)).status).toBe(200);
    }
    // The owner's own read of the self-copy is not a teammate's read.
    expect((await t.get(sendsOf(report.id), owner.token)).body[0].readCount).toBe(1);
    for (const user of [instanceAdmin, admin]) {
      const res = await t.get(sendsOf(report.id), user.token);
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(1);
      expect(res.body[0].readCount).toBe(0);
      expect(res.body[0].recipients).toHaveLength(2);
    }
  });

  it('shows readCount to an owner who is also an instance admin, even after they left a report workspace', async () => {
    const owner = await newUser(t, { instanceAdmin: true });
    const other = await newUser(t);
    const ws1 = await newWorkspace(t, owner);
    const ws2 = await newWorkspace(t, other);
    await addMember(t, ws2.id, owner, 'member', other.token);
    const report = await newReport(t, owner, [ws1.id, ws2.id]);
    expect((await t.post(sendOf(report.id), { recipientUserIds: [other.id] }, owner.token)).status).toBe(201);
    const [message] = await inbox(other);
    expect((await t.post(`/api/v1/inbox/${message.id}/read`, undefined, other.token)).status).toBe(200);
    expect((await t.get(sendsOf(report.id), owner.token)).body[0].readCount).toBe(1);

    // Now readable only through the instance-admin grant; the read count is still the owner's.
    expect((await t.del(`/api/v1/workspaces/${ws2.id}/members/${owner.id}`, owner.token)).status).toBe(204);
    const res = await t.get(sendsOf(report.id), owner.token);
    expect(res.status).toBe(200);
    expect(res.body[0].readCount).toBe(1);
  });

  it('is 404 for a plain member, a recipient, an outsider and a missing report', async () => {
    const { owner, alice, bob, outsider, report } = await teamWithReport();
    await t.post(sendOf(report.id), { recipientUserIds: [alice.id] }, owner.token);
    for (const user of [alice, bob, outsider]) expectProblem(await t.get(sendsOf(report.id), user.token), 404);
    expectProblem(await t.get(sendsOf('no-such-report'), owner.token), 404);
  });

  it('is 404 for an admin of one workspace of a multi-workspace report', async () => {
    const owner = await newUser(t);
    const admin = await newUser(t);
    const ws1 = await newWorkspace(t, owner);
    const ws2 = await newWorkspace(t, owner);
    await addMember(t, ws1.id, admin, 'admin', owner.token);
    const report = await newReport(t, owner, [ws1.id, ws2.id]);
    expectProblem(await t.get(sendsOf(report.id), admin.token), 404);
    expect((await t.get(sendsOf(report.id), owner.token)).status).toBe(200);
  });

  it('needs only the read scope', async () => {
    const { owner, report } = await teamWithReport();
    expect((await t.get(sendsOf(report.id), await readOnlyToken(t, owner))).status).toBe(200);
  });
});
