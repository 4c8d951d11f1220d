/** Workspace and project factories: they go through the public API, as a client would. */
import { newUser, type TestContext, type TestUser } from './test-app.js';

export type Role = 'owner' | 'admin' | 'member';

let counter = 0;

function check(what: string, res: { status: number; text: string }, expected: number): void {
  if (res.status !== expected) throw new Error(`${what} failed: ${res.status} ${res.text}`);
}

/** A workspace owned by `owner`. */
export async function newWorkspace(t: TestContext, owner: TestUser, name?: string): Promise<{ id: string; name: string }> {
  counter += 1;
  const res = await t.post('/api/v1/workspaces', { name: name ?? `Workspace ${counter}` }, owner.token);
  check('newWorkspace', res, 201);
  return { id: res.body.id, name: res.body.name };
}

/** Adds `user` to the workspace with `role` (or changes their role); by default as the bootstrap instance admin. */
export async function addMember(
  t: TestContext,
  workspaceId: string,
  user: { id: string },
  role: Role = 'member',
  byToken?: string,
): Promise<void> {
  check('addMember', await t.put(`/api/v1/workspaces/${workspaceId}/members/${user.id}`, { role }, byToken), 200);
}

/** A project in the workspace, made with `token` (an admin/owner of it, or an instance admin). */
export async function newProject(
  t: TestContext,
  workspaceId: string,
  token: string,
  name?: string,
): Promise<{ id: string; name: string; workspaceId: string }> {
  counter += 1;
  const res = await t.post(`/api/v1/workspaces/${workspaceId}/projects`, { name: name ?? `Project ${counter}` }, token);
  check('newProject', res, 201);
  return { id: res.body.id, name: res.body.name, workspaceId: res.body.workspaceId };
}

/** Adds a workspace member to the project; by default as the bootstrap instance admin. */
export async function addProjectMember(t: TestContext, projectId: string, userId: string, token?: string): Promise<void> {
  check('addProjectMember', await t.put(`/api/v1/projects/${projectId}/members/${userId}`, undefined, token), 204);
}

/** A workspace with an owner, an admin and a plain member, plus an outsider who is in none of it. */
export async function newTeam(t: TestContext) {
  const owner = await newUser(t);
  const admin = await newUser(t);
  const plain = await newUser(t);
  const outsider = await newUser(t);
  const workspace = await newWorkspace(t, owner);
  await addMember(t, workspace.id, admin, 'admin', owner.token);
  await addMember(t, workspace.id, plain, 'member', owner.token);
  return { owner, admin, plain, outsider, workspace };
}
