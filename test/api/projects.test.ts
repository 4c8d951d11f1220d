import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, expectProblem, newUser, type TestContext, readOnlyToken } from '../helpers/test-app.js';
import { addMember, addProjectMember, newProject, newTeam, newWorkspace } from '../helpers/factories.js';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const projectsOf = (workspaceId: string) => `/api/v1/workspaces/${workspaceId}/projects`;
const membersOf = (projectId: string) => `/api/v1/projects/${projectId}/members`;
const projectMember = (projectId: string, userId: string) => `/api/v1/projects/${projectId}/members/${userId}`;

/** A team (see newTeam) with one project. */
async function team() {
  const members = await newTeam(t);
  return { ...members, project: await newProject(t, members.workspace.id, members.owner.token) };
}

const ids = (list: { userId: string }[]) => list.map((m) => m.userId);

describe('POST /api/v1/workspaces/:id/projects', () => {
  it('creates a project for an owner or admin', async () => {
    const { owner, admin, workspace } = await team();
    t.clock.set('2026-03-04T05:06:07.089Z');
    try {
      const res = await t.post(projectsOf(workspace.id), { name: 'Website' }, admin.token);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: res.body.id,
        workspaceId: workspace.id,
        name: 'Website',
        clientId: null,
        billableByDefault: false,
        createdAt: '2026-03-04T05:06:07.089Z',
      });
    } finally {
      t.clock.reset();
    }
    expect((await t.post(projectsOf(workspace.id), { name: 'x'.repeat(100) }, owner.token)).status).toBe(201);
  });

  it('is 403 for a member, 404 for a non-member or a missing workspace', async () => {
    const { plain, outsider, workspace } = await team();
    expectProblem(await t.post(projectsOf(workspace.id), { name: 'P' }, plain.token), 403);
    expectProblem(await t.post(projectsOf(workspace.id), { name: 'P' }, outsider.token), 404);
    expectProblem(await t.post(projectsOf('no-such-workspace'), { name: 'P' }, outsider.token), 404);
    expectProblem(await t.post(projectsOf('no-such-workspace'), { name: 'P' }), 404);
  });

  it('lets an instance admin create a project in a workspace they are not in', async () => {
    const { workspace } = await team();
    const instanceAdmin = await newUser(t, { instanceAdmin: true });
    expect((await t.post(projectsOf(workspace.id), { name: 'By admin' }, instanceAdmin.token)).status).toBe(201);
  });

  it.each([
    [{}, '/name', 'missing name'],
    [{ name: '' }, '/name', 'empty name'],
    [{ name: 'x'.repeat(101) }, '/name', 'name too long'],
    [{ name: ['P'] }, '/name', 'wrong type'],
    [{ name: 'P', workspaceId: 'x' }, '/workspaceId', 'unknown property'],
  ])('400 for %j (%s: %s)', async (body, path, _label) => {
    const { owner, workspace } = await team();
    const problem = expectProblem(await t.post(projectsOf(workspace.id), body, owner.token), 400);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
  });

  it('needs the write scope', async () => {
    const { owner, workspace } = await team();
    expectProblem(await t.post(projectsOf(workspace.id), { name: 'P' }, await readOnlyToken(t, owner)), 403);
  });
});

describe('Projects: client and billableByDefault', () => {
  const clientsOf = (workspaceId: string) => `/api/v1/workspaces/${workspaceId}/clients`;
  const projectUrl = (id: string) => `/api/v1/projects/${id}`;

  /** A team with one project and one client, and a client of another workspace of the owner's. */
  async function billingTeam() {
    const members = await team();
    const client = (await t.post(clientsOf(members.workspace.id), { name: 'Acme' }, members.owner.token)).body as { id: string };
    const elsewhere = await newWorkspace(t, members.owner);
    const foreign = (await t.post(clientsOf(elsewhere.id), { name: 'Foreign' }, members.owner.token)).body as { id: string };
    return { ...members, client, foreign };
  }

  it('creates a project with a client and billable by default', async () => {
    const { admin, workspace, client } = await billingTeam();
    const res = await t.post(projectsOf(workspace.id), { name: 'Billed', clientId: client.id, billableByDefault: true }, admin.token);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ workspaceId: workspace.id, name: 'Billed', clientId: client.id, billableByDefault: true });
    const explicitNull = await t.post(projectsOf(workspace.id), { name: 'None', clientId: null, billableByDefault: false }, admin.token);
    expect(explicitNull.body).toMatchObject({ clientId: null, billableByDefault: false });
    const listed = (await t.get(projectsOf(workspace.id), admin.token)).body.find((p: { id: string }) => p.id === res.body.id);
    expect(listed).toMatchObject({ clientId: client.id, billableByDefault: true, isMember: false });
  });

  it.each([
    ['of another workspace', 'foreign'],
    ['unknown', 'unknown'],
  ] as const)('is 400 naming /clientId for a client %s, on create and on patch', async (_label, which) => {
    const { owner, workspace, project, foreign } = await billingTeam();
    const clientId = which === 'foreign' ? foreign.id : 'no-such-client';
    const created = expectProblem(await t.post(projectsOf(workspace.id), { name: 'X', clientId }, owner.token), 400);
    expect(created.errors).toEqual([{ path: '/clientId', message: 'is not a client of this workspace' }]);
    const patched = expectProblem(await t.patch(projectUrl(project.id), { clientId }, owner.token), 400);
    expect(patched.errors).toEqual([{ path: '/clientId', message: 'is not a client of this workspace' }]);
    expect((await t.get(projectsOf(workspace.id), owner.token)).body.map((p: { clientId: null }) => p.clientId)).toEqual([null]);
  });

  it.each([
    [{ name: 'P', clientId: 7 }, '/clientId'],
    [{ name: 'P', clientId: '' }, '/clientId'],
    [{ name: 'P', billableByDefault: 'yes' }, '/billableByDefault'],
    [{ name: 'P', billableByDefault: null }, '/billableByDefault'],
  ])('400 on create for %j', async (body, path) => {
    const { owner, workspace } = await billingTeam();
    const problem = expectProblem(await t.post(projectsOf(workspace.id), body, owner.token), 400);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
  });
});

