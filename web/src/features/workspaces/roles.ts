/**
 * Which workspace controls to show, from the caller's role (docs/api.md "Workspaces and
 * projects"). The API decides every action; these only keep a control away from someone whose
 * request it would refuse anyway.
 */
import type { WorkspaceRole } from '../../lib/api.js';

export const ROLE_NAMES: Record<WorkspaceRole, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };

/** Admins and owners rename the workspace, manage its members and projects. */
export const isWorkspaceAdmin = (role: WorkspaceRole): boolean => role === 'owner' || role === 'admin';

/**
 * The roles the caller may give someone whose role is `current` (null: not a member yet): only
 * owners grant, change or take the owner role.
 */
export function grantableRoles(caller: WorkspaceRole, current: WorkspaceRole | null): WorkspaceRole[] {
  if (caller === 'owner') return ['member', 'admin', 'owner'];
  if (caller === 'admin' && current !== 'owner') return ['member', 'admin'];
  return [];
}

/** Anyone may leave; removing someone else needs an admin, and removing an owner an owner. */
export function mayRemove(caller: WorkspaceRole, target: WorkspaceRole, self: boolean): boolean {
  if (self) return true;
  if (caller === 'owner') return true;
  return caller === 'admin' && target !== 'owner';
}
