/** POST /api/v1/time-entries/batch: the rules of a single entry on every row, all or nothing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, expectProblem, newUser, readOnlyToken, type TestContext, type TestUser } from '../helpers/test-app.js';
import { addMember, addProjectMember, newProject, newWorkspace } from '../helpers/factories.js';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
  w = await world();
});
afterAll(() => t.close());

const BATCH = '/api/v1/time-entries/batch';
const START = '2026-03-02T09:00:00.000Z';

interface World {
  owner: TestUser;
  admin: TestUser;
  alice: TestUser;
  bob: TestUser;
  outsider: TestUser;
  ws: string;
  ws2: string;
  p: string;
  q: string;
  p2: string;
}
let w: World;

/** A workspace with an owner, an admin, alice (in P) and bob (in Q); a second workspace with P2. */
async function world(): Promise<World> {
  const [owner, admin, alice, bob, outsider] = await Promise.all([
    newUser(t, { name: 'Owner' }),
    newUser(t, { name: 'Admin' }),
    newUser(t, { name: 'Alice' }),
    newUser(t, { name: 'Bob' }),
    newUser(t, { name: 'Outsider' }),
  ]);
  const ws = (await newWorkspace(t, owner)).id;
  const ws2 = (await newWorkspace(t, owner)).id;
  await addMember(t, ws, admin, 'admin');
  await addMember(t, ws, alice);
  await addMember(t, ws, bob);
  const p = (await newProject(t, ws, owner.token, 'P')).id;
  const q = (await newProject(t, ws, owner.token, 'Q')).id;
  const p2 = (await newProject(t, ws2, owner.token, 'P2')).id;
  await addProjectMember(t, p, alice.id);
  await addProjectMember(t, q, bob.id);
  return { owner, admin, alice, bob, outsider, ws, ws2, p, q, p2 };
}

/** `n` valid entries of alice in workspace ws, project P, one minute apart. */
function aliceEntries(n: number, extra: Record<string, unknown> = {}): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({
    workspaceId: w.ws,
    projectId: w.p,
    start: new Date(Date.parse(START) + i * 60_000).toISOString(),
    minutes: 1 + (i % 1440),
    description: `Entry ${i}`,
    tags: ['batch'],
    ...extra,
  }));
}

async function countEntries(token: string, workspaceId: string): Promise<number> {
  const res = await t.get('/api/v1/time-entries', token, { workspaceId, limit: 1 });
  return Number(res.headers['x-total-count']);
}

