import { count, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeEntries } from '../../src/db/schema.js';
import { rowsOf } from '../../src/db/rows.js';
import { entryListCondition } from '../../src/repositories/time-entries.repository.js';
import { buildTestApp, expectProblem, newUser, type TestContext, type TestUser, readOnlyToken } from '../helpers/test-app.js';
import { addMember, addProjectMember, newProject, newWorkspace } from '../helpers/factories.js';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const ENTRIES = '/api/v1/time-entries';
const START = '2026-03-02T09:00:00.000Z';

interface Entry {
  id: string;
  workspaceId: string;
  projectId: string | null;
  userId: string;
  start: string;
  minutes: number;
  description: string;
  tags: string[];
  billable: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * One workspace with an owner, an admin and three members; project P has alice and carol,
 * project Q has bob. A second workspace (same owner) has project P2.
 */
interface World {
  owner: TestUser;
  admin: TestUser;
  alice: TestUser;
  bob: TestUser;
  carol: TestUser;
  outsider: TestUser;
  ws: string;
  ws2: string;
  p: string;
  q: string;
  p2: string;
}

async function world(): Promise<World> {
  const [owner, admin, alice, bob, carol, outsider] = await Promise.all([
    newUser(t, { name: 'Owner' }),
    newUser(t, { name: 'Admin' }),
    newUser(t, { name: 'Alice' }),
    newUser(t, { name: 'Bob' }),
    newUser(t, { name: 'Carol' }),
    newUser(t, { name: 'Outsider' }),
  ]);
  const ws = (await newWorkspace(t, owner)).id;
  const ws2 = (await newWorkspace(t, owner)).id;
  await addMember(t, ws, admin, 'admin');
  for (const m of [alice, bob, carol]) await addMember(t, ws, m);
  await addMember(t, ws2, alice);
  const p = (await newProject(t, ws, owner.token, 'P')).id;
  const q = (await newProject(t, ws, owner.token, 'Q')).id;
  const p2 = (await newProject(t, ws2, owner.token, 'P2')).id;
  await addProjectMember(t, p, alice.id);
  await addProjectMember(t, p, carol.id);
  await addProjectMember(t, q, bob.id);
  await addProjectMember(t, p2, alice.id);
  return { owner, admin, alice, bob, carol, outsider, ws, ws2, p, q, p2 };
}

async function log(token: string, body: Record<string, unknown>): Promise<Entry> {
  const res = await t.post(ENTRIES, { start: START, minutes: 30, ...body }, token);
  if (res.status !== 201) throw new Error(`log failed: ${res.status} ${res.text}`);
  return res.body;
}

const ids = (list: { id: string }[]) => list.map((e) => e.id).sort();

describe('POST /api/v1/time-entries', () => {
  let w: World;
  beforeAll(async () => {
    w = await world();
  });

  it('logs an entry for the caller, start normalised to UTC with milliseconds', async () => {
    t.clock.set('2026-03-03T10:00:00.000Z');
    try {
      const res = await t.post(ENTRIES, { workspaceId: w.ws, start: '2026-03-02T09:00:00+01:00', minutes: 90 }, w.alice.token);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        workspaceId: w.ws,
        projectId: null,
        userId: w.alice.id,
        start: '2026-03-02T08:00:00.000Z',
        minutes: 90,
        description: '',
        tags: [],
        billable: false,
        createdAt: '2026-03-03T10:00:00.000Z',
        updatedAt: '2026-03-03T10:00:00.000Z',
      });
    } finally {
      t.clock.reset();
    }
  });

