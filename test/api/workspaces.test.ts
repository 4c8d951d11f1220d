import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, expectProblem, newUser, type TestContext, readOnlyToken } from '../helpers/test-app.js';
import { addMember, addProjectMember, newProject, newTeam, newWorkspace } from '../helpers/factories.js';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const ws = (id: string) => `/api/v1/workspaces/${id}`;
const member = (id: string, userId: string) => `/api/v1/workspaces/${id}/members/${userId}`;

const team = () => newTeam(t);

describe('POST /api/v1/workspaces', () => {
  it('creates a workspace whose creator is its owner', async () => {
    const user = await newUser(t);
    const res = await t.post('/api/v1/workspaces', { name: 'Acme' }, user.token);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['branding', 'createdAt', 'currency', 'id', 'name', 'ratesVisibleTo', 'role']);
    expect(res.body).toMatchObject({ name: 'Acme', role: 'owner' });
    expect(res.body.branding).toEqual({ displayName: null, accentColor: null, footer: '', logo: null });
    expect(res.body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const members = await t.get(`${ws(res.body.id)}/members`, user.token);
    expect(members.body).toEqual([{ userId: user.id, name: user.name, email: user.email, imageUrl: null, role: 'owner' }]);
  });

  it('accepts a name of exactly 100 characters, untrimmed', async () => {
    const user = await newUser(t);
    expect((await t.post('/api/v1/workspaces', { name: 'x'.repeat(100) }, user.token)).status).toBe(201);
    const spaced = await t.post('/api/v1/workspaces', { name: '  padded  ' }, user.token);
    expect(spaced.body.name).toBe('  padded  ');
  });

  it.each([
    [{}, '/name', 'missing name'],
    [{ name: '' }, '/name', 'empty name'],
    [{ name: 'x'.repeat(101) }, '/name', 'name too long'],
    [{ name: 42 }, '/name', 'wrong type'],
    [{ name: null }, '/name', 'null name'],
    [{ name: 'Ok', extra: true }, '/extra', 'unknown property'],
  ])('400 for %j (%s: %s)', async (body, path, _label) => {
    const user = await newUser(t);
    const problem = expectProblem(await t.post('/api/v1/workspaces', body, user.token), 400);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
  });

  it('needs a token with the write scope', async () => {
    const user = await newUser(t);
    expectProblem(await t.post('/api/v1/workspaces', { name: 'X' }, await readOnlyToken(t, user)), 403);
    expectProblem(await t.post('/api/v1/workspaces', { name: 'X' }, null), 401);
  });
});

describe('GET /api/v1/workspaces', () => {
  it("lists only the caller's workspaces with their role, newest first", async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    t.clock.set('2026-01-01T00:00:00.000Z');
    try {
      const first = await newWorkspace(t, a, 'First');
      t.clock.set('2026-01-02T00:00:00.000Z');
      const second = await newWorkspace(t, b, 'Second');
      await addMember(t, second.id, a, 'admin', b.token);
      t.clock.set('2026-01-03T00:00:00.000Z');
      const third = await newWorkspace(t, a, 'Third');
      await newWorkspace(t, b, 'Not mine');

      const res = await t.get('/api/v1/workspaces', a.token);
      expect(res.status).toBe(200);
      expect(res.body.map((w: { id: string; role: string }) => [w.id, w.role])).toEqual([
        [third.id, 'owner'],
        [second.id, 'admin'],
        [first.id, 'owner'],
      ]);
      expect(res.body[2]).toEqual({
        id: first.id,
        name: 'First',
        role: 'owner',
        currency: 'EUR',
        ratesVisibleTo: 'admins',
        branding: { displayName: null, accentColor: null, footer: '', logo: null },
        createdAt: '2026-01-01T00:00:00.000Z',
      });
    } finally {
      t.clock.reset();
    }
  });

  it('lists nothing for a user in no workspace, even an instance admin', async () => {
    const user = await newUser(t);
    expect((await t.get('/api/v1/workspaces', user.token)).body).toEqual([]);
    const admin = await newUser(t, { instanceAdmin: true });
    await newWorkspace(t, user);
    expect((await t.get('/api/v1/workspaces', admin.token)).body).toEqual([]);
  });

  it('works with a read-only token', async () => {
    const user = await newUser(t);
    expect((await t.get('/api/v1/workspaces', await readOnlyToken(t, user))).status).toBe(200);
  });
});

