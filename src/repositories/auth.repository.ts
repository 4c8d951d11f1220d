import { and, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { Db } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import { onlyRow, rowsOf } from '../db/rows.js';
import { authFailures, passwordLinks, passwords, sessions, users } from '../db/schema.js';
import { emailMatches } from './users.repository.js';

type UserRow = typeof users.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Credentials: a bearer token or a session, found and charged in the statement that reads

/** What a request presented (a bearer token or the session cookie), hashed, and what finding it charges. */
export interface CredentialLookup {
  kind: 'token' | 'session';
  /** The secret's hash (lib/tokens.ts hashSecret). */
  hash: string;
  now: Date;
  /** Sessions only: a session last seen at or before this has ended (session-policy.ts). */
  idleSince: Date;
  /** The rate limit's charge to the user's counter; null when the limit is off. */
  charge: { windowStart: Date; cost: number } | null;
}

/** The credential a lookup found, its user, and (when charged) the user's use of this window. */
export interface FoundCredential {
  /** The token's or the session's id. */
  id: string;
  /** A token's scopes; null for a session. */
  scopes: string[] | null;
  /** A token's expiry; null for a session and for a token that never expires. */
  expiresAt: Date | null;
  /** A session's last use; null for a token. */
  lastSeenAt: Date | null;
  user: UserRow;
  /** Null when nothing was charged. */
  used: number | null;
  windowStart: Date | null;
}

const asDate = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));
const asDateOrNull = (value: unknown): Date | null => (value === null ? null : asDate(value as Date | string));
const p = (name: string) => sql.placeholder(name);

/**
 * The credential's columns, as the CTEs `found` and `charged` name them: every name starts with
 * `credential_`, so none is ambiguous beside the tables a read joins.
 */
const foundColumns = {
  id: sql<string>`credential_id`.as('credential_id'),
  scopes: sql<string[] | null>`credential_scopes`.as('credential_scopes'),
  expiresAt: sql<Date | null>`credential_expires_at`.mapWith(asDateOrNull).as('credential_expires_at'),
  lastSeenAt: sql<Date | null>`credential_last_seen_at`.mapWith(asDateOrNull).as('credential_last_seen_at'),
  userId: sql<string>`credential_user_id`.as('credential_user_id'),
  userName: sql<string>`credential_user_name`.as('credential_user_name'),
  userEmail: sql<string>`credential_user_email`.as('credential_user_email'),
  userTimezone: sql<string>`credential_user_timezone`.as('credential_user_timezone'),
  userLocale: sql<string>`credential_user_locale`.as('credential_user_locale'),
  userImageUrl: sql<string | null>`credential_user_image_url`.as('credential_user_image_url'),
  userInstanceAdmin: sql<boolean>`credential_user_instance_admin`.mapWith(Boolean).as('credential_user_instance_admin'),
  userCreatedAt: sql<Date>`credential_user_created_at`.mapWith(asDate).as('credential_user_created_at'),
};

const USER_COLUMNS = sql.raw(`u.id as credential_user_id, u.name as credential_user_name, u.email as credential_user_email,
        u.timezone as credential_user_timezone, u.locale as credential_user_locale, u.image_url as credential_user_image_url,
        u.instance_admin as credential_user_instance_admin, u.created_at as credential_user_created_at`);

/** The active token (not revoked, not expired at `now`) with this hash, and its user. */
const FOUND_TOKEN = sql`
      select k.id as credential_id, k.scopes as credential_scopes, k.expires_at as credential_expires_at,
        null::timestamptz as credential_last_seen_at, ${USER_COLUMNS}
      from api_tokens k join users u on u.id = k.user_id
      where k.token_hash = ${p('hash')} and k.revoked_at is null
        and (k.expires_at is null or k.expires_at > ${p('now')}::timestamptz)
      limit 1`;

/** The session with this hash that has passed neither its absolute nor its idle limit, and its user. */
const FOUND_SESSION = sql`
      select s.id as credential_id, null::text[] as credential_scopes, null::timestamptz as credential_expires_at,
        s.last_seen_at as credential_last_seen_at, ${USER_COLUMNS}
      from sessions s join users u on u.id = s.user_id
      where s.token_hash = ${p('hash')} and s.expires_at > ${p('now')}::timestamptz
        and s.last_seen_at > ${p('idleSince')}::timestamptz
      limit 1`;

/**
 * The user's fixed-window counter, upserted with `cost` added for the user `found` names (or
 * restarted when `windowStart` begins a newer window); a clock behind another process's never
 * moves a window back. Every token and session of the user spends this one row.
 */
const CHARGED = sql`
    insert into user_rate_windows as w (user_id, window_start, used)
    select credential_user_id, ${p('windowStart')}::timestamptz, ${p('cost')}::int from found
    on conflict (user_id) do update set
      used = case when excluded.window_start > w.window_start then excluded.used else w.used + excluded.used end,
      window_start = greatest(w.window_start, excluded.window_start)
    returning used as credential_used, window_start as credential_window_start`;

/** With the limit off: one row that charges nothing. */
const NOT_CHARGED = sql`select null::int as credential_used, null::timestamptz as credential_window_start`;

const chargedColumns = {
  used: sql<number | null>`credential_used`.as('credential_used'),
  windowStart: sql<Date | null>`credential_window_start`.mapWith(asDateOrNull).as('credential_window_start'),
};

