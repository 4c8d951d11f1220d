/** Passwords, set-password links and sessions (docs/api.md "Passwords and sessions"). */
import type { Actor, AppContext } from '../../context.js';
import { mailPasswordLink } from '../mail/mail.service.js';
import type { Db } from '../../db/database.js';
import { AppError, badRequest, notFound } from '../../lib/errors.js';
import { clientBlock } from '../../lib/client-block.js';
import { normalizeEmail } from '../../lib/email.js';
import { newId } from '../../lib/ids.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../lib/passwords.js';
import { generateSecret, hashSecret } from '../../lib/tokens.js';
import * as repo from '../../repositories/auth.repository.js';
import { findUser } from '../../repositories/users.repository.js';
import { requirePasswordLinkIssuer } from '../access/access.js';
import { toUser } from '../users/users.service.js';
import type { ChangePasswordInput, PasswordLink, RedeemLinkInput, Session, SignInInput } from './auth.schemas.js';
import {
  PASSWORD_LINK_MS,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  THROTTLE_ACCOUNT_CEILING,
  THROTTLE_ADDRESS_LIMIT,
  THROTTLE_PAIR_LIMIT,
  THROTTLE_PAIR_LIMIT_PAST_CEILING,
  THROTTLE_WINDOW_MS,
} from './session-policy.js';

/** Where a sign-in comes from. */
export interface Client {
  readonly address: string;
  readonly userAgent: string;
}

/** A new session: what the API answers, and the secret that goes only into the cookie. */
export interface NewSession {
  readonly user: ReturnType<typeof toUser>;
  readonly session: Session;
  readonly secret: string;
  readonly maxAgeSeconds: number;
}

function toSession(row: repo.SessionRow, currentId: string | null): Session {
  const idleEnd = row.lastSeenAt.getTime() + SESSION_IDLE_MS;
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    expiresAt: new Date(Math.min(idleEnd, row.expiresAt.getTime())).toISOString(),
    userAgent: row.userAgent,
    current: row.id === currentId,
  };
}

const idleSince = (now: Date) => new Date(now.getTime() - SESSION_IDLE_MS);

/** The throttle keys of a password attempt: what a success clears and what it gives back. */
interface Attempt {
  readonly cleared: string[];
  readonly refunded: string[];
}

const rateLimited = (windowStartedAt: Date, now: Date) => {
  const retryAfter = Math.max(1, Math.ceil((windowStartedAt.getTime() + THROTTLE_WINDOW_MS - now.getTime()) / 1000));
  return new AppError('rate_limited', 'Too many password attempts; try again later.', undefined, { 'Retry-After': String(retryAfter) });
};

/**
 * Counts a password attempt and refuses it (429) before any hash is computed
 * (docs/decisions.md "Passwords and sessions", a sign-in lockout nobody else can aim): past THROTTLE_PAIR_LIMIT from this
 * client on this account, past THROTTLE_ADDRESS_LIMIT from this client on all accounts, and, once
 * the account has THROTTLE_ACCOUNT_CEILING attempts from everyone, past
 * THROTTLE_PAIR_LIMIT_PAST_CEILING from this client. Attempts refused here are not counted against
 * the account, so one client cannot push an account past its ceiling without its guesses being
 * checked. A success clears the pair and gives the attempt back to the client and the account;
 * the account's other failures stay, or the owner signing in would reset the ceiling for an
 * attacker guessing from many addresses.
 */
async function throttle(ctx: AppContext, account: string, address: string, now: Date): Promise<Attempt> {
  const windowSince = new Date(now.getTime() - THROTTLE_WINDOW_MS);
  const block = clientBlock(address);
  const addressKey = `address:${block}`;
  const pairKey = `pair:${block}:${account}`;
  for (const key of [addressKey, pairKey]) {
    const since = ctx.clientGate.refusedSince(key, now, THROTTLE_WINDOW_MS);
    if (since) throw rateLimited(since, now);
  }
  const counts = await repo.countAttempt(ctx.db, [pairKey, addressKey], now, windowSince);
  for (const count of counts) {
    const limit = count.key === pairKey ? THROTTLE_PAIR_LIMIT : THROTTLE_ADDRESS_LIMIT;
    if (count.failures <= limit) continue;
    ctx.clientGate.remember(count.key, count.windowStartedAt);
    throw rateLimited(count.windowStartedAt, now);
  }
  const pair = counts.find((count) => count.key === pairKey);
  const [accountCount] = await repo.countAttempt(ctx.db, [account], now, windowSince);
  if (pair && accountCount && accountCount.failures > THROTTLE_ACCOUNT_CEILING && pair.failures > THROTTLE_PAIR_LIMIT_PAST_CEILING) {
    // Either window ending lets this client in again.
    const until = Math.min(pair.windowStartedAt.getTime(), accountCount.windowStartedAt.getTime());
    throw rateLimited(new Date(until), now);
  }
  return { cleared: [pairKey], refunded: [addressKey, account] };
}