describe('GET /api/v1/workspaces/:id', () => {
  it("shows the workspace with the caller's role to every member", async () => {
    const { owner, admin, plain, workspace } = await team();
    for (const [user, role] of [
      [owner, 'owner'],
      [admin, 'admin'],
      [plain, 'member'],
    ] as const) {
      const res = await t.get(ws(workspace.id), user.token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: workspace.id, name: workspace.name, role });
    }
  });

  it('hides it from non-members with the same 404 as a missing workspace', async () => {
    const { outsider, workspace } = await team();
    const hidden = expectProblem(await t.get(ws(workspace.id), outsider.token), 404);
    const missing = expectProblem(await t.get(ws('no-such-workspace'), outsider.token), 404);
    expect(hidden).toEqual(missing);
  });

  it('shows an instance admin who is not a member the owner role they act with, and their real role otherwise', async () => {
    const { owner, workspace } = await team();
    const instanceAdmin = await newUser(t, { instanceAdmin: true });
    expect((await t.get(ws(workspace.id), instanceAdmin.token)).body.role).toBe('owner');
    await addMember(t, workspace.id, instanceAdmin, 'member', owner.token);
    expect((await t.get(ws(workspace.id), instanceAdmin.token)).body.role).toBe('member');
    expectProblem(await t.get(ws('no-such-workspace'), instanceAdmin.token), 404);
  });
});

describe('PATCH /api/v1/workspaces/:id', () => {
  it('lets owners and admins rename', async () => {
    const { owner, admin, workspace } = await team();
    const res = await t.patch(ws(workspace.id), { name: 'Renamed' }, admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: workspace.id, name: 'Renamed', role: 'admin' });
    expect((await t.patch(ws(workspace.id), { name: 'Again' }, owner.token)).body).toMatchObject({ name: 'Again', role: 'owner' });
    expect((await t.get(ws(workspace.id), owner.token)).body.name).toBe('Again');
  });

  it('treats an empty patch as a no-op', async () => {
    const { owner, workspace } = await team();
    const res = await t.patch(ws(workspace.id), {}, owner.token);
    expect(res.status).toBe(200);
    expect(res.body.name).toBe(workspace.name);
  });

  it('is 403 for a member, 404 for a non-member, 403 for a read-only token', async () => {
    const { owner, plain, outsider, workspace } = await team();
    expectProblem(await t.patch(ws(workspace.id), { name: 'No' }, plain.token), 403);
    expectProblem(await t.patch(ws(workspace.id), { name: 'No' }, outsider.token), 404);
    expectProblem(await t.patch(ws('no-such-workspace'), { name: 'No' }, outsider.token), 404);
    expectProblem(await t.patch(ws(workspace.id), { name: 'No' }, await readOnlyToken(t, owner)), 403);
    expect((await t.get(ws(workspace.id), owner.token)).body.name).toBe(workspace.name);
  });

  it('lets an instance admin rename a workspace they are not in', async () => {
    const { workspace } = await team();
    const res = await t.patch(ws(workspace.id), { name: 'By the instance admin' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'By the instance admin', role: 'owner' });
  });

  it.each([
    [{ name: '' }, '/name'],
    [{ name: 'x'.repeat(101) }, '/name'],
    [{ name: 7 }, '/name'],
    [{ name: 'Ok', role: 'owner' }, '/role'],
  ])('400 for %j', async (body, path) => {
    const { owner, workspace } = await team();
    const problem = expectProblem(await t.patch(ws(workspace.id), body, owner.token), 400);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
  });
});

