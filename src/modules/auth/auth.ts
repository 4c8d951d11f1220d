/**
 * Authentication (docs/api.md "Conventions", docs/web.md "Sessions"). Every route names its scope
 * in its route definition; this hook enforces it before the body is even parsed. A request with
 * an Authorization header is a bearer request, exactly as before sessions existed; one without
 * it may carry the browser's session cookie, which acts with read and write, and whose unsafe
 * requests must come from Chronicle's own origin (CSRF).
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.js';
import { hashSecret } from '../../lib/tokens.js';
import type { App } from '../../http/types.js';
import type { Actor, AppContext, Scope } from '../../context.js';
import { findActiveToken, findLiveSession, touchSession } from '../../repositories/auth.repository.js';
import { cookieSettings, readSessionCookie, type CookieSettings } from './session-cookie.js';
import { SESSION_IDLE_MS, SESSION_TOUCH_MS } from './session-policy.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who makes the request; set by the auth hook on every route with a read or write scope. */
    actor: Actor | null;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]{1,512})$/i;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const SESSION_SCOPES: readonly Scope[] = ['read', 'write'];

const unauthorized = (detail: string) => new AppError('unauthorized', detail, undefined, { 'WWW-Authenticate': 'Bearer realm="api"' });

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
  app.decorateRequest('actor', null);
  app.addHook('onRequest', async (request) => {
    const scope = request.routeOptions.config.scope;
    if (scope === undefined || scope === 'public') return;
    const authorization = request.headers.authorization;
    if (authorization === undefined) {
      const secret = readSessionCookie(request.headers.cookie, cookies);
      if (secret !== null) {
        request.actor = await sessionActor(request, secret);
        return;
      }
    }
    const match = BEARER.exec(authorization ?? '');
    if (!match?.[1]) throw unauthorized('A valid bearer token or session is required.');
    const row = await findActiveToken(ctx.db, hashSecret(match[1]), ctx.clock.now());
    if (!row) throw unauthorized('The bearer token is unknown, expired or revoked.');
    const scopes = row.scopes as Scope[];
    if (!scopes.includes(scope)) {
      throw new AppError('insufficient_scope', `This endpoint needs the "${scope}" scope.`, undefined, {
        'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"`,
      });
    }
    request.actor = { user: row.user, tokenId: row.tokenId, sessionId: null, scopes };
  });

  async function sessionActor(request: FastifyRequest, secret: string): Promise<Actor> {
    if (!SAFE_METHODS.has(request.method)) requireSameOrigin(request, cookies, true);
    const now = ctx.clock.now();
    const row = await findLiveSession(ctx.db, hashSecret(secret), now, new Date(now.getTime() - SESSION_IDLE_MS));
    if (!row) throw unauthorized('The session has ended; sign in again.');
    // The idle limit moves in steps, so most requests run only the one statement above.
    if (now.getTime() - row.lastSeenAt.getTime() >= SESSION_TOUCH_MS) await touchSession(ctx.db, row.sessionId, now);
    return { user: row.user, tokenId: null, sessionId: row.sessionId, scopes: SESSION_SCOPES };
  }
}

/** The actor of a route with a read or write scope (the auth hook has set it). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new Error('actorOf() used on a route without a read or write scope');
  return request.actor;
}