  it('stores project, description and tags as given', async () => {
    const res = await t.post(
      ENTRIES,
      {
        workspaceId: w.ws,
        projectId: w.p,
        start: '2026-03-02T09:00:00.5Z',
        minutes: 15,
        description: 'Standup',
        tags: ['meeting', 'Meeting', 'daily'],
      },
      w.alice.token,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      projectId: w.p,
      start: '2026-03-02T09:00:00.500Z',
      description: 'Standup',
      tags: ['meeting', 'Meeting', 'daily'],
    });
  });

  it('takes an explicit null projectId as unassigned, and the caller as an explicit userId', async () => {
    const res = await t.post(ENTRIES, { workspaceId: w.ws, projectId: null, userId: w.bob.id, start: START, minutes: 1 }, w.bob.token);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ projectId: null, userId: w.bob.id });
  });

  it.each([
    ['minutes 1', { minutes: 1 }],
    ['minutes 1440', { minutes: 1440 }],
    ['description of 2000 chars', { description: 'd'.repeat(2000) }],
    ['20 tags', { tags: Array.from({ length: 20 }, (_, i) => `tag${i}`) }],
    ['a tag of 50 chars', { tags: ['t'.repeat(50)] }],
    ['a lowercase t separator', { start: '2026-03-02t09:00:00z' }],
    ['an offset without colon', { start: '2026-03-02T09:00:00+0130' }],
    ['an hour-only offset', { start: '2026-03-02T09:00:00-05' }],
    ['the first instant of year 1000', { start: '1000-01-01T00:00:00Z' }],
    ['the last instant of year 9999', { start: '9999-12-31T23:59:59.999Z' }],
  ])('accepts %s', async (_label, fields) => {
    const res = await t.post(ENTRIES, { workspaceId: w.ws, start: START, minutes: 30, ...fields }, w.alice.token);
    expect(res.status).toBe(201);
  });

  it('reads offsets correctly and keeps the extreme years intact', async () => {
    expect((await log(w.alice.token, { workspaceId: w.ws, start: '2026-03-02T09:00:00-05' })).start).toBe('2026-03-02T14:00:00.000Z');
    expect((await log(w.alice.token, { workspaceId: w.ws, start: '2026-03-02T09:00:00+0130' })).start).toBe('2026-03-02T07:30:00.000Z');
    expect((await log(w.alice.token, { workspaceId: w.ws, start: '1000-01-01T00:00:00Z' })).start).toBe('1000-01-01T00:00:00.000Z');
    expect((await log(w.alice.token, { workspaceId: w.ws, start: '9999-12-31T23:59:59.999Z' })).start).toBe('9999-12-31T23:59:59.999Z');
  });

  it.each([
    ['minutes 0', { minutes: 0 }, '/minutes'],
    ['minutes 1441', { minutes: 1441 }, '/minutes'],
    ['negative minutes', { minutes: -5 }, '/minutes'],
    ['non-integer minutes', { minutes: 1.5 }, '/minutes'],
    ['minutes as a string', { minutes: '30' }, '/minutes'],
    ['missing minutes', { minutes: undefined }, '/minutes'],
    ['description of 2001 chars', { description: 'd'.repeat(2001) }, '/description'],
    ['description not a string', { description: 5 }, '/description'],
    ['description with U+0000', { description: 'a\u0000b' }, '/description'],
    ['21 tags', { tags: Array.from({ length: 21 }, (_, i) => `tag${i}`) }, '/tags'],
    ['duplicate tags', { tags: ['a', 'b', 'a'] }, '/tags'],
    ['a tag of 51 chars', { tags: ['t'.repeat(51)] }, '/tags/0'],
    ['an empty tag', { tags: ['ok', ''] }, '/tags/1'],
    ['a tag not a string', { tags: [1] }, '/tags/0'],
    ['tags not an array', { tags: 'a,b' }, '/tags'],
    ['a tag with U+0000', { tags: ['a\u0000'] }, '/tags/0'],
    ['month 13', { start: '2026-13-01T00:00:00Z' }, '/start'],
    ['February 30', { start: '2026-02-30T00:00:00Z' }, '/start'],
    ['a date without time', { start: '2026-03-02' }, '/start'],
    ['a time without offset', { start: '2026-03-02T09:00:00' }, '/start'],
    ['a word', { start: 'yesterday' }, '/start'],
    ['a number', { start: 1772442000000 }, '/start'],
    ['a leap second', { start: '2026-12-31T23:59:60Z' }, '/start'],
    ['year 0', { start: '0000-06-01T00:00:00Z' }, '/start'],
    ['year 999', { start: '0999-12-31T23:59:59.999Z' }, '/start'],
    ['a year beyond 9999 once in UTC', { start: '9999-12-31T23:30:00-01:00' }, '/start'],
    ['missing start', { start: undefined }, '/start'],
    ['missing workspaceId', { workspaceId: undefined }, '/workspaceId'],
    ['workspaceId a number', { workspaceId: 42 }, '/workspaceId'],
    ['projectId a number', { projectId: 42 }, '/projectId'],
    ['an empty userId', { userId: '' }, '/userId'],
    ['an unknown property', { extra: true }, '/extra'],
    ['createdAt given', { createdAt: START }, '/createdAt'],
  ])('400 for %s', async (_label, fields, path) => {
    const body: Record<string, unknown> = { workspaceId: w.ws, start: START, minutes: 30, ...fields };
    for (const key of Object.keys(body)) if (body[key] === undefined) Reflect.deleteProperty(body, key);
    const problem = expectProblem(await t.post(ENTRIES, body, w.alice.token), 400);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
  });

  it('400s malformed JSON and a non-object body', async () => {
    expectProblem(
      await t.request('POST', ENTRIES, { token: w.alice.token, raw: '{"minutes":', headers: { 'content-type': 'application/json' } }),
      400,
    );
    expectProblem(await t.post(ENTRIES, [1, 2], w.alice.token), 400);
  });

  it('hides a workspace the caller is not a member of (404), and an unknown one', async () => {
    expectProblem(await t.post(ENTRIES, { workspaceId: w.ws, start: START, minutes: 30 }, w.outsider.token), 404);
    expectProblem(await t.post(ENTRIES, { workspaceId: 'no-such-workspace', start: START, minutes: 30 }, w.alice.token), 404);
    // An instance admin gets no entry rights in workspaces they are not in.
    expectProblem(await t.post(ENTRIES, { workspaceId: w.ws, start: START, minutes: 30 }), 404);
  });

  it('lets a workspace admin or owner log time for another member', async () => {
    for (const by of [w.admin, w.owner]) {
      const res = await t.post(ENTRIES, { workspaceId: w.ws, userId: w.bob.id, start: START, minutes: 30 }, by.token);
      expect(res.status).toBe(201);
      expect(res.body.userId).toBe(w.bob.id);
    }
  });

  it('403s a plain member naming another user', async () => {
    expectProblem(await t.post(ENTRIES, { workspaceId: w.ws, userId: w.bob.id, start: START, minutes: 30 }, w.alice.token), 403);
  });

  it('400s another user who is not a member of the workspace, or does not exist', async () => {
    for (const userId of [w.outsider.id, 'no-such-user']) {
      const problem = expectProblem(await t.post(ENTRIES, { workspaceId: w.ws, userId, start: START, minutes: 30 }, w.admin.token), 400);
      expect(problem.errors).toEqual([{ path: '/userId', message: expect.any(String) }]);
    }
  });

  it('400s a project of another workspace or an unknown project', async () => {
    for (const projectId of [w.p2, 'no-such-project']) {
      const problem = expectProblem(await t.post(ENTRIES, { workspaceId: w.ws, projectId, start: START, minutes: 30 }, w.alice.token), 400);
      expect(problem.errors).toEqual([{ path: '/projectId', message: expect.any(String) }]);
    }
  });

  it("400s a project the entry's user may not read", async () => {
    // bob is not in P; naming him as an admin does not change that.
    expectProblem(await t.post(ENTRIES, { workspaceId: w.ws, projectId: w.p, start: START, minutes: 30 }, w.bob.token), 400);
    const problem = expectProblem(
      await t.post(ENTRIES, { workspaceId: w.ws, projectId: w.p, userId: w.bob.id, start: START, minutes: 30 }, w.admin.token),
      400,
    );
    expect(problem.errors?.[0]?.path).toBe('/projectId');
  });

  it('lets a workspace admin use any project of the workspace for themself, and for a project member', async () => {
    expect((await t.post(ENTRIES, { workspaceId: w.ws, projectId: w.q, start: START, minutes: 30 }, w.admin.token)).status).toBe(201);
    expect(
      (await t.post(ENTRIES, { workspaceId: w.ws, projectId: w.q, userId: w.bob.id, start: START, minutes: 30 }, w.admin.token)).status,
    ).toBe(201);
  });

  it('needs the write scope (403) and a token (401)', async () => {
    const readOnly = await readOnlyToken(t, w.alice);
    const res = await t.post(ENTRIES, { workspaceId: w.ws, start: START, minutes: 30 }, readOnly);
    expectProblem(res, 403);
    expect(res.headers['www-authenticate']).toContain('insufficient_scope');
    expectProblem(await t.post(ENTRIES, { workspaceId: w.ws, start: START, minutes: 30 }, null), 401);
  });
});