describe('PATCH /api/v1/workspaces/:id: currency and ratesVisibleTo', () => {
  it('starts in EUR with rates visible to admins, and lets owners and admins change both', async () => {
    const { owner, admin, plain, workspace } = await team();
    expect((await t.get(ws(workspace.id), plain.token)).body).toMatchObject({ currency: 'EUR', ratesVisibleTo: 'admins' });
    const res = await t.patch(ws(workspace.id), { currency: 'JPY', ratesVisibleTo: 'members' }, admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: workspace.id, name: workspace.name, currency: 'JPY', ratesVisibleTo: 'members' });
    expect((await t.patch(ws(workspace.id), { currency: 'USD' }, owner.token)).body).toMatchObject({
      currency: 'USD',
      ratesVisibleTo: 'members',
    });
    // Every workspace answer carries them, to every member.
    expect((await t.get(ws(workspace.id), plain.token)).body).toMatchObject({ currency: 'USD', ratesVisibleTo: 'members' });
    const listed = (await t.get('/api/v1/workspaces', plain.token)).body.find((w: { id: string }) => w.id === workspace.id);
    expect(listed).toMatchObject({ currency: 'USD', ratesVisibleTo: 'members' });
    expect((await t.patch(ws(workspace.id), { name: 'Renamed' }, owner.token)).body).toMatchObject({
      name: 'Renamed',
      currency: 'USD',
      ratesVisibleTo: 'members',
    });
  });

  it('is 403 for a member, 404 for a non-member, 403 for a read-only token', async () => {
    const { owner, plain, outsider, workspace } = await team();
    expectProblem(await t.patch(ws(workspace.id), { currency: 'USD' }, plain.token), 403);
    expectProblem(await t.patch(ws(workspace.id), { ratesVisibleTo: 'members' }, plain.token), 403);
    expectProblem(await t.patch(ws(workspace.id), { currency: 'USD' }, outsider.token), 404);
    expectProblem(await t.patch(ws(workspace.id), { currency: 'USD' }, await readOnlyToken(t, owner)), 403);
    expect((await t.get(ws(workspace.id), owner.token)).body).toMatchObject({ currency: 'EUR', ratesVisibleTo: 'admins' });
  });

  it.each([
    [{ currency: 'usd' }, '/currency', 'lower case'],
    [{ currency: 'XYZ' }, '/currency', 'not an ISO 4217 code'],
    [{ currency: 'EURO' }, '/currency', 'four letters'],
    [{ currency: '' }, '/currency', 'empty'],
    [{ currency: null }, '/currency', 'null'],
    [{ ratesVisibleTo: 'everyone' }, '/ratesVisibleTo', 'unknown value'],
    [{ ratesVisibleTo: null }, '/ratesVisibleTo', 'null'],
  ])('400 for %j (%s: %s)', async (body, path, _label) => {
    const { owner, workspace } = await team();
    const problem = expectProblem(await t.patch(ws(workspace.id), body, owner.token), 400);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
    expect((await t.get(ws(workspace.id), owner.token)).body).toMatchObject({ currency: 'EUR', ratesVisibleTo: 'admins' });
  });

  it('changes nothing when one field of the patch is refused', async () => {
    const { owner, workspace } = await team();
    expectProblem(await t.patch(ws(workspace.id), { name: 'New', currency: 'XYZ' }, owner.token), 400);
    expect((await t.get(ws(workspace.id), owner.token)).body.name).toBe(workspace.name);
  });
});