/** One of the four shapes a credential's statement takes: token or session, charged or not. */
export interface CredentialVariant {
  kind: CredentialLookup['kind'];
  charged: boolean;
}

const VARIANTS: readonly CredentialVariant[] = [
  { kind: 'token', charged: true },
  { kind: 'token', charged: false },
  { kind: 'session', charged: true },
  { kind: 'session', charged: false },
];

/**
 * The two CTEs every credential statement starts from: `found` (the credential and its user) and
 * `charged` (the user's counter after this request, one row). A statement selects `fields` from
 * `found` cross-joined with `charged`, and may left-join what it reads for `readerId`: no credential,
 * no row; a credential, exactly one row, whatever the read found.
 */
export function credentialSource(db: Db, variant: CredentialVariant) {
  const found = db.$with('found', foundColumns).as(variant.kind === 'token' ? FOUND_TOKEN : FOUND_SESSION);
  const charged = db.$with('charged', chargedColumns).as(variant.charged ? CHARGED : NOT_CHARGED);
  const fields = {
    id: found.id,
    scopes: found.scopes,
    expiresAt: found.expiresAt,
    lastSeenAt: found.lastSeenAt,
    userId: found.userId,
    userName: found.userName,
    userEmail: found.userEmail,
    userTimezone: found.userTimezone,
    userLocale: found.userLocale,
    userImageUrl: found.userImageUrl,
    userInstanceAdmin: found.userInstanceAdmin,
    userCreatedAt: found.userCreatedAt,
    used: charged.used,
    windowStart: charged.windowStart,
  };
  return {
    found,
    charged,
    fields,
    readerId: sql`${found.userId}`,
    name: (statement: string) => `${statement}_${variant.kind}${variant.charged ? '_charged' : ''}`,
  };
}

export type CredentialSource = ReturnType<typeof credentialSource>;

/**
 * The select a read for a credential starts from: the credential's columns as `credential` beside
 * the read's `fields`, from `found` and `charged`; the read left-joins its own tables to it.
 */
export function selectWithCredential<F extends SelectedFields>(db: Db, source: CredentialSource, fields: F) {
  return db
    .with(source.found, source.charged)
    .select({ credential: source.fields, ...fields })
    .from(source.found)
    .crossJoin(source.charged);
}
type CredentialFields = { [K in keyof CredentialSource['fields']]: CredentialSource['fields'][K]['_']['type'] };

/** The statement's credential columns as a FoundCredential. */
export function foundCredential(row: CredentialFields): FoundCredential {
  return {
    id: row.id,
    scopes: row.scopes,
    expiresAt: row.expiresAt,
    lastSeenAt: row.lastSeenAt,
    user: {
      id: row.userId,
      name: row.userName,
      email: row.userEmail,
      timezone: row.userTimezone,
      locale: row.userLocale,
      imageUrl: row.userImageUrl,
      instanceAdmin: row.userInstanceAdmin,
      createdAt: row.userCreatedAt,
    },
    used: row.used,
    windowStart: row.windowStart,
  };
}

/**
 * A statement prepared once per database handle for each of the four credential variants, built by
 * `build` from the credential's CTEs (credentialSource).
 */
export function preparedWithCredential<T>(build: (db: Db, source: CredentialSource) => T): (db: Db, lookup: CredentialLookup) => T {
  const byVariant = VARIANTS.map((variant) => ({ variant, statement: prepared((db) => build(db, credentialSource(db, variant))) }));
  return (db, lookup) => {
    const charged = lookup.charge !== null;
    const match = byVariant.find(({ variant }) => variant.kind === lookup.kind && variant.charged === charged);
    if (!match) throw new Error(`no credential statement for ${lookup.kind}`);
    return match.statement(db);
  };
}

/** For whom a read reads: a user already authenticated (their id), or a credential the read is to find. */
export type Reader = string | CredentialLookup;

/** What a read for a Reader gives: the credential when it looked one up, and what it read. */
export interface CredentialRead<T> {
  credential: FoundCredential | undefined;
  value: T | undefined;
}

/** The values every credential statement's placeholders take. */
export function credentialValues(lookup: CredentialLookup): Record<string, unknown> {
  return {
    hash: lookup.hash,
    now: lookup.now.toISOString(),
    idleSince: lookup.idleSince.toISOString(),
    windowStart: lookup.charge?.windowStart.toISOString() ?? null,
    cost: lookup.charge?.cost ?? null,
  };
}

const credentialOnly = preparedWithCredential((db, source) =>
  db
    .with(source.found, source.charged)
    .select(source.fields)
    .from(source.found)
    .crossJoin(source.charged)
    .prepare(source.name('credential')),
);

/**
 * The credential and its user, with the user's counter charged when the lookup carries a charge, in
 * ONE statement (docs/operations.md "Rate limit"); undefined when there is no such live credential.
 */
export async function findCredential(db: Db, lookup: CredentialLookup): Promise<FoundCredential | undefined> {
  const [row] = await credentialOnly(db, lookup).execute(credentialValues(lookup));
  return row && foundCredential(row);
}

/** The user's use of the rate limit's window. */
export interface RateCount {
  used: number;
  windowStart: Date;
}

/**
 * Adds `units` to the user's counter after the work they paid for turned out larger than its
 * declared cost (auth.ts `chargeWork`), with the same window rule as CHARGED; the counter as it
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

// ---------------------------------------------------------------------------------------------
// Sessions

export type SessionRow = typeof sessions.$inferSelect;

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
