import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shares } from '../../src/db/schema.js';
import { assertShareKeyFits } from '../../src/modules/shares/shares.service.js';
import { buildTestApp, expectProblem, newUser, testConfig, type TestContext, type TestUser } from '../helpers/test-app.js';
import { addMember, newTeam, newWorkspace } from '../helpers/factories.js';
import { editReport, newReport, type TestReport } from '../helpers/report-factories.js';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const TOKEN = /^[A-Za-z0-9_-]{22}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SHARE_KEYS = [
  'createdAt',
  'downloadCount',
  'expiresAt',
  'follows',
  'hasPasscode',
  'id',
  'lastViewedAt',
  'reportContentId',
  'revokedAt',
  'token',
  'url',
  'version',
  'viewCount',
];

const reportShares = (id: string) => `/api/v1/reports/${id}/shares`;
const inboxShares = (id: string) => `/api/v1/inbox/${id}/shares`;
const revokeOf = (id: string) => `/api/v1/report-shares/${id}/revoke`;

/** A workspace owned by `owner`, with an admin, a plain member and an outsider, and a report of the owner's. */
async function team() {
  const { owner, admin, plain: member, outsider, workspace } = await newTeam(t);
  const report = await newReport(t, owner, [workspace.id], { name: 'Team report' });
  return { owner, admin, member, outsider, workspace, report };
}

async function mint(report: { id: string }, user: TestUser, body: unknown = {}) {
  const res = await t.post(reportShares(report.id), body, user.token);
  if (res.status !== 201) throw new Error(`mint failed: ${res.status} ${res.text}`);
  return res.body;
}

/** Sends the report's current version to `recipients`; returns each recipient's inbox message id. */
async function send(report: TestReport, sender: TestUser, recipients: TestUser[], sendToSelf = false): Promise<Map<string, string>> {
  const res = await t.post(
    `/api/v1/reports/${report.id}/send`,
    { recipientUserIds: recipients.map((r) => r.id), sendToSelf },
    sender.token,
  );
  if (res.status !== 201) throw new Error(`send failed: ${res.status} ${res.text}`);
  const ids = new Map<string, string>();
  for (const user of sendToSelf ? [...recipients, sender] : recipients) {
    const inbox = await t.get('/api/v1/inbox', user.token);
    const message = (inbox.body as { id: string; reportId: string; reportContentId: string }[]).find(
      (m) => m.reportId === report.id && m.reportContentId === res.body.reportContentId,
    );
    if (!message) throw new Error('delivered message not found');
    ids.set(user.id, message.id);
  }
  return ids;
}