describe('GET /api/v1/workspaces/:id/members', () => {
  it('lists members newest first by join date, then user id desc, for every member', async () => {
    // Users made in an order that differs from both the join order and the name order.
    const ann = await newUser(t, { name: 'Ann' });
    const owner = await newUser(t, { name: 'Mia' });
    const zed = await newUser(t, { name: 'Zed', imageUrl: 'https://example.com/z.png' });
    const ben = await newUser(t, { name: 'Ben' });
    try {
      t.clock.set('2026-02-01T00:00:00.000Z');
      const workspace = await newWorkspace(t, owner);
      t.clock.set('2026-02-03T00:00:00.000Z');
      await addMember(t, workspace.id, ann, 'member', owner.token);
      // Added later but with an earlier join date: the join date orders, not the insertion.
      t.clock.set('2026-02-02T00:00:00.000Z');
      await addMember(t, workspace.id, zed, 'admin', owner.token);
      // Same join date as Ann: the greater (later) user id comes first.
      t.clock.set('2026-02-03T00:00:00.000Z');
      await addMember(t, workspace.id, ben, 'member', owner.token);
      // A role change keeps the join date, so Zed does not move.
      t.clock.set('2026-02-04T00:00:00.000Z');
      await addMember(t, workspace.id, zed, 'member', owner.token);
      expect(ben.id > ann.id).toBe(true);

      const res = await t.get(`${ws(workspace.id)}/members`, ann.token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { userId: ben.id, name: 'Ben', email: ben.email, imageUrl: null, role: 'member' },
        { userId: ann.id, name: 'Ann', email: ann.email, imageUrl: null, role: 'member' },
        { userId: zed.id, name: 'Zed', email: zed.email, imageUrl: 'https://example.com/z.png', role: 'member' },
        { userId: owner.id, name: 'Mia', email: owner.email, imageUrl: null, role: 'owner' },
      ]);
    } finally {
      t.clock.reset();
    }
  });

  it('is 404 for a non-member and readable by an instance admin', async () => {
    const { outsider, workspace } = await team();
    expectProblem(await t.get(`${ws(workspace.id)}/members`, outsider.token), 404);
    expect((await t.get(`${ws(workspace.id)}/members`)).body).toHaveLength(3);
  });
});

