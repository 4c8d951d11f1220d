import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../packages/client/src/index.js';
import { buildTestApp, expectProblem, newUser, readOnlyToken, type TestContext } from '../helpers/test-app.js';
import { newProject, newTeam, newWorkspace } from '../helpers/factories.js';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const clientsOf = (workspaceId: string) => `/api/v1/workspaces/${workspaceId}/clients`;
const clientUrl = (id: string) => `/api/v1/clients/${id}`;

/** A team (see newTeam) with one client, made by its owner. */
async function team() {
  const members = await newTeam(t);
  const client = await unwrap(
    t.client(members.owner.token).POST('/api/v1/workspaces/{id}/clients', {
      params: { path: { id: members.workspace.id } },
      body: { name: 'Acme' },
    }),
  );
  return { ...members, client };
}

describe('POST /api/v1/workspaces/:id/clients', () => {
  it('creates a client for an owner or an admin', async () => {
    const { admin, workspace } = await team();
    t.clock.set('2026-03-04T05:06:07.089Z');
    try {
      const res = await t.post(clientsOf(workspace.id), { name: 'Globex' }, admin.token);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: res.body.id,
        workspaceId: workspace.id,
        name: 'Globex',
        archived: false,
        createdAt: '2026-03-04T05:06:07.089Z',
        updatedAt: '2026-03-04T05:06:07.089Z',
      });
    } finally {
      t.clock.reset();
    }
  });

  it('lets an instance admin create a client in a workspace they are not in', async () => {
    const { workspace } = await team();
    const instanceAdmin = await newUser(t, { instanceAdmin: true });
    expect((await t.post(clientsOf(workspace.id), { name: 'By admin' }, instanceAdmin.token)).status).toBe(201);
  });

  it('is 403 for a member, 404 for a non-member or a missing workspace', async () => {
    const { plain, outsider, workspace } = await team();
    expectProblem(await t.post(clientsOf(workspace.id), { name: 'C' }, plain.token), 403);
    expectProblem(await t.post(clientsOf(workspace.id), { name: 'C' }, outsider.token), 404);
    expectProblem(await t.post(clientsOf('no-such-workspace'), { name: 'C' }, outsider.token), 404);
    expectProblem(await t.post(clientsOf('no-such-workspace'), { name: 'C' }), 404);
  });

  it('needs the write scope', async () => {
    const { owner, workspace } = await team();
    expectProblem(await t.post(clientsOf(workspace.id), { name: 'C' }, await readOnlyToken(t, owner)), 403);
  });

  it.each([
    [{}, '/name', 'missing name'],
    [{ name: '' }, '/name', 'empty name'],
    [{ name: 'x'.repeat(101) }, '/name', 'name too long'],
    [{ name: 7 }, '/name', 'wrong type'],
    [{ name: 'C', archived: true }, '/archived', 'unknown property'],
  ])('400 for %j (%s: %s)', async (body, path, _label) => {
    const { owner, workspace } = await team();
    const problem = expectProblem(await t.post(clientsOf(workspace.id), body, owner.token), 400);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
  });

  it('takes a name of 100 characters', async () => {
    const { owner, workspace } = await team();
    expect((await t.post(clientsOf(workspace.id), { name: 'x'.repeat(100) }, owner.token)).status).toBe(201);
  });

  it('is 409 for a name the workspace already has, ignoring case; another workspace may have it', async () => {
    const { owner, workspace } = await team();
    for (const name of ['Acme', 'ACME', 'acme']) {
      const problem = expectProblem(await t.post(clientsOf(workspace.id), { name }, owner.token), 409);
      expect(problem.detail).toMatch(/already has a client with this name/);
    }
    const other = await newWorkspace(t, owner);
    expect((await t.post(clientsOf(other.id), { name: 'acme' }, owner.token)).status).toBe(201);
  });

  it('gives one of two concurrent creates of one name a 201 and the other a 409', async () => {
    const { owner, workspace } = await team();
    for (let round = 0; round < 3; round++) {
      const name = `Initech ${round}`;
      const answers = await Promise.all([
        t.post(clientsOf(workspace.id), { name }, owner.token),
        t.post(clientsOf(workspace.id), { name: name.toUpperCase() }, owner.token),
      ]);
      expect(answers.map((res) => res.status).sort()).toEqual([201, 409]);
      expectProblem(
        answers.find((res) => res.status === 409)!,
        409,
      );
    }
    const listed = (await t.get(clientsOf(workspace.id), owner.token)).body as { name: string }[];
    expect(listed.filter((c) => c.name.toLowerCase().startsWith('initech'))).toHaveLength(3);
  });
});

