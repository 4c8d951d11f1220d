/** Workspace and project factories: they go through Chronicle's typed client, as any client would. */
import { unwrap } from '../../packages/client/src/index.js';
import { newUser, type TestContext, type TestUser } from './test-app.js';

export type Role = 'owner' | 'admin' | 'member';

let counter = 0;

/** A workspace owned by `owner`. */
export async function newWorkspace(t: TestContext, owner: TestUser, name?: string): Promise<{ id: string; name: string }> {
  counter += 1;
  const made = await unwrap(t.client(owner.token).POST('/api/v1/workspaces', { body: { name: name ?? `Workspace ${counter}` } }));
  return { id: made.id, name: made.name };
}

/** Adds `user` to the workspace with `role` (or changes their role); by default as the bootstrap instance admin. */
export async function addMember(
  t: TestContext,
  workspaceId: string,
  user: { id: string },
  role: Role = 'member',
  byToken?: string,
): Promise<void> {
  await unwrap(
    t
      .client(byToken)
      .PUT('/api/v1/workspaces/{id}/members/{userId}', { params: { path: { id: workspaceId, userId: user.id } }, body: { role } }),
  );
}

/** A project in the workspace, made with `token` (an admin/owner of it, or an instance admin). */
export async function newProject(
  t: TestContext,
  workspaceId: string,
  token: string,
  name?: string,
): Promise<{ id: string; name: string; workspaceId: string }> {
  counter += 1;
  const made = await unwrap(
    t
      .client(token)
      .POST('/api/v1/workspaces/{id}/projects', { params: { path: { id: workspaceId } }, body: { name: name ?? `Project ${counter}` } }),
  );
  return { id: made.id, name: made.name, workspaceId: made.workspaceId };
}

/** Adds a workspace member to the project; by default as the bootstrap instance admin. */
export async function addProjectMember(t: TestContext, projectId: string, userId: string, token?: string): Promise<void> {
  await unwrap(t.client(token).PUT('/api/v1/projects/{id}/members/{userId}', { params: { path: { id: projectId, userId } } }));
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
