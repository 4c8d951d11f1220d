/** Projects and project memberships (docs/api.md "Workspaces and projects"). */
import { pgConstraint, pgErrorCode } from '../../db/errors.js';
import type { Actor, AppContext } from '../../context.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { workspaceRole } from '../../repositories/access.repository.js';
import { projectAccess, requireWorkspaceAdmin, workspaceAccess } from '../access/access.js';
import * as repo from '../../repositories/projects.repository.js';
import type { CreateProjectInput, PatchProjectInput, Project, ProjectMember } from './projects.schemas.js';

function toProject(row: repo.ProjectRow): Project {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    clientId: row.clientId,
    billableByDefault: row.billableByDefault,
    createdAt: row.createdAt.toISOString(),
  };
}

function toProjectMember(row: repo.ProjectMemberRow): ProjectMember {
  return { userId: row.userId, name: row.name };
}

/**
 * A project's client must be one of the project's workspace. The foreign key on (client, workspace)
 * checks it in the write itself, so a client deleted or of another workspace is a 400 naming
 * `/clientId` whatever happens in between; an unknown client reads the same as a foreign one.
 */
async function guardClient<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (pgErrorCode(error) === '23503' && pgConstraint(error) === repo.PROJECT_CLIENT_KEY) {
      throw badRequest('The request is not valid.', [{ path: '/clientId', message: 'is not a client of this workspace' }]);
    }
    throw error;
  }
}

export async function createProject(ctx: AppContext, actor: Actor, workspaceId: string, input: CreateProjectInput): Promise<Project> {
  requireWorkspaceAdmin(await workspaceAccess(ctx.db, actor, workspaceId));
  const row = {
    id: newId(),
    workspaceId,
    name: input.name,
    clientId: input.clientId ?? null,
    billableByDefault: input.billableByDefault ?? false,
    createdAt: ctx.clock.now(),
  };
  // A workspace deleted meanwhile fails its own foreign key: the error handler answers 404.
  return toProject(await guardClient(() => repo.insertProject(ctx.db, row)));
}

/**
 * Changes a project's name, client or default billability. A new default applies to entries
 * logged from now on; existing entries keep their `billable`.
 */
export async function patchProject(ctx: AppContext, actor: Actor, projectId: string, input: PatchProjectInput): Promise<Project> {
  const { project, access } = await projectAccess(ctx.db, actor, projectId);
  requireWorkspaceAdmin(access);
  const patch = {
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(input.clientId === undefined ? {} : { clientId: input.clientId }),
    ...(input.billableByDefault === undefined ? {} : { billableByDefault: input.billableByDefault }),
  };
  if (Object.keys(patch).length === 0) return toProject(project);
  const row = await guardClient(() => repo.updateProject(ctx.db, projectId, patch));
  if (!row) throw notFound();
  return toProject(row);
}

/** The workspace's projects as the JSON text the API answers (projects.repository.ts `projectsJson`). */
export async function listProjects(ctx: AppContext, actor: Actor, workspaceId: string): Promise<string> {
  await workspaceAccess(ctx.db, actor, workspaceId);
  return repo.projectsJson(ctx.db, workspaceId, actor.user.id);
}

export async function listProjectMembers(ctx: AppContext, actor: Actor, projectId: string): Promise<ProjectMember[]> {
  await projectAccess(ctx.db, actor, projectId);
  return (await repo.listProjectMembers(ctx.db, projectId)).map(toProjectMember);
}

const notWorkspaceMember = () =>
  badRequest("The user is not a member of the project's workspace.", [
    { path: '/params/userId', message: 'is not a member of the workspace' },
  ]);

/**
 * Idempotent. The user must already be in the workspace; an unknown user gets the same 400, so
 * the answer says nothing about which users exist.
 */
export async function addProjectMember(ctx: AppContext, actor: Actor, projectId: string, userId: string): Promise<void> {
  const { project, access } = await projectAccess(ctx.db, actor, projectId);
  requireWorkspaceAdmin(access);
  if (!(await workspaceRole(ctx.db, project.workspaceId, userId))) throw notWorkspaceMember();
  try {
    await repo.addProjectMember(ctx.db, { projectId, workspaceId: project.workspaceId, userId, createdAt: ctx.clock.now() });
  } catch (error) {
    // The workspace membership (or the project) went away between the check and the insert.
    if (pgErrorCode(error) === '23503') throw notWorkspaceMember();
    throw error;
  }
}

/** Idempotent: removing someone who is not in the project is still 204. */
export async function removeProjectMember(ctx: AppContext, actor: Actor, projectId: string, userId: string): Promise<void> {
  const { access } = await projectAccess(ctx.db, actor, projectId);
  requireWorkspaceAdmin(access);
  await repo.removeProjectMember(ctx.db, projectId, userId);
}
