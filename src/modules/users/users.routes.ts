import { Type } from 'typebox';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams, NoContent, ProblemSchema, problemResponses } from '../../http/schemas.js';
import { actorOf } from '../auth/auth.js';
import * as service from './users.service.js';
import {
  CreatedTokenSchema,
  CreateTokenBody,
  CreateUserBody,
  PatchMeBody,
  PatchUserBody,
  TokenSchema,
  UserSchema,
} from './users.schemas.js';

const tags = ['users'];

export const userRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.post(
    '/users',
    {
      config: { scope: 'write' },
      schema: { tags, body: CreateUserBody, response: { 201: UserSchema, ...problemResponses, 409: ProblemSchema } },
    },
    async (request, reply) => reply.code(201).send(await service.createUser(ctx, actorOf(request), request.body)),
  );
  app.get(
    '/users',
    { config: { scope: 'read' }, schema: { tags, response: { 200: Type.Array(UserSchema), ...problemResponses } } },
    async (request) => service.listUsers(ctx, actorOf(request)),
  );
  app.get(
    '/users/:id',
    { config: { scope: 'read' }, schema: { tags, params: IdParams, response: { 200: UserSchema, ...problemResponses } } },
    async (request) => service.getUser(ctx, actorOf(request), request.params.id),
  );
  app.patch(
    '/users/:id',
    {
      config: { scope: 'write' },
      schema: { tags, params: IdParams, body: PatchUserBody, response: { 200: UserSchema, ...problemResponses, 409: ProblemSchema } },
    },
    async (request) => service.patchUser(ctx, actorOf(request), request.params.id, request.body),
  );
  app.delete(
    '/users/:id',
    {
      config: { scope: 'write' },
      schema: { tags, params: IdParams, response: { 204: NoContent, ...problemResponses, 409: ProblemSchema } },
    },
    async (request, reply) => {
      await service.deleteUser(ctx, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
  app.get('/me', { config: { scope: 'read' }, schema: { tags, response: { 200: UserSchema, ...problemResponses } } }, async (request) =>
    service.toUser(actorOf(request).user),
  );
  app.patch(
    '/me',
    { config: { scope: 'write' }, schema: { tags, body: PatchMeBody, response: { 200: UserSchema, ...problemResponses } } },
    async (request) => service.patchMe(ctx, actorOf(request), request.body),
  );
  app.post(
    '/users/:id/tokens',
    {
      config: { scope: 'write', secret: true },
      schema: {
        tags,
        description:
          'An instance admin for anyone, a user for themself (404 hides other users). A token made for oneself has at most ' +
          "the calling token's scopes (403 otherwise) and expires no later than it; revoking the calling token revokes it. " +
          'The secret is returned once (Cache-Control: no-store).',
        params: IdParams,
        body: CreateTokenBody,
        response: { 201: CreatedTokenSchema, ...problemResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createToken(ctx, actorOf(request), request.params.id, request.body)),
  );
  app.get(
    '/me/tokens',
    { config: { scope: 'read' }, schema: { tags, response: { 200: Type.Array(TokenSchema), ...problemResponses } } },
    async (request) => service.listMyTokens(ctx, actorOf(request)),
  );
  app.delete(
    '/me/tokens/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        description: "Revokes one of your tokens at once, with every token it made (and theirs). Another user's token is 404.",
        params: IdParams,
        response: { 204: NoContent, ...problemResponses },
      },
    },
    async (request, reply) => {
      await service.revokeMyToken(ctx, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
  done();
};
