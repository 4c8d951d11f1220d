import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import { rowsOf } from '../db/rows.js';
import { apiTokens, users } from '../db/schema.js';

type UserRow = typeof users.$inferSelect;

export interface ActiveToken {
  tokenId: string;
  scopes: string[];
  expiresAt: Date | null;
  user: UserRow;
}

const activeToken = prepared((db) =>
  db
    .select({ tokenId: apiTokens.id, scopes: apiTokens.scopes, expiresAt: apiTokens.expiresAt, user: users })
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
export async function findActiveToken(db: Db, tokenHash: string, now: Date): Promise<ActiveToken | undefined> {
  const [row] = await activeToken(db).execute({ tokenHash, now });
  return row;
}

interface CountedRow {
  token_id: string;
  scopes: string[];
  token_expires_at: Date | string | null;
  id: string;
  name: string;
  email: string;
  timezone: string;
  image_url: string | null;
  instance_admin: boolean;
  created_at: Date | string;
  used: number;
  window_start: Date | string;
}

const asDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

/**
 * findActiveToken and the rate limit's count in ONE statement (docs/operations.md "Rate limit"):
 * the token's fixed-window counter row is upserted with `cost` added, or restarted when
 * `windowStart` begins a newer window. A clock behind another process's never moves a window back.
 */
export async function findActiveTokenCounting(
  db: Db,
  tokenHash: string,
  now: Date,
  windowStart: Date,
  cost: number,
): Promise<(ActiveToken & { used: number; windowStart: Date }) | undefined> {
  const result = await db.execute(sql`
    with t as (
      select k.id as token_id, k.scopes, k.expires_at as token_expires_at,
        u.id, u.name, u.email, u.timezone, u.image_url, u.instance_admin, u.created_at
      from api_tokens k join users u on u.id = k.user_id
      where k.token_hash = ${tokenHash} and k.revoked_at is null
        and (k.expires_at is null or k.expires_at > ${now.toISOString()}::timestamptz)
      limit 1
    ), c as (
      insert into api_rate_windows as w (token_id, window_start, used)
      select token_id, ${windowStart.toISOString()}::timestamptz, ${cost}::int from t
      on conflict (token_id) do update set
        used = case when excluded.window_start > w.window_start then excluded.used else w.used + excluded.used end,
        window_start = greatest(w.window_start, excluded.window_start)
      returning used, window_start
    )
    select t.*, c.used, c.window_start from t cross join c`);
  const [row] = rowsOf<CountedRow>(result);
  if (!row) return undefined;
  return {
    tokenId: row.token_id,
    scopes: row.scopes,
    expiresAt: row.token_expires_at === null ? null : asDate(row.token_expires_at),
    user: {
      id: row.id,
      name: row.name,
      email: row.email,
      timezone: row.timezone,
      imageUrl: row.image_url,
      instanceAdmin: row.instance_admin,
      createdAt: asDate(row.created_at),
    },
    used: row.used,
    windowStart: asDate(row.window_start),
  };
}
