import { Type } from 'typebox';
import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams, NoContent } from '../../http/schemas.js';
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
  app.route(
    route({
      method: 'POST',
      url: '/users',
      scope: 'write',
      tags,
      operationId: 'createUser',
      summary: 'Create a user',
      description: 'Instance admins only (403 otherwise). A duplicate e-mail is 409.',
      body: CreateUserBody,
      response: { 201: UserSchema },
      problems: [409],
      handler: async (request, reply) => reply.code(201).send(await service.createUser(ctx, actorOf(request), request.body)),
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/users',
      scope: 'read',
      tags,
      operationId: 'listUsers',
      summary: 'List users',
      description: 'Instance admins only (403 otherwise).',
      response: { 200: Type.Array(UserSchema) },
      handler: async (request) => service.listUsers(ctx, actorOf(request)),
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/users/:id',
      scope: 'read',
      tags,
      operationId: 'getUser',
      summary: 'Read a user',
      description: 'Instance admins read anyone; anyone else reads only themself, and another user answers 404.',
      params: IdParams,
      response: { 200: UserSchema },
      handler: async (request) => service.getUser(ctx, actorOf(request), request.params.id),
    }),
  );
  app.route(
    route({
      method: 'PATCH',
      url: '/users/:id',
      scope: 'write',
      tags,
      operationId: 'updateUser',
      summary: 'Edit a user',
      description: 'Instance admins only. A duplicate e-mail is 409; demoting the last admin is 409.',
      params: IdParams,
      body: PatchUserBody,
      response: { 200: UserSchema },
      problems: [409],
      handler: async (request) => service.patchUser(ctx, actorOf(request), request.params.id, request.body),
    }),
  );
  app.route(
    route({
      method: 'DELETE',
      url: '/users/:id',
      scope: 'write',
      tags,
      operationId: 'deleteUser',
      summary: 'Delete a user',
      description: 'Instance admins only. Deleting the last owner of a workspace or the last admin is 409.',
      params: IdParams,
      response: { 204: NoContent },
      problems: [409],
      handler: async (request, reply) => {
        await service.deleteUser(ctx, actorOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/me',
      scope: 'read',
      tags,
      operationId: 'getMe',
      summary: 'Read the caller',
      description: 'Any authenticated caller.',
      response: { 200: UserSchema },
      handler: async (request) => service.toUser(actorOf(request).user),
    }),
  );
  app.route(
    route({
      method: 'PATCH',
      url: '/me',
      scope: 'write',
      tags,
      operationId: 'updateMe',
      summary: 'Edit the caller',
      description: 'Any authenticated caller with a write token; changes their own name, time zone and locale.',
      body: PatchMeBody,
      response: { 200: UserSchema },
      handler: async (request) => service.patchMe(ctx, actorOf(request), request.body),
    }),
  );
  app.route(
    route({
      method: 'POST',
      url: '/users/:id/tokens',
      scope: 'write',
      secret: true,
      tags,
      operationId: 'createToken',
      summary: 'Create an API token',
      description: 'An instance admin for anyone, a user for themself (another user answers 404). The secret is returned once.',
      params: IdParams,
      body: CreateTokenBody,
      response: { 201: CreatedTokenSchema },
      handler: async (request, reply) =>
        reply.code(201).send(await service.createToken(ctx, actorOf(request), request.params.id, request.body)),
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/me/tokens',
      scope: 'read',
      tags,
      operationId: 'listMyTokens',
      summary: "List the caller's tokens",
      description: 'Any authenticated caller; secrets are never returned.',
      response: { 200: Type.Array(TokenSchema) },
      handler: async (request) => service.listMyTokens(ctx, actorOf(request)),
    }),
  );
  app.route(
    route({
      method: 'DELETE',
      url: '/me/tokens/:id',
      scope: 'write',
      tags,
      operationId: 'revokeMyToken',
      summary: "Revoke one of the caller's tokens",
      description: "Any authenticated caller; another user's token answers 404.",
      params: IdParams,
      response: { 204: NoContent },
      handler: async (request, reply) => {
        await service.revokeMyToken(ctx, actorOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    }),
  );
  done();
};