describe('POST /api/v1/reports/:id/shares', () => {
  it('mints a link over the current version from an empty object', async () => {
    const { owner, report } = await team();
    t.clock.set('2026-12-01T10:00:00.000Z');
    try {
      const res = await t.post(reportShares(report.id), {}, owner.token);
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(SHARE_KEYS);
      expect(res.body).toMatchObject({
        reportContentId: report.reportContentId,
        hasPasscode: false,
        expiresAt: null,
        revokedAt: null,
        viewCount: 0,
        lastViewedAt: null,
        createdAt: '2026-12-01T10:00:00.000Z',
      });
      expect(res.body.token).toMatch(TOKEN);
      expect(res.body.url).toBe(`http://chronicle.test/share/${res.body.token}`);
    } finally {
      t.clock.reset();
    }
  });

  it('mints from a request with no body and no content type at all', async () => {
    const { owner, report } = await team();
    const res = await t.request('POST', reportShares(report.id), { token: owner.token });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ hasPasscode: false, expiresAt: null });
  });

  it('sets expiry from the clock and keeps the passcode out of every answer', async () => {
    const { owner, report } = await team();
    t.clock.set('2026-12-01T10:00:00.000Z');
    try {
      const res = await t.post(reportShares(report.id), { passcode: 'sesame-open-42', expiresInDays: 7 }, owner.token);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ hasPasscode: true, expiresAt: '2026-12-08T10:00:00.000Z' });
      expect(res.text).not.toContain('sesame');
      const list = await t.get(reportShares(report.id), owner.token);
      expect(list.text).not.toContain('sesame');
      expect(list.text).not.toContain('pbkdf2');
    } finally {
      t.clock.reset();
    }
  });

  it('gives every link its own random token, stored only hashed and encrypted', async () => {
    const { owner, report } = await team();
    const a = await mint(report, owner);
    const b = await mint(report, owner);
    expect(a.token).not.toBe(b.token);
    const [row] = await t.database.db.select().from(shares).where(eq(shares.id, a.id));
    expect(row!.tokenHash).toBe(createHash('sha256').update(a.token).digest('hex'));
    expect(row!.tokenEncrypted).not.toContain(a.token);
    expect(row!.reportContentId).toBe(report.reportContentId);
    expect(row!.deliveryId).toBeNull();
  });

  it('accepts the bounds: passcode 4 and 128 characters, 1 and 365 days', async () => {
    const { owner, report } = await team();
    for (const body of [{ passcode: 'abcd' }, { passcode: 'p'.repeat(128) }, { expiresInDays: 1 }, { expiresInDays: 365 }]) {
      expect((await t.post(reportShares(report.id), body, owner.token)).status).toBe(201);
    }
  });

  it.each([
    [{ passcode: 'abc' }, '/passcode', 'passcode of 3'],
    [{ passcode: 'p'.repeat(129) }, '/passcode', 'passcode of 129'],
    [{ passcode: 1234 }, '/passcode', 'numeric passcode'],
    [{ passcode: null }, '/passcode', 'null passcode'],
    [{ expiresInDays: 0 }, '/expiresInDays', 'zero days'],
    [{ expiresInDays: 366 }, '/expiresInDays', '366 days'],
    [{ expiresInDays: 1.5 }, '/expiresInDays', 'fractional days'],
    [{ expiresInDays: '7' }, '/expiresInDays', 'days as a string'],
    [{ token: 'AAAAAAAAAAAAAAAAAAAAAA' }, '/token', 'unknown property'],
  ])('400 for %j (%s: %s)', async (body, path, _label) => {
    const { owner, report } = await team();
    const problem = expectProblem(await t.post(reportShares(report.id), body, owner.token), 400);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
    expect((await t.get(reportShares(report.id), owner.token)).body).toEqual([]);
  });

  it('counts passcode characters after Unicode normalisation (NFC), the form that is hashed', async () => {
    const { owner, report } = await team();
    // Four code points on the wire, two characters ("éé") as hashed.
    const short = expectProblem(await t.post(reportShares(report.id), { passcode: 'e\u0301e\u0301' }, owner.token), 400);
    expect(short.errors?.map((e) => e.path)).toEqual(['/passcode']);
    expectProblem(await t.post(reportShares(report.id), { passcode: 'e\u0301'.repeat(129) }, owner.token), 400);
    expectProblem(await t.post(reportShares(report.id), { passcode: '' }, owner.token), 400);
    expectProblem(await t.post(reportShares(report.id), { passcode: 'e\u0301'.repeat(2) }, owner.token), 400);
    expect((await t.get(reportShares(report.id), owner.token)).body).toEqual([]);
    // 256 code points typed decomposed are the 128 characters "é…é".
    expect((await t.post(reportShares(report.id), { passcode: 'e\u0301'.repeat(128) }, owner.token)).status).toBe(201);
    // Two code points whose NFC form is four characters (U+0958 decomposes under NFC).
    expect((await t.post(reportShares(report.id), { passcode: '\u0958\u0958' }, owner.token)).status).toBe(201);
    expect((await t.post(reportShares(report.id), { passcode: 'e\u0301'.repeat(4) }, owner.token)).status).toBe(201);
    // Input longer than any passcode can be typed is refused by the schema.
    const huge = expectProblem(await t.post(reportShares(report.id), { passcode: 'e\u0301'.repeat(257) }, owner.token), 400);
    expect(huge.errors?.map((e) => e.path)).toEqual(['/passcode']);
  });

  it('applies the same passcode rule to a recipient minting over a message', async () => {
    const { owner, member, report } = await team();
    const id = (await send(report, owner, [member])).get(member.id)!;
    expectProblem(await t.post(inboxShares(id), { passcode: 'e\u0301e\u0301' }, member.token), 400);
    expect((await t.post(inboxShares(id), { passcode: 'e\u0301'.repeat(128) }, member.token)).status).toBe(201);
  });

  it('refuses a body that is not an object', async () => {
    const { owner, report } = await team();
    expectProblem(await t.post(reportShares(report.id), [], owner.token), 400);
    expectProblem(
      await t.request('POST', reportShares(report.id), { token: owner.token, raw: '{', headers: { 'content-type': 'application/json' } }),
      400,
    );
  });

  it('is for the owner only: readers of the report get 404 like everyone else', async () => {
    const { owner, admin, member, outsider, report } = await team();
    expect((await t.get(`/api/v1/reports/${report.id}`, admin.token)).status).toBe(200);
    expect((await t.get(`/api/v1/reports/${report.id}`)).status).toBe(200);
    for (const token of [admin.token, member.token, outsider.token, undefined]) {
      expectProblem(await t.post(reportShares(report.id), {}, token), 404);
    }
    expectProblem(await t.post(reportShares('no-such-report'), {}, owner.token), 404);
    expect((await t.get(reportShares(report.id), owner.token)).body).toEqual([]);
  });

  it('re-checks the owner against current membership', async () => {
    const host = await newUser(t);
    const author = await newUser(t);
    const workspace = await newWorkspace(t, host);
    await addMember(t, workspace.id, author, 'member', host.token);
    const report = await newReport(t, author, [workspace.id]);
    const share = await mint(report, author);
    expect((await t.del(`/api/v1/workspaces/${workspace.id}/members/${author.id}`, host.token)).status).toBe(204);
    expectProblem(await t.post(reportShares(report.id), {}, author.token), 404);
    expectProblem(await t.get(reportShares(report.id), author.token), 404);
    // The workspace owner still reads the single-workspace report, and its links.
    expect((await t.get(reportShares(report.id), host.token)).body.map((s: { id: string }) => s.id)).toEqual([share.id]);
    // Revoking skips the membership check, so the author can still switch the link off.
    expect((await t.post(revokeOf(share.id), undefined, author.token)).status).toBe(200);
  });

  it('needs the write scope and a token', async () => {
    const { owner, report } = await team();
    const readOnly = await t.post(`/api/v1/users/${owner.id}/tokens`, { scopes: ['read'] }, owner.token);
    expectProblem(await t.post(reportShares(report.id), {}, readOnly.body.token), 403);
    expectProblem(await t.post(reportShares(report.id), {}, null), 401);
    expect((await t.get(reportShares(report.id), readOnly.body.token)).status).toBe(200);
  });

  it('mints over the version current at the time, and an edit leaves earlier links on theirs', async () => {
    const { owner, report } = await team();
    const first = await mint(report, owner);
    const edited = await editReport(t, owner, report, { name: 'Renamed' });
    const second = await mint(report, owner);
    expect(first.reportContentId).toBe(report.reportContentId);
    expect(second.reportContentId).toBe(edited.reportContentId);
    expect(second.reportContentId).not.toBe(first.reportContentId);
  });
});