describe('PATCH /api/v1/projects/:id', () => {
  const projectUrl = (id: string) => `/api/v1/projects/${id}`;

  it('changes the name, client and billableByDefault for an owner or admin', async () => {
    const { owner, admin, workspace, project } = await team();
    const client = (await t.post(`/api/v1/workspaces/${workspace.id}/clients`, { name: 'Acme' }, owner.token)).body as { id: string };
    const res = await t.patch(projectUrl(project.id), { name: 'Renamed', clientId: client.id, billableByDefault: true }, admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...project, name: 'Renamed', clientId: client.id, billableByDefault: true, createdAt: res.body.createdAt });
    const cleared = await t.patch(projectUrl(project.id), { clientId: null }, owner.token);
    expect(cleared.body).toMatchObject({ name: 'Renamed', clientId: null, billableByDefault: true });
    const listed = (await t.get(projectsOf(workspace.id), owner.token)).body[0];
    expect(listed).toMatchObject({ id: project.id, name: 'Renamed', clientId: null, billableByDefault: true });
  });

  it('answers an empty patch with the project unchanged', async () => {
    const { owner, project } = await team();
    const res = await t.patch(projectUrl(project.id), {}, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...project, clientId: null, billableByDefault: false });
  });

  it('lets an instance admin change a project of a workspace they are not in', async () => {
    const { project } = await team();
    const instanceAdmin = await newUser(t, { instanceAdmin: true });
    expect((await t.patch(projectUrl(project.id), { billableByDefault: true }, instanceAdmin.token)).body.billableByDefault).toBe(true);
  });

  it('is 403 for a member (a project member too), 404 for a non-member or a missing project, and needs the write scope', async () => {
    const { owner, plain, outsider, workspace, project } = await team();
    await addProjectMember(t, project.id, plain.id, owner.token);
    expectProblem(await t.patch(projectUrl(project.id), { name: 'No' }, plain.token), 403);
    expectProblem(await t.patch(projectUrl(project.id), { name: 'No' }, outsider.token), 404);
    expectProblem(await t.patch(projectUrl('no-such-project'), { name: 'No' }, owner.token), 404);
    expectProblem(await t.patch(projectUrl(project.id), { name: 'No' }, await readOnlyToken(t, owner)), 403);
    expect((await t.get(projectsOf(workspace.id), owner.token)).body[0].name).toBe(project.name);
  });

  it.each([
    [{ name: '' }, '/name'],
    [{ name: 'x'.repeat(101) }, '/name'],
    [{ name: 7 }, '/name'],
    [{ clientId: 7 }, '/clientId'],
    [{ billableByDefault: 'true' }, '/billableByDefault'],
    [{ workspaceId: 'w' }, '/workspaceId'],
  ])('400 for %j', async (body, path) => {
    const { owner, project } = await team();
    const problem = expectProblem(await t.patch(projectUrl(project.id), body, owner.token), 400);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
  });

  it('takes a name of 100 characters', async () => {
    const { owner, project } = await team();
    expect((await t.patch(projectUrl(project.id), { name: 'x'.repeat(100) }, owner.token)).status).toBe(200);
  });
});

