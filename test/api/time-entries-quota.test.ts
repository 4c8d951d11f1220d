/**
 * ENTRY_QUOTA_PER_USER (docs/api.md "Time entries"): the time entries one user may have in one
 * workspace. Single entries and batches past it get 409 and store nothing, exactly, under
 * concurrency and across two processes on one database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { buildPeerApp, buildTestApp, expectProblem, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';

const QUOTA = 5;
const ENTRIES = '/api/v1/time-entries';
const BATCH = '/api/v1/time-entries/batch';

let t: TestContext;
let peer: TestContext;
beforeAll(async () => {
  t = await buildTestApp({ config: { entryQuotaPerUser: QUOTA } });
  peer = await buildPeerApp(t, { entryQuotaPerUser: QUOTA });
});
afterAll(async () => {
  await peer.close();
  await t.close();
});

const entry = (workspaceId: string, day: number, extra: Record<string, unknown> = {}) => ({
  workspaceId,
  start: `2026-03-${String(day).padStart(2, '0')}T09:00:00.000Z`,
  minutes: 30,
  ...extra,
});

async function countEntries(user: TestUser, workspaceId: string): Promise<number> {
  const res = await t.get(ENTRIES, user.token, { workspaceId, userId: user.id, limit: 1 });
  return Number(res.headers['x-total-count']);
}

async function member(): Promise<{ user: TestUser; workspaceId: string }> {
  const user = await newUser(t);
  return { user, workspaceId: (await newWorkspace(t, user)).id };
}

describe('ENTRY_QUOTA_PER_USER', () => {
  it(`lets a user log ${QUOTA} entries in a workspace, refuses the next with 409 naming the quota, and counts each workspace apart`, async () => {
    const { user, workspaceId } = await member();
    const ids: string[] = [];
    for (let day = 1; day <= QUOTA; day++) {
      const res = await t.post(ENTRIES, entry(workspaceId, day), user.token);
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const refused = expectProblem(await t.post(ENTRIES, entry(workspaceId, 9), user.token), 409);
    expect(refused.detail).toMatch(/more than 5 time entries in workspace .*ENTRY_QUOTA_PER_USER/);
    expect(await countEntries(user, workspaceId)).toBe(QUOTA);
    // Another workspace has its own count.
    const other = (await newWorkspace(t, user)).id;
    expect((await t.post(ENTRIES, entry(other, 1), user.token)).status).toBe(201);
    // Deleting one makes room for one.
    expect((await t.request('DELETE', `${ENTRIES}/${ids[0]}`, { token: user.token })).status).toBe(204);
    expect((await t.post(ENTRIES, entry(workspaceId, 9), user.token)).status).toBe(201);
    expectProblem(await t.post(ENTRIES, entry(workspaceId, 10), user.token), 409);
  });

  it("counts entries an admin logs for a member against the member's quota, not the admin's", async () => {
    const { user: admin, workspaceId } = await member();
    const alice = await newUser(t);
    await addMember(t, workspaceId, alice, 'member', admin.token);
    const forAlice = Array.from({ length: QUOTA }, (_, i) => entry(workspaceId, i + 1, { userId: alice.id }));
    expect((await t.post(BATCH, { entries: forAlice }, admin.token)).status).toBe(201);
    expectProblem(await t.post(ENTRIES, entry(workspaceId, 20), alice.token), 409);
    expect((await t.post(ENTRIES, entry(workspaceId, 20), admin.token)).status).toBe(201);
  });

  it('refuses a whole batch that would pass the quota, storing none of it, and takes one that fits', async () => {
    const { user, workspaceId } = await member();
    expect((await t.post(BATCH, { entries: [1, 2, 3].map((d) => entry(workspaceId, d)) }, user.token)).status).toBe(201);
    const refused = expectProblem(await t.post(BATCH, { entries: [4, 5, 6].map((d) => entry(workspaceId, d)) }, user.token), 409);
    expect(refused.detail).toMatch(/ENTRY_QUOTA_PER_USER/);
    expect(await countEntries(user, workspaceId)).toBe(3);
    expect((await t.post(BATCH, { entries: [4, 5].map((d) => entry(workspaceId, d)) }, user.token)).status).toBe(201);
    expect(await countEntries(user, workspaceId)).toBe(QUOTA);
  });

  it('lets exactly one of two concurrent batches through when both together would pass the quota, on two processes', async () => {
    const { user, workspaceId } = await member();
    const batch = (first: number) => ({ entries: [0, 1, 2].map((i) => entry(workspaceId, first + i)) });
    const results = await Promise.all([t.post(BATCH, batch(1), user.token), peer.post(BATCH, batch(10), user.token)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await countEntries(user, workspaceId)).toBe(3);
  });

  it('lets exactly as many concurrent single entries through as the quota allows', async () => {
    const { user, workspaceId } = await member();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? peer : t).post(ENTRIES, entry(workspaceId, i + 1), user.token)),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(QUOTA);
    expect(results.filter((r) => r.status === 409)).toHaveLength(12 - QUOTA);
    expect(await countEntries(user, workspaceId)).toBe(QUOTA);
  });
});