describe('GET /api/v1/reports/:id/shares', () => {
  it("lists the owner's links newest first, tokens included", async () => {
    const { owner, report } = await team();
    t.clock.set('2026-12-01T10:00:00.000Z');
    try {
      const older = await mint(report, owner);
      t.clock.set('2026-12-02T10:00:00.000Z');
      const newer = await mint(report, owner, { passcode: 'secret-code' });
      t.clock.set('2026-12-02T10:00:00.000Z');
      const sameInstant = await mint(report, owner);
      const res = await t.get(reportShares(report.id), owner.token);
      expect(res.status).toBe(200);
      expect(res.body.map((s: { id: string }) => s.id)).toEqual([sameInstant.id, newer.id, older.id]);
      expect(res.body[1]).toEqual(newer);
    } finally {
      t.clock.reset();
    }
  });

  it('is readable by whoever reads the report, and by nobody else', async () => {
    const { owner, admin, member, outsider, workspace, report } = await team();
    const share = await mint(report, owner);
    for (const token of [owner.token, admin.token, undefined]) {
      const res = await t.get(reportShares(report.id), token);
      expect(res.status).toBe(200);
      expect(res.body.map((s: { id: string }) => s.id)).toEqual([share.id]);
    }
    for (const token of [member.token, outsider.token]) expectProblem(await t.get(reportShares(report.id), token), 404);
    expectProblem(await t.get(reportShares('no-such-report'), owner.token), 404);

    // A report over two workspaces is readable only by its owner and instance admins.
    const other = await newWorkspace(t, owner);
    await addMember(t, other.id, admin, 'admin', owner.token);
    const wide = await newReport(t, owner, [workspace.id, other.id]);
    await mint(wide, owner);
    expectProblem(await t.get(reportShares(wide.id), admin.token), 404);
    expect((await t.get(reportShares(wide.id))).body).toHaveLength(1);
  });

  it("never lists recipients' links, but does list the owner's own self-copy links", async () => {
    const { owner, member, report } = await team();
    const ownLink = await mint(report, owner);
    const messages = await send(report, owner, [member], true);
    const recipientLink = await t.post(inboxShares(messages.get(member.id)!), {}, member.token);
    expect(recipientLink.status).toBe(201);
    const selfLink = await t.post(inboxShares(messages.get(owner.id)!), {}, owner.token);
    expect(selfLink.status).toBe(201);
    const listed = (await t.get(reportShares(report.id), owner.token)).body.map((s: { id: string }) => s.id);
    expect(listed).toEqual([selfLink.body.id, ownLink.id]);
    expect(listed).not.toContain(recipientLink.body.id);
    expect((await t.get(reportShares(report.id))).text).not.toContain(recipientLink.body.token);
  });
});