describe('GET /api/v1/workspaces/:id/projects', () => {
  it('lists every project, newest first, with isMember for the caller', async () => {
    const { owner, plain, workspace, project } = await team();
    t.clock.set('2099-01-01T00:00:00.000Z');
    const later = await newProject(t, workspace.id, owner.token, 'Later');
    t.clock.reset();
    await addProjectMember(t, later.id, plain.id, owner.token);
    const res = await t.get(projectsOf(workspace.id), plain.token);
    expect(res.status).toBe(200);
    expect(res.body.map((p: { id: string; isMember: boolean }) => [p.id, p.isMember])).toEqual([
      [later.id, true],
      [project.id, false],
    ]);
    expect(res.body[0]).toEqual({
      id: later.id,
      workspaceId: workspace.id,
      name: 'Later',
      clientId: null,
      billableByDefault: false,
      createdAt: '2099-01-01T00:00:00.000Z',
      isMember: true,
    });
    const forOwner = await t.get(projectsOf(workspace.id), owner.token);
    expect(forOwner.body.map((p: { isMember: boolean }) => p.isMember)).toEqual([false, false]);
  });

  it('answers each project exactly as it was created or changed, with isMember: the same instants, text as written, ties by id', async () => {
    const { owner, plain, workspace, project } = await team();
    const client = (await t.post(`/api/v1/workspaces/${workspace.id}/clients`, { name: 'Acme' }, owner.token)).body as { id: string };
    t.clock.set('2099-05-06T07:08:09.123Z');
    try {
      const bodies = [
        { name: 'Quote " and \\ backslash', clientId: client.id, billableByDefault: true },
        { name: 'Ünïcödé 🚀 <b>&amp;</b>' },
      ];
      const made: { id: string }[] = [];
      for (const body of bodies) made.push((await t.post(projectsOf(workspace.id), body, owner.token)).body);
      const joined = made[1]!.id;
      await addProjectMember(t, joined, plain.id, owner.token);
      const renamed = (await t.patch(`/api/v1/projects/${project.id}`, { name: 'Renamed' }, owner.token)).body;
      const res = await t.get(projectsOf(workspace.id), plain.token);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const tied = [...made].sort((a, b) => (a.id < b.id ? 1 : -1)).map((p) => ({ ...p, isMember: p.id === joined }));
      expect(res.body).toEqual([...tied, { ...renamed, isMember: false }]);
      expect(res.body[0].createdAt).toBe('2099-05-06T07:08:09.123Z');
    } finally {
      t.clock.reset();
    }
    const none = await newWorkspace(t, owner);
    expect((await t.get(projectsOf(none.id), owner.token)).text).toBe('[]');
  });

  it('does not list projects of other workspaces', async () => {
    const { owner, workspace, project } = await team();
    const other = await newWorkspace(t, owner);
    await newProject(t, other.id, owner.token);
    expect((await t.get(projectsOf(workspace.id), owner.token)).body.map((p: { id: string }) => p.id)).toEqual([project.id]);
  });

  it('is 404 for a non-member, readable with a read-only token and by an instance admin', async () => {
    const { plain, outsider, workspace } = await team();
    expectProblem(await t.get(projectsOf(workspace.id), outsider.token), 404);
    expect((await t.get(projectsOf(workspace.id), await readOnlyToken(t, plain))).status).toBe(200);
    expect((await t.get(projectsOf(workspace.id))).body).toHaveLength(1);
  });
});

describe('PUT /api/v1/projects/:id/members/:userId', () => {
  it('adds a workspace member, idempotently', async () => {
    const { owner, admin, plain, project } = await team();
    expect((await t.put(projectMember(project.id, plain.id), undefined, admin.token)).status).toBe(204);
    expect((await t.put(projectMember(project.id, plain.id), undefined, owner.token)).status).toBe(204);
    expect(ids((await t.get(membersOf(project.id), plain.token)).body)).toEqual([plain.id]);
  });

  it('is 400 for a user outside the workspace, or an unknown user', async () => {
    const { owner, outsider, project } = await team();
    const problem = expectProblem(await t.put(projectMember(project.id, outsider.id), undefined, owner.token), 400);
    expect(problem.errors?.map((e) => e.path)).toEqual(['/params/userId']);
    const unknown = expectProblem(await t.put(projectMember(project.id, 'no-such-user'), undefined, owner.token), 400);
    expect(unknown).toEqual(problem);
  });

  it('is 403 for a plain member (even for themself), 404 for a non-member or a missing project', async () => {
    const { plain, outsider, project } = await team();
    expectProblem(await t.put(projectMember(project.id, plain.id), undefined, plain.token), 403);
    expectProblem(await t.put(projectMember(project.id, outsider.id), undefined, outsider.token), 404);
    expectProblem(await t.put(projectMember('no-such-project', plain.id), undefined, plain.token), 404);
    expect((await t.get(membersOf(project.id), plain.token)).body).toEqual([]);
  });

  it('is 404 for an admin of another workspace', async () => {
    const { project, plain } = await team();
    const other = await team();
    expectProblem(await t.put(projectMember(project.id, plain.id), undefined, other.owner.token), 404);
  });

  it('lets an instance admin manage a project of a workspace they are not in', async () => {
    const { plain, project } = await team();
    const instanceAdmin = await newUser(t, { instanceAdmin: true });
    expect((await t.put(projectMember(project.id, plain.id), undefined, instanceAdmin.token)).status).toBe(204);
    expect((await t.del(projectMember(project.id, plain.id), instanceAdmin.token)).status).toBe(204);
    expect((await t.get(membersOf(project.id), instanceAdmin.token)).body).toEqual([]);
  });

  it('needs the write scope', async () => {
    const { owner, plain, project } = await team();
    expectProblem(await t.put(projectMember(project.id, plain.id), undefined, await readOnlyToken(t, owner)), 403);
  });
});

