/** Races on one discussion: toggles, and writes meeting the deletion of what they point at. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, newWorkspace } from '../helpers/factories.js';
import { builtInTemplateId, newReport, type TestReport } from '../helpers/report-factories.js';
import { buildTestApp, newUser, type TestContext, type TestUser } from '../helpers/test-app.js';

let t: TestContext;
let templateId: string;
let workspaceId: string;
let owner: TestUser;
let users: TestUser[];

beforeAll(async () => {
  t = await buildTestApp();
  templateId = await builtInTemplateId(t);
  owner = await newUser(t, { name: 'Owner' });
  workspaceId = (await newWorkspace(t, owner)).id;
  users = [];
  for (let i = 0; i < 5; i++) {
    const u = await newUser(t, { name: `Racer ${i}` });
    await addMember(t, workspaceId, u);
    users.push(u);
  }
});
afterAll(() => t.close());

const base = (contentId: string) => `/api/v1/report-contents/${contentId}`;
const react = (contentId: string, emoji: string, token: string, commentId?: string) =>
  t.put(`${base(contentId)}${commentId ? `/comments/${commentId}` : ''}/reactions`, { emoji }, token);

async function sentReport(): Promise<TestReport> {
  const r = await newReport(t, owner, [workspaceId], { templateId });
  const res = await t.post(`/api/v1/reports/${r.id}/send`, { recipientUserIds: users.map((u) => u.id) }, owner.token);
  if (res.status !== 201) throw new Error(`send failed: ${res.status} ${res.text}`);
  return r;
}

async function newComment(contentId: string, by: TestUser): Promise<string> {
  const res = await t.post(`${base(contentId)}/comments`, { body: 'race me' }, by.token);
  if (res.status !== 201) throw new Error(`comment failed: ${res.status} ${res.text}`);
  return res.body.id;
}

describe('concurrent reaction toggles', () => {
  it('never leaves more than one reaction per (user, emoji, target) over repeated bursts', async () => {
    const r = await sentReport();
    const commentId = await newComment(r.reportContentId, owner);
    for (let round = 0; round < 5; round++) {
      const burst = users.flatMap((u) =>
        ['+1', 'heart'].flatMap((emoji) => [
          ...Array.from({ length: 4 }, () => react(r.reportContentId, emoji, u.token)),
          ...Array.from({ length: 4 }, () => react(r.reportContentId, emoji, u.token, commentId)),
        ]),
      );
      const statuses = (await Promise.all(burst)).map((res) => res.status);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);

      const thread = (await t.get(`${base(r.reportContentId)}/discussion`, owner.token)).body;
      for (const summaries of [thread.reactions, thread.comments[0].reactions]) {
        for (const s of summaries as { count: number; userNames: string[] }[]) {
          expect(new Set(s.userNames).size).toBe(s.count);
          expect(s.count).toBeLessThanOrEqual(users.length);
        }
      }
    }
  });
});

describe('parallel toggles by one user of one reaction', () => {
  /**
   * n toggles at once: the reaction ends present exactly when n is odd, and since each toggle
   * sees the one before, the answers alternate: ceil(n/2) show it present, floor(n/2) absent,
   * each a whole state (count and reactedByMe agree).
   */
  async function toggleInParallel(n: number, onComment: boolean): Promise<void> {
    const r = await sentReport();
    const reactor = users[1]!;
    const commentId = onComment ? await newComment(r.reportContentId, owner) : undefined;
    // Another user's reaction on the same target stays untouched throughout.
    expect((await react(r.reportContentId, 'rocket', users[2]!.token, commentId)).status).toBe(200);

    const results = await Promise.all(Array.from({ length: n }, () => react(r.reportContentId, 'rocket', reactor.token, commentId)));
    expect(results.filter((res) => res.status !== 200).map((res) => res.text)).toEqual([]);
    const states = results.map((res) => {
      const summary = (res.body as { emoji: string; count: number; reactedByMe: boolean; userNames: string[] }[]).find(
        (s) => s.emoji === 'rocket',
      );
      expect(summary).toBeDefined();
      expect(summary!.count).toBe(summary!.reactedByMe ? 2 : 1);
      expect(summary!.userNames).toHaveLength(summary!.count);
      return summary!.reactedByMe;
    });
    expect(states.filter(Boolean)).toHaveLength(Math.ceil(n / 2));

    const thread = (await t.get(`${base(r.reportContentId)}/discussion`, reactor.token)).body;
    const summaries = onComment ? thread.comments[0].reactions : thread.reactions;
    expect(summaries).toEqual([
      {
        emoji: 'rocket',
        count: n % 2 === 1 ? 2 : 1,
        reactedByMe: n % 2 === 1,
        userNames: n % 2 === 1 ? ['Racer 2', 'Racer 1'] : ['Racer 2'],
      },
    ]);
  }

  it.each([
    [100, 'the body'],
    [101, 'the body'],
    [100, 'a comment'],
    [101, 'a comment'],
  ] as const)('%i toggles on %s', async (n, target) => {
    await toggleInParallel(n, target === 'a comment');
  });
});

describe('writes racing a deletion', () => {
  it('answers 200 or 404, never 500, to reactions on a comment being deleted', async () => {
    const r = await sentReport();
    const author = users[0]!;
    const commentId = await newComment(r.reportContentId, author);
    const [deleted, ...reacts] = await Promise.all([
      t.del(`${base(r.reportContentId)}/comments/${commentId}`, author.token),
      ...users.flatMap((u) => [
        react(r.reportContentId, 'eyes', u.token, commentId),
        react(r.reportContentId, 'rocket', u.token, commentId),
      ]),
    ]);
    expect(deleted.status).toBe(204);
    for (const res of reacts) expect([200, 404]).toContain(res.status);
    expect((await t.get(`${base(r.reportContentId)}/discussion`, owner.token)).body.comments).toEqual([]);
  });

  it('answers 201 or 404, never 500, to comments and reactions on a report being deleted', async () => {
    const r = await sentReport();
    const writes = users.flatMap((u) => [
      t.post(`${base(r.reportContentId)}/comments`, { body: 'late' }, u.token),
      react(r.reportContentId, 'hooray', u.token),
    ]);
    const [deleted, ...results] = await Promise.all([t.del(`/api/v1/reports/${r.id}`, owner.token), ...writes]);
    expect(deleted.status).toBe(204);
    for (const res of results) expect([200, 201, 404]).toContain(res.status);
  });
});
