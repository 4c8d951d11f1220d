/** Account deletion (docs/api.md "Users and tokens"): what goes, what stays, and when it is refused. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, expectProblem, newUser, type TestContext } from '../helpers/test-app.js';
import { addMember, addProjectMember, newProject, newWorkspace } from '../helpers/factories.js';
import { newReport } from '../helpers/report-factories.js';
import { rowsOf } from '../../src/db/rows.js';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function count(table: string, where: string): Promise<number> {
  const result = await t.database.db.execute(sql.raw(`select count(*)::int as n from ${table} where ${where}`));
  const rows = rowsOf<{ n: number }>(result);
  return rows[0]!.n;
}

describe('DELETE /api/v1/users/:id', () => {
  it("removes the account's entries, memberships, project memberships, reports and tokens", async () => {
    const boss = await newUser(t);
    const gone = await newUser(t);
    const ws = await newWorkspace(t, boss);
    await addMember(t, ws.id, gone, 'member');
    const project = await newProject(t, ws.id, boss.token);
    await addProjectMember(t, project.id, gone.id);
    await t.post(
      '/api/v1/time-entries',
      { workspaceId: ws.id, projectId: project.id, start: '2026-11-03T09:00:00.000Z', minutes: 30 },
      gone.token,
    );
    const report = await newReport(t, gone, [ws.id]);
    expect((await t.del(`/api/v1/users/${gone.id}`)).status).toBe(204);
    for (const [table, where] of [
      ['time_entries', `user_id = '${gone.id}'`],
      ['workspace_members', `user_id = '${gone.id}'`],
      ['project_members', `user_id = '${gone.id}'`],
      ['reports', `owner_user_id = '${gone.id}'`],
      ['report_contents', `report_id = '${report.id}'`],
      ['api_tokens', `user_id = '${gone.id}'`],
    ]) {
      expect({ table, n: await count(table!, where!) }).toEqual({ table, n: 0 });
    }
    expect((await t.get(`/api/v1/workspaces/${ws.id}/members`, boss.token)).body.map((m: { userId: string }) => m.userId)).toEqual([
      boss.id,
    ]);
  });

  it('deletes the only owner of a workspace nobody else is in, and keeps that workspace for instance admins', async () => {
    const other = await newUser(t);
    const loner = await newUser(t);
    const own = await newWorkspace(t, loner, 'Alone');
    const shared = await newWorkspace(t, other, 'Shared');
    await addMember(t, shared.id, loner, 'member');
    expect((await t.del(`/api/v1/users/${loner.id}`)).status).toBe(204);
    const kept = await t.get(`/api/v1/workspaces/${own.id}`);
    expect(kept.status).toBe(200);
    expect((await t.get(`/api/v1/workspaces/${own.id}/members`)).body).toEqual([]);
  });

  it('refuses (409) to delete the only owner of a workspace that has other members', async () => {
    const owner = await newUser(t);
    const member = await newUser(t);
    const ws = await newWorkspace(t, owner);
    await addMember(t, ws.id, member, 'member');
    expectProblem(await t.del(`/api/v1/users/${owner.id}`), 409);
    await addMember(t, ws.id, member, 'owner');
    expect((await t.del(`/api/v1/users/${owner.id}`)).status).toBe(204);
  });
});
