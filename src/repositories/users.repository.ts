import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { rowsOf } from '../db/rows.js';
import { onlyRow } from '../db/rows.js';
import { apiTokens, users, workspaceMembers } from '../db/schema.js';
import { alias } from 'drizzle-orm/pg-core';
import { normalizeEmail } from '../lib/email.js';

export type UserRow = typeof users.$inferSelect;
export type TokenRow = typeof apiTokens.$inferSelect;

export async function insertUser(db: Db, row: typeof users.$inferInsert): Promise<UserRow> {
  return onlyRow(await db.insert(users).values(row).returning());
}

/** Inserts unless a user with the same email (case-insensitive) exists. */
export async function insertUserIfAbsent(db: Db, row: typeof users.$inferInsert): Promise<void> {
  await db.insert(users).values(row).onConflictDoNothing();
}

export async function findUser(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/**
 * The condition "this user's email is `normalized`" (a normalizeEmail result). `lower()` lets the
 * unique index find the row; `translate()` lowers ASCII letters only, as normalizeEmail does, so
 * the match is the same on every engine and locale (docs/decisions.md "Passwords and sessions").
 */
export function emailMatches(normalized: string) {
  return sql`lower(${users.email}) = ${normalized}
    and translate(${users.email}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') = ${normalized}`;
}

/** The user with this email, compared in its normalizeEmail form. */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(emailMatches(normalizeEmail(email)));
  return row;
}

/** Newest first, the id breaking ties (docs/api.md "Conventions"). */
export function listUsers(db: Db): Promise<UserRow[]> {
  return db.select().from(users).orderBy(desc(users.createdAt), desc(users.id));
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
 * Workspaces where `userId` is the only owner while other members remain: deleting the account
 * would leave those members without an owner.
 */
export async function workspacesOwnedOnlyBy(db: Db, userId: string): Promise<string[]> {
  const me = alias(workspaceMembers, 'me');
  const rows = await db
    .select({ workspaceId: me.workspaceId })
    .from(me)
    .where(
      and(
        eq(me.userId, userId),
        eq(me.role, 'owner'),
        sql`not exists (select 1 from ${workspaceMembers} o where o.workspace_id = ${me.workspaceId} and o.role = 'owner' and o.user_id <> ${userId})`,
        sql`exists (select 1 from ${workspaceMembers} m where m.workspace_id = ${me.workspaceId} and m.user_id <> ${userId})`,
      ),
    );
  return rows.map((r) => r.workspaceId);
}

export async function insertToken(db: Db, row: typeof apiTokens.$inferInsert): Promise<TokenRow> {
  return onlyRow(await db.insert(apiTokens).values(row).returning());
}

export function listActiveTokens(db: Db, userId: string): Promise<TokenRow[]> {
  return db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .orderBy(sql`${apiTokens.createdAt} desc, ${apiTokens.id} desc`);
}

/**
 * Revokes one of the user's tokens and, in the same statement, every token it created, and those
 * tokens' own, to any depth; false when it is not theirs or already revoked.
 */
export async function revokeToken(db: Db, userId: string, tokenId: string, now: Date): Promise<boolean> {
  const result = await db.execute(sql`
    with recursive tree(id) as (
      select id from api_tokens where id = ${tokenId} and user_id = ${userId} and revoked_at is null
      union
      select t.id from api_tokens t join tree on t.created_by_token_id = tree.id
    )
    update api_tokens set revoked_at = coalesce(revoked_at, ${now.toISOString()}::timestamptz)
    where id in (select id from tree)
    returning id`);
  return rowsOf<{ id: string }>(result).some((row) => row.id === tokenId);
}
