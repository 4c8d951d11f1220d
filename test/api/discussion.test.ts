import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { builtInTemplateId, editReport, newReport, type TestReport } from '../helpers/report-factories.js';
import { ADMIN_TOKEN, buildTestApp, expectProblem, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';

let t: TestContext;
let templateId: string;
let workspaceId: string;
/** Owner of the workspace and of the reports below. */
let owner: TestUser;
let alice: TestUser;
let bob: TestUser;
/** A plain member who is never sent anything: may not read the owner's reports. */
let carol: TestUser;
/** Workspace admin: reads single-workspace reports without being a participant. */
let wsAdmin: TestUser;

beforeAll(async () => {
  t = await buildTestApp();
  templateId = await builtInTemplateId(t);
  owner = await newUser(t, { name: 'Olive Owner', imageUrl: 'https://example.com/olive.png' });
  alice = await newUser(t, { name: 'Alice', imageUrl: 'https://example.com/alice.png' });
  bob = await newUser(t, { name: 'Bob' });
  carol = await newUser(t, { name: 'Carol' });
  wsAdmin = await newUser(t, { name: 'Wanda Admin' });
  workspaceId = (await newWorkspace(t, owner)).id;
  for (const u of [alice, bob, carol]) await addMember(t, workspaceId, u);
  await addMember(t, workspaceId, wsAdmin, 'admin');
});
afterAll(() => t.close());

const base = (contentId: string) => `/api/v1/report-contents/${contentId}`;
const discussion = (contentId: string, token: string) => t.get(`${base(contentId)}/discussion`, token);
const comment = (contentId: string, body: unknown, token: string) => t.post(`${base(contentId)}/comments`, body, token);
const react = (contentId: string, emoji: unknown, token: string, commentId?: string) =>
  t.put(`${base(contentId)}${commentId ? `/comments/${commentId}` : ''}/reactions`, { emoji }, token);

async function report(by: TestUser = owner, workspaces = [workspaceId]): Promise<TestReport> {
  return newReport(t, by, workspaces, { templateId });
}

async function send(r: TestReport, to: TestUser[], options: { sendToSelf?: boolean; by?: TestUser } = {}): Promise<void> {
  const res = await t.post(
    `/api/v1/reports/${r.id}/send`,
    { recipientUserIds: to.map((u) => u.id), ...(options.sendToSelf ? { sendToSelf: true } : {}) },
    (options.by ?? owner).token,
  );
  if (res.status !== 201) throw new Error(`send failed: ${res.status} ${res.text}`);
}

/** A report of the owner, sent to alice and bob. */
async function sentReport(): Promise<TestReport> {
  const r = await report();
  await send(r, [alice, bob]);
  return r;
}

async function newComment(contentId: string, by: TestUser, body = 'A comment'): Promise<{ id: string; [k: string]: unknown }> {
  const res = await comment(contentId, { body }, by.token);
  if (res.status !== 201) throw new Error(`comment failed: ${res.status} ${res.text}`);
  return res.body;
}

/** Every write the discussion offers, against `commentId` where one is needed. */
function everyWrite(contentId: string, commentId: string, token: string) {
  return [
    comment(contentId, { body: 'hi' }, token),
    t.patch(`${base(contentId)}/comments/${commentId}`, { body: 'edit' }, token),
    t.del(`${base(contentId)}/comments/${commentId}`, token),
    react(contentId, '+1', token),
    react(contentId, '+1', token, commentId),
  ];
}

describe('a version never sent', () => {
  it('reads as an empty, unshared thread and refuses participant writes with 409', async () => {
    const r = await report();
    const res = await discussion(r.reportContentId, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ reportContentId: r.reportContentId, shared: false, reactions: [], comments: [] });
    for (const res of await Promise.all(everyWrite(r.reportContentId, 'no-such-comment', owner.token))) expectProblem(res, 409);
  });

  it('is still 403 for readers who are not participants and 404 for everyone else', async () => {
    const r = await report();
    for (const token of [ADMIN_TOKEN, wsAdmin.token]) {
      expect((await discussion(r.reportContentId, token)).body).toMatchObject({ shared: false, comments: [] });
      for (const res of await Promise.all(everyWrite(r.reportContentId, 'x', token))) expectProblem(res, 403);
    }
    expectProblem(await discussion(r.reportContentId, carol.token), 404);
    for (const res of await Promise.all(everyWrite(r.reportContentId, 'x', carol.token))) expectProblem(res, 404);
  });
});