describe('inbox shares', () => {
  it('lets the recipient mint over exactly the delivered version', async () => {
    const { owner, member, report } = await team();
    const messages = await send(report, owner, [member]);
    await editReport(t, owner, report, { name: 'Version two' });
    const res = await t.request('POST', inboxShares(messages.get(member.id)!), { token: member.token });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(SHARE_KEYS);
    expect(res.body).toMatchObject({ reportContentId: report.reportContentId, hasPasscode: false, expiresAt: null });
    const [row] = await t.database.db.select().from(shares).where(eq(shares.id, res.body.id));
    expect(row!.deliveryId).toBe(messages.get(member.id));
    expect(row!.createdByUserId).toBe(member.id);
  });

  it('validates the body like the report mint', async () => {
    const { owner, member, report } = await team();
    const id = (await send(report, owner, [member])).get(member.id)!;
    expectProblem(await t.post(inboxShares(id), { passcode: 'abc' }, member.token), 400);
    expectProblem(await t.post(inboxShares(id), { expiresInDays: 366 }, member.token), 400);
    expectProblem(await t.post(inboxShares(id), { extra: 1 }, member.token), 400);
    const ok = await t.post(inboxShares(id), { passcode: 'four', expiresInDays: 365 }, member.token);
    expect(ok.body).toMatchObject({ hasPasscode: true });
  });

  it('is for the recipient only: the sender, admins and outsiders get 404', async () => {
    const { owner, admin, member, outsider, report } = await team();
    const id = (await send(report, owner, [member])).get(member.id)!;
    for (const token of [owner.token, admin.token, outsider.token, undefined]) {
      expectProblem(await t.post(inboxShares(id), {}, token), 404);
      expectProblem(await t.get(inboxShares(id), token), 404);
    }
    expectProblem(await t.post(inboxShares('no-such-message'), {}, member.token), 404);
    expectProblem(await t.get(inboxShares('no-such-message'), member.token), 404);
  });

  it('does not re-check workspace membership', async () => {
    const { owner, member, workspace, report } = await team();
    const id = (await send(report, owner, [member])).get(member.id)!;
    expect((await t.del(`/api/v1/workspaces/${workspace.id}/members/${member.id}`, owner.token)).status).toBe(204);
    expect((await t.post(inboxShares(id), {}, member.token)).status).toBe(201);
    expect((await t.get(inboxShares(id), member.token)).body).toHaveLength(1);
  });

  it('lists only the links the caller minted on that message, newest first', async () => {
    const { owner, member, admin, report } = await team();
    const messages = await send(report, owner, [member, admin]);
    const mine = messages.get(member.id)!;
    t.clock.set('2026-12-01T00:00:00.000Z');
    try {
      const first = await t.post(inboxShares(mine), {}, member.token);
      t.clock.set('2026-12-03T00:00:00.000Z');
      const second = await t.post(inboxShares(mine), { passcode: 'letmein' }, member.token);
      await t.post(inboxShares(messages.get(admin.id)!), {}, admin.token);
      await mint(report, owner);
      const res = await t.get(inboxShares(mine), member.token);
      expect(res.status).toBe(200);
      expect(res.body.map((s: { id: string }) => s.id)).toEqual([second.body.id, first.body.id]);
      expect(res.text).not.toContain('letmein');
    } finally {
      t.clock.reset();
    }
  });

  it("lists the caller's links on the message's version, whichever message of it they were minted on", async () => {
    const { owner, member, report } = await team();
    for (let i = 0; i < 2; i++) {
      const res = await t.post(`/api/v1/reports/${report.id}/send`, { recipientUserIds: [member.id] }, owner.token);
      expect(res.status).toBe(201);
    }
    const inbox = (await t.get('/api/v1/inbox', member.token)).body as { id: string; reportContentId: string }[];
    const [a, b] = inbox.filter((m) => m.reportContentId === report.reportContentId).map((m) => m.id);
    expect(a && b && a !== b).toBe(true);
    const onB = (await t.post(inboxShares(b!), {}, member.token)).body;

    await editReport(t, owner, report, { name: 'Version two' });
    const later = await send(report, owner, [member]);
    const c = later.get(member.id)!;
    const onC = (await t.post(inboxShares(c), {}, member.token)).body;
    expect(onC.reportContentId).not.toBe(report.reportContentId);

    const ids = async (id: string) => (await t.get(inboxShares(id), member.token)).body.map((s: { id: string }) => s.id);
    expect(await ids(a!)).toEqual([onB.id]);
    expect(await ids(b!)).toEqual([onB.id]);
    expect(await ids(c)).toEqual([onC.id]);
  });

  it('needs the write scope to mint', async () => {
    const { owner, member, report } = await team();
    const id = (await send(report, owner, [member])).get(member.id)!;
    const readOnly = await t.post(`/api/v1/users/${member.id}/tokens`, { scopes: ['read'] }, member.token);
    expectProblem(await t.post(inboxShares(id), {}, readOnly.body.token), 403);
    expect((await t.get(inboxShares(id), readOnly.body.token)).status).toBe(200);
  });
});