describe('GET /api/v1/time-entries: who reads what', () => {
  let w: World;
  let e: Record<'aliceNone' | 'aliceP' | 'bobNone' | 'bobQ' | 'carolP' | 'carolNone' | 'adminNone' | 'aliceW2', Entry>;
  beforeAll(async () => {
    w = await world();
    e = {
      aliceNone: await log(w.alice.token, { workspaceId: w.ws }),
      aliceP: await log(w.alice.token, { workspaceId: w.ws, projectId: w.p }),
      bobNone: await log(w.bob.token, { workspaceId: w.ws }),
      bobQ: await log(w.bob.token, { workspaceId: w.ws, projectId: w.q }),
      carolP: await log(w.carol.token, { workspaceId: w.ws, projectId: w.p }),
      carolNone: await log(w.carol.token, { workspaceId: w.ws }),
      adminNone: await log(w.admin.token, { workspaceId: w.ws }),
      aliceW2: await log(w.alice.token, { workspaceId: w.ws2, projectId: w.p2 }),
    };
  });

  const visible = async (user: TestUser | null) => {
    const res = await t.get(ENTRIES, user ? user.token : undefined);
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe(String(res.body.length));
    return ids(res.body);
  };

  it('shows a member their own entries and the entries of projects they are in', async () => {
    expect(await visible(w.alice)).toEqual(ids([e.aliceNone, e.aliceP, e.carolP, e.aliceW2]));
    expect(await visible(w.carol)).toEqual(ids([e.carolP, e.carolNone, e.aliceP]));
  });

  it("hides others' unassigned entries and entries of projects the member is not in", async () => {
    const bob = await visible(w.bob);
    expect(bob).toEqual(ids([e.bobNone, e.bobQ]));
    expect(bob).not.toContain(e.aliceNone.id);
    expect(bob).not.toContain(e.aliceP.id);
  });

  it('shows a workspace admin or owner every entry of that workspace, and nothing of others', async () => {
    const inWs = ids([e.aliceNone, e.aliceP, e.bobNone, e.bobQ, e.carolP, e.carolNone, e.adminNone]);
    expect(await visible(w.admin)).toEqual(inWs);
    // The owner owns ws2 too, where alice logged an entry.
    expect(await visible(w.owner)).toEqual([...inWs, e.aliceW2.id].sort());
  });

  it('shows a non-member nothing, and an instance admin outside the workspace nothing', async () => {
    expect(await visible(w.outsider)).toEqual([]);
    expect(await visible(null)).toEqual([]);
  });

  it('never widens the rule through filters', async () => {
    const res = await t.get(ENTRIES, w.bob.token, { userId: w.alice.id });
    expect(res.body).toEqual([]);
    expect(res.headers['x-total-count']).toBe('0');
    expect((await t.get(ENTRIES, w.bob.token, { projectId: w.p })).body).toEqual([]);
    expect((await t.get(ENTRIES, w.outsider.token, { workspaceId: w.ws })).body).toEqual([]);
  });

  it('keeps own entries readable after leaving the project, and project entries readable for its members', async () => {
    expect((await t.del(`/api/v1/projects/${w.p}/members/${w.carol.id}`)).status).toBe(204);
    try {
      expect(await visible(w.carol)).toEqual(ids([e.carolP, e.carolNone]));
    } finally {
      await addProjectMember(t, w.p, w.carol.id);
    }
  });

  it('returns the entry shape', async () => {
    const res = await t.get(ENTRIES, w.alice.token, { projectId: w.p2 });
    expect(res.body).toEqual([e.aliceW2]);
  });

  it('needs the read scope and a token', async () => {
    expect((await t.get(ENTRIES, await readOnlyToken(t, w.alice))).status).toBe(200);
    const writeOnly = await t.post(`/api/v1/users/${w.alice.id}/tokens`, { scopes: ['write'] });
    expectProblem(await t.get(ENTRIES, writeOnly.body.token), 403);
    expectProblem(await t.get(ENTRIES, null), 401);
  });
});