describe('PUT /api/v1/workspaces/:id/members/:userId', () => {
  it('adds a member and changes their role, answering with the membership', async () => {
    const { owner, workspace } = await team();
    const user = await newUser(t, { name: 'Newcomer' });
    const added = await t.put(member(workspace.id, user.id), { role: 'member' }, owner.token);
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ userId: user.id, name: 'Newcomer', email: user.email, imageUrl: null, role: 'member' });
    const changed = await t.put(member(workspace.id, user.id), { role: 'admin' }, owner.token);
    expect(changed.body.role).toBe('admin');
    expect((await t.get(ws(workspace.id), user.token)).body.role).toBe('admin');
    const again = await t.put(member(workspace.id, user.id), { role: 'admin' }, owner.token);
    expect(again.status).toBe(200);
  });

  it('lets an admin manage admins and members, but not grant or take owner', async () => {
    const { owner, admin, plain, workspace } = await team();
    const user = await newUser(t);
    expect((await t.put(member(workspace.id, user.id), { role: 'admin' }, admin.token)).status).toBe(200);
    expect((await t.put(member(workspace.id, user.id), { role: 'member' }, admin.token)).status).toBe(200);
    expect((await t.put(member(workspace.id, plain.id), { role: 'admin' }, admin.token)).status).toBe(200);
    expectProblem(await t.put(member(workspace.id, user.id), { role: 'owner' }, admin.token), 403);
    expectProblem(await t.put(member(workspace.id, admin.id), { role: 'owner' }, admin.token), 403);
    expectProblem(await t.put(member(workspace.id, owner.id), { role: 'admin' }, admin.token), 403);
    expectProblem(await t.put(member(workspace.id, owner.id), { role: 'owner' }, admin.token), 403);
    expect((await t.get(ws(workspace.id), owner.token)).body.role).toBe('owner');
  });

  it('lets an owner grant and take owner', async () => {
    const { owner, admin, workspace } = await team();
    expect((await t.put(member(workspace.id, admin.id), { role: 'owner' }, owner.token)).body.role).toBe('owner');
    expect((await t.put(member(workspace.id, admin.id), { role: 'member' }, owner.token)).body.role).toBe('member');
  });

  it('refuses to demote the last owner (409) but allows it once another owner exists', async () => {
    const { owner, admin, workspace } = await team();
    expectProblem(await t.put(member(workspace.id, owner.id), { role: 'admin' }, owner.token), 409);
    expectProblem(await t.put(member(workspace.id, owner.id), { role: 'member' }), 409);
    await addMember(t, workspace.id, admin, 'owner', owner.token);
    expect((await t.put(member(workspace.id, owner.id), { role: 'admin' }, owner.token)).body.role).toBe('admin');
    expectProblem(await t.put(member(workspace.id, admin.id), { role: 'admin' }, admin.token), 409);
  });

  it('is 403 for a plain member (even on themself) and 404 for a non-member', async () => {
    const { plain, outsider, workspace } = await team();
    const user = await newUser(t);
    expectProblem(await t.put(member(workspace.id, user.id), { role: 'member' }, plain.token), 403);
    expectProblem(await t.put(member(workspace.id, plain.id), { role: 'admin' }, plain.token), 403);
    expectProblem(await t.put(member(workspace.id, user.id), { role: 'member' }, outsider.token), 404);
    expectProblem(await t.put(member(workspace.id, outsider.id), { role: 'owner' }, outsider.token), 404);
    expectProblem(await t.put(member('no-such-workspace', user.id), { role: 'member' }, outsider.token), 404);
  });

  it('is 404 for an unknown user', async () => {
    const { owner, workspace } = await team();
    expectProblem(await t.put(member(workspace.id, 'no-such-user'), { role: 'member' }, owner.token), 404);
  });

  it('lets an instance admin manage a workspace they are not in, owner role included', async () => {
    const { owner, plain, workspace } = await team();
    const instanceAdmin = await newUser(t, { instanceAdmin: true });
    expect((await t.put(member(workspace.id, plain.id), { role: 'owner' }, instanceAdmin.token)).body.role).toBe('owner');
    expect((await t.put(member(workspace.id, owner.id), { role: 'member' }, instanceAdmin.token)).body.role).toBe('member');
    expectProblem(await t.put(member(workspace.id, plain.id), { role: 'admin' }, instanceAdmin.token), 409);
    expect((await t.get('/api/v1/workspaces', instanceAdmin.token)).body).toEqual([]);
  });

  it.each([
    [{ role: 'superuser' }, '/role'],
    [{ role: 'Owner' }, '/role'],
    [{ role: 1 }, '/role'],
    [{}, '/role'],
    [{ role: 'member', note: 'x' }, '/note'],
  ])('400 for %j', async (body, path) => {
    const { owner, workspace } = await team();
    const user = await newUser(t);
    const problem = expectProblem(await t.put(member(workspace.id, user.id), body, owner.token), 400);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
  });

  it('needs the write scope', async () => {
    const { owner, workspace } = await team();
    const user = await newUser(t);
    expectProblem(await t.put(member(workspace.id, user.id), { role: 'member' }, await readOnlyToken(t, owner)), 403);
  });
});