describe('DELETE /api/v1/projects/:id/members/:userId', () => {
  it('removes a member, and is 204 again when they are already gone', async () => {
    const { owner, admin, plain, project } = await team();
    await addProjectMember(t, project.id, plain.id, owner.token);
    await addProjectMember(t, project.id, owner.id, owner.token);
    expect((await t.del(projectMember(project.id, plain.id), admin.token)).status).toBe(204);
    expect((await t.del(projectMember(project.id, plain.id), admin.token)).status).toBe(204);
    expect(ids((await t.get(membersOf(project.id), owner.token)).body)).toEqual([owner.id]);
  });

  it('is 403 for a plain member (even for themself), 404 for a non-member or a missing project', async () => {
    const { owner, plain, outsider, project } = await team();
    await addProjectMember(t, project.id, plain.id, owner.token);
    expectProblem(await t.del(projectMember(project.id, plain.id), plain.token), 403);
    expectProblem(await t.del(projectMember(project.id, plain.id), outsider.token), 404);
    expectProblem(await t.del(projectMember('no-such-project', plain.id), owner.token), 404);
    expect(ids((await t.get(membersOf(project.id), owner.token)).body)).toEqual([plain.id]);
  });

  it('needs the write scope', async () => {
    const { owner, plain, project } = await team();
    expectProblem(await t.del(projectMember(project.id, plain.id), await readOnlyToken(t, owner)), 403);
  });
});

describe('GET /api/v1/projects/:id/members', () => {
  it('lists members newest first by when they were added, then user id desc, for any workspace member', async () => {
    const owner = await newUser(t, { name: 'Olga' });
    const bea = await newUser(t, { name: 'Bea' });
    const yan = await newUser(t, { name: 'Yan' });
    const ann = await newUser(t, { name: 'Ann' });
    const workspace = await newWorkspace(t, owner);
    await addMember(t, workspace.id, bea, 'member', owner.token);
    await addMember(t, workspace.id, yan, 'member', owner.token);
    await addMember(t, workspace.id, ann, 'member', owner.token);
    const project = await newProject(t, workspace.id, owner.token);
    try {
      t.clock.set('2026-03-02T00:00:00.000Z');
      await addProjectMember(t, project.id, yan.id, owner.token);
      t.clock.set('2026-03-03T00:00:00.000Z');
      await addProjectMember(t, project.id, owner.id, owner.token);
      // Added last, at the same instant as Yan: the greater (later) user id comes first.
      t.clock.set('2026-03-02T00:00:00.000Z');
      await addProjectMember(t, project.id, ann.id, owner.token);
      // Adding again changes nothing, its date included.
      t.clock.set('2026-03-04T00:00:00.000Z');
      await addProjectMember(t, project.id, yan.id, owner.token);
    } finally {
      t.clock.reset();
    }
    expect(ann.id > yan.id).toBe(true);
    const res = await t.get(membersOf(project.id), bea.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { userId: owner.id, name: 'Olga' },
      { userId: ann.id, name: 'Ann' },
      { userId: yan.id, name: 'Yan' },
    ]);
  });

  it('is 404 for a non-member and for a missing project', async () => {
    const { outsider, plain, project } = await team();
    const hidden = expectProblem(await t.get(membersOf(project.id), outsider.token), 404);
    expect(expectProblem(await t.get(membersOf('no-such-project'), plain.token), 404)).toEqual(hidden);
  });

  it('follows workspace membership: leaving the workspace drops the project membership', async () => {
    const { owner, plain, workspace, project } = await team();
    await addProjectMember(t, project.id, plain.id, owner.token);
    expect((await t.del(`/api/v1/workspaces/${workspace.id}/members/${plain.id}`, plain.token)).status).toBe(204);
    expect((await t.get(membersOf(project.id), owner.token)).body).toEqual([]);
    expectProblem(await t.get(membersOf(project.id), plain.token), 404);
  });
});
