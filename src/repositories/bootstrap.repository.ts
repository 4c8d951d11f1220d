import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { apiTokens, instanceState, templates } from '../db/schema.js';

/** Claims a one-off task; true for exactly one caller, even across processes. */
export async function claimOnce(db: Db, key: string, now: Date): Promise<boolean> {
  const rows = await db
    .insert(instanceState)
    .values({ key, value: true, updatedAt: now })
    .onConflictDoNothing()
    .returning({ key: instanceState.key });
  return rows.length > 0;
}

export async function insertTemplates(db: Db, rows: (typeof templates.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await db.insert(templates).values(rows).onConflictDoNothing();
}

/** Makes `tokenHash` a live read+write bootstrap token of `userId`, replacing any earlier one. */
export async function upsertBootstrapToken(db: Db, userId: string, tokenHash: string, id: string, now: Date): Promise<void> {
  await db.delete(apiTokens).where(and(eq(apiTokens.bootstrap, true), ne(apiTokens.tokenHash, tokenHash)));
  await db
    .insert(apiTokens)
    .values({ id, userId, name: 'bootstrap', tokenHash, scopes: ['read', 'write'], bootstrap: true, createdAt: now })
    .onConflictDoUpdate({
      target: apiTokens.tokenHash,
      set: { userId, scopes: ['read', 'write'], bootstrap: true, revokedAt: null, expiresAt: null },
    });
}
