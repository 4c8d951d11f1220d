/** Projects and project memberships (platform.md section 4). */
import { pgErrorCode } from '../../db/errors.js';
import type { AppContext } from '../../http/types.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { workspaceRole } from '../access/access.repository.js';
import type { AuthContext } from '../auth/auth.js';
import { requireWorkspaceAdmin, workspaceAccess, type WorkspaceAccess } from '../workspaces/workspaces.service.js';
import * as repo from './projects.repository.js';
import type { CreateProjectInput, Project, ProjectListItem, ProjectMember } from './projects.schemas.js';

export function toProject(row: repo.ProjectRow): Project {
  return { id: row.id, workspaceId: row.workspaceId, name: row.name, createdAt: row.createdAt.toISOString() };
}

export function toProjectListItem(row: repo.ProjectListRow): ProjectListItem {
  return { ...toProject(row), isMember: row.isMember };
}

export function toProjectMember(row: repo.ProjectMemberRow): ProjectMember {
  return { userId: row.userId, name: row.name };
}

/** A project is behind its workspace's gate: 404 for anyone who may not see the workspace. */
async function projectAccess(ctx: AppContext, actor: AuthContext, projectId: string): Promise<{ project: repo.ProjectRow; access: WorkspaceAccess }> {
  const project = await repo.findProject(ctx.db, projectId);
  if (!project) throw notFound();
  return { project, access: await workspaceAccess(ctx.db, actor, project.workspaceId) };
}

export async function createProject(ctx: AppContext, actor: AuthContext, workspaceId: string, input: CreateProjectInput): Promise<Project> {
  requireWorkspaceAdmin(await workspaceAccess(ctx.db, actor, workspaceId));
  // A workspace deleted meanwhile fails the foreign key: the error handler answers 404.
  return toProject(await repo.insertProject(ctx.db, { id: newId(), workspaceId, name: input.name, createdAt: ctx.clock.now() }));
}

export async function listProjects(ctx: AppContext, actor: AuthContext, workspaceId: string): Promise<ProjectListItem[]> {
  await workspaceAccess(ctx.db, actor, workspaceId);
  return (await repo.listProjects(ctx.db, workspaceId, actor.user.id)).map(toProjectListItem);
}

export async function listProjectMembers(ctx: AppContext, actor: AuthContext, projectId: string): Promise<ProjectMember[]> {
  await projectAccess(ctx, actor, projectId);
  return (await repo.listProjectMembers(ctx.db, projectId)).map(toProjectMember);
}

const notWorkspaceMember = () =>
  badRequest('The user is not a member of the project\'s workspace.', [{ path: '/params/userId', message: 'is not a member of the workspace' }]);

/**
 * Idempotent. The user must already be in the workspace; an unknown user gets the same 400, so
 * the answer says nothing about which users exist.
 */
export async function addProjectMember(ctx: AppContext, actor: AuthContext, projectId: string, userId: string): Promise<void> {
  const { project, access } = await projectAccess(ctx, actor, projectId);
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
export async function removeProjectMember(ctx: AppContext, actor: AuthContext, projectId: string, userId: string): Promise<void> {
  const { access } = await projectAccess(ctx, actor, projectId);
  requireWorkspaceAdmin(access);
  await repo.removeProjectMember(ctx.db, projectId, userId);
}
