/** Passwords, set-password links and sessions (docs/web.md "Signing in"). */
import type { Actor, AppContext } from '../../context.js';
import { AppError, badRequest, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../lib/passwords.js';
import { generateSecret, hashSecret } from '../../lib/tokens.js';
import * as repo from '../../repositories/auth.repository.js';
import { findUser } from '../../repositories/users.repository.js';
import { requireInstanceAdminFor } from '../access/access.js';
import { toUser } from '../users/users.service.js';
import type { ChangePasswordInput, PasswordLink, RedeemLinkInput, Session, SignInInput } from './auth.schemas.js';
import {
  PASSWORD_LINK_MS,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  THROTTLE_ACCOUNT_LIMIT,
  THROTTLE_ADDRESS_LIMIT,
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

/**
 * Counts a password attempt against the account and the client address and refuses it (429)
 * past either limit, before any hash is computed. A successful check gives the attempt back.
 */
async function throttle(ctx: AppContext, accountKey: string, addressKey: string, now: Date): Promise<void> {
  const windowSince = new Date(now.getTime() - THROTTLE_WINDOW_MS);
  const counts = await repo.countAttempt(ctx.db, [accountKey, addressKey], now, windowSince);
  for (const count of counts) {
    const limit = count.key === accountKey ? THROTTLE_ACCOUNT_LIMIT : THROTTLE_ADDRESS_LIMIT;
    if (count.failures <= limit) continue;
    const retryAfter = Math.max(1, Math.ceil((count.windowStartedAt.getTime() + THROTTLE_WINDOW_MS - now.getTime()) / 1000));
    throw new AppError('rate_limited', 'Too many password attempts; try again later.', undefined, { 'Retry-After': String(retryAfter) });
  }
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
  const accountKey = `email:${input.email.trim().toLowerCase()}`;
  const addressKey = `address:${client.address}`;
  await throttle(ctx, accountKey, addressKey, now);
  const found = await repo.findUserWithPassword(ctx.db, input.email.trim());
  let ok = false;
  if (found?.hash) ok = await verifyPassword(input.password, found.hash);
  else await burnPasswordCheck(input.password, ctx.config.passwordScryptLogN);
  if (!found || !ok) {
    throw new AppError('unauthorized', 'The email or the password is wrong.', undefined, { 'WWW-Authenticate': 'Bearer realm="api"' });
  }
  await repo.forgiveAttempt(ctx.db, accountKey, addressKey);
  await repo.deleteDeadSessions(ctx.db, found.user.id, now, idleSince(now));
  const { row, secret, maxAgeSeconds } = await startSession(ctx.db, found.user.id, client, now);
  return { user: toUser(found.user), session: toSession(row, row.id), secret, maxAgeSeconds };
}

/** An instance admin's one-time link for a user to set their password; earlier unused links stop working. */
export async function createPasswordLink(ctx: AppContext, actor: Actor, userId: string): Promise<PasswordLink> {
  requireInstanceAdminFor(actor, userId);
  if (!(await findUser(ctx.db, userId))) throw notFound();
  const secret = generateSecret(32);
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + PASSWORD_LINK_MS);
  await repo.replacePasswordLink(ctx.db, { id: newId(), userId, tokenHash: hashSecret(secret), createdAt: now, expiresAt });
  // The secret rides in the fragment, which browsers never send to a server, so no log sees it.
  return { url: `${ctx.config.publicBaseUrl}/app/set-password#${secret}`, expiresAt: expiresAt.toISOString() };
}

/** Sets the password with a link (once), ends the user's other sessions and signs them in. */
export async function redeemPasswordLink(ctx: AppContext, input: RedeemLinkInput, client: Client): Promise<NewSession> {
  const hash = await hashPassword(input.password, ctx.config.passwordScryptLogN);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const userId = await repo.consumePasswordLink(tx, hashSecret(input.token), now);
    if (!userId) throw new AppError('not_found', 'This set-password link is unknown, already used or expired.');
    const user = await findUser(tx, userId);
    if (!user) throw notFound();
    await repo.upsertPassword(tx, userId, hash, now);
    await repo.deleteOtherSessions(tx, userId, null);
    const { row, secret, maxAgeSeconds } = await startSession(tx, userId, client, now);
    return { user: toUser(user), session: toSession(row, row.id), secret, maxAgeSeconds };
  });
}

/** A signed-in user changes their password with the current one; their other sessions end. */
export async function changePassword(ctx: AppContext, actor: Actor, input: ChangePasswordInput, client: Client): Promise<void> {
  const now = ctx.clock.now();
  const accountKey = `user:${actor.user.id}`;
  const addressKey = `address:${client.address}`;
  await throttle(ctx, accountKey, addressKey, now);
  const stored = await repo.findPasswordHash(ctx.db, actor.user.id);
  const ok = stored !== undefined && (await verifyPassword(input.currentPassword, stored));
  if (!ok) throw badRequest('The current password is wrong.', [{ path: '/currentPassword', message: 'is wrong' }]);
  await repo.forgiveAttempt(ctx.db, accountKey, addressKey);
  const hash = await hashPassword(input.newPassword, ctx.config.passwordScryptLogN);
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
