/**
 * Who may read what (docs/api.md "Workspaces and projects", "Time entries"), in one place. Every feature that needs a
 * membership, a project's readability or the entry read rule calls these.
 */
import { and, eq, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { projectMembers, projects, timeEntries, workspaceMembers } from '../db/schema.js';

export type Role = 'owner' | 'admin' | 'member';

/** "Workspace admin" in docs/api.md means role admin or owner. */
export const isAdminRole = (role: Role | null | undefined): boolean => role === 'owner' || role === 'admin';

export async function workspaceRole(db: Db, workspaceId: string, userId: string): Promise<Role | null> {
  const [row] = await db
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
  return row?.role ?? null;
}

/** The user's role in each of `workspaceIds` they belong to. */
export async function workspaceRoles(db: Db, userId: string, workspaceIds: readonly string[]): Promise<Map<string, Role>> {
  if (workspaceIds.length === 0) return new Map();
  const rows = await db
    .select({ workspaceId: workspaceMembers.workspaceId, role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.userId, userId), inArray(workspaceMembers.workspaceId, [...workspaceIds])));
  return new Map(rows.map((r) => [r.workspaceId, r.role]));
}

/** A project is readable by its members and by admins/owners of its workspace. */
export async function canReadProject(db: Db, userId: string, projectId: string): Promise<boolean> {
  const [row] = await db
    .select({ ok: sql<boolean>`true` })
    .from(projects)
    .where(and(eq(projects.id, projectId), projectReadableBy(userId)));
  return row !== undefined;
}

/**
 * SQL condition over `projects`: the user may read this project. `userId` may be a column (e.g.
 * `users.id`), so one query can apply the rule to many users at once.
 */
export function projectReadableBy(userId: string | SQLWrapper): SQL {
  return sql`(exists (select 1 from ${workspaceMembers} wm where wm.workspace_id = ${projects.workspaceId} and wm.user_id = ${userId} and wm.role in ('owner','admin'))
    or exists (select 1 from ${projectMembers} pm where pm.project_id = ${projects.id} and pm.user_id = ${userId}))`;
}

/**
 * SQL condition over `time_entries` (docs/api.md "Time entries"): an entry is readable by its own user,
 * by admins/owners of its workspace, and by members of its project. Unassigned entries of others
 * are readable only by workspace admins/owners. Reports use the same bound, silently.
 */
export function entryReadableBy(userId: string): SQL {
  return sql`(${timeEntries.userId} = ${userId}
    or exists (select 1 from ${workspaceMembers} wm where wm.workspace_id = ${timeEntries.workspaceId} and wm.user_id = ${userId} and wm.role in ('owner','admin'))
    or (${timeEntries.projectId} is not null and exists (select 1 from ${projectMembers} pm where pm.project_id = ${timeEntries.projectId} and pm.user_id = ${userId})))`;
}

/** A user's standing towards a report's workspaces: what the report read rules need to know. */
export interface ReportStanding {
  /** A member of every one of the report's workspaces. */
  memberOfAll: boolean;
  /** An admin or owner of the report's workspace, the report being scoped to exactly one. */
  adminOfOnlyWorkspace: boolean;
}

/**
 * SQL columns computing a user's ReportStanding towards the report of the current row;
 * `workspaceIds` is that row's workspace array (a column). `userId` may be a placeholder.
 */
export function reportStandingColumns(userId: SQLWrapper | string, workspaceIds: SQLWrapper) {
  return {
    memberOfAll:
      sql<boolean>`((select count(*) from ${workspaceMembers} sm where sm.user_id = ${userId} and sm.workspace_id = any(${workspaceIds})) = cardinality(${workspaceIds}))`.mapWith(
        Boolean,
      ),
    adminOfOnlyWorkspace:
      sql<boolean>`(cardinality(${workspaceIds}) = 1 and exists (select 1 from ${workspaceMembers} sa where sa.user_id = ${userId} and sa.workspace_id = (${workspaceIds})[1] and sa.role in ('owner', 'admin')))`.mapWith(
        Boolean,
      ),
  };
}

/** A user's ReportStanding towards a report with these workspaces, in one query. */
export async function reportStanding(db: Db, userId: string, workspaceIds: readonly string[]): Promise<ReportStanding> {
  const unique = [...new Set(workspaceIds)];
  const roles = await workspaceRoles(db, userId, unique);
  const [only, ...rest] = unique;
  return {
    memberOfAll: roles.size === unique.length,
    adminOfOnlyWorkspace: only !== undefined && rest.length === 0 && isAdminRole(roles.get(only)),
  };
}