describe('who may read and write', () => {
  it('lets the owner and the recipients comment and react', async () => {
    const r = await sentReport();
    const cid = r.reportContentId;
    const fromOwner = await comment(cid, { body: 'Owner here' }, owner.token);
    expect(fromOwner.status).toBe(201);
    expect(fromOwner.body).toMatchObject({
      reportContentId: cid,
      authorUserId: owner.id,
      authorName: 'Olive Owner',
      authorImageUrl: 'https://example.com/olive.png',
      body: 'Owner here',
      editable: true,
      reactions: [],
    });
    expect(fromOwner.body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(fromOwner.body.updatedAt).toBe(fromOwner.body.createdAt);
    expect((await comment(cid, { body: 'Alice here' }, alice.token)).status).toBe(201);
    expect((await react(cid, 'heart', bob.token)).status).toBe(200);
    const thread = await discussion(cid, bob.token);
    expect(thread.status).toBe(200);
    expect(thread.body.shared).toBe(true);
    expect(thread.body.comments.map((c: { body: string }) => c.body)).toEqual(['Owner here', 'Alice here']);
  });

  it('makes a version shared with a self-copy alone, and the owner may write', async () => {
    const r = await report();
    await send(r, [], { sendToSelf: true });
    expect((await discussion(r.reportContentId, owner.token)).body.shared).toBe(true);
    expect((await comment(r.reportContentId, { body: 'Note to self' }, owner.token)).status).toBe(201);
    expect((await react(r.reportContentId, 'eyes', owner.token)).status).toBe(200);
  });

  it('lets an instance admin and a workspace admin read but answers 403 to every write', async () => {
    const r = await sentReport();
    const c = await newComment(r.reportContentId, alice);
    for (const token of [ADMIN_TOKEN, wsAdmin.token]) {
      const res = await discussion(r.reportContentId, token);
      expect(res.status).toBe(200);
      expect(res.body.comments).toHaveLength(1);
      expect(res.body.comments[0].editable).toBe(false);
      for (const w of await Promise.all(everyWrite(r.reportContentId, c.id, token))) expectProblem(w, 403);
    }
    expect((await discussion(r.reportContentId, alice.token)).body.comments).toHaveLength(1);
  });

  it('hides the thread (404 on everything) from a member who may not read the report', async () => {
    const r = await sentReport();
    const c = await newComment(r.reportContentId, alice);
    expectProblem(await discussion(r.reportContentId, carol.token), 404);
    for (const res of await Promise.all(everyWrite(r.reportContentId, c.id, carol.token))) expectProblem(res, 404);
  });

  it('hides a multi-workspace report from a workspace admin (404)', async () => {
    const other = await newWorkspace(t, owner);
    await addMember(t, other.id, alice);
    const r = await report(owner, [workspaceId, other.id]);
    await send(r, [alice]);
    expectProblem(await discussion(r.reportContentId, wsAdmin.token), 404);
    expect((await discussion(r.reportContentId, ADMIN_TOKEN)).status).toBe(200);
    expect((await discussion(r.reportContentId, alice.token)).status).toBe(200);
  });

  it('gives 404 for an unknown version', async () => {
    expectProblem(await discussion('no-such-version', owner.token), 404);
    expectProblem(await comment('no-such-version', { body: 'x' }, owner.token), 404);
    expectProblem(await react('no-such-version', '+1', owner.token), 404);
  });

  it('keeps a recipient a participant after leaving the workspace; the owner who left loses the thread unless they hold a self-copy', async () => {
    const ws = await newWorkspace(t, wsAdmin);
    const author = await newUser(t, { name: 'Leaving Author' });
    const reader = await newUser(t, { name: 'Leaving Reader' });
    await addMember(t, ws.id, author);
    await addMember(t, ws.id, reader);
    const plain = await report(author, [ws.id]);
    await send(plain, [reader], { by: author });
    const selfCopied = await report(author, [ws.id]);
    await send(selfCopied, [reader], { by: author, sendToSelf: true });

    for (const u of [author, reader]) {
      expect((await t.del(`/api/v1/workspaces/${ws.id}/members/${u.id}`)).status).toBe(204);
    }
    expectProblem(await discussion(plain.reportContentId, author.token), 404);
    expectProblem(await comment(plain.reportContentId, { body: 'x' }, author.token), 404);
    expect((await comment(plain.reportContentId, { body: 'still here' }, reader.token)).status).toBe(201);
    expect((await discussion(selfCopied.reportContentId, author.token)).status).toBe(200);
    expect((await comment(selfCopied.reportContentId, { body: 'mine' }, author.token)).status).toBe(201);
    // The workspace admin of a single-workspace report still reads, without writing.
    expect((await discussion(plain.reportContentId, wsAdmin.token)).body.comments).toHaveLength(1);
  });

  it('needs the write scope for writes and the read scope for the fetch', async () => {
    const r = await sentReport();
    const c = await newComment(r.reportContentId, alice);
    const readOnly = await t.post(`/api/v1/users/${alice.id}/tokens`, { scopes: ['read'] }, alice.token);
    const writeOnly = await t.post(`/api/v1/users/${alice.id}/tokens`, { scopes: ['write'] }, alice.token);
    expect((await discussion(r.reportContentId, readOnly.body.token)).status).toBe(200);
    for (const res of await Promise.all(everyWrite(r.reportContentId, c.id, readOnly.body.token))) {
      expect(expectProblem(res, 403).type).toBe('urn:chronicle:problem:insufficient_scope');
    }
    expectProblem(await discussion(r.reportContentId, writeOnly.body.token), 403);
    expectProblem(await discussion(r.reportContentId, 'not-a-token'), 401);
  });
});

describe('comments', () => {
  it.each([
    [{ body: '' }, '/body', 'empty body'],
    [{ body: '   \n\t' }, '/body', 'blank body'],
    [{ body: 'x'.repeat(10_001) }, '/body', '10001 chars'],
    [{ body: 42 }, '/body', 'wrong type'],
    [{ body: null }, '/body', 'null'],
    [{}, '/body', 'missing'],
    [{ body: 'ok', extra: true }, '/extra', 'unknown property'],
  ])('400 for %j at %s (%s)', async (payload, path, _label) => {
    const r = await sentReport();
    const problem = expectProblem(await comment(r.reportContentId, payload, alice.token), 400);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
    const c = await newComment(r.reportContentId, alice);
    const edit = expectProblem(await t.patch(`${base(r.reportContentId)}/comments/${c.id}`, payload, alice.token), 400);
    expect(edit.errors?.map((e) => e.path)).toContain(path);
  });

  it('accepts 10000 characters (counted as characters, not bytes) and Markdown as-is', async () => {
    const r = await sentReport();
    const long = 'é'.repeat(9_999) + '😀';
    expect((await comment(r.reportContentId, { body: long }, alice.token)).body.body).toBe(long);
    const md = '  **bold** <script>x</script>\n';
    expect((await comment(r.reportContentId, { body: md }, alice.token)).body.body).toBe(md);
  });

  it('marks only the caller’s own comments editable', async () => {
    const r = await sentReport();
    await newComment(r.reportContentId, owner, 'from owner');
    await newComment(r.reportContentId, alice, 'from alice');
    const editable = async (u: TestUser) =>
      (await discussion(r.reportContentId, u.token)).body.comments.map((c: { editable: boolean }) => c.editable);
    expect(await editable(owner)).toEqual([true, false]);
    expect(await editable(alice)).toEqual([false, true]);
    expect(await editable(bob)).toEqual([false, false]);
  });

  it('lists comments oldest first', async () => {
    const r = await sentReport();
    t.clock.set('2026-12-01T10:00:00.000Z');
    try {
      await newComment(r.reportContentId, bob, 'second');
      t.clock.set('2026-12-01T09:00:00.000Z');
      await newComment(r.reportContentId, alice, 'first');
      t.clock.set('2026-12-01T11:00:00.000Z');
      await newComment(r.reportContentId, owner, 'third');
    } finally {
      t.clock.reset();
    }
    const res = await discussion(r.reportContentId, owner.token);
    expect(res.body.comments.map((c: { body: string }) => c.body)).toEqual(['first', 'second', 'third']);
    expect(res.body.comments[0].createdAt).toBe('2026-12-01T09:00:00.000Z');
  });

  it('lets the author edit: body and updatedAt change, createdAt and reactions stay', async () => {
    const r = await sentReport();
    t.clock.set('2026-12-01T10:00:00.000Z');
    try {
      const c = await newComment(r.reportContentId, alice, 'before');
      await react(r.reportContentId, 'rocket', bob.token, c.id);
      t.clock.set('2026-12-01T10:05:00.000Z');
      const res = await t.patch(`${base(r.reportContentId)}/comments/${c.id}`, { body: 'after' }, alice.token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: c.id,
        body: 'after',
        createdAt: '2026-12-01T10:00:00.000Z',
        updatedAt: '2026-12-01T10:05:00.000Z',
        editable: true,
        authorImageUrl: 'https://example.com/alice.png',
        reactions: [{ emoji: 'rocket', count: 1, reactedByMe: false, userNames: ['Bob'] }],
      });
      expect((await discussion(r.reportContentId, bob.token)).body.comments[0]).toMatchObject({
        body: 'after',
        updatedAt: '2026-12-01T10:05:00.000Z',
      });
    } finally {
      t.clock.reset();
    }
  });

  it('lets the author delete (204), taking the comment’s reactions with it', async () => {
    const r = await sentReport();
    const keep = await newComment(r.reportContentId, alice, 'keep');
    const gone = await newComment(r.reportContentId, alice, 'gone');
    await react(r.reportContentId, 'heart', bob.token, gone.id);
    const res = await t.del(`${base(r.reportContentId)}/comments/${gone.id}`, alice.token);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const thread = await discussion(r.reportContentId, bob.token);
    expect(thread.body.comments.map((c: { id: string }) => c.id)).toEqual([keep.id]);
    expectProblem(await t.del(`${base(r.reportContentId)}/comments/${gone.id}`, alice.token), 404);
    expectProblem(await react(r.reportContentId, 'heart', bob.token, gone.id), 404);
  });

  it('answers the same 404 for someone else’s comment, a comment of another version and a missing one', async () => {
    const r = await sentReport();
    const v1 = r.reportContentId;
    const onV1 = await newComment(v1, alice, 'on v1');
    const v2 = (await editReport(t, owner, r, { name: 'Edited' })).reportContentId;
    expect(v2).not.toBe(v1);
    await send({ ...r, reportContentId: v2 }, [alice, bob]);
    const onV2 = await newComment(v2, alice, 'on v2');

    const cases: [string, string, TestUser][] = [
      [v1, onV1.id, bob], // someone else's (a participant)
      [v1, onV1.id, owner], // someone else's (the owner)
      [v2, onV1.id, alice], // the author's, but of another version
      [v1, onV2.id, alice],
      [v1, 'no-such-comment', alice], // missing
    ];
    const bodies = new Set<string>();
    for (const [version, commentId, who] of cases) {
      const patch = expectProblem(await t.patch(`${base(version)}/comments/${commentId}`, { body: 'hijack' }, who.token), 404);
      const del = expectProblem(await t.del(`${base(version)}/comments/${commentId}`, who.token), 404);
      bodies.add(JSON.stringify(patch)).add(JSON.stringify(del));
    }
    expect(bodies.size).toBe(1);
    expect((await discussion(v1, alice.token)).body.comments.map((c: { body: string }) => c.body)).toEqual(['on v1']);
    expect((await discussion(v2, alice.token)).body.comments.map((c: { body: string }) => c.body)).toEqual(['on v2']);
  });

  it('freezes the author name but shows the live avatar', async () => {
    const r = await sentReport();
    const dave = await newUser(t, { name: 'Dave', imageUrl: 'https://example.com/dave-1.png' });
    await addMember(t, workspaceId, dave);
    await send(r, [dave]);
    await newComment(r.reportContentId, dave);
    expect((await t.patch('/api/v1/me', { name: 'David', imageUrl: 'https://example.com/dave-2.png' }, dave.token)).status).toBe(200);
    const [c] = (await discussion(r.reportContentId, owner.token)).body.comments;
    expect(c).toMatchObject({ authorName: 'Dave', authorImageUrl: 'https://example.com/dave-2.png' });
    // A new comment takes the name current at write time.
    expect((await newComment(r.reportContentId, dave)).authorName).toBe('David');
  });
});

