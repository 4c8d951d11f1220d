import { and, asc, count, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { apiTokens, users, workspaceMembers, workspaces } from '../../db/schema.js';

export type UserRow = typeof users.$inferSelect;
export type TokenRow = typeof apiTokens.$inferSelect;

export async function insertUser(db: Db, row: typeof users.$inferInsert): Promise<UserRow> {
  const [created] = await db.insert(users).values(row).returning();
  return created!;
}

/** Inserts unless a user with the same email (case-insensitive) exists. */
export async function insertUserIfAbsent(db: Db, row: typeof users.$inferInsert): Promise<void> {
  await db.insert(users).values(row).onConflictDoNothing();
}

export async function findUser(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`);
  return row;
}

export function listUsers(db: Db): Promise<UserRow[]> {
  return db.select().from(users).orderBy(asc(users.createdAt), asc(users.id));
}

export async function updateUser(db: Db, id: string, patch: Partial<typeof users.$inferInsert>): Promise<UserRow | undefined> {
  if (Object.keys(patch).length === 0) return findUser(db, id);
  const [row] = await db.update(users).set(patch).where(eq(users.id, id)).returning();
  return row;
}

export async function deleteUser(db: Db, id: string): Promise<void> {
  await db.delete(users).where(eq(users.id, id));
}

export async function countInstanceAdmins(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.instanceAdmin, true));
  return row?.n ?? 0;
}

export async function countUsers(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return row?.n ?? 0;
}

/**
 * Workspaces where `userId` is the only owner, with how many other members they have.
 * Account deletion uses it: an owned workspace must not be left ownerless with members in it.
 */
export async function soleOwnedWorkspaces(db: Db, userId: string): Promise<{ workspaceId: string; otherMembers: number }[]> {
  const others = db
    .select({ workspaceId: workspaceMembers.workspaceId })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.role, 'owner'), ne(workspaceMembers.userId, userId)));
  const rows = await db
    .select({
      workspaceId: workspaceMembers.workspaceId,
      otherMembers: sql<number>`(select count(*)::int from ${workspaceMembers} m where m.workspace_id = ${workspaceMembers.workspaceId} and m.user_id <> ${userId})`,
    })
    .from(workspaceMembers)
    .where(
      and(
        eq(workspaceMembers.userId, userId),
        eq(workspaceMembers.role, 'owner'),
        sql`${workspaceMembers.workspaceId} not in ${others}`,
      ),
    );
  return rows;
}

export async function deleteWorkspaces(db: Db, ids: string[]): Promise<void> {
  if (ids.length > 0) await db.delete(workspaces).where(inArray(workspaces.id, ids));
}

export async function insertToken(db: Db, row: typeof apiTokens.$inferInsert): Promise<TokenRow> {
  const [created] = await db.insert(apiTokens).values(row).returning();
  return created!;
}

export function listActiveTokens(db: Db, userId: string): Promise<TokenRow[]> {
  return db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .orderBy(sql`${apiTokens.createdAt} desc, ${apiTokens.id} desc`);
}

/** Revokes one of the user's tokens; false when it is not theirs or already revoked. */
export async function revokeToken(db: Db, userId: string, tokenId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  return rows.length > 0;
}

export async function deleteBootstrapTokens(db: Db, exceptHash: string): Promise<void> {
  await db.delete(apiTokens).where(and(eq(apiTokens.bootstrap, true), ne(apiTokens.tokenHash, exceptHash)));
}

export async function findTokenByHash(db: Db, tokenHash: string): Promise<TokenRow | undefined> {
  const [row] = await db.select().from(apiTokens).where(eq(apiTokens.tokenHash, tokenHash));
  return row;
}
