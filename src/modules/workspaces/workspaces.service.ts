/** Workspaces and their memberships (platform.md section 4). */
import type { Db } from '../../db/database.js';
import type { AppContext } from '../../http/types.js';
import { conflict, forbidden, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { isAdminRole, workspaceRole, type Role } from '../access/access.repository.js';
import type { AuthContext } from '../auth/auth.js';
import { findUser } from '../users/users.repository.js';
import * as repo from './workspaces.repository.js';
import type { CreateWorkspaceInput, Member, PatchWorkspaceInput, PutMemberInput, Workspace } from './workspaces.schemas.js';

export function toWorkspace(row: repo.WorkspaceRow, role: Role): Workspace {
  return { id: row.id, name: row.name, role, createdAt: row.createdAt.toISOString() };
}

export function toMember(row: repo.MemberRow): Member {
  return { userId: row.userId, name: row.name, email: row.email, imageUrl: row.imageUrl, role: row.role };
}

/** The caller's standing in one workspace. */
export interface WorkspaceAccess {
  /** Their own membership role; null for an instance admin who is not a member. */
  readonly role: Role | null;
  /** The role they act with: instance admins act as owners everywhere (platform.md section 4). */
  readonly effectiveRole: Role;
}

/**
 * The one gate in front of a workspace and everything under it: members and instance admins pass,
 * everyone else gets the same 404 as for a workspace that does not exist.
 */
export async function workspaceAccess(db: Db, actor: AuthContext, workspaceId: string): Promise<WorkspaceAccess> {
  const role = await workspaceRole(db, workspaceId, actor.user.id);
  if (actor.user.instanceAdmin) {
    if (role || (await repo.findWorkspace(db, workspaceId))) return { role, effectiveRole: 'owner' };
    throw notFound();
  }
  if (!role) throw notFound();
  return { role, effectiveRole: role };
}

/** Writes reserved to admins/owners: 403, since a member can already see the workspace exists. */
export function requireWorkspaceAdmin(access: WorkspaceAccess): void {
  if (!isAdminRole(access.effectiveRole)) throw forbidden('Only a workspace admin or owner may do this.');
}

/** The role shown to the caller: their own, or the owner role an instance admin acts with. */
const shownRole = (access: WorkspaceAccess): Role => access.role ?? access.effectiveRole;

export async function createWorkspace(ctx: AppContext, actor: AuthContext, input: CreateWorkspaceInput): Promise<Workspace> {
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    const workspace = await repo.insertWorkspace(tx, { id: newId(), name: input.name, createdAt: now });
    await repo.upsertMember(tx, { workspaceId: workspace.id, userId: actor.user.id, role: 'owner', createdAt: now });
    return workspace;
  });
  return toWorkspace(row, 'owner');
}

/** Only the caller's own memberships, even for instance admins. */
export async function listWorkspaces(ctx: AppContext, actor: AuthContext): Promise<Workspace[]> {
  return (await repo.listWorkspacesOf(ctx.db, actor.user.id)).map((row) => toWorkspace(row, row.role));
}

export async function getWorkspace(ctx: AppContext, actor: AuthContext, id: string): Promise<Workspace> {
  const access = await workspaceAccess(ctx.db, actor, id);
  const row = await repo.findWorkspace(ctx.db, id);
  if (!row) throw notFound();
  return toWorkspace(row, shownRole(access));
}

export async function patchWorkspace(ctx: AppContext, actor: AuthContext, id: string, input: PatchWorkspaceInput): Promise<Workspace> {
  const access = await workspaceAccess(ctx.db, actor, id);
  requireWorkspaceAdmin(access);
  const row = input.name === undefined ? await repo.findWorkspace(ctx.db, id) : await repo.renameWorkspace(ctx.db, id, input.name);
  if (!row) throw notFound();
  return toWorkspace(row, shownRole(access));
}

export async function listMembers(ctx: AppContext, actor: AuthContext, workspaceId: string): Promise<Member[]> {
  await workspaceAccess(ctx.db, actor, workspaceId);
  return (await repo.listMembers(ctx.db, workspaceId)).map(toMember);
}

const onlyOwners = () => forbidden('Only a workspace owner may grant or take the owner role.');
const lastOwner = () => conflict('A workspace must keep at least one owner; make someone else owner first.');

/**
 * Adds a member or changes their role. Admins manage admins and members; only owners touch the
 * owner role, in either direction. An unknown user is 404, like any resource the caller cannot see.
 */
export async function putMember(
  ctx: AppContext,
  actor: AuthContext,
  workspaceId: string,
  userId: string,
  input: PutMemberInput,
): Promise<Member> {
  return ctx.db.transaction(async (tx) => {
    if (!(await repo.lockWorkspace(tx, workspaceId))) throw notFound();
    const access = await workspaceAccess(tx, actor, workspaceId);
    requireWorkspaceAdmin(access);
    if (!(await findUser(tx, userId))) throw notFound();
    const current = await workspaceRole(tx, workspaceId, userId);
    if ((input.role === 'owner' || current === 'owner') && access.effectiveRole !== 'owner') throw onlyOwners();
    if (current === 'owner' && input.role !== 'owner' && (await repo.countOwners(tx, workspaceId)) <= 1) throw lastOwner();
    // A user deleted meanwhile fails the foreign key: the error handler answers 404.
    await repo.upsertMember(tx, { workspaceId, userId, role: input.role, createdAt: ctx.clock.now() });
    return toMember((await repo.findMember(tx, workspaceId, userId))!);
  });
}

/**
 * Removes a member (and, by cascade, their project memberships in the workspace). Anyone may
 * leave; removing someone else needs admin/owner, and removing an owner needs an owner.
 */
export async function removeMember(ctx: AppContext, actor: AuthContext, workspaceId: string, userId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.lockWorkspace(tx, workspaceId))) throw notFound();
    const access = await workspaceAccess(tx, actor, workspaceId);
    if (userId !== actor.user.id) requireWorkspaceAdmin(access);
    const current = await workspaceRole(tx, workspaceId, userId);
    if (!current) throw notFound();
    if (current === 'owner') {
      if (userId !== actor.user.id && access.effectiveRole !== 'owner') throw onlyOwners();
      if ((await repo.countOwners(tx, workspaceId)) <= 1) throw lastOwner();
    }
    await repo.deleteMember(tx, workspaceId, userId);
  });
}
