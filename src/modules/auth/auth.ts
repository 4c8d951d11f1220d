/**
 * Bearer-token authentication (docs/api.md "Conventions"). Every route names its scope in its route
 * definition; this hook enforces it before the body is even parsed.
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.js';
import { hashSecret } from '../../lib/tokens.js';
import type { App } from '../../http/types.js';
import type { Actor, AppContext, Scope } from '../../context.js';
import { findActiveToken } from '../../repositories/auth.repository.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who makes the request; set by the auth hook on every route with a read or write scope. */
    actor: Actor | null;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]{1,512})$/i;

const unauthorized = (detail: string) => new AppError('unauthorized', detail, undefined, { 'WWW-Authenticate': 'Bearer realm="api"' });

export function registerAuth(app: App, ctx: AppContext): void {
  app.decorateRequest('actor', null);
  app.addHook('onRequest', async (request) => {
    const scope = request.routeOptions.config.scope;
    if (scope === undefined || scope === 'public') return;
    const match = BEARER.exec(request.headers.authorization ?? '');
    if (!match?.[1]) throw unauthorized('A valid bearer token is required.');
    const row = await findActiveToken(ctx.db, hashSecret(match[1]), ctx.clock.now());
    if (!row) throw unauthorized('The bearer token is unknown, expired or revoked.');
    const scopes = row.scopes as Scope[];
    if (!scopes.includes(scope)) {
      throw new AppError('insufficient_scope', `This endpoint needs the "${scope}" scope.`, undefined, {
        'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"`,
      });
    }
    request.actor = { user: row.user, tokenId: row.tokenId, scopes };
  });
}

/** The actor of a route with a read or write scope (the auth hook has set it). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new Error('actorOf() used on a route without a read or write scope');
  return request.actor;
}