/** Counts a set-password link redemption against the client address only (the link is the account). */
async function throttleAddress(ctx: AppContext, address: string, now: Date): Promise<Attempt> {
  const addressKey = `address:${clientBlock(address)}`;
  const since = ctx.clientGate.refusedSince(addressKey, now, THROTTLE_WINDOW_MS);
  if (since) throw rateLimited(since, now);
  const [count] = await repo.countAttempt(ctx.db, [addressKey], now, new Date(now.getTime() - THROTTLE_WINDOW_MS));
  if (count && count.failures > THROTTLE_ADDRESS_LIMIT) {
    ctx.clientGate.remember(addressKey, count.windowStartedAt);
    throw rateLimited(count.windowStartedAt, now);
  }
  return { cleared: [], refunded: [addressKey] };
}

async function startSession(db: AppContext['db'], userId: string, client: Client, now: Date) {
  const secret = generateSecret(32);
  const row = await repo.insertSession(db, {
    id: newId(),
    userId,
    tokenHash: hashSecret(secret),
    userAgent: client.userAgent.slice(0, 300),
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_MAX_MS),
  });
  return { row, secret, maxAgeSeconds: SESSION_MAX_MS / 1000 };
}

/** Email and password in, a session out; one answer for every kind of wrong credentials. */
export async function signIn(ctx: AppContext, input: SignInInput, client: Client): Promise<NewSession> {
  const now = ctx.clock.now();
  const email = normalizeEmail(input.email);
  const attempt = await throttle(ctx, `email:${email}`, client.address, now);
  const found = await repo.findUserWithPassword(ctx.db, email);
  const hash = found?.hash;
  const ok = await ctx.passwordSlots.run(async () => {
    if (hash) return verifyPassword(input.password, hash);
    await burnPasswordCheck(input.password, ctx.config.passwordScryptLogN);
    return false;
  });
  if (!found || !ok) {
    throw new AppError('unauthorized', 'The email or the password is wrong.', undefined, { 'WWW-Authenticate': 'Bearer realm="api"' });
  }
  await repo.forgiveAttempt(ctx.db, attempt.cleared, attempt.refunded);
  await repo.deleteDeadSessions(ctx.db, found.user.id, now, idleSince(now));
  const { row, secret, maxAgeSeconds } = await startSession(ctx.db, found.user.id, client, now);
  return { user: toUser(found.user), session: toSession(row, row.id), secret, maxAgeSeconds };
}

/** An instance admin's one-time link for a user to set their password; earlier unused links stop working. */
export async function createPasswordLink(ctx: AppContext, actor: Actor, userId: string, email = false): Promise<PasswordLink> {
  requirePasswordLinkIssuer(actor, userId);
  const user = await findUser(ctx.db, userId);
  if (!user) throw notFound();
  if (!email) return issuePasswordLink(ctx.db, ctx.config.publicBaseUrl, userId, ctx.clock.now());
  // The link and its mail in one transaction: a link is mailed once, or not made.
  const link = await ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now();
    const issued = await issuePasswordLink(tx, ctx.config.publicBaseUrl, userId, now);
    await mailPasswordLink(tx, ctx, now, user, issued);
    return issued;
  });
  ctx.mailer.wake();
  return { ...link, emailed: true };
}

/**
 * Stores a new one-time set-password link for `userId` (earlier unused ones stop working), in `db`
 * or the caller's transaction; the first start uses it for the instance admin.
 */
