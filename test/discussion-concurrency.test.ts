/** Races on one discussion: toggles, and writes meeting the deletion of what they point at. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, newWorkspace } from './helpers/factories.js';
import { builtInTemplateId, newReport, type TestReport } from './helpers/report-factories.js';
import { buildTestApp, newUser, type TestContext, type TestUser } from './helpers/test-app.js';

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

describe('writes racing a deletion', () => {
  it('answers 200 or 404, never 500, to reactions on a comment being deleted', async () => {
    const r = await sentReport();
    const author = users[0]!;
    const commentId = await newComment(r.reportContentId, author);
    const [deleted, ...reacts] = await Promise.all([
      t.del(`${base(r.reportContentId)}/comments/${commentId}`, author.token),
      ...users.flatMap((u) => [react(r.reportContentId, 'eyes', u.token, commentId), react(r.reportContentId, 'rocket', u.token, commentId)]),
    ]);
    expect(deleted!.status).toBe(204);
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
    expect(deleted!.status).toBe(204);
    for (const res of results) expect([200, 201, 404]).toContain(res.status);
  });
});
