import { and, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import { onlyRow, rowsOf } from '../db/rows.js';
import { apiTokens, authFailures, passwordLinks, passwords, sessions, users } from '../db/schema.js';
import { emailMatches } from './users.repository.js';

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

/** The user's columns as the counting statements return them. */
interface CountedUserRow {
  id: string;
  name: string;
  email: string;
  timezone: string;
  locale: string;
  image_url: string | null;
  instance_admin: boolean;
  created_at: Date | string;
  used: number;
  window_start: Date | string;
}

interface CountedTokenRow extends CountedUserRow {
  token_id: string;
  scopes: string[];
  token_expires_at: Date | string | null;
}

interface CountedSessionRow extends CountedUserRow {
  session_id: string;
  last_seen_at: Date | string;
}

const asDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));

/** What a counting statement adds to the credential it finds: the user's use of this window. */
export interface RateCount {
  used: number;
  windowStart: Date;
}

function userOf(row: CountedUserRow): UserRow {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    timezone: row.timezone,
    locale: row.locale,
    imageUrl: row.image_url,
    instanceAdmin: row.instance_admin,
    createdAt: asDate(row.created_at),
  };
}

/**
 * The user's fixed-window counter, upserted with `cost` added for the user the CTE `found` names
 * (or restarted when `windowStart` begins a newer window); a clock behind another process's never
 * moves a window back. Every token and session of the user spends this one row.
 */
const countUser = (windowStart: Date, cost: number) => sql`
    insert into user_rate_windows as w (user_id, window_start, used)
    select id, ${windowStart.toISOString()}::timestamptz, ${cost}::int from found
    on conflict (user_id) do update set
      used = case when excluded.window_start > w.window_start then excluded.used else w.used + excluded.used end,
      window_start = greatest(w.window_start, excluded.window_start)
    returning used, window_start`;

/**
 * Adds `units` to the user's counter after the work they paid for turned out larger than its
 * declared cost (auth.ts `chargeWork`), with the same window rule as countUser; the counter as it
 * now stands.
 */
export async function addRateUnits(db: Db, userId: string, windowStart: Date, units: number): Promise<RateCount> {
  const result = await db.execute(sql`
    insert into user_rate_windows as w (user_id, window_start, used)
    values (${userId}, ${windowStart.toISOString()}::timestamptz, ${units}::int)
    on conflict (user_id) do update set
      used = case when excluded.window_start > w.window_start then excluded.used else w.used + excluded.used end,
      window_start = greatest(w.window_start, excluded.window_start)
    returning used, window_start`);
  const [row] = rowsOf<RateRow>(result);
  return { used: row?.used ?? units, windowStart: asDate(row?.window_start ?? windowStart) };
}

interface RateRow {
  used: number;
  window_start: Date | string;
}

/** The user's counter, or undefined before their first counted request. */
export async function findRateCount(db: Db, userId: string): Promise<RateCount | undefined> {
  const result = await db.execute(sql`select used, window_start from user_rate_windows where user_id = ${userId}`);
  const [row] = rowsOf<RateRow>(result);
  return row && { used: row.used, windowStart: asDate(row.window_start) };
}

/**
 * findActiveToken and the rate limit's count in ONE statement (docs/operations.md "Rate limit"):
 * the token's user's counter is charged `cost`.
 */
export async function findActiveTokenCounting(
  db: Db,
  tokenHash: string,
  now: Date,
  windowStart: Date,
  cost: number,
): Promise<(ActiveToken & RateCount) | undefined> {
  const result = await db.execute(sql`
    with found as (
      select k.id as token_id, k.scopes, k.expires_at as token_expires_at,
        u.id, u.name, u.email, u.timezone, u.locale, u.image_url, u.instance_admin, u.created_at
      from api_tokens k join users u on u.id = k.user_id
      where k.token_hash = ${tokenHash} and k.revoked_at is null
        and (k.expires_at is null or k.expires_at > ${now.toISOString()}::timestamptz)
      limit 1
    ), c as (${countUser(windowStart, cost)})
    select found.*, c.used, c.window_start from found cross join c`);
  const [row] = rowsOf<CountedTokenRow>(result);
  if (!row) return undefined;
  return {
    tokenId: row.token_id,
    scopes: row.scopes,
    expiresAt: row.token_expires_at === null ? null : asDate(row.token_expires_at),
    user: userOf(row),
    used: row.used,
    windowStart: asDate(row.window_start),
  };
}