describe('DELETE /api/v1/workspaces/:id/members/:userId', () => {
  it('lets an admin remove a member', async () => {
    const { owner, admin, plain, workspace } = await team();
    expect((await t.del(member(workspace.id, plain.id), admin.token)).status).toBe(204);
    expectProblem(await t.get(ws(workspace.id), plain.token), 404);
    const ids = (await t.get(`${ws(workspace.id)}/members`, owner.token)).body.map((m: { userId: string }) => m.userId);
    expect(ids).not.toContain(plain.id);
  });

  it('lets any member leave by themself', async () => {
    const { admin, plain, workspace } = await team();
    expect((await t.del(member(workspace.id, plain.id), plain.token)).status).toBe(204);
    expect((await t.del(member(workspace.id, admin.id), admin.token)).status).toBe(204);
    expect((await t.get('/api/v1/workspaces', plain.token)).body).toEqual([]);
  });

  it('is 403 for a member removing someone else, and for an admin removing an owner', async () => {
    const { owner, admin, plain, workspace } = await team();
    expectProblem(await t.del(member(workspace.id, admin.id), plain.token), 403);
    expectProblem(await t.del(member(workspace.id, owner.id), plain.token), 403);
    await addMember(t, workspace.id, admin, 'admin', owner.token);
    const second = await newUser(t);
    await addMember(t, workspace.id, second, 'owner', owner.token);
    expectProblem(await t.del(member(workspace.id, second.id), admin.token), 403);
    expect((await t.get(`${ws(workspace.id)}/members`, owner.token)).body).toHaveLength(4);
  });

  it('lets an owner remove another owner, but never the last one (409)', async () => {
    const { owner, workspace } = await team();
    const second = await newUser(t);
    await addMember(t, workspace.id, second, 'owner', owner.token);
    expect((await t.del(member(workspace.id, second.id), owner.token)).status).toBe(204);
    expectProblem(await t.del(member(workspace.id, owner.id), owner.token), 409);
    expectProblem(await t.del(member(workspace.id, owner.id)), 409);
    expect((await t.get(ws(workspace.id), owner.token)).body.role).toBe('owner');
  });

  it('refuses the last owner leaving a workspace of their own (409)', async () => {
    const user = await newUser(t);
    const workspace = await newWorkspace(t, user);
    expectProblem(await t.del(member(workspace.id, user.id), user.token), 409);
  });

  it('is 404 for a non-member, and for a user who is not a member', async () => {
    const { owner, plain, outsider, workspace } = await team();
    expectProblem(await t.del(member(workspace.id, plain.id), outsider.token), 404);
    expectProblem(await t.del(member(workspace.id, outsider.id), outsider.token), 404);
    expectProblem(await t.del(member(workspace.id, outsider.id), owner.token), 404);
    expectProblem(await t.del(member('no-such-workspace', outsider.id), outsider.token), 404);
  });

  it('lets an instance admin remove anyone from a workspace they are not in', async () => {
    const { owner, admin, workspace } = await team();
    const second = await newUser(t);
    await addMember(t, workspace.id, second, 'owner', owner.token);
    const instanceAdmin = await newUser(t, { instanceAdmin: true });
    expect((await t.del(member(workspace.id, admin.id), instanceAdmin.token)).status).toBe(204);
    expect((await t.del(member(workspace.id, second.id), instanceAdmin.token)).status).toBe(204);
    expectProblem(await t.del(member(workspace.id, owner.id), instanceAdmin.token), 409);
  });

  it("drops the removed member's project memberships in that workspace", async () => {
    const { owner, plain, workspace } = await team();
    const project = await newProject(t, workspace.id, owner.token);
    await addProjectMember(t, project.id, plain.id, owner.token);
    await addProjectMember(t, project.id, owner.id, owner.token);
    expect((await t.del(member(workspace.id, plain.id), owner.token)).status).toBe(204);
    const members = await t.get(`/api/v1/projects/${project.id}/members`, owner.token);
    expect(members.body.map((m: { userId: string }) => m.userId)).toEqual([owner.id]);
    await addMember(t, workspace.id, plain, 'member', owner.token);
    const projects = await t.get(`${ws(workspace.id)}/projects`, plain.token);
    expect(projects.body[0].isMember).toBe(false);
  });

  it('needs the write scope', async () => {
    const { plain, workspace } = await team();
    expectProblem(await t.del(member(workspace.id, plain.id), await readOnlyToken(t, plain)), 403);
  });
});

describe('OpenAPI', () => {
  it('describes the workspace endpoints', async () => {
    const doc = (await t.get('/openapi.json', null)).body;
    expect(doc.paths['/api/v1/workspaces/{id}/members/{userId}'].put.tags).toEqual(['workspaces']);
    expect(doc.paths['/api/v1/workspaces/{id}/projects'].get.tags).toEqual(['projects']);
  });
});
