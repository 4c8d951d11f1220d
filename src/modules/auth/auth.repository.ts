import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { apiTokens, users } from '../../db/schema.js';

export type UserRow = typeof users.$inferSelect;

/** The user behind an active token (not revoked, not expired at `now`), or undefined. */
export async function findActiveToken(db: Db, tokenHash: string, now: Date) {
  const [row] = await db
    .select({ tokenId: apiTokens.id, scopes: apiTokens.scopes, user: users })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(
      and(
        eq(apiTokens.tokenHash, tokenHash),
        isNull(apiTokens.revokedAt),
        or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now)),
      ),
    )
    .limit(1);
  return row;
}