describe('reactions', () => {
  it.each([['thumbsup'], [':+1:'], ['👍'], ['HEART'], [''], [1], [null]])('400 for emoji %j', async (emoji) => {
    const r = await sentReport();
    const c = await newComment(r.reportContentId, alice);
    expect(expectProblem(await react(r.reportContentId, emoji, alice.token), 400).errors?.map((e) => e.path)).toContain('/emoji');
    expectProblem(await react(r.reportContentId, emoji, alice.token, c.id), 400);
  });

  it('400 for a missing emoji or an unknown property', async () => {
    const r = await sentReport();
    expectProblem(await t.put(`${base(r.reportContentId)}/reactions`, {}, alice.token), 400);
    expectProblem(await t.put(`${base(r.reportContentId)}/reactions`, { emoji: '+1', extra: 1 }, alice.token), 400);
  });

  it('toggles on and off, returning the body summaries', async () => {
    const r = await sentReport();
    const on = await react(r.reportContentId, '+1', alice.token);
    expect(on.status).toBe(200);
    expect(on.body).toEqual([{ emoji: '+1', count: 1, reactedByMe: true, userNames: ['Alice'] }]);
    const off = await react(r.reportContentId, '+1', alice.token);
    expect(off.body).toEqual([]);
    expect((await discussion(r.reportContentId, alice.token)).body.reactions).toEqual([]);
  });

  it('summarises in the fixed key order with counts, reactedByMe and names in reaction order', async () => {
    const r = await sentReport();
    const cid = r.reportContentId;
    for (const [who, emoji] of [
      [bob, 'eyes'],
      [alice, 'heart'],
      [bob, '+1'],
      [alice, '+1'],
      [owner, 'laugh'],
      [owner, '-1'],
      [owner, 'eyes'],
    ] as const) {
      expect((await react(cid, emoji, who.token)).status).toBe(200);
    }
    const expected = (me: TestUser) => [
      { emoji: '+1', count: 2, reactedByMe: me === bob || me === alice, userNames: ['Bob', 'Alice'] },
      { emoji: '-1', count: 1, reactedByMe: me === owner, userNames: ['Olive Owner'] },
      { emoji: 'laugh', count: 1, reactedByMe: me === owner, userNames: ['Olive Owner'] },
      { emoji: 'heart', count: 1, reactedByMe: me === alice, userNames: ['Alice'] },
      { emoji: 'eyes', count: 2, reactedByMe: me === bob || me === owner, userNames: ['Bob', 'Olive Owner'] },
    ];
    for (const me of [owner, alice, bob]) {
      expect((await discussion(cid, me.token)).body.reactions).toEqual(expected(me));
    }
    // carol stands for any caller who did not react; the instance admin reads as such.
    expect((await discussion(cid, ADMIN_TOKEN)).body.reactions).toEqual(expected(carol));
    // The PUT answer is the same summary, seen by the caller.
    expect((await react(cid, 'hooray', alice.token)).body.map((s: { emoji: string }) => s.emoji)).toEqual([
      '+1',
      '-1',
      'laugh',
      'hooray',
      'heart',
      'eyes',
    ]);
  });

  it('keeps body and comment reactions apart and returns the comment’s own summaries', async () => {
    const r = await sentReport();
    const cid = r.reportContentId;
    const c1 = await newComment(cid, alice, 'one');
    const c2 = await newComment(cid, bob, 'two');
    await react(cid, 'rocket', owner.token);
    const res = await react(cid, 'rocket', alice.token, c1.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ emoji: 'rocket', count: 1, reactedByMe: true, userNames: ['Alice'] }]);
    await react(cid, 'confused', owner.token, c1.id);
    await react(cid, 'hooray', bob.token, c2.id);
    const thread = (await discussion(cid, alice.token)).body;
    expect(thread.reactions).toEqual([{ emoji: 'rocket', count: 1, reactedByMe: false, userNames: ['Olive Owner'] }]);
    expect(thread.comments[0].reactions).toEqual([
      { emoji: 'confused', count: 1, reactedByMe: false, userNames: ['Olive Owner'] },
      { emoji: 'rocket', count: 1, reactedByMe: true, userNames: ['Alice'] },
    ]);
    expect(thread.comments[1].reactions).toEqual([{ emoji: 'hooray', count: 1, reactedByMe: false, userNames: ['Bob'] }]);
  });

  it('404 for a reaction on a comment of another version or a missing comment', async () => {
    const r = await sentReport();
    const other = await sentReport();
    const c = await newComment(other.reportContentId, alice);
    expectProblem(await react(r.reportContentId, '+1', alice.token, c.id), 404);
    expectProblem(await react(r.reportContentId, '+1', alice.token, 'no-such-comment'), 404);
    expect((await discussion(other.reportContentId, alice.token)).body.comments[0].reactions).toEqual([]);
  });

  it('survives 20 concurrent toggles of the same reaction: never a duplicate, never a 500', async () => {
    const r = await sentReport();
    const c = await newComment(r.reportContentId, alice);
    for (const commentId of [undefined, c.id]) {
      const results = await Promise.all(Array.from({ length: 20 }, () => react(r.reportContentId, 'heart', bob.token, commentId)));
      expect(results.map((res) => res.status)).toEqual(Array(20).fill(200));
      const thread = (await discussion(r.reportContentId, bob.token)).body;
      const summaries = commentId ? thread.comments[0].reactions : thread.reactions;
      expect(summaries.length).toBeLessThanOrEqual(1);
      for (const s of summaries) expect(s).toEqual({ emoji: 'heart', count: 1, reactedByMe: true, userNames: ['Bob'] });
    }
  });

  it('counts concurrent toggles by different users once each', async () => {
    const r = await sentReport();
    const [a, b, o] = await Promise.all([
      react(r.reportContentId, 'eyes', alice.token),
      react(r.reportContentId, 'eyes', bob.token),
      react(r.reportContentId, 'eyes', owner.token),
    ]);
    expect([a.status, b.status, o.status]).toEqual([200, 200, 200]);
    const [eyes] = (await discussion(r.reportContentId, alice.token)).body.reactions;
    expect(eyes.count).toBe(3);
    expect([...eyes.userNames].sort()).toEqual(['Alice', 'Bob', 'Olive Owner']);
  });
});