/** findLiveSession and the rate limit's count in ONE statement, charged to the session's user. */
export async function findLiveSessionCounting(
  db: Db,
  tokenHash: string,
  now: Date,
  idleSince: Date,
  windowStart: Date,
  cost: number,
): Promise<(LiveSession & RateCount) | undefined> {
  const result = await db.execute(sql`
    with found as (
      select s.id as session_id, s.last_seen_at,
        u.id, u.name, u.email, u.timezone, u.locale, u.image_url, u.instance_admin, u.created_at
      from sessions s join users u on u.id = s.user_id
      where s.token_hash = ${tokenHash} and s.expires_at > ${now.toISOString()}::timestamptz
        and s.last_seen_at > ${idleSince.toISOString()}::timestamptz
      limit 1
    ), c as (${countUser(windowStart, cost)})
    select found.*, c.used, c.window_start from found cross join c`);
  const [row] = rowsOf<CountedSessionRow>(result);
  if (!row) return undefined;
  return {
    sessionId: row.session_id,
    lastSeenAt: asDate(row.last_seen_at),
    user: userOf(row),
    used: row.used,
    windowStart: asDate(row.window_start),
  };
}

// ---------------------------------------------------------------------------------------------
// Sessions

export type SessionRow = typeof sessions.$inferSelect;

const liveSession = prepared((db) =>
  db
    .select({ sessionId: sessions.id, lastSeenAt: sessions.lastSeenAt, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        gt(sessions.expiresAt, sql.placeholder('now')),
        gt(sessions.lastSeenAt, sql.placeholder('idleSince')),
      ),
    )
    .limit(1)
    .prepare('auth_live_session'),
);

export interface LiveSession {
  sessionId: string;
  lastSeenAt: Date;
  user: UserRow;
}

/** The user behind a session that has passed neither its absolute limit nor its idle limit. */
export async function findLiveSession(db: Db, tokenHash: string, now: Date, idleSince: Date): Promise<LiveSession | undefined> {
  const [row] = await liveSession(db).execute({ tokenHash, now, idleSince });
  return row;
}

export async function insertSession(db: Db, row: typeof sessions.$inferInsert): Promise<SessionRow> {
  return onlyRow(await db.insert(sessions).values(row).returning());
}

/** Moves a session's idle limit forward. */
export async function touchSession(db: Db, sessionId: string, now: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, sessionId));
}

/** The user's sessions still within both limits, newest first. */
export function listLiveSessions(db: Db, userId: string, now: Date, idleSince: Date): Promise<SessionRow[]> {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now), gt(sessions.lastSeenAt, idleSince)))
    .orderBy(sql`${sessions.createdAt} desc, ${sessions.id} desc`);
}

/** Ends one of the user's sessions; false when the user has no such session. */
export async function deleteSession(db: Db, userId: string, sessionId: string): Promise<boolean> {
  const deleted = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  return deleted.length > 0;
}

/** Ends every session of the user but `keep` (null ends them all); also sweeps expired rows. */
export async function deleteOtherSessions(db: Db, userId: string, keep: string | null): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), keep === null ? undefined : ne(sessions.id, keep)));
}

/** Removes sessions past their absolute or idle limit (they can never be used again). */
export async function deleteDeadSessions(db: Db, userId: string, now: Date, idleSince: Date): Promise<void> {
  await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), or(sql`${sessions.expiresAt} <= ${now}`, sql`${sessions.lastSeenAt} <= ${idleSince}`)));
}

