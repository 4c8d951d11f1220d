/**
 * Bearer-token authentication (platform.md section 1). Every route names its scope in its route
 * definition; this hook enforces it before the body is even parsed.
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.js';
import { hashSecret } from '../../lib/tokens.js';
import type { App, AppContext } from '../../http/types.js';
import { findActiveToken, type UserRow } from './auth.repository.js';

export type Scope = 'read' | 'write';

export interface AuthContext {
  readonly user: UserRow;
  readonly tokenId: string;
  readonly scopes: readonly Scope[];
}

declare module 'fastify' {
  interface FastifyRequest {
    authContext: AuthContext | null;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]{1,512})$/i;

const unauthorized = (detail: string) =>
  new AppError('unauthorized', detail, undefined, { 'WWW-Authenticate': 'Bearer realm="api"' });

export function registerAuth(app: App, ctx: AppContext): void {
  app.decorateRequest('authContext', null);
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
    request.authContext = { user: row.user, tokenId: row.tokenId, scopes };
  });
}

/** The authenticated caller of a scoped route. */
export function caller(request: FastifyRequest): AuthContext {
  if (!request.authContext) throw new Error('caller() used on a route without a scope');
  return request.authContext;
}
