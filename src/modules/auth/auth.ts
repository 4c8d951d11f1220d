/**
 * Authentication and the API rate limit (docs/api.md "Conventions", "Passwords and sessions",
 * docs/operations.md "Rate limit"). Every route names its scope in its route definition; this
 * hook enforces it before the body is even parsed. A request with an Authorization header is a
 * bearer request; one without it may carry the browser's session cookie, which acts with read and
 * write, and whose unsafe requests must come from Chronicle's own origin (CSRF). Either way the
 * request is counted against its user's one budget, in the same statement that finds the token or
 * the session. A route with `credentialInRead` (a hot read) leaves that statement to its read,
 * which finds the credential and reads in one (callerOf, readAs); the refusals are the same.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { AppError } from '../../lib/errors.js';
import { hashSecret } from '../../lib/tokens.js';
import type { App } from '../../http/types.js';
import type { Actor, AppContext, Scope } from '../../context.js';
import {
  addRateUnits,
  findCredential,
  findRateCount,
  touchSession,
  type CredentialLookup,
  type CredentialRead,
  type FoundCredential,
  type Reader,
} from '../../repositories/auth.repository.js';
import { cookieSettings, readSessionCookie, type CookieSettings } from './session-cookie.js';
import { SESSION_IDLE_MS, SESSION_TOUCH_MS } from './session-policy.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Who makes the request; set by the auth hook on every route with a read or write scope, except
     * a route that finds the credential in its own read (`credential`).
     */
    actor: Actor | null;
    /** On a route with `credentialInRead`: the credential presented, for its read to find (callerOf). */
    credential: PendingCredential | null;
  }
}

/**
 * A credential the auth hook has checked as far as it can without the database, left for the
 * route's read to find in its own statement: one statement per authenticated read instead of two.
 */
export interface PendingCredential {
  lookup: CredentialLookup;
  /** The actor the found credential makes, or the refusal (401, 403, 429) the auth hook gives. */
  admit(found: FoundCredential | undefined): Promise<Actor>;
  /** Finds the credential in a statement of its own, as the auth hook does (before a refusal that is not the read's). */
  authenticate(): Promise<Actor>;
}

/** Who calls: the actor the auth hook found, or a credential the read itself is to find. */
export type Caller = Actor | PendingCredential;

const isPending = (caller: Caller): caller is PendingCredential => 'lookup' in caller;

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]{1,512})$/i;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const SESSION_SCOPES: readonly Scope[] = ['read', 'write'];

/** The rate limit's fixed window. */
export const RATE_WINDOW_MS = 60_000;

/** What one request costs against API_RATE_LIMIT, unless its route declares `rateCost`. */
export const RATE_COST = { read: 1, write: 3 } as const;

/** The cost a route declares for work well above a plain write: a render, a passcode hash. */
export const HEAVY_RATE_COST = 10;

/** Every this many bytes of a request body cost one more unit: reading and checking a body is work in proportion to its size. */
export const RATE_BODY_BYTES_PER_UNIT = 32 * 1024;

/**
 * What a request costs: its route's cost plus one unit per started 32 KiB of body beyond the
 * first, by Content-Length, which is known before the body is read. A chunked body has no length
 * yet, so it is charged as the route's whole body limit.
 */
export function requestCost(request: FastifyRequest, scope: Scope): number {
  const base = request.routeOptions.config.rateCost ?? RATE_COST[scope];
  const declared = request.headers['content-length'];
  const chunked = declared === undefined && request.headers['transfer-encoding'] !== undefined;
  const bytes = chunked ? request.routeOptions.bodyLimit : Number(declared ?? 0) || 0;
  return base + Math.max(0, Math.ceil(bytes / RATE_BODY_BYTES_PER_UNIT) - 1);
}

/** The units work of `size` characters costs past its route's price: one per started 32 Ki past the first, like a body. */
export const workUnits = (size: number): number => Math.max(0, Math.ceil(size / RATE_BODY_BYTES_PER_UNIT) - 1);