describe('POST /api/v1/report-shares/:id/revoke', () => {
  it('revokes once: a second revoke keeps the first instant', async () => {
    const { owner, report } = await team();
    const share = await mint(report, owner);
    t.clock.set('2026-12-01T10:00:00.000Z');
    try {
      const first = await t.post(revokeOf(share.id), undefined, owner.token);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ ...share, revokedAt: '2026-12-01T10:00:00.000Z' });
      t.clock.set('2026-12-05T10:00:00.000Z');
      const again = await t.post(revokeOf(share.id), {}, owner.token);
      expect(again.status).toBe(200);
      expect(again.body.revokedAt).toBe('2026-12-01T10:00:00.000Z');
      const listed = (await t.get(reportShares(report.id), owner.token)).body;
      expect(listed[0].revokedAt).toBe('2026-12-01T10:00:00.000Z');
    } finally {
      t.clock.reset();
    }
  });

  it('concurrent revokes agree on one instant', async () => {
    const { owner, report } = await team();
    const share = await mint(report, owner);
    const results = await Promise.all(Array.from({ length: 10 }, () => t.post(revokeOf(share.id), undefined, owner.token)));
    expect(new Set(results.map((r) => r.status))).toEqual(new Set([200]));
    expect(new Set(results.map((r) => r.body.revokedAt)).size).toBe(1);
  });

  it('is for the creator only', async () => {
    const { owner, admin, member, report } = await team();
    const ownerLink = await mint(report, owner);
    const id = (await send(report, owner, [member])).get(member.id)!;
    const memberLink = (await t.post(inboxShares(id), {}, member.token)).body;
    for (const token of [admin.token, member.token, undefined]) expectProblem(await t.post(revokeOf(ownerLink.id), undefined, token), 404);
    // The report owner did not mint the recipient's link and cannot revoke it.
    for (const token of [owner.token, admin.token, undefined]) expectProblem(await t.post(revokeOf(memberLink.id), undefined, token), 404);
    expectProblem(await t.post(revokeOf('no-such-share'), undefined, owner.token), 404);
    const revoked = await t.post(revokeOf(memberLink.id), undefined, member.token);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toMatch(INSTANT);
    expect((await t.get(reportShares(report.id), owner.token)).body[0].revokedAt).toBeNull();
  });

  it('needs the write scope', async () => {
    const { owner, report } = await team();
    const share = await mint(report, owner);
    const readOnly = await t.post(`/api/v1/users/${owner.id}/tokens`, { scopes: ['read'] }, owner.token);
    expectProblem(await t.post(revokeOf(share.id), undefined, readOnly.body.token), 403);
  });
});

