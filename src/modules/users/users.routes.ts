import { Type } from 'typebox';
import type { App, AppContext } from '../../http/types.js';
import { IdParams, NoContent, ProblemSchema, problemResponses } from '../../http/schemas.js';
import { caller } from '../auth/auth.js';
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

export function userRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/api/v1/users',
    { config: { scope: 'write' }, schema: { tags, body: CreateUserBody, response: { 201: UserSchema, ...problemResponses, 409: ProblemSchema } } },
    async (request, reply) => reply.code(201).send(await service.createUser(ctx, caller(request), request.body)),
  );
  app.get(
    '/api/v1/users',
    { config: { scope: 'read' }, schema: { tags, response: { 200: Type.Array(UserSchema), ...problemResponses } } },
    async (request) => service.listUsers(ctx, caller(request)),
  );
  app.get(
    '/api/v1/users/:id',
    { config: { scope: 'read' }, schema: { tags, params: IdParams, response: { 200: UserSchema, ...problemResponses } } },
    async (request) => service.getUser(ctx, caller(request), request.params.id),
  );
  app.patch(
    '/api/v1/users/:id',
    { config: { scope: 'write' }, schema: { tags, params: IdParams, body: PatchUserBody, response: { 200: UserSchema, ...problemResponses, 409: ProblemSchema } } },
    async (request) => service.patchUser(ctx, caller(request), request.params.id, request.body),
  );
  app.delete(
    '/api/v1/users/:id',
    { config: { scope: 'write' }, schema: { tags, params: IdParams, response: { 204: NoContent, ...problemResponses, 409: ProblemSchema } } },
    async (request, reply) => {
      await service.deleteUser(ctx, caller(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/api/v1/me',
    { config: { scope: 'read' }, schema: { tags, response: { 200: UserSchema, ...problemResponses } } },
    async (request) => service.toUser(caller(request).user),
  );
  app.patch(
    '/api/v1/me',
    { config: { scope: 'write' }, schema: { tags, body: PatchMeBody, response: { 200: UserSchema, ...problemResponses } } },
    async (request) => service.patchMe(ctx, caller(request), request.body),
  );
  app.post(
    '/api/v1/users/:id/tokens',
    { config: { scope: 'write' }, schema: { tags, params: IdParams, body: CreateTokenBody, response: { 201: CreatedTokenSchema, ...problemResponses } } },
    async (request, reply) => reply.code(201).send(await service.createToken(ctx, caller(request), request.params.id, request.body)),
  );
  app.get(
    '/api/v1/me/tokens',
    { config: { scope: 'read' }, schema: { tags, response: { 200: Type.Array(TokenSchema), ...problemResponses } } },
    async (request) => service.listMyTokens(ctx, caller(request)),
  );
  app.delete(
    '/api/v1/me/tokens/:id',
    { config: { scope: 'write' }, schema: { tags, params: IdParams, response: { 204: NoContent, ...problemResponses } } },
    async (request, reply) => {
      await service.revokeMyToken(ctx, caller(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
