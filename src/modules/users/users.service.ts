/** Users, tokens and account deletion (docs/api.md "Users and tokens"). */
import type { Actor, AppContext } from '../../context.js';
import {
  requireInstanceAdmin,
  requireInstanceAdminFor,
  requireScopesWithin,
  requireTokenIssuer,
  requireUserReader,
} from '../access/access.js';
import { followOwnerTimezone } from '../schedules/schedules.service.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { hashSecret, newApiToken } from '../../lib/tokens.js';
import { canonicalTimezone, isValidTimezone } from '../../render/date-range.js';
import { canonicalLocale } from '../../lib/locale.js';
import { pgConstraint, pgErrorCode } from '../../db/errors.js';
import * as repo from '../../repositories/users.repository.js';
import type { CreateTokenInput, CreateUserInput, PatchUserInput, Token, User } from './users.schemas.js';

const DAY_MS = 86_400_000;

export function toUser(row: repo.UserRow): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    timezone: row.timezone,
    locale: row.locale,
    imageUrl: row.imageUrl,
    instanceAdmin: row.instanceAdmin,
    createdAt: row.createdAt.toISOString(),
  };
}

function toToken(row: repo.TokenRow): Token {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes as Token['scopes'],
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

/** A known IANA zone, stored in the runtime's canonical spelling; undefined stays undefined. */
function checkedTimezone<T extends string | undefined>(timezone: T): T {
  if (timezone === undefined) return timezone;
  if (!isValidTimezone(timezone)) {
    throw badRequest('The request is not valid.', [{ path: '/timezone', message: 'is not a known IANA time zone' }]);
  }
  return canonicalTimezone(timezone) as T;
}

/** A BCP 47 tag the runtime supports, stored in its canonical form; undefined stays undefined. */
function checkedLocale<T extends string | undefined>(locale: T): T {
  if (locale === undefined) return locale;
  const canonical = canonicalLocale(locale);
  if (canonical === undefined) {
    throw badRequest('The request is not valid.', [{ path: '/locale', message: 'is not a supported BCP 47 language tag' }]);
  }
  return canonical as T;
}

/** A patch with its time zone and locale checked and canonical; absent fields stay absent. */
function checkedPatch<P extends { timezone?: string; locale?: string }>(input: P): P {
  const patch = { ...input, timezone: checkedTimezone(input.timezone), locale: checkedLocale(input.locale) };
  if (patch.timezone === undefined) delete patch.timezone;
  if (patch.locale === undefined) delete patch.locale;
  return patch;
}

/** Unique-email violations become a 409 the caller can act on. */
async function guardEmail<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (pgErrorCode(error) === '23505' && pgConstraint(error) === 'users_email_lower_key') {
      throw conflict('A user with this email already exists.');
    }
    throw error;
  }
}

export async function createUser(ctx: AppContext, actor: Actor, input: CreateUserInput): Promise<User> {
  requireInstanceAdmin(actor);
  const timezone = checkedTimezone(input.timezone);
  const locale = checkedLocale(input.locale);
  const row = await guardEmail(() =>
    repo.insertUser(ctx.db, {
      id: newId(),
      name: input.name,
      email: input.email,
      timezone: timezone ?? 'UTC',
      locale: locale ?? 'en',
      imageUrl: input.imageUrl ?? null,
      instanceAdmin: input.instanceAdmin ?? false,
      createdAt: ctx.clock.now(),
    }),
  );
  return toUser(row);
}

export async function listUsers(ctx: AppContext, actor: Actor): Promise<User[]> {
  requireInstanceAdmin(actor);
  return (await repo.listUsers(ctx.db)).map(toUser);
}

/** Instance admins see everyone; anyone else sees only themself (404 hides the rest). */
export async function getUser(ctx: AppContext, actor: Actor, id: string): Promise<User> {
  requireUserReader(actor, id);
  const row = await repo.findUser(ctx.db, id);
  if (!row) throw notFound();
  return toUser(row);
}