// ---------------------------------------------------------------------------------------------
// Passwords and set-password links

/** The user with this email (a normalizeEmail result) and their password hash, if any. */
export async function findUserWithPassword(db: Db, normalizedEmail: string) {
  const [row] = await db
    .select({ user: users, hash: passwords.hash })
    .from(users)
    .leftJoin(passwords, eq(passwords.userId, users.id))
    .where(emailMatches(normalizedEmail))
    .limit(1);
  return row;
}

export async function findPasswordHash(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ hash: passwords.hash }).from(passwords).where(eq(passwords.userId, userId));
  return row?.hash;
}

export async function upsertPassword(db: Db, userId: string, hash: string, now: Date): Promise<void> {
  await db
    .insert(passwords)
    .values({ userId, hash, updatedAt: now })
    .onConflictDoUpdate({ target: passwords.userId, set: { hash, updatedAt: now } });
}

/** Replaces the user's unused links with a new one. */
export async function replacePasswordLink(db: Db, row: typeof passwordLinks.$inferInsert): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(passwordLinks).where(and(eq(passwordLinks.userId, row.userId), isNull(passwordLinks.usedAt)));
    await tx.insert(passwordLinks).values(row);
  });
}

/** The user of an unused, unexpired link, without using it (nothing is hashed for an unknown link). */
export async function findUsablePasswordLink(db: Db, tokenHash: string, now: Date): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: passwordLinks.userId })
    .from(passwordLinks)
    .where(and(eq(passwordLinks.tokenHash, tokenHash), isNull(passwordLinks.usedAt), gt(passwordLinks.expiresAt, now)));
  return row?.userId;
}

/**
 * Marks a link used if it is unused and unexpired, in one statement, so of two concurrent uses
 * exactly one wins. Returns the link's user, or undefined.
 */
export async function consumePasswordLink(db: Db, tokenHash: string, now: Date): Promise<string | undefined> {
  const [row] = await db
    .update(passwordLinks)
    .set({ usedAt: now })
    .where(and(eq(passwordLinks.tokenHash, tokenHash), isNull(passwordLinks.usedAt), gt(passwordLinks.expiresAt, now)))
    .returning({ userId: passwordLinks.userId });
  return row?.userId;
}

// ---------------------------------------------------------------------------------------------
// Throttle of password checks

/**
 * Counts one attempt against each key, in one statement (so concurrent attempts each see their
 * own count), starting a new window where the old one began at or before `windowSince`.
 * Returns each key's count and window start after this attempt.
 */
export function countAttempt(db: Db, keys: string[], now: Date, windowSince: Date) {
  return db
    .insert(authFailures)
    .values(keys.map((key) => ({ key, failures: 1, windowStartedAt: now })))
    .onConflictDoUpdate({
      target: authFailures.key,
      set: {
        failures: sql`case when ${authFailures.windowStartedAt} <= ${windowSince} then 1 else ${authFailures.failures} + 1 end`,
        windowStartedAt: sql`case when ${authFailures.windowStartedAt} <= ${windowSince} then excluded.window_started_at else ${authFailures.windowStartedAt} end`,
      },
    })
    .returning({ key: authFailures.key, failures: authFailures.failures, windowStartedAt: authFailures.windowStartedAt });
}

/** A successful check: `cleared` keys start afresh, and `refunded` keys get their attempt back. */
export async function forgiveAttempt(db: Db, cleared: string[], refunded: string[]): Promise<void> {
  if (cleared.length > 0) await db.delete(authFailures).where(inArray(authFailures.key, cleared));
  if (refunded.length > 0) {
    await db
      .update(authFailures)
      .set({ failures: sql`greatest(${authFailures.failures} - 1, 0)` })
      .where(inArray(authFailures.key, refunded));
  }
}
