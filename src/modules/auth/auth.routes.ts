import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams, NoContent } from '../../http/schemas.js';
import { emptyBodyIsEmptyObject } from '../../http/json-body.js';
import { actorOf, requireSameOrigin } from './auth.js';
import * as service from './auth.service.js';
import {
  ChangePasswordBody,
  PasswordLinkBody,
  PasswordLinkSchema,
  RedeemLinkBody,
  SessionSchema,
  SignedInSchema,
  SignInBody,
} from './auth.schemas.js';
import { clearedSessionCookie, cookieSettings, sessionCookie } from './session-cookie.js';

const tags = ['sessions'];
/** What a public route of this feature may answer: an invalid request, a cross-origin one, too much hashing. */
const PUBLIC_PROBLEMS = [400, 403, 503] as const;

const clientOf = (request: FastifyRequest): service.Client => ({
  address: request.ip,
  userAgent: request.headers['user-agent'] ?? '',
});

export const authRoutes: FeatureRoutes = (app, { ctx }, done) => {
  const cookies = cookieSettings(ctx.config);

  app.route(
    route({
      method: 'POST',
      url: '/sessions',
      scope: 'public',
      secret: true,
      tags,
      operationId: 'signIn',
      summary: 'Sign in with email and password',
      description:
        'Anyone. Starts a browser session and sets its cookie (HttpOnly, SameSite=Lax; `__Host-` and Secure behind https). ' +
        'The session acts with read and write; its unsafe requests need a same-origin Origin header. A cross-origin Origin ' +
        'is refused (403). Wrong email or password: 401, one answer for both. In 15 minutes, more than 10 attempts from ' +
        'one client address (IPv6: its /64) on one account, 100 from it on all accounts, or, once the account has had 50 ' +
        'attempts from everyone, 2 from it on that account: 429 with Retry-After. Too many password checks under way: ' +
        '503 with Retry-After. The answer sets the session cookie, so it is sent with Cache-Control: no-store.',
      body: SignInBody,
      responseHeaders: { 201: ['Set-Cookie'] },
      response: { 201: SignedInSchema },
      problems: [...PUBLIC_PROBLEMS, 401, 429],
      handler: async (request, reply) => {
        requireSameOrigin(request, cookies, false);
        const signedIn = await ctx.clientGate.run(request.ip, () => service.signIn(ctx, request.body, clientOf(request)));
        reply.header('set-cookie', sessionCookie(cookies, signedIn.secret, signedIn.maxAgeSeconds));
        return reply.code(201).send({ user: signedIn.user, session: signedIn.session });
      },
    }),
  );

  app.route(
    route({
      method: 'POST',
      url: '/password-links/redeem',
      scope: 'public',
      secret: true,
      tags,
      operationId: 'redeemPasswordLink',
      summary: 'Set a password with a one-time link and sign in',
      description:
        'Anyone holding the secret of an unused, unexpired set-password link. Sets the password (12 to 256 characters), ' +
        "ends the user's other sessions and starts a new one (as signIn). The link then stops working: a used, expired, " +
        'replaced or unknown link is a 404, answered before any hashing. Counts against the client address as a ' +
        'sign-in does (429 with Retry-After). Too many password checks under way: 503 with Retry-After. A ' +
        'cross-origin Origin is refused (403). The answer sets the session cookie: Cache-Control: no-store.',
      body: RedeemLinkBody,
      responseHeaders: { 201: ['Set-Cookie'] },
      response: { 201: SignedInSchema },
      problems: [...PUBLIC_PROBLEMS, 404, 429],
      handler: async (request, reply) => {
        requireSameOrigin(request, cookies, false);
        const signedIn = await ctx.clientGate.run(request.ip, () => service.redeemPasswordLink(ctx, request.body, clientOf(request)));
        reply.header('set-cookie', sessionCookie(cookies, signedIn.secret, signedIn.maxAgeSeconds));
        return reply.code(201).send({ user: signedIn.user, session: signedIn.session });
      },
    }),
  );

  app.route(
    route({
      method: 'POST',
      url: '/users/:id/password-link',
      scope: 'write',
      secret: true,
      tags,
      operationId: 'createPasswordLink',
      summary: 'Create a one-time set-password link for a user',
      description:
        'Instance admins. The URL opens the web app, which sets the password; it works once, for 7 days, and replaces ' +
        "the user's earlier unused links. Only a hash of its secret is stored, so it is shown once (Cache-Control: " +
        'no-store). Anyone else: 404 (403 on oneself). An instance admin minting a link for their own account needs a ' +
        'session or a token with both scopes and no expiry (403 otherwise). With `{"email": true}` the link is also e-mailed to the ' +
        "user's address (or kept in the outbox without SMTP).",
      params: IdParams,
      body: PasswordLinkBody,
      optionalBody: true,
      preValidation: emptyBodyIsEmptyObject,
      response: { 201: PasswordLinkSchema },
      handler: async (request, reply) =>
        reply.code(201).send(await service.createPasswordLink(ctx, actorOf(request), request.params.id, request.body.email ?? false)),
    }),
  );

  app.route(
    route({
      method: 'PUT',
      url: '/me/password',
      scope: 'write',
      tags,
      operationId: 'changePassword',
      summary: 'Change my password',
      description:
        'Anyone, with their current password (a wrong one is a 400 on /currentPassword; a user without a password needs ' +
        "a set-password link). The new one has 12 to 256 characters. The caller's other sessions end. Throttled as signIn " +
        '(429 with Retry-After); too many password checks under way: 503 with Retry-After.',
      body: ChangePasswordBody,
      response: { 204: NoContent },
      handler: async (request, reply) => {
        await service.changePassword(ctx, actorOf(request), request.body, clientOf(request));
        return reply.code(204).send(null);
      },
    }),
  );

  app.route(
    route({
      method: 'GET',
      url: '/me/sessions',
      scope: 'read',
      tags,
      operationId: 'listMySessions',
      summary: 'List my sessions',
      description: "Anyone: the caller's live browser sessions, newest first; `current` marks the one making the request.",
      response: { 200: Type.Array(SessionSchema) },
      handler: async (request) => service.listSessions(ctx, actorOf(request)),
    }),
  );

  app.route(
    route({
      method: 'DELETE',
      url: '/me/sessions/current',
      scope: 'write',
      tags,
      operationId: 'signOut',
      summary: 'Sign out',
      description: 'Ends the session making the request and clears its cookie. A bearer request has no session: 404.',
      responseHeaders: { 204: ['Set-Cookie'] },
      response: { 204: NoContent },
      handler: async (request, reply) => {
        await service.endCurrentSession(ctx, actorOf(request));
        reply.header('set-cookie', clearedSessionCookie(cookies));
        return reply.code(204).send(null);
      },
    }),
  );

  app.route(
    route({
      method: 'DELETE',
      url: '/me/sessions/:id',
      scope: 'write',
      tags,
      operationId: 'endMySession',
      summary: 'End one of my sessions',
      description: "Anyone, for their own sessions; another user's session or an unknown id is a 404.",
      params: IdParams,
      responseHeaders: { 204: ['Set-Cookie'] },
      response: { 204: NoContent },
      handler: async (request, reply) => {
        if (await service.endSession(ctx, actorOf(request), request.params.id)) reply.header('set-cookie', clearedSessionCookie(cookies));
        return reply.code(204).send(null);
      },
    }),
  );
  done();
};