describe('tokens outside the share object', () => {
  it('never appear in report, inbox or send responses', async () => {
    const { owner, member, report } = await team();
    const share = await mint(report, owner, { passcode: 'hidden-passcode' });
    const id = (await send(report, owner, [member])).get(member.id)!;
    const inboxLink = (await t.post(inboxShares(id), { passcode: 'other-hidden' }, member.token)).body;
    const responses = await Promise.all([
      t.get(`/api/v1/reports/${report.id}`, owner.token),
      t.get('/api/v1/reports', owner.token),
      t.get(`/api/v1/reports/${report.id}/sends`, owner.token),
      t.get('/api/v1/inbox', member.token),
      t.get(`/api/v1/inbox/${id}`, member.token),
      t.get(`/api/v1/report-contents/${report.reportContentId}/discussion`, owner.token),
    ]);
    for (const res of responses) {
      for (const secret of [share.token, inboxLink.token, 'hidden-passcode', 'other-hidden']) expect(res.text).not.toContain(secret);
    }
  });
});

describe('assertShareKeyFits', () => {
  const rightKey = testConfig().shareKey!;

  it('passes on a database without links', async () => {
    await t.database.db.delete(shares);
    await expect(assertShareKeyFits(t.database.db, Buffer.alloc(32, 9))).resolves.toBeUndefined();
  });

  it('passes with the key the links were sealed with, and refuses any other', async () => {
    const { owner, report } = await team();
    await mint(report, owner);
    await expect(assertShareKeyFits(t.database.db, rightKey)).resolves.toBeUndefined();
    await expect(assertShareKeyFits(t.database.db, Buffer.alloc(32, 9))).rejects.toThrow(
      'SHARE_KEY does not decrypt the share links in this database; start with the key they were made with',
    );
  });
});
