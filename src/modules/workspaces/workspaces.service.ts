/** Workspaces and their memberships (docs/api.md "Workspaces and projects"). */
import type { Actor, AppContext } from '../../context.js';
import { isCurrencyCode } from '../../lib/currency.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { workspaceRole, type Role } from '../../repositories/access.repository.js';
import {
  refuseLastOwner,
  requireMemberRemover,
  requireRoleChange,
  requireWorkspaceAdmin,
  workspaceAccess,
  type WorkspaceAccess,
} from '../access/access.js';
import { findUser } from '../../repositories/users.repository.js';
import { brandingPatch, toBranding } from '../branding/branding.service.js';
import * as repo from '../../repositories/workspaces.repository.js';
import type { CreateWorkspaceInput, Member, PatchWorkspaceInput, PutMemberInput, Workspace } from './workspaces.schemas.js';

function toWorkspace(row: repo.WorkspaceViewRow, role: Role, publicBaseUrl: string): Workspace {
  return {
    id: row.id,
    name: row.name,
    role,
    currency: row.currency,
    ratesVisibleTo: row.ratesVisibleTo,
    branding: toBranding(row, publicBaseUrl),
    createdAt: row.createdAt.toISOString(),
  };
}

const NO_LOGO: repo.LogoFacts = { logoSha256: null, logoWidth: null, logoHeight: null };

function toMember(row: repo.MemberRow): Member {
  return { userId: row.userId, name: row.name, email: row.email, imageUrl: row.imageUrl, role: row.role };
}

/** The role shown to the caller: their own, or the owner role an instance admin acts with. */
const shownRole = (access: WorkspaceAccess): Role => access.role ?? access.effectiveRole;

export async function createWorkspace(ctx: AppContext, actor: Actor, input: CreateWorkspaceInput): Promise<Workspace> {
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    const workspace = await repo.insertWorkspace(tx, { id: newId(), name: input.name, createdAt: now });
    await repo.upsertMember(tx, { workspaceId: workspace.id, userId: actor.user.id, role: 'owner', createdAt: now });
    return workspace;
  });
  return toWorkspace({ ...row, ...NO_LOGO }, 'owner', ctx.config.publicBaseUrl);
}

/** Only the caller's own memberships, even for instance admins. */
export async function listWorkspaces(ctx: AppContext, actor: Actor): Promise<Workspace[]> {
  return (await repo.listWorkspacesOf(ctx.db, actor.user.id)).map((row) => toWorkspace(row, row.role, ctx.config.publicBaseUrl));
}

export async function getWorkspace(ctx: AppContext, actor: Actor, id: string): Promise<Workspace> {
  const access = await workspaceAccess(ctx.db, actor, id);
  const row = await repo.findWorkspaceView(ctx.db, id);
  if (!row) throw notFound();
  return toWorkspace(row, shownRole(access), ctx.config.publicBaseUrl);
}

/**
 * Renames the workspace, or changes its currency, who sees its rates or its branding. The currency
 * is a code of the runtime's ISO 4217 list (lib/currency.ts); the schema has already checked its
 * shape. Branding follows its own rules (branding.service.ts `brandingPatch`); any change of it
 * moves the branding version on, so share pages show it on their next view.
 */
export async function patchWorkspace(ctx: AppContext, actor: Actor, id: string, input: PatchWorkspaceInput): Promise<Workspace> {
  const access = await workspaceAccess(ctx.db, actor, id);
  requireWorkspaceAdmin(access);
  if (input.currency !== undefined && !isCurrencyCode(input.currency)) {
    throw badRequest('The request is not valid.', [{ path: '/currency', message: 'is not an ISO 4217 currency code' }]);
  }
  const patch = {
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(input.currency === undefined ? {} : { currency: input.currency }),
    ...(input.ratesVisibleTo === undefined ? {} : { ratesVisibleTo: input.ratesVisibleTo }),
    ...(input.branding === undefined ? {} : brandingPatch(input.branding)),
  };
  if (Object.keys(patch).length > 0 && !(await repo.updateWorkspace(ctx.db, id, patch, input.branding !== undefined))) throw notFound();
  const row = await repo.findWorkspaceView(ctx.db, id);
  if (!row) throw notFound();
  return toWorkspace(row, shownRole(access), ctx.config.publicBaseUrl);
}

export async function listMembers(ctx: AppContext, actor: Actor, workspaceId: string): Promise<Member[]> {
  await workspaceAccess(ctx.db, actor, workspaceId);
  return (await repo.listMembers(ctx.db, workspaceId)).map(toMember);
}

/**
 * Adds a member or changes their role. Admins manage admins and members; only owners touch the
 * owner role, in either direction. An unknown user is 404, like any resource the caller cannot see.
 */
export async function putMember(
  ctx: AppContext,
  actor: Actor,
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
    requireRoleChange(access, current, input.role);
    if (current === 'owner' && input.role !== 'owner' && (await repo.countOwners(tx, workspaceId)) <= 1) refuseLastOwner();
    // A user deleted meanwhile fails the foreign key: the error handler answers 404.
    await repo.upsertMember(tx, { workspaceId, userId, role: input.role, createdAt: ctx.clock.now() });
    const member = await repo.findMember(tx, workspaceId, userId);
    if (!member) throw notFound();
    return toMember(member);
  });
}

/**
 * Removes a member (and, by cascade, their project memberships in the workspace). Anyone may
 * leave; removing someone else needs admin/owner, and removing an owner needs an owner.
 */
export async function removeMember(ctx: AppContext, actor: Actor, workspaceId: string, userId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.lockWorkspace(tx, workspaceId))) throw notFound();
    const access = await workspaceAccess(tx, actor, workspaceId);
    requireMemberRemover(access, actor, userId);
    const current = await workspaceRole(tx, workspaceId, userId);
    if (!current) throw notFound();
    requireRoleChange(access, current, null);
    if (current === 'owner' && (await repo.countOwners(tx, workspaceId)) <= 1) refuseLastOwner();
    await repo.deleteMember(tx, workspaceId, userId);
  });
}