const windowOf = (now: Date) => new Date(Math.floor(now.getTime() / RATE_WINDOW_MS) * RATE_WINDOW_MS);

/**
 * Charges a user for work whose size is known only once it is done (a render's entries read and
 * document made, a diff's documents; `size` in characters): `workUnits(size)`, less the `prepaid`
 * units `chargeBeforeWork` took for part of it (docs/operations.md "Rate limit"). The request has
 * paid its route's cost already; this is the rest, spent from the same budget, so the next request
 * sees it. No statement when nothing is owed or the limit is off.
 */
export async function chargeWork(ctx: AppContext, userId: string, size: number, prepaid = 0): Promise<void> {
  if (ctx.config.apiRateLimit === 0) return;
  const units = workUnits(size) - prepaid;
  if (units <= 0) return;
  await addRateUnits(ctx.db, userId, windowOf(ctx.clock.now()), units);
}

/**
 * What a signed-in read's answer costs past the read's one unit: `workUnits` of its length, so
 * one more unit per started 32 KiB past the first. A read's price is one unit whatever it answers,
 * and the answers whose size has no bound but the data (a workspace's projects or clients, a rate
 * history, a version's document) cost serialising and sending in proportion to it. Nothing for a
 * route that declares its own cost (it prices its work itself), for writes, for public routes and
 * when the limit is off.
 */
export function answerUnits(ctx: AppContext, request: FastifyRequest, payload: unknown): number {
  // Public routes (share pages, files) have no actor: they leave at the first test.
  if (!request.actor || ctx.config.apiRateLimit === 0) return 0;
  const size = typeof payload === 'string' || payload instanceof Uint8Array ? payload.length : 0;
  if (size <= RATE_BODY_BYTES_PER_UNIT) return 0;
  const { scope, rateCost } = request.routeOptions.config;
  return scope === 'read' && rateCost === undefined ? workUnits(size) : 0;
}

/**
 * Charges `units` (answerUnits) to the actor's budget: the next request sees them. A charge that
 * fails is logged; the answer goes out all the same.
 */
export async function chargeAnswer(ctx: AppContext, request: FastifyRequest, units: number): Promise<void> {
  if (!request.actor) return;
  try {
    await addRateUnits(ctx.db, request.actor.user.id, windowOf(ctx.clock.now()), units);
  } catch (error) {
    request.log.warn({ err: error }, 'the answer could not be charged to the rate limit');
  }
}

/**
 * Before heavy work starts (a queued render that has just got its slot, or one that has read its
 * entries and is about to run the template): charges `workUnits(size)` for what is known so far and
 * refuses (429, like the budget at the door) when the user's budget is already overspent in this
 * window, by this work or by the work that ran while it waited. Returns the units charged, for
 * `chargeWork`'s `prepaid`. One statement when the limit is on, none when it is off.
 */
export async function chargeBeforeWork(ctx: AppContext, userId: string, size: number): Promise<number> {
  const limit = ctx.config.apiRateLimit;
  if (limit === 0) return 0;
  const now = ctx.clock.now();
  const units = workUnits(size);
  const count = units > 0 ? await addRateUnits(ctx.db, userId, windowOf(now), units) : await findRateCount(ctx.db, userId);
  if (count && count.used > limit && count.windowStart.getTime() === windowOf(now).getTime()) {
    throw rateLimited(limit, count.used, count.windowStart, now);
  }
  return units;
}

const unauthorized = (detail: string) => new AppError('unauthorized', detail, undefined, { 'WWW-Authenticate': 'Bearer realm="api"' });

/**
 * Routes fail closed: one without a declared scope would skip authentication, so it stops
 * start-up instead of serving (docs/decisions.md "HTTP conventions").
 */