describe('versions and accounts', () => {
  it('gives an edited report a fresh discussion; the old version keeps its own', async () => {
    const r = await sentReport();
    await newComment(r.reportContentId, alice, 'on version 1');
    await react(r.reportContentId, '+1', bob.token);
    const edited = await editReport(t, owner, r, { name: 'Edited' });
    expect(edited.version).toBe(2);
    expect(edited.reportContentId).not.toBe(r.reportContentId);
    expect((await discussion(edited.reportContentId, owner.token)).body).toEqual({
      reportContentId: edited.reportContentId,
      shared: false,
      reactions: [],
      comments: [],
    });
    expectProblem(await comment(edited.reportContentId, { body: 'x' }, owner.token), 409);
    // alice received version 1 only: version 2 is not hers to see.
    expectProblem(await discussion(edited.reportContentId, alice.token), 404);
    const old = (await discussion(r.reportContentId, alice.token)).body;
    expect(old.comments.map((c: { body: string }) => c.body)).toEqual(['on version 1']);
    expect(old.reactions).toHaveLength(1);
    expect((await comment(r.reportContentId, { body: 'still open' }, alice.token)).status).toBe(201);
  });

  it('keeps a deleted account’s comments with a null author and drops its reactions', async () => {
    const r = await sentReport();
    const erin = await newUser(t, { name: 'Erin', imageUrl: 'https://example.com/erin.png' });
    await addMember(t, workspaceId, erin);
    await send(r, [erin]);
    const c = await newComment(r.reportContentId, erin, 'from erin');
    await react(r.reportContentId, 'heart', erin.token);
    await react(r.reportContentId, 'heart', alice.token);
    await react(r.reportContentId, 'laugh', erin.token, c.id);
    expect((await t.del(`/api/v1/users/${erin.id}`, ADMIN_TOKEN)).status).toBe(204);

    const thread = (await discussion(r.reportContentId, owner.token)).body;
    expect(thread.comments).toEqual([
      {
        id: c.id,
        reportContentId: r.reportContentId,
        authorUserId: null,
        authorName: 'Erin',
        authorImageUrl: null,
        body: 'from erin',
        createdAt: c.createdAt,
        updatedAt: c.updatedAt,
        editable: false,
        reactions: [],
      },
    ]);
    expect(thread.reactions).toEqual([{ emoji: 'heart', count: 1, reactedByMe: false, userNames: ['Alice'] }]);
  });

  it('stays sent and writable for the owner after the only recipient deletes their account', async () => {
    const r = await report();
    const fay = await newUser(t, { name: 'Fay' });
    await addMember(t, workspaceId, fay);
    await send(r, [fay]);
    const c = await newComment(r.reportContentId, fay, 'from fay');
    expect((await t.del(`/api/v1/users/${fay.id}`, ADMIN_TOKEN)).status).toBe(204);

    const thread = (await discussion(r.reportContentId, owner.token)).body;
    expect(thread.shared).toBe(true);
    expect(thread.comments).toEqual([expect.objectContaining({ id: c.id, authorUserId: null, authorName: 'Fay', body: 'from fay' })]);
    expect((await comment(r.reportContentId, { body: 'still open' }, owner.token)).status).toBe(201);
    expect((await react(r.reportContentId, '+1', owner.token)).status).toBe(200);
    expect((await discussion(r.reportContentId, ADMIN_TOKEN)).body.shared).toBe(true);
  });

  it('deletes the discussion with its report', async () => {
    const r = await sentReport();
    await newComment(r.reportContentId, alice);
    expect((await t.del(`/api/v1/reports/${r.id}`, owner.token)).status).toBe(204);
    expectProblem(await discussion(r.reportContentId, alice.token), 404);
    expectProblem(await comment(r.reportContentId, { body: 'x' }, alice.token), 404);
  });
});