describe('GET /api/v1/time-entries: filters, order and paging', () => {
  let w: World;
  let byStart: Entry[];
  beforeAll(async () => {
    w = await world();
    byStart = [];
    for (const [i, start] of [
      '2026-01-01T00:00:00.000Z',
      '2026-01-02T00:00:00.000Z',
      '2026-01-02T00:00:00.000Z',
      '2026-01-03T12:00:00.000Z',
      '2026-01-05T00:00:00.000Z',
    ].entries()) {
      byStart.push(
        await log(w.admin.token, { workspaceId: w.ws, start, userId: i % 2 ? w.alice.id : w.bob.id, projectId: i === 4 ? w.q : null }),
      );
    }
  });

  const list = (query: Record<string, string | number>) => t.get(ENTRIES, w.admin.token, query);

  it('lists newest first, ties broken by id descending', async () => {
    const res = await list({ workspaceId: w.ws });
    const [a, b, c, d, x] = byStart;
    const tie = [b!, c!].sort((p, q) => (p.id < q.id ? 1 : -1));
    expect(res.body.map((r: Entry) => r.id)).toEqual([x!.id, d!.id, tie[0]!.id, tie[1]!.id, a!.id]);
  });

  it('filters by user and project', async () => {
    expect(ids((await list({ userId: w.alice.id })).body)).toEqual(ids([byStart[1]!, byStart[3]!]));
    expect(ids((await list({ projectId: w.q })).body)).toEqual(ids([byStart[4]!]));
    expect((await list({ workspaceId: w.ws2 })).body).toEqual([]);
  });

  it('filters by tag, exactly, together with the other filters; a tag of over 50 characters is a 400', async () => {
    const tagged = await log(w.admin.token, {
      workspaceId: w.ws,
      start: '2026-01-06T00:00:00Z',
      userId: w.alice.id,
      tags: ['design', 'urgent'],
    });
    const other = await log(w.admin.token, { workspaceId: w.ws, start: '2026-01-07T00:00:00Z', userId: w.bob.id, tags: ['Design'] });
    try {
      const res = await list({ tag: 'design' });
      expect(ids(res.body)).toEqual([tagged.id]);
      expect(res.headers['x-total-count']).toBe('1');
      expect(ids((await list({ tag: 'Design' })).body)).toEqual([other.id]);
      expect((await list({ tag: 'design', userId: w.bob.id })).body).toEqual([]);
      expect((await list({ tag: 'desig' })).body).toEqual([]);
      expectProblem(await list({ tag: 'x'.repeat(51) }), 400);
      expectProblem(await list({ tag: '' }), 400);
    } finally {
      for (const e of [tagged, other]) expect((await t.del(`${ENTRIES}/${e.id}`, w.admin.token)).status).toBe(204);
    }
  });

  it('filters by tag within a workspace: only that workspace\u2019s entries, through the index of workspace tags', async () => {
    const here = await log(w.owner.token, { workspaceId: w.ws, start: '2026-01-08T00:00:00Z', tags: ['review'] });
    const there = await log(w.owner.token, { workspaceId: w.ws2, start: '2026-01-09T00:00:00Z', tags: ['review', 'x\u001freview'] });
    // A tag that holds the separator, under a workspace id that holds it: never read as another workspace's tag.
    const tricky = await log(w.owner.token, { workspaceId: w.ws, start: '2026-01-10T00:00:00Z', tags: ['x\u001freview'] });
    const owned = (query: Record<string, string>) => t.get(ENTRIES, w.owner.token, query);
    try {
      expect(ids((await owned({ workspaceId: w.ws, tag: 'review' })).body)).toEqual([here.id]);
      expect((await owned({ workspaceId: w.ws, tag: 'review' })).headers['x-total-count']).toBe('1');
      expect(ids((await owned({ workspaceId: w.ws2, tag: 'review' })).body)).toEqual([there.id]);
      expect(ids((await owned({ tag: 'review' })).body)).toEqual(ids([here, there]));
      expect(ids((await owned({ workspaceId: w.ws, tag: 'x\u001freview' })).body)).toEqual([tricky.id]);
      expect((await owned({ workspaceId: `${w.ws}\u001fx`, tag: 'review' })).body).toEqual([]);
      expect((await owned({ workspaceId: w.ws2, tag: 'review', userId: w.alice.id })).body).toEqual([]);
      // A tag edited off leaves the list; one edited on joins it.
      expect((await t.patch(`${ENTRIES}/${here.id}`, { tags: ['other'] }, w.owner.token)).status).toBe(200);
      expect((await t.patch(`${ENTRIES}/${tricky.id}`, { tags: ['review'] }, w.owner.token)).status).toBe(200);
      expect(ids((await owned({ workspaceId: w.ws, tag: 'review' })).body)).toEqual([tricky.id]);

      // The count under X-Total-Count can use the workspace's tags alone (sequential scans off, as on a large table).
      const plan = await t.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        const counting = tx
          .select({ n: count() })
          .from(timeEntries)
          .where(entryListCondition(w.owner.id, { workspaceId: w.ws, tag: 'review' }, 'count'));
        return rowsOf<{ 'QUERY PLAN': string }>(await tx.execute(sql`explain ${counting}`))
          .map((row) => row['QUERY PLAN'])
          .join('\n');
      });
      expect(plan).toContain('time_entries_workspace_tags_idx');
      expect(plan).not.toContain('time_entries_workspace_start_idx');
    } finally {
      for (const e of [here, there, tricky]) expect((await t.del(`${ENTRIES}/${e.id}`, w.owner.token)).status).toBe(204);
    }
  });

  it('bounds start as [from, to)', async () => {
    const res = await list({ from: '2026-01-02T00:00:00Z', to: '2026-01-05T00:00:00Z' });
    expect(ids(res.body)).toEqual(ids([byStart[1]!, byStart[2]!, byStart[3]!]));
    expect(res.headers['x-total-count']).toBe('3');
    // Offsets are honoured: 2026-01-03T13:00+01:00 is 12:00Z, so the 12:00Z entry is excluded.
    expect((await list({ from: '2026-01-03T00:00:00Z', to: '2026-01-03T13:00:00+01:00' })).body).toEqual([]);
    expect(ids((await list({ from: '2026-01-03T00:00:00Z', to: '2026-01-03T13:00:01+01:00' })).body)).toEqual([byStart[3]!.id]);
    expect((await list({ from: '2026-01-05T00:00:00Z', to: '2026-01-05T00:00:00Z' })).body).toEqual([]);
  });

  it('pages with limit and offset, X-Total-Count counting the whole filtered set', async () => {
    const first = await list({ workspaceId: w.ws, limit: 2 });
    expect(first.body).toHaveLength(2);
    expect(first.headers['x-total-count']).toBe('5');
    const rest = await list({ workspaceId: w.ws, limit: 2, offset: 4 });
    expect(rest.body).toHaveLength(1);
    expect(rest.headers['x-total-count']).toBe('5');
    const beyond = await list({ workspaceId: w.ws, offset: 50 });
    expect(beyond.body).toEqual([]);
    expect(beyond.headers['x-total-count']).toBe('5');
    const all = await list({ workspaceId: w.ws });
    expect([...first.body, ...(await list({ workspaceId: w.ws, limit: 2, offset: 2 })).body, ...rest.body]).toEqual(all.body);
  });

  it('returns at most 100 entries when no limit is given, and up to 1000 when asked', async () => {
    const ws = (await newWorkspace(t, w.owner)).id;
    for (let i = 0; i < 101; i++) await log(w.owner.token, { workspaceId: ws, start: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString() });
    const res = await t.get(ENTRIES, w.owner.token, { workspaceId: ws });
    expect(res.body).toHaveLength(100);
    expect(res.headers['x-total-count']).toBe('101');
    expect((await t.get(ENTRIES, w.owner.token, { workspaceId: ws, limit: 1000 })).body).toHaveLength(101);
  });

  it.each([
    [{ limit: 0 }, '/query/limit'],
    [{ limit: 1001 }, '/query/limit'],
    [{ limit: 2.5 }, '/query/limit'],
    [{ limit: 'ten' }, '/query/limit'],
    [{ offset: -1 }, '/query/offset'],
    [{ offset: 1e12 }, '/query/offset'],
    [{ from: '2026-01-01' }, '/query/from'],
    [{ from: '2026-01-01T00:00:00' }, '/query/from'],
    [{ to: '2026-13-01T00:00:00Z' }, '/query/to'],
    [{ from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' }, '/query/to'],
    [{ workspaceId: '' }, '/query/workspaceId'],
    [{ colour: 'blue' }, '/query/colour'],
  ])('400 for %j', async (query, path) => {
    const problem = expectProblem(await list(query), 400);
    expect(problem.errors?.map((x) => x.path)).toContain(path);
  });
});

