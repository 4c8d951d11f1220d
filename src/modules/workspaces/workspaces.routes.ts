import { Type } from 'typebox';
import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams, NoContent } from '../../http/schemas.js';
import { actorOf } from '../auth/auth.js';
import * as service from './workspaces.service.js';
import {
  CreateWorkspaceBody,
  MemberParams,
  MemberSchema,
  NOT_MEMBER,
  PatchWorkspaceBody,
  PutMemberBody,
  WorkspaceSchema,
} from './workspaces.schemas.js';

const tags = ['workspaces'];

export const workspaceRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.route(
    route({
      method: 'POST',
      url: '/workspaces',
      scope: 'write',
      tags,
      operationId: 'createWorkspace',
      summary: 'Create a workspace',
      description: 'Any authenticated caller with a write token; the caller becomes its owner.',
      body: CreateWorkspaceBody,
      response: { 201: WorkspaceSchema },
      handler: async (request, reply) => reply.code(201).send(await service.createWorkspace(ctx, actorOf(request), request.body)),
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/workspaces',
      scope: 'read',
      tags,
      operationId: 'listWorkspaces',
      summary: "List the caller's workspaces",
      description: 'Workspaces the caller is a member of (all of them for instance admins).',
      response: { 200: Type.Array(WorkspaceSchema) },
      handler: async (request) => service.listWorkspaces(ctx, actorOf(request)),
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/workspaces/:id',
      scope: 'read',
      tags,
      operationId: 'getWorkspace',
      summary: 'Read a workspace',
      description: `Members. ${NOT_MEMBER}`,
      params: IdParams,
      response: { 200: WorkspaceSchema },
      handler: async (request) => service.getWorkspace(ctx, actorOf(request), request.params.id),
    }),
  );
  app.route(
    route({
      method: 'PATCH',
      url: '/workspaces/:id',
      scope: 'write',
      tags,
      operationId: 'updateWorkspace',
      summary: 'Change a workspace',
      description: `Its name, its currency (an ISO 4217 code; another code is 400) or who sees its rates. Workspace admins and owners (403 for members). ${NOT_MEMBER}`,
      params: IdParams,
      body: PatchWorkspaceBody,
      response: { 200: WorkspaceSchema },
      handler: async (request) => service.patchWorkspace(ctx, actorOf(request), request.params.id, request.body),
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/workspaces/:id/members',
      scope: 'read',
      tags,
      operationId: 'listWorkspaceMembers',
      summary: 'List workspace members',
      description: `Members. ${NOT_MEMBER}`,
      params: IdParams,
      response: { 200: Type.Array(MemberSchema) },
      handler: async (request) => service.listMembers(ctx, actorOf(request), request.params.id),
    }),
  );
  app.route(
    route({
      method: 'PUT',
      url: '/workspaces/:id/members/:userId',
      scope: 'write',
      tags,
      operationId: 'putWorkspaceMember',
      summary: 'Add a member or change their role',
      description: `Workspace admins; only owners grant, change or take the owner role (403). A workspace always keeps an owner (409). ${NOT_MEMBER}`,
      params: MemberParams,
      body: PutMemberBody,
      response: { 200: MemberSchema },
      problems: [409],
      handler: async (request) => service.putMember(ctx, actorOf(request), request.params.id, request.params.userId, request.body),
    }),
  );
  app.route(
    route({
      method: 'DELETE',
      url: '/workspaces/:id/members/:userId',
      scope: 'write',
      tags,
      operationId: 'removeWorkspaceMember',
      summary: 'Remove a member',
      description: `Anyone may leave; removing someone else needs a workspace admin, an owner needs an owner. Removing the last owner is 409. ${NOT_MEMBER}`,
      params: MemberParams,
      response: { 204: NoContent },
      problems: [409],
      handler: async (request, reply) => {
        await service.removeMember(ctx, actorOf(request), request.params.id, request.params.userId);
        return reply.code(204).send(null);
      },
    }),
  );
  done();
};
