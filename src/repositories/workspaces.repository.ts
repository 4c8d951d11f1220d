import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { onlyRow } from '../db/rows.js';
import { users, workspaceLogos, workspaceMembers, workspaces } from '../db/schema.js';
import type { Role } from './access.repository.js';

export type WorkspaceRow = typeof workspaces.$inferSelect;
/** What the API shows of the workspace's logo: its version and size, never its bytes. */
export interface LogoFacts {
  logoSha256: string | null;
  logoWidth: number | null;
  logoHeight: number | null;
}
/** A workspace with the facts of its logo, as the API shows it. */
export type WorkspaceViewRow = WorkspaceRow & LogoFacts;
export type WorkspaceWithRoleRow = WorkspaceViewRow & { role: Role };
export interface MemberRow {
  userId: string;
  name: string;
  email: string;
  imageUrl: string | null;
  role: Role;
}

const memberColumns = {
  userId: workspaceMembers.userId,
  name: users.name,
  email: users.email,
  imageUrl: users.imageUrl,
  role: workspaceMembers.role,
};

export async function insertWorkspace(db: Db, row: typeof workspaces.$inferInsert): Promise<WorkspaceRow> {
  return onlyRow(await db.insert(workspaces).values(row).returning());
}

export async function findWorkspace(db: Db, id: string): Promise<WorkspaceRow | undefined> {
  const [row] = await db.select().from(workspaces).where(eq(workspaces.id, id));
  return row;
}

const logoFacts = { logoSha256: workspaceLogos.sha256, logoWidth: workspaceLogos.width, logoHeight: workspaceLogos.height };

/** The workspace with the facts of its logo (none: nulls). */
export async function findWorkspaceView(db: Db, id: string): Promise<WorkspaceViewRow | undefined> {
  const [row] = await db
    .select({ workspace: workspaces, ...logoFacts })
    .from(workspaces)
    .leftJoin(workspaceLogos, eq(workspaceLogos.workspaceId, workspaces.id))
    .where(eq(workspaces.id, id));
  return row && { ...row.workspace, logoSha256: row.logoSha256, logoWidth: row.logoWidth, logoHeight: row.logoHeight };
}

/**
 * Locks the workspace row until the transaction ends, so membership changes in one workspace run
 * one after another and the last-owner check cannot race. False when the workspace is gone.
 */
export async function lockWorkspace(db: Db, id: string): Promise<boolean> {
  const rows = await db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, id)).for('update');
  return rows.length > 0;
}

/** The user's workspaces with their role, newest first. */
export function listWorkspacesOf(db: Db, userId: string): Promise<WorkspaceWithRoleRow[]> {
  return db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      currency: workspaces.currency,
      ratesVisibleTo: workspaces.ratesVisibleTo,
      brandingDisplayName: workspaces.brandingDisplayName,
      brandingAccentColor: workspaces.brandingAccentColor,
      brandingFooter: workspaces.brandingFooter,
      brandingVersion: workspaces.brandingVersion,
      createdAt: workspaces.createdAt,
      role: workspaceMembers.role,
      ...logoFacts,
    })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .leftJoin(workspaceLogos, eq(workspaceLogos.workspaceId, workspaces.id))
    .where(eq(workspaceMembers.userId, userId))
    .orderBy(desc(workspaces.createdAt), desc(workspaces.id));
}

/** The fields of a workspace its admins change (docs/api.md "Workspaces and projects", "Branding"). */
export type WorkspacePatch = Partial<
  Pick<
    typeof workspaces.$inferInsert,
    'name' | 'currency' | 'ratesVisibleTo' | 'brandingDisplayName' | 'brandingAccentColor' | 'brandingFooter'
  >
>;

/**
 * Changes the workspace; with `brandingChanged`, also moves its branding version on in the same
 * statement (the share page's cache key). false: no such workspace.
 */
export async function updateWorkspace(db: Db, id: string, patch: WorkspacePatch, brandingChanged = false): Promise<boolean> {
  const rows = await db
    .update(workspaces)
    .set({ ...patch, ...(brandingChanged ? { brandingVersion: sql`${workspaces.brandingVersion} + 1` } : {}) })
    .where(eq(workspaces.id, id))
    .returning({ id: workspaces.id });
  return rows.length > 0;
}

/** Members newest first by when they joined, the user id breaking ties (docs/api.md "Conventions"). */
export function listMembers(db: Db, workspaceId: string): Promise<MemberRow[]> {
  return db
    .select(memberColumns)
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(eq(workspaceMembers.workspaceId, workspaceId))
    .orderBy(desc(workspaceMembers.createdAt), desc(workspaceMembers.userId));
}

export async function findMember(db: Db, workspaceId: string, userId: string): Promise<MemberRow | undefined> {
  const [row] = await db
    .select(memberColumns)
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
  return row;
}

/** Adds the membership or changes its role; the original join date stays. */
export async function upsertMember(db: Db, row: typeof workspaceMembers.$inferInsert): Promise<void> {
  await db
    .insert(workspaceMembers)
    .values(row)
    .onConflictDoUpdate({ target: [workspaceMembers.workspaceId, workspaceMembers.userId], set: { role: row.role } });
}

/** Removes the membership; the project memberships in that workspace go with it (foreign key cascade). */
export async function deleteMember(db: Db, workspaceId: string, userId: string): Promise<void> {
  await db.delete(workspaceMembers).where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
}

export async function countOwners(db: Db, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, 'owner')));
  return row?.n ?? 0;
}