describe('PATCH and DELETE /api/v1/time-entries/:id', () => {
  let w: World;
  beforeAll(async () => {
    w = await world();
  });

  it('lets the entry user change project, start, minutes, description and tags; updatedAt from the clock', async () => {
    t.clock.set('2026-04-01T08:00:00.000Z');
    const entry = await log(w.alice.token, { workspaceId: w.ws, description: 'old', tags: ['a'] });
    t.clock.set('2026-04-02T08:00:00.000Z');
    try {
      const res = await t.patch(
        `${ENTRIES}/${entry.id}`,
        { projectId: w.p, start: '2026-04-01T10:00:00+02:00', minutes: 1440, description: 'new', tags: ['b', 'c'] },
        w.alice.token,
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...entry,
        projectId: w.p,
        start: '2026-04-01T08:00:00.000Z',
        minutes: 1440,
        description: 'new',
        tags: ['b', 'c'],
        createdAt: '2026-04-01T08:00:00.000Z',
        updatedAt: '2026-04-02T08:00:00.000Z',
      });
      const cleared = await t.patch(`${ENTRIES}/${entry.id}`, { projectId: null, description: '', tags: [] }, w.alice.token);
      expect(cleared.body).toMatchObject({ projectId: null, description: '', tags: [] });
      const listed = await t.get(ENTRIES, w.alice.token, { workspaceId: w.ws });
      expect(listed.body.find((x: Entry) => x.id === entry.id)).toEqual(cleared.body);
    } finally {
      t.clock.reset();
    }
  });

  it('changes nothing, updatedAt included, for an empty patch', async () => {
    const entry = await log(w.alice.token, { workspaceId: w.ws });
    const res = await t.patch(`${ENTRIES}/${entry.id}`, {}, w.alice.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(entry);
  });

  it("lets a workspace admin or owner edit someone else's entry", async () => {
    const entry = await log(w.bob.token, { workspaceId: w.ws });
    expect((await t.patch(`${ENTRIES}/${entry.id}`, { minutes: 45 }, w.admin.token)).body.minutes).toBe(45);
    expect((await t.patch(`${ENTRIES}/${entry.id}`, { projectId: w.q }, w.owner.token)).body.projectId).toBe(w.q);
  });

  it('404s everyone else, including members who may read the entry', async () => {
    const entry = await log(w.alice.token, { workspaceId: w.ws, projectId: w.p });
    // carol reads it through project P but may not change it.
    expect(ids((await t.get(ENTRIES, w.carol.token)).body)).toContain(entry.id);
    for (const user of [w.carol, w.bob, w.outsider]) {
      expectProblem(await t.patch(`${ENTRIES}/${entry.id}`, { minutes: 5 }, user.token), 404);
      expectProblem(await t.del(`${ENTRIES}/${entry.id}`, user.token), 404);
    }
    // Instance admins have no special right over entries.
    expectProblem(await t.patch(`${ENTRIES}/${entry.id}`, { minutes: 5 }), 404);
    expectProblem(await t.patch(`${ENTRIES}/no-such-entry`, { minutes: 5 }, w.alice.token), 404);
    expectProblem(await t.del(`${ENTRIES}/no-such-entry`, w.alice.token), 404);
    expect((await t.get(ENTRIES, w.alice.token, { projectId: w.p })).body.find((x: Entry) => x.id === entry.id).minutes).toBe(30);
  });

  it('400s workspaceId, userId and unknown properties, and every field rule', async () => {
    const entry = await log(w.alice.token, { workspaceId: w.ws });
    for (const [body, path] of [
      [{ workspaceId: w.ws2 }, '/workspaceId'],
      [{ userId: w.bob.id }, '/userId'],
      [{ id: 'x' }, '/id'],
      [{ minutes: 0 }, '/minutes'],
      [{ minutes: 1441 }, '/minutes'],
      [{ minutes: 2.5 }, '/minutes'],
      [{ minutes: null }, '/minutes'],
      [{ description: 'd'.repeat(2001) }, '/description'],
      [{ tags: ['x', 'x'] }, '/tags'],
      [{ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, '/tags'],
      [{ tags: ['t'.repeat(51)] }, '/tags/0'],
      [{ tags: [''] }, '/tags/0'],
      [{ start: '2026-13-01T00:00:00Z' }, '/start'],
      [{ start: '2026-04-01' }, '/start'],
      [{ start: null }, '/start'],
      [{ projectId: 7 }, '/projectId'],
    ] as const) {
      const problem = expectProblem(await t.patch(`${ENTRIES}/${entry.id}`, body, w.alice.token), 400);
      expect(problem.errors?.map((x) => x.path)).toContain(path);
    }
  });

  it('re-checks the project rules', async () => {
    const entry = await log(w.bob.token, { workspaceId: w.ws });
    // P2 is in the other workspace; P is not readable by bob, even when the admin asks.
    expect(expectProblem(await t.patch(`${ENTRIES}/${entry.id}`, { projectId: w.p2 }, w.bob.token), 400).errors?.[0]?.path).toBe(
      '/projectId',
    );
    expectProblem(await t.patch(`${ENTRIES}/${entry.id}`, { projectId: w.p }, w.bob.token), 400);
    expectProblem(await t.patch(`${ENTRIES}/${entry.id}`, { projectId: w.p }, w.admin.token), 400);
    expectProblem(await t.patch(`${ENTRIES}/${entry.id}`, { projectId: 'no-such-project' }, w.admin.token), 400);
    expect((await t.patch(`${ENTRIES}/${entry.id}`, { projectId: w.q }, w.bob.token)).status).toBe(200);
  });

  it('keeps an entry editable after its user lost the project, as long as the project is not named', async () => {
    const entry = await log(w.carol.token, { workspaceId: w.ws, projectId: w.p });
    expect((await t.del(`/api/v1/projects/${w.p}/members/${w.carol.id}`)).status).toBe(204);
    try {
      expect((await t.patch(`${ENTRIES}/${entry.id}`, { minutes: 10 }, w.carol.token)).status).toBe(200);
      expectProblem(await t.patch(`${ENTRIES}/${entry.id}`, { projectId: w.p }, w.carol.token), 400);
    } finally {
      await addProjectMember(t, w.p, w.carol.id);
    }
  });

  it('lets a former member read but not change their entries', async () => {
    const leaver = await newUser(t);
    await addMember(t, w.ws, leaver);
    const entry = await log(leaver.token, { workspaceId: w.ws });
    expect((await t.del(`/api/v1/workspaces/${w.ws}/members/${leaver.id}`, leaver.token)).status).toBe(204);
    expect(ids((await t.get(ENTRIES, leaver.token)).body)).toEqual([entry.id]);
    expectProblem(await t.patch(`${ENTRIES}/${entry.id}`, { minutes: 5 }, leaver.token), 404);
    expectProblem(await t.del(`${ENTRIES}/${entry.id}`, leaver.token), 404);
    // The workspace's admins still manage it.
    expect((await t.patch(`${ENTRIES}/${entry.id}`, { minutes: 5 }, w.admin.token)).status).toBe(200);
  });

  it('deletes for the entry user (204), then it is gone', async () => {
    const entry = await log(w.alice.token, { workspaceId: w.ws });
    const res = await t.del(`${ENTRIES}/${entry.id}`, w.alice.token);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(ids((await t.get(ENTRIES, w.alice.token)).body)).not.toContain(entry.id);
    expectProblem(await t.del(`${ENTRIES}/${entry.id}`, w.alice.token), 404);
    expectProblem(await t.patch(`${ENTRIES}/${entry.id}`, { minutes: 5 }, w.alice.token), 404);
  });

  it("deletes for a workspace admin or owner (someone else's entry)", async () => {
    for (const by of [w.admin, w.owner]) {
      const entry = await log(w.bob.token, { workspaceId: w.ws });
      expect((await t.del(`${ENTRIES}/${entry.id}`, by.token)).status).toBe(204);
    }
  });

  it('needs the write scope', async () => {
    const entry = await log(w.alice.token, { workspaceId: w.ws });
    const readOnly = await readOnlyToken(t, w.alice);
    expectProblem(await t.patch(`${ENTRIES}/${entry.id}`, { minutes: 5 }, readOnly), 403);
    expectProblem(await t.del(`${ENTRIES}/${entry.id}`, readOnly), 403);
    expectProblem(await t.del(`${ENTRIES}/${entry.id}`, null), 401);
  });
});

describe('billable entries', () => {
  let w: World;
  beforeAll(async () => {
    w = await world();
  });

  const setDefault = async (projectId: string, billableByDefault: boolean) => {
    const res = await t.patch(`/api/v1/projects/${projectId}`, { billableByDefault }, w.owner.token);
    expect(res.status).toBe(200);
  };

  it("takes the project's billableByDefault when the request leaves billable out, and false when unassigned", async () => {
    await setDefault(w.p, true);
    try {
      expect((await log(w.alice.token, { workspaceId: w.ws, projectId: w.p })).billable).toBe(true);
      expect((await log(w.bob.token, { workspaceId: w.ws, projectId: w.q })).billable).toBe(false);
      expect((await log(w.alice.token, { workspaceId: w.ws })).billable).toBe(false);
      expect((await log(w.alice.token, { workspaceId: w.ws, projectId: null })).billable).toBe(false);
    } finally {
      await setDefault(w.p, false);
    }
  });

  it('keeps a billable the request gives, whatever the default', async () => {
    await setDefault(w.p, true);
    try {
      expect((await log(w.alice.token, { workspaceId: w.ws, projectId: w.p, billable: false })).billable).toBe(false);
    } finally {
      await setDefault(w.p, false);
    }
    expect((await log(w.alice.token, { workspaceId: w.ws, projectId: w.p, billable: true })).billable).toBe(true);
    expect((await log(w.alice.token, { workspaceId: w.ws, billable: true })).billable).toBe(true);
  });

  it("never changes existing entries when the project's default changes", async () => {
    const before = await log(w.alice.token, { workspaceId: w.ws, projectId: w.p });
    expect(before.billable).toBe(false);
    await setDefault(w.p, true);
    try {
      const during = await log(w.alice.token, { workspaceId: w.ws, projectId: w.p });
      expect(during.billable).toBe(true);
      await setDefault(w.p, false);
      const listed = (await t.get(ENTRIES, w.alice.token, { workspaceId: w.ws, projectId: w.p, limit: 1000 })).body as Entry[];
      expect(listed.find((e) => e.id === before.id)?.billable).toBe(false);
      expect(listed.find((e) => e.id === during.id)?.billable).toBe(true);
    } finally {
      await setDefault(w.p, false);
    }
  });

  it('changes billable on PATCH, and leaves it when a patch moves the entry to another project', async () => {
    const entry = await log(w.alice.token, { workspaceId: w.ws, projectId: w.p });
    const patched = await t.patch(`${ENTRIES}/${entry.id}`, { billable: true }, w.alice.token);
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: entry.id, billable: true, minutes: entry.minutes });
    const moved = await t.patch(`${ENTRIES}/${entry.id}`, { projectId: null }, w.alice.token);
    expect(moved.body).toMatchObject({ projectId: null, billable: true });
    expect((await t.patch(`${ENTRIES}/${entry.id}`, { billable: false }, w.admin.token)).body.billable).toBe(false);
    // Changing billable is editing the entry: others are refused as for any edit.
    expectProblem(await t.patch(`${ENTRIES}/${entry.id}`, { billable: true }, w.bob.token), 404);
    expectProblem(await t.patch(`${ENTRIES}/${entry.id}`, { billable: true }, w.outsider.token), 404);
  });

  it.each([['yes'], [1], [null]])('is 400 naming /billable for %j, on create and on PATCH', async (billable) => {
    const created = expectProblem(await t.post(ENTRIES, { workspaceId: w.ws, start: START, minutes: 30, billable }, w.alice.token), 400);
    expect(created.errors?.map((e) => e.path)).toContain('/billable');
    const entry = await log(w.alice.token, { workspaceId: w.ws });
    const patched = expectProblem(await t.patch(`${ENTRIES}/${entry.id}`, { billable }, w.alice.token), 400);
    expect(patched.errors?.map((e) => e.path)).toContain('/billable');
  });
});