describe('GET /api/v1/workspaces/:id/clients', () => {
  it('lists every client of the workspace, archived ones included, newest first, to its members', async () => {
    const { owner, plain, workspace, client } = await team();
    t.clock.set('2099-01-01T00:00:00.000Z');
    const later = (await t.post(clientsOf(workspace.id), { name: 'Later' }, owner.token)).body;
    t.clock.reset();
    await t.patch(clientUrl(client.id), { archived: true }, owner.token);
    const other = await newWorkspace(t, owner);
    await t.post(clientsOf(other.id), { name: 'Elsewhere' }, owner.token);
    const res = await t.get(clientsOf(workspace.id), plain.token);
    expect(res.status).toBe(200);
    expect(res.body.map((c: { id: string; archived: boolean }) => [c.id, c.archived])).toEqual([
      [later.id, false],
      [client.id, true],
    ]);
  });

  it('answers each client exactly as it was created or changed: every field, the same instants, text as written, ties by id', async () => {
    const { owner, plain, workspace, client } = await team();
    t.clock.set('2099-05-06T07:08:09.123Z');
    try {
      // Two at the same instant: the later id comes first.
      const names = ['Quote " and \\ backslash', 'Ünïcödé 🚀 <b>&amp;</b>'];
      const made: { id: string }[] = [];
      for (const name of names) made.push((await t.post(clientsOf(workspace.id), { name }, owner.token)).body);
      const archived = (await t.patch(clientUrl(client.id), { archived: true }, owner.token)).body;
      const res = await t.get(clientsOf(workspace.id), plain.token);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const tied = [...made].sort((a, b) => (a.id < b.id ? 1 : -1));
      expect(res.body).toEqual([...tied, archived]);
      expect(res.body[0].createdAt).toBe('2099-05-06T07:08:09.123Z');
    } finally {
      t.clock.reset();
    }
  });

  it('answers an empty array for a workspace without clients', async () => {
    const { owner } = await team();
    const empty = await newWorkspace(t, owner);
    const res = await t.get(clientsOf(empty.id), owner.token);
    expect(res.status).toBe(200);
    expect(res.text).toBe('[]');
  });

  it('is 404 for a non-member, readable with a read-only token and by an instance admin', async () => {
    const { plain, outsider, workspace } = await team();
    expectProblem(await t.get(clientsOf(workspace.id), outsider.token), 404);
    expectProblem(await t.get(clientsOf('no-such-workspace'), outsider.token), 404);
    expect((await t.get(clientsOf(workspace.id), await readOnlyToken(t, plain))).status).toBe(200);
    expect((await t.get(clientsOf(workspace.id))).body).toHaveLength(1);
  });
});