describe('a long thread', () => {
  it('returns 300 comments with their reactions over pages that Link to the next, oldest first', async () => {
    const r = await sentReport();
    const cid = r.reportContentId;
    const authors = [owner, alice, bob];
    const ids: string[] = [];
    for (let batch = 0; batch < 6; batch++) {
      const made = await Promise.all(
        Array.from({ length: 50 }, (_, i) => newComment(cid, authors[(batch * 50 + i) % 3]!, `comment ${batch * 50 + i}`)),
      );
      ids.push(...made.map((c) => c.id));
    }
    await Promise.all(ids.slice(0, 50).map((id) => react(cid, '+1', alice.token, id)));
    await Promise.all(ids.slice(0, 25).map((id) => react(cid, 'eyes', bob.token, id)));
    await react(cid, 'hooray', owner.token);

    const bodyReactions = [{ emoji: 'hooray', count: 1, reactedByMe: false, userNames: ['Olive Owner'] }];
    // Without parameters: the first 100, and a Link to the next page.
    const first = await discussion(cid, alice.token);
    expect(first.status).toBe(200);
    expect(first.body.comments).toHaveLength(100);
    expect(first.headers['x-total-count']).toBe('300');
    expect(first.headers.link).toBe(`<http://chronicle.test/api/v1/report-contents/${cid}/discussion?limit=100&offset=100>; rel="next"`);
    // Following Link with 60 a page reads the whole thread in 5 requests.
    const list: { id: string; createdAt: string; reactions: { emoji: string }[]; editable: boolean; authorUserId: string }[] = [];
    let next: string | null = `/api/v1/report-contents/${cid}/discussion?limit=60`;
    let pages = 0;
    while (next) {
      const res = await t.get(next, alice.token);
      expect(res.status).toBe(200);
      expect(res.headers['x-total-count']).toBe('300');
      expect(res.body.reactions).toEqual(bodyReactions);
      list.push(...res.body.comments);
      pages += 1;
      const link = res.headers.link as string | undefined;
      const href = link ? /^<http:\/\/chronicle\.test([^>]+)>; rel="next"$/.exec(link)?.[1] : undefined;
      next = href ?? null;
    }
    expect(pages).toBe(5);
    expect(list).toHaveLength(300);
    expect(new Set(list.map((c) => c.id))).toEqual(new Set(ids));
    for (let i = 1; i < list.length; i++) {
      const [a, b] = [list[i - 1]!, list[i]!];
      expect(a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.id < b.id)).toBe(true);
    }
    const byId = new Map(list.map((c) => [c.id, c]));
    expect(byId.get(ids[0]!)!.reactions.map((s) => s.emoji)).toEqual(['+1', 'eyes']);
    expect(byId.get(ids[30]!)!.reactions.map((s) => s.emoji)).toEqual(['+1']);
    expect(byId.get(ids[299]!)!.reactions).toEqual([]);
    expect(list.filter((c) => c.editable).every((c) => c.authorUserId === alice.id)).toBe(true);
  });

  it('fetches a thread in the same number of queries however long it is', async () => {
    const queriesFor = async (contentId: string): Promise<number> => {
      let n = 0;
      const stop = t.database.observeQueries(() => (n += 1));
      try {
        expect((await discussion(contentId, alice.token)).status).toBe(200);
      } finally {
        stop();
      }
      return n;
    };
    const small = await sentReport();
    await newComment(small.reportContentId, alice);
    const large = await sentReport();
    const made = await Promise.all(Array.from({ length: 40 }, (_, i) => newComment(large.reportContentId, [owner, alice, bob][i % 3]!)));
    await Promise.all(made.map((c) => react(large.reportContentId, 'heart', bob.token, c.id)));
    await Promise.all(made.slice(0, 10).map((c) => react(large.reportContentId, 'rocket', alice.token, c.id)));
    const [few, many] = [await queriesFor(small.reportContentId), await queriesFor(large.reportContentId)];
    // The credential with the access check (the version's report with the caller's standing), the document.
    expect(few).toBe(2);
    expect(many).toBe(few);
  });
});
