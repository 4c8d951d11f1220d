import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import { apiTokens, users } from '../db/schema.js';

const activeToken = prepared((db) =>
  db
    .select({ tokenId: apiTokens.id, scopes: apiTokens.scopes, user: users })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(
      and(
        eq(apiTokens.tokenHash, sql.placeholder('tokenHash')),
        isNull(apiTokens.revokedAt),
        or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, sql.placeholder('now'))),
      ),
    )
    .limit(1)
    .prepare('auth_active_token'),
);

/** The user behind an active token (not revoked, not expired at `now`), or undefined. */
export async function findActiveToken(db: Db, tokenHash: string, now: Date) {
  const [row] = await activeToken(db).execute({ tokenHash, now });
  return row;
}