describe('PATCH /api/v1/clients/:id', () => {
  it('renames and archives a client, moving updatedAt', async () => {
    const { admin, client } = await team();
    t.clock.set('2099-02-03T04:05:06.007Z');
    try {
      const res = await t.patch(clientUrl(client.id), { name: 'Acme Corporation', archived: true }, admin.token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...client, name: 'Acme Corporation', archived: true, updatedAt: '2099-02-03T04:05:06.007Z' });
    } finally {
      t.clock.reset();
    }
    const back = await t.patch(clientUrl(client.id), { archived: false }, admin.token);
    expect(back.body).toMatchObject({ name: 'Acme Corporation', archived: false });
  });

  it('answers an empty patch with the client unchanged', async () => {
    const { owner, client } = await team();
    const res = await t.patch(clientUrl(client.id), {}, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(client);
  });

  it("changes the case of a client's own name, and is 409 for another client's name", async () => {
    const { owner, workspace, client } = await team();
    expect((await t.patch(clientUrl(client.id), { name: 'ACME' }, owner.token)).body.name).toBe('ACME');
    await t.post(clientsOf(workspace.id), { name: 'Globex' }, owner.token);
    expectProblem(await t.patch(clientUrl(client.id), { name: 'globex' }, owner.token), 409);
    expect((await t.get(clientsOf(workspace.id), owner.token)).body.map((c: { name: string }) => c.name).sort()).toEqual([
      'ACME',
      'Globex',
    ]);
  });

  it.each([
    [{ name: '' }, '/name'],
    [{ name: 'x'.repeat(101) }, '/name'],
    [{ archived: 'yes' }, '/archived'],
    [{ archived: null }, '/archived'],
    [{ workspaceId: 'w' }, '/workspaceId'],
  ])('400 for %j', async (body, path) => {
    const { owner, client } = await team();
    const problem = expectProblem(await t.patch(clientUrl(client.id), body, owner.token), 400);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
  });

  it('is 403 for a member, 404 for a non-member or a missing client, and needs the write scope', async () => {
    const { owner, plain, outsider, client } = await team();
    expectProblem(await t.patch(clientUrl(client.id), { name: 'X' }, plain.token), 403);
    expectProblem(await t.patch(clientUrl(client.id), { name: 'X' }, outsider.token), 404);
    expectProblem(await t.patch(clientUrl('no-such-client'), { name: 'X' }, owner.token), 404);
    expectProblem(await t.patch(clientUrl(client.id), { name: 'X' }, await readOnlyToken(t, owner)), 403);
    expect((await t.get(clientsOf(client.workspaceId), owner.token)).body[0].name).toBe('Acme');
  });
});

describe('DELETE /api/v1/clients/:id', () => {
  it('deletes the client and leaves its projects without one', async () => {
    const { owner, admin, workspace, client } = await team();
    const project = await newProject(t, workspace.id, owner.token);
    const other = await newProject(t, workspace.id, owner.token);
    expect((await t.patch(`/api/v1/projects/${project.id}`, { clientId: client.id }, owner.token)).body.clientId).toBe(client.id);
    expect((await t.del(clientUrl(client.id), admin.token)).status).toBe(204);
    const projects = (await t.get(`/api/v1/workspaces/${workspace.id}/projects`, owner.token)).body as { id: string; clientId: null }[];
    expect(projects.map((p) => [p.id, p.clientId]).sort()).toEqual(
      [
        [project.id, null],
        [other.id, null],
      ].sort(),
    );
    expect((await t.get(clientsOf(workspace.id), owner.token)).body).toEqual([]);
    expectProblem(await t.del(clientUrl(client.id), admin.token), 404);
    // The name is free again.
    expect((await t.post(clientsOf(workspace.id), { name: 'Acme' }, owner.token)).status).toBe(201);
  });

  it('is 403 for a member, 404 for a non-member or a missing client, and needs the write scope', async () => {
    const { owner, plain, outsider, client } = await team();
    expectProblem(await t.del(clientUrl(client.id), plain.token), 403);
    expectProblem(await t.del(clientUrl(client.id), outsider.token), 404);
    expectProblem(await t.del(clientUrl('no-such-client'), owner.token), 404);
    expectProblem(await t.del(clientUrl(client.id), await readOnlyToken(t, owner)), 403);
    expect((await t.get(clientsOf(client.workspaceId), owner.token)).body).toHaveLength(1);
  });
});