export function assertDeclaredScope(route: { method: string | string[]; url: string; config?: { scope?: unknown } }): void {
  const scope = route.config?.scope;
  if (scope !== 'read' && scope !== 'write' && scope !== 'public') {
    const method = Array.isArray(route.method) ? route.method.join(',') : route.method;
    throw new Error(`The route ${method} ${route.url} declares no scope (config.scope: 'read', 'write' or 'public').`);
  }
}

/** RateLimit-* (draft-ietf-httpapi-ratelimit-headers) on every counted response. */
function rateHeaders(limit: number, used: number, resetSeconds: number): Record<string, string> {
  return {
    'RateLimit-Policy': `${limit};w=${RATE_WINDOW_MS / 1000}`,
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(Math.max(0, limit - used)),
    'RateLimit-Reset': String(resetSeconds),
  };
}

/**
 * Credentials (token or session hashes) refused in a window, with that window's start: per app,
 * bounded, and only a shortcut to the answer the counting statement would give until the window ends.
 */
type RefusedCredentials = LRUCache<string, number>;

const resetSecondsOf = (windowStart: Date, now: Date) =>
  Math.max(1, Math.ceil((windowStart.getTime() + RATE_WINDOW_MS - now.getTime()) / 1000));

function rateLimited(limit: number, used: number, windowStart: Date, now: Date): AppError {
  const resetSeconds = resetSecondsOf(windowStart, now);
  return new AppError(
    'rate_limited',
    `Your account used its ${limit} request units of this minute, shared by all its tokens and sessions (a read costs ${RATE_COST.read}, a write ${RATE_COST.write}, a render, a version diff or a share mint ${HEAVY_RATE_COST}, and every ${RATE_BODY_BYTES_PER_UNIT / 1024} KiB of a body one more); try again in ${resetSeconds} s.`,
    undefined,
    { ...rateHeaders(limit, used, resetSeconds), 'Retry-After': String(resetSeconds) },
  );
}

/**
 * Refuses a cross-site request: the `Origin` header must name Chronicle's own origin. Browsers
 * send it on every unsafe request, so its absence means "not a browser form of ours" too.
 */
export function requireSameOrigin(request: FastifyRequest, settings: CookieSettings, required: boolean): void {
  const origin = request.headers.origin;
  if (origin === undefined && !required) return;
  if (origin !== settings.origin) {
    throw new AppError('forbidden', `A request with the session cookie must come from ${settings.origin} (Origin header).`);
  }
}