export async function issuePasswordLink(db: Db, publicBaseUrl: string, userId: string, now: Date): Promise<PasswordLink> {
  const secret = generateSecret(32);
  const expiresAt = new Date(now.getTime() + PASSWORD_LINK_MS);
  await repo.replacePasswordLink(db, { id: newId(), userId, tokenHash: hashSecret(secret), createdAt: now, expiresAt });
  // The secret rides in the fragment, which browsers never send to a server, so no log sees it.
  return { url: `${publicBaseUrl}/app/set-password#${secret}`, expiresAt: expiresAt.toISOString() };
}

const unknownLink = () => new AppError('not_found', 'This set-password link is unknown, already used or expired.');

/**
 * Sets the password with a link (once), ends the user's other sessions and signs them in. The
 * client is throttled and the link looked up before anything is hashed, so unknown links cost one
 * statement each; the link is consumed after hashing, in one statement, so of two concurrent uses
 * exactly one wins.
 */
export async function redeemPasswordLink(ctx: AppContext, input: RedeemLinkInput, client: Client): Promise<NewSession> {
  const attempt = await throttleAddress(ctx, client.address, ctx.clock.now());
  const tokenHash = hashSecret(input.token);
  if (!(await repo.findUsablePasswordLink(ctx.db, tokenHash, ctx.clock.now()))) throw unknownLink();
  const hash = await ctx.passwordSlots.run(() => hashPassword(input.password, ctx.config.passwordScryptLogN));
  // The clock is read again: the link may have expired while the hash waited for its slot.
  const now = ctx.clock.now();
  const signedIn = await ctx.db.transaction(async (tx) => {
    const userId = await repo.consumePasswordLink(tx, tokenHash, now);
    if (!userId) throw unknownLink();
    const user = await findUser(tx, userId);
    if (!user) throw notFound();
    await repo.upsertPassword(tx, userId, hash, now);
    await repo.deleteOtherSessions(tx, userId, null);
    const { row, secret, maxAgeSeconds } = await startSession(tx, userId, client, now);
    return { user: toUser(user), session: toSession(row, row.id), secret, maxAgeSeconds };
  });
  await repo.forgiveAttempt(ctx.db, attempt.cleared, attempt.refunded);
  return signedIn;
}

/** A signed-in user changes their password with the current one; their other sessions end. */
export async function changePassword(ctx: AppContext, actor: Actor, input: ChangePasswordInput, client: Client): Promise<void> {
  const now = ctx.clock.now();
  const attempt = await throttle(ctx, `user:${actor.user.id}`, client.address, now);
  const stored = await repo.findPasswordHash(ctx.db, actor.user.id);
  const ok = stored !== undefined && (await ctx.passwordSlots.run(() => verifyPassword(input.currentPassword, stored)));
  if (!ok) throw badRequest('The current password is wrong.', [{ path: '/currentPassword', message: 'is wrong' }]);
  await repo.forgiveAttempt(ctx.db, attempt.cleared, attempt.refunded);
  const hash = await ctx.passwordSlots.run(() => hashPassword(input.newPassword, ctx.config.passwordScryptLogN));
  await ctx.db.transaction(async (tx) => {
    await repo.upsertPassword(tx, actor.user.id, hash, now);
    await repo.deleteOtherSessions(tx, actor.user.id, actor.sessionId);
  });
}

export async function listSessions(ctx: AppContext, actor: Actor): Promise<Session[]> {
  const now = ctx.clock.now();
  return (await repo.listLiveSessions(ctx.db, actor.user.id, now, idleSince(now))).map((row) => toSession(row, actor.sessionId));
}

/** Ends one of the caller's sessions; another user's session is a 404. Returns whether it was the current one. */
export async function endSession(ctx: AppContext, actor: Actor, sessionId: string): Promise<boolean> {
  if (!(await repo.deleteSession(ctx.db, actor.user.id, sessionId))) throw notFound();
  return sessionId === actor.sessionId;
}

/** Signs out: ends the session making the request (404 for a bearer request, which has none). */
export async function endCurrentSession(ctx: AppContext, actor: Actor): Promise<void> {
  if (actor.sessionId === null) throw new AppError('not_found', 'This request was not made with a session.');
  await repo.deleteSession(ctx.db, actor.user.id, actor.sessionId);
}