describe('POST /api/v1/time-entries/batch', () => {
  it('creates every entry, in order, with the shape of single entries', async () => {
    const before = await countEntries(w.alice.token, w.ws);
    const entries = [
      {
        workspaceId: w.ws,
        projectId: w.p,
        start: '2026-03-02T10:00:00+01:00',
        minutes: 90,
        description: 'Design, "review"',
        tags: ['a', 'b'],
      },
      { workspaceId: w.ws, start: '2026-03-03T08:00:00Z', minutes: 15 },
      { workspaceId: w.ws, projectId: null, start: '2026-03-04T08:00:00Z', minutes: 1440, description: 'line 1\nline 2' },
    ];
    const res = await t.post(BATCH, { entries }, w.alice.token);
    expect(res.status).toBe(201);
    expect(res.body.entries).toHaveLength(3);
    const [first, second, third] = res.body.entries;
    expect(first).toMatchObject({ workspaceId: w.ws, projectId: w.p, userId: w.alice.id, start: '2026-03-02T09:00:00.000Z', minutes: 90 });
    expect(first.description).toBe('Design, "review"');
    expect(first.tags).toEqual(['a', 'b']);
    expect(second).toMatchObject({ projectId: null, description: '', tags: [], minutes: 15 });
    expect(third.description).toBe('line 1\nline 2');
    expect(Object.keys(first).sort()).toEqual(
      ['billable', 'createdAt', 'description', 'id', 'minutes', 'projectId', 'start', 'tags', 'updatedAt', 'userId', 'workspaceId'].sort(),
    );
    expect(await countEntries(w.alice.token, w.ws)).toBe(before + 3);
    const fetched = await t.get('/api/v1/time-entries', w.alice.token, {
      workspaceId: w.ws,
      from: '2026-03-02T09:00:00Z',
      to: '2026-03-02T09:00:01Z',
    });
    expect(fetched.body.map((e: { id: string }) => e.id)).toContain(first.id);
    // The answer is exactly what was stored.
    const stored = await t.get('/api/v1/time-entries', w.alice.token, {
      workspaceId: w.ws,
      from: '2026-03-02T00:00:00Z',
      to: '2026-03-05T00:00:00Z',
    });
    for (const entry of res.body.entries) expect(stored.body).toContainEqual(entry);
  });

  it('takes 1,000 entries in one request', async () => {
    const before = await countEntries(w.alice.token, w.ws);
    const res = await t.post(BATCH, { entries: aliceEntries(1000) }, w.alice.token);
    expect(res.status).toBe(201);
    expect(res.body.entries).toHaveLength(1000);
    expect(res.body.entries[999].description).toBe('Entry 999');
    expect(await countEntries(w.alice.token, w.ws)).toBe(before + 1000);
  });

  it('refuses 1,001 entries and an empty batch with 400, storing nothing', async () => {
    const before = await countEntries(w.alice.token, w.ws);
    const tooMany = expectProblem(await t.post(BATCH, { entries: aliceEntries(1001) }, w.alice.token), 400);
    expect(tooMany.errors?.[0]?.path).toBe('/entries');
    expectProblem(await t.post(BATCH, { entries: [] }, w.alice.token), 400);
    expectProblem(await t.post(BATCH, aliceEntries(2), w.alice.token), 400);
    expectProblem(await t.post(BATCH, { entries: aliceEntries(1), extra: true }, w.alice.token), 400);
    expect(await countEntries(w.alice.token, w.ws)).toBe(before);
  });

  it('takes a full batch over 1 MiB (the limit of other routes)', async () => {
    const entries = aliceEntries(1000, { description: 'd'.repeat(2000) });
    expect(Buffer.byteLength(JSON.stringify({ entries }))).toBeGreaterThan(1024 * 1024);
    expect((await t.post(BATCH, { entries }, w.alice.token)).status).toBe(201);
  });

  it('refuses a body over 8 MiB with 413', async () => {
    // Valid entries, each description's 2,000 characters written as \u escapes (6 bytes each).
    const payload = JSON.stringify({ entries: aliceEntries(1000, { description: 'x'.repeat(2000) }) });
    const padded = payload.replace(/x/g, '\\u0078');
    expect(Buffer.byteLength(padded)).toBeGreaterThan(8 * 1024 * 1024);
    const res = await t.request('POST', BATCH, { token: w.alice.token, raw: padded, headers: { 'content-type': 'application/json' } });
    expectProblem(res, 413);
  });

  it('stores nothing when one row in the middle breaks a schema rule, and names its index', async () => {
    const before = await countEntries(w.alice.token, w.ws);
    const entries = aliceEntries(10);
    entries[4] = { ...entries[4], minutes: 0 };
    entries[7] = { ...entries[7], tags: ['dup', 'dup'], bogus: 1 };
    const body = expectProblem(await t.post(BATCH, { entries }, w.alice.token), 400);
    expect(body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/entries/4/minutes', index: 4 }),
        expect.objectContaining({ path: '/entries/7/tags', index: 7 }),
        expect.objectContaining({ path: '/entries/7/bogus', index: 7 }),
      ]),
    );
    expect(await countEntries(w.alice.token, w.ws)).toBe(before);
  });

  it('refuses instants outside years 1000-9999 and U+0000 per row', async () => {
    const entries = aliceEntries(3);
    entries[1] = { ...entries[1], start: '0999-12-31T23:00:00Z' };
    entries[2] = { ...entries[2], description: 'a\u0000b', tags: ['ok', 'x\u0000'] };
    const body = expectProblem(await t.post(BATCH, { entries }, w.alice.token), 400);
    expect(body.errors).toEqual([
      { path: '/entries/1/start', message: expect.stringContaining('years 1000 to 9999'), index: 1 },
      { path: '/entries/2/description', message: 'must not contain U+0000', index: 2 },
      { path: '/entries/2/tags/1', message: 'must not contain U+0000', index: 2 },
    ]);
  });

  it('applies the rules of single entries to every row and reports each refused row; nothing is stored', async () => {
    const before = await countEntries(w.owner.token, w.ws);
    const beforeWs2 = await countEntries(w.owner.token, w.ws2);
    const entries = [
      ...aliceEntries(2),
      { workspaceId: w.ws, projectId: w.q, start: START, minutes: 5 }, // 2: alice may not read Q
      { workspaceId: w.ws, projectId: w.p2, start: START, minutes: 5 }, // 3: P2 is another workspace's
      { workspaceId: w.ws, userId: w.bob.id, start: START, minutes: 5 }, // 4: a member naming another user
      { workspaceId: w.ws2, start: START, minutes: 5 }, // 5: alice is no member of ws2
      { workspaceId: 'no-such-workspace', start: START, minutes: 5 }, // 6: reads the same as 5
      { workspaceId: w.ws, projectId: 'no-such-project', start: START, minutes: 5 }, // 7
      ...aliceEntries(1),
    ];
    const body = expectProblem(await t.post(BATCH, { entries }, w.alice.token), 400);
    expect(body.detail).toMatch(/none was stored/);
    expect(body.errors).toEqual([
      { index: 2, path: '/entries/2/projectId', message: "is not a project the entry's user may read" },
      { index: 3, path: '/entries/3/projectId', message: 'is not a project of this workspace' },
      { index: 4, path: '/entries/4/userId', message: 'only a workspace admin or owner may log time for another user' },
      { index: 5, path: '/entries/5/workspaceId', message: 'does not exist or you are not a member of it' },
      { index: 6, path: '/entries/6/workspaceId', message: 'does not exist or you are not a member of it' },
      { index: 7, path: '/entries/7/projectId', message: 'is not a project of this workspace' },
    ]);
    expect(await countEntries(w.owner.token, w.ws)).toBe(before);
    expect(await countEntries(w.owner.token, w.ws2)).toBe(beforeWs2);
  });

  it('lets a workspace admin log for members (project rules checked for the entry user), not for outsiders', async () => {
    const ok = await t.post(
      BATCH,
      {
        entries: [
          { workspaceId: w.ws, userId: w.bob.id, projectId: w.q, start: START, minutes: 30 },
          { workspaceId: w.ws, userId: w.alice.id, projectId: w.p, start: START, minutes: 30 },
          { workspaceId: w.ws, projectId: w.q, start: START, minutes: 30 }, // the admin may use any project
        ],
      },
      w.admin.token,
    );
    expect(ok.status).toBe(201);
    expect(ok.body.entries.map((e: { userId: string }) => e.userId)).toEqual([w.bob.id, w.alice.id, w.admin.id]);

    const body = expectProblem(
      await t.post(
        BATCH,
        {
          entries: [
            { workspaceId: w.ws, userId: w.bob.id, projectId: w.p, start: START, minutes: 30 },
            { workspaceId: w.ws, userId: w.outsider.id, start: START, minutes: 30 },
          ],
        },
        w.admin.token,
      ),
      400,
    );
    expect(body.errors).toEqual([
      { index: 0, path: '/entries/0/projectId', message: "is not a project the entry's user may read" },
      { index: 1, path: '/entries/1/userId', message: 'is not a member of this workspace' },
    ]);
  });

  it('refuses an outsider every row without telling which workspaces exist', async () => {
    const body = expectProblem(await t.post(BATCH, { entries: aliceEntries(2) }, w.outsider.token), 400);
    expect(body.errors?.map((e) => e.message)).toEqual([
      'does not exist or you are not a member of it',
      'does not exist or you are not a member of it',
    ]);
  });

  it('needs the write scope (403) and a token (401)', async () => {
    const readOnly = await readOnlyToken(t, w.alice);
    const res = await t.post(BATCH, { entries: aliceEntries(1) }, readOnly);
    expectProblem(res, 403);
    expect(res.headers['www-authenticate']).toContain('insufficient_scope');
    expectProblem(await t.post(BATCH, { entries: aliceEntries(1) }, null), 401);
  });

  it('keeps concurrent batches independent: a refused one stores nothing, the other everything', async () => {
    const before = await countEntries(w.alice.token, w.ws);
    const bad = aliceEntries(300);
    bad[299] = { ...bad[299], projectId: w.q };
    const [good, refused, good2] = await Promise.all([
      t.post(BATCH, { entries: aliceEntries(300) }, w.alice.token),
      t.post(BATCH, { entries: bad }, w.alice.token),
      t.post(BATCH, { entries: aliceEntries(200) }, w.alice.token),
    ]);
    expect(good.status).toBe(201);
    expectProblem(refused, 400);
    expect(good2.status).toBe(201);
    expect(await countEntries(w.alice.token, w.ws)).toBe(before + 500);
  });
});

