/**
 * The facts access.ts decides on: roles, standings, and whether the parts of a predicate
 * (modules/access/predicates.ts) hold, for explaining a refusal.
 */
import { and, eq, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { rowsOf } from '../db/rows.js';
import { workspaceMembers } from '../db/schema.js';
import { isAdminOfOnlyWorkspace, isMemberOfAll, type Arg } from '../modules/access/predicates.js';

export type Role = 'owner' | 'admin' | 'member';

/** "Workspace admin" in docs/api.md means role admin or owner (the TypeScript side of predicates.ts `isWorkspaceAdmin`). */
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

/** Whether each of the named conditions holds. */
export type Facts<P> = { [K in keyof P]: boolean };

/** A select list with one column per condition, named as the condition. */
export const factColumns = (conditions: Record<string, SQL>): SQL =>
  sql.join(
    Object.entries(conditions).map(([name, condition]) => sql`${condition} as ${sql.identifier(name)}`),
    sql`, `,
  );

/** Whether each of `conditions` holds, in one statement. */
export async function factsOf<P extends Record<string, SQL>>(db: Db, conditions: P): Promise<Facts<P>> {
  const [row] = rowsOf<Facts<P>>(await db.execute(sql`select ${factColumns(conditions)}`));
  if (!row) throw new Error('a select without a from returned no row');
  return row;
}

/**
 * The first of `conditions` that does not hold, in their order, one statement each: those after
 * a failing one are never evaluated. Undefined when all hold.
 */
export async function firstFailing<P extends Record<string, SQL>>(db: Db, conditions: P): Promise<keyof P | undefined> {
  for (const [name, condition] of Object.entries(conditions)) {
    const facts = await factsOf(db, { holds: condition });
    if (!facts.holds) return name;
  }
  return undefined;
}

/** A user's standing towards a report's workspaces: what the report read rules need to know. */
export interface ReportStanding {
  /** A member of every one of the report's workspaces (predicates.ts `isMemberOfAll`). */
  memberOfAll: boolean;
  /** An admin or owner of the report's workspace, the report being scoped to exactly one (`isAdminOfOnlyWorkspace`). */
  adminOfOnlyWorkspace: boolean;
}

/**
 * SQL columns computing a user's ReportStanding towards the report of the current row;
 * `workspaceIds` is that row's workspace array (a column). `userId` may be a placeholder.
 */
export function reportStandingColumns(userId: Arg, workspaceIds: SQLWrapper) {
  return {
    memberOfAll: isMemberOfAll(workspaceIds, userId).mapWith(Boolean),
    adminOfOnlyWorkspace: isAdminOfOnlyWorkspace(workspaceIds, userId).mapWith(Boolean),
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
