import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { onlyRow } from '../db/rows.js';
import { users, workspaceMembers, workspaces } from '../db/schema.js';
import type { Role } from './access.repository.js';

export type WorkspaceRow = typeof workspaces.$inferSelect;
export type WorkspaceWithRoleRow = WorkspaceRow & { role: Role };
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
      createdAt: workspaces.createdAt,
      role: workspaceMembers.role,
    })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(eq(workspaceMembers.userId, userId))
    .orderBy(desc(workspaces.createdAt), desc(workspaces.id));
}

/** The fields of a workspace its admins change (docs/api.md "Workspaces and projects"). */
export type WorkspacePatch = Partial<Pick<typeof workspaces.$inferInsert, 'name' | 'currency' | 'ratesVisibleTo'>>;

export async function updateWorkspace(db: Db, id: string, patch: WorkspacePatch): Promise<WorkspaceRow | undefined> {
  const [row] = await db.update(workspaces).set(patch).where(eq(workspaces.id, id)).returning();
  return row;
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