describe('POST /api/v1/time-entries/batch: billable', () => {
  /** A start no other test uses, so the stored rows can be listed alone. */
  const ALONE = '2031-01-01T09:00:00.000Z';

  it("takes each row's billable, else its project's default, else false when unassigned", async () => {
    expect((await t.patch(`/api/v1/projects/${w.p}`, { billableByDefault: true }, w.owner.token)).status).toBe(200);
    try {
      const entries = [
        { workspaceId: w.ws, projectId: w.p, start: ALONE, minutes: 10 },
        { workspaceId: w.ws, projectId: w.p, start: ALONE, minutes: 11, billable: false },
        { workspaceId: w.ws, start: ALONE, minutes: 12 },
        { workspaceId: w.ws, start: ALONE, minutes: 13, billable: true },
        { workspaceId: w.ws, projectId: w.q, userId: w.bob.id, start: ALONE, minutes: 14 },
        { workspaceId: w.ws, projectId: w.q, userId: w.bob.id, start: ALONE, minutes: 15, billable: true },
      ];
      const res = await t.post(BATCH, { entries }, w.admin.token);
      expect(res.status).toBe(201);
      expect(res.body.entries.map((e: { minutes: number; billable: boolean }) => [e.minutes, e.billable])).toEqual([
        [10, true],
        [11, false],
        [12, false],
        [13, true],
        [14, false],
        [15, true],
      ]);
      // The answer is what was stored.
      const stored = await t.get('/api/v1/time-entries', w.admin.token, {
        workspaceId: w.ws,
        from: ALONE,
        to: '2031-01-01T09:00:01Z',
      });
      expect(stored.body).toHaveLength(entries.length);
      for (const entry of res.body.entries) expect(stored.body).toContainEqual(entry);
    } finally {
      expect((await t.patch(`/api/v1/projects/${w.p}`, { billableByDefault: false }, w.owner.token)).status).toBe(200);
    }
  });

  it('is 400 naming the row for a billable that is not a boolean', async () => {
    const entries = [...aliceEntries(2), { workspaceId: w.ws, start: START, minutes: 5, billable: 'no' }];
    const problem = expectProblem(await t.post(BATCH, { entries }, w.alice.token), 400);
    expect(problem.errors?.map((e) => e.path)).toContain('/entries/2/billable');
  });
});