export async function patchUser(ctx: AppContext, actor: Actor, id: string, input: PatchUserInput): Promise<User> {
  requireInstanceAdminFor(actor, id);
  const patch = checkedPatch(input);
  return ctx.db.transaction(async (tx) => {
    const existing = await repo.findUser(tx, id);
    if (!existing) throw notFound();
    if (existing.instanceAdmin && input.instanceAdmin === false && (await repo.countInstanceAdmins(tx)) <= 1) {
      throw conflict('The last instance admin cannot lose the role.');
    }
    const row = await guardEmail(() => repo.updateUser(tx, id, patch));
    if (!row) throw notFound();
    if (patch.timezone !== undefined && patch.timezone !== existing.timezone) await followOwnerTimezone(ctx, tx, id, row.timezone);
    return toUser(row);
  });
}

export async function patchMe(
  ctx: AppContext,
  actor: Actor,
  input: Pick<PatchUserInput, 'name' | 'timezone' | 'locale' | 'imageUrl'>,
): Promise<User> {
  const patch = checkedPatch(input);
  const row = await repo.updateUser(ctx.db, actor.user.id, patch);
  if (!row) throw notFound();
  if (patch.timezone !== undefined && patch.timezone !== actor.user.timezone) await followOwnerTimezone(ctx, ctx.db, row.id, row.timezone);
  return toUser(row);
}

/**
 * Account deletion (docs/api.md "Users and tokens"). Cascades remove tokens, memberships, entries, owned
 * reports with everything hanging off them, reactions and inbox messages; comments stay with a
 * null author. Refused (409) while the user is the only owner of a workspace that has other
 * members. A workspace they were alone in stays, with no members; instance admins manage it.
 */
export async function deleteUser(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  requireInstanceAdminFor(actor, id);
  await ctx.db.transaction(async (tx) => {
    const existing = await repo.findUser(tx, id);
    if (!existing) throw notFound();
    if (existing.instanceAdmin && (await repo.countInstanceAdmins(tx)) <= 1) {
      throw conflict('The last instance admin cannot be deleted.');
    }
    if ((await repo.workspacesOwnedOnlyBy(tx, id)).length > 0) {
      throw conflict('The user is the only owner of a workspace with other members; make someone else an owner first.');
    }
    await repo.deleteUser(tx, id);
  });
}

export async function createToken(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  input: CreateTokenInput,
): Promise<Token & { token: string }> {
  requireTokenIssuer(actor, userId);
  const user = await repo.findUser(ctx.db, userId);
  if (!user) throw notFound();
  const secret = newApiToken();
  const now = ctx.clock.now();
  let expiresAt = input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * DAY_MS) : null;
  const forSelf = userId === actor.user.id;
  if (forSelf) {
    requireScopesWithin(actor, input.scopes);
    // Never outlives the token that made it: the earlier of the two expiries.
    if (actor.tokenExpiresAt && (expiresAt === null || expiresAt > actor.tokenExpiresAt)) expiresAt = actor.tokenExpiresAt;
  }
  const row = await repo.insertToken(ctx.db, {
    id: newId(),
    userId,
    name: input.name ?? '',
    tokenHash: hashSecret(secret),
    scopes: [...input.scopes],
    createdByTokenId: forSelf ? actor.tokenId : null,
    createdAt: now,
    expiresAt,
  });
  return { ...toToken(row), token: secret };
}

export async function listMyTokens(ctx: AppContext, actor: Actor): Promise<Token[]> {
  return (await repo.listActiveTokens(ctx.db, actor.user.id)).map(toToken);
}

export async function revokeMyToken(ctx: AppContext, actor: Actor, tokenId: string): Promise<void> {
  if (!(await repo.revokeToken(ctx.db, actor.user.id, tokenId, ctx.clock.now()))) throw notFound();
}