export function registerAuth(app: App, ctx: AppContext): void {
  const cookies = cookieSettings(ctx.config);
  const refused: RefusedCredentials = new LRUCache({ max: 10_000 });
  app.decorateRequest('actor', null);
  app.decorateRequest('credential', null);
  // A callback hook: public routes (share pages, files) pass it without the promise an async one costs.
  app.addHook('onRequest', (request, reply, done) => {
    const scope = request.routeOptions.config.scope;
    if (scope === undefined || scope === 'public') {
      done();
      return;
    }
    const lookup = presented(request, scope);
    const pending: PendingCredential = {
      lookup,
      // The request knows its actor from here on, also where the read found the credential.
      admit: async (found) => (request.actor = await admit(reply, scope, lookup, found)),
      authenticate: async () => pending.admit(await findCredential(ctx.db, lookup)),
    };
    if (request.routeOptions.config.credentialInRead) {
      request.credential = pending;
      done();
      return;
    }
    pending.authenticate().then(() => {
      done();
    }, done);
  });

  /**
   * The credential the request presents, hashed, with its charge against the rate limit: the
   * refusals that need no statement (no credential, a cross-site write with the cookie, a
   * credential already refused in this window) are made here.
   */
  function presented(request: FastifyRequest, scope: Scope): CredentialLookup {
    const authorization = request.headers.authorization;
    const secret = authorization === undefined ? readSessionCookie(request.headers.cookie, cookies) : null;
    let lookup: Omit<CredentialLookup, 'charge'>;
    const now = ctx.clock.now();
    const idleSince = new Date(now.getTime() - SESSION_IDLE_MS);
    if (secret !== null) {
      if (!SAFE_METHODS.has(request.method)) requireSameOrigin(request, cookies, true);
      lookup = { kind: 'session', hash: hashSecret(secret), now, idleSince };
    } else {
      const match = BEARER.exec(authorization ?? '');
      if (!match?.[1]) throw unauthorized('A valid bearer token or session is required.');
      lookup = { kind: 'token', hash: hashSecret(match[1]), now, idleSince };
    }
    const limit = ctx.config.apiRateLimit;
    if (limit === 0) return { ...lookup, charge: null };
    const windowStart = windowOf(now);
    // A credential refused in this window is refused again without a statement: a client that
    // keeps sending past its budget costs no database work (docs/operations.md "Rate limit").
    if (refused.get(lookup.hash) === windowStart.getTime()) throw rateLimited(limit, limit + 1, windowStart, now);
    return { ...lookup, charge: { windowStart, cost: requestCost(request, scope) } };
  }

  /**
   * The actor of a credential the lookup found, with the RateLimit-* headers; or the refusal: 401
   * for no live credential, 429 past the user's budget, 403 for a token without the route's scope.
   */
  async function admit(reply: FastifyReply, scope: Scope, lookup: CredentialLookup, found: FoundCredential | undefined): Promise<Actor> {
    if (!found) {
      throw unauthorized(
        lookup.kind === 'token' ? 'The bearer token is unknown, expired or revoked.' : 'The session has ended; sign in again.',
      );
    }
    const limit = ctx.config.apiRateLimit;
    if (lookup.charge && found.used !== null && found.windowStart !== null) {
      const { now } = lookup;
      if (found.used > limit) {
        if (found.windowStart.getTime() === lookup.charge.windowStart.getTime()) refused.set(lookup.hash, found.windowStart.getTime());
        throw rateLimited(limit, found.used, found.windowStart, now);
      }
      reply.headers(rateHeaders(limit, found.used, resetSecondsOf(found.windowStart, now)));
    }
    if (lookup.kind === 'session') {
      // The idle limit moves in steps, so most requests run only the one statement that found it.
      const lastSeenAt = found.lastSeenAt ?? lookup.now;
      if (lookup.now.getTime() - lastSeenAt.getTime() >= SESSION_TOUCH_MS) await touchSession(ctx.db, found.id, lookup.now);
      return { user: found.user, tokenId: null, sessionId: found.id, scopes: SESSION_SCOPES, tokenExpiresAt: null };
    }
    const scopes = (found.scopes ?? []) as Scope[];
    if (!scopes.includes(scope)) {
      throw new AppError('insufficient_scope', `This endpoint needs the "${scope}" scope.`, undefined, {
        'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"`,
      });
    }
    return { user: found.user, tokenId: found.id, sessionId: null, scopes, tokenExpiresAt: found.expiresAt };
  }
}

/**
 * Who calls a route with a read or write scope: the actor the auth hook found or, on a route with
 * `credentialInRead`, the credential its read is to find (readAs).
 */
export function callerOf(request: FastifyRequest): Caller {
  const caller = request.actor ?? request.credential;
  if (!caller) throw new Error('callerOf() used on a route without a read or write scope');
  return caller;
}

/**
 * Runs `read` as the caller: for a known actor, with its user id; for a pending credential, in the
 * statement that finds the credential, which is then admitted (or refused, as the auth hook would,
 * whatever the read found).
 */
export async function readAs<T>(
  caller: Caller,
  read: (reader: Reader) => Promise<CredentialRead<T>>,
): Promise<{ actor: Actor; value: T | undefined }> {
  if (!isPending(caller)) return { actor: caller, value: (await read(caller.user.id)).value };
  const { credential, value } = await read(caller.lookup);
  return { actor: await caller.admit(credential), value };
}

/** The actor of a route with a read or write scope (the auth hook has set it). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new Error('actorOf() used on a route without a read or write scope');
  return request.actor;
}
