import { Type } from 'typebox';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams, NoContent, ProblemSchema, problemResponses } from '../../http/schemas.js';
import { actorOf } from '../auth/auth.js';
import * as service from './workspaces.service.js';
import {
  CreateWorkspaceBody,
  MemberParams,
  MemberSchema,
  PatchWorkspaceBody,
  PutMemberBody,
  WorkspaceSchema,
} from './workspaces.schemas.js';

const tags = ['workspaces'];

export const workspaceRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.post(
    '/workspaces',
    { config: { scope: 'write' }, schema: { tags, body: CreateWorkspaceBody, response: { 201: WorkspaceSchema, ...problemResponses } } },
    async (request, reply) => reply.code(201).send(await service.createWorkspace(ctx, actorOf(request), request.body)),
  );
  app.get(
    '/workspaces',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        description: "The caller's own workspaces, newest first.",
        response: { 200: Type.Array(WorkspaceSchema), ...problemResponses },
      },
    },
    async (request) => service.listWorkspaces(ctx, actorOf(request)),
  );
  app.get(
    '/workspaces/:id',
    { config: { scope: 'read' }, schema: { tags, params: IdParams, response: { 200: WorkspaceSchema, ...problemResponses } } },
    async (request) => service.getWorkspace(ctx, actorOf(request), request.params.id),
  );
  app.patch(
    '/workspaces/:id',
    {
      config: { scope: 'write' },
      schema: { tags, params: IdParams, body: PatchWorkspaceBody, response: { 200: WorkspaceSchema, ...problemResponses } },
    },
    async (request) => service.patchWorkspace(ctx, actorOf(request), request.params.id, request.body),
  );
  app.get(
    '/workspaces/:id/members',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        description: 'Newest membership first (then user id, descending).',
        params: IdParams,
        response: { 200: Type.Array(MemberSchema), ...problemResponses },
      },
    },
    async (request) => service.listMembers(ctx, actorOf(request), request.params.id),
  );
  app.put(
    '/workspaces/:id/members/:userId',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        description: 'Adds the user or changes their role. Only an owner grants or takes the owner role.',
        params: MemberParams,
        body: PutMemberBody,
        response: { 200: MemberSchema, ...problemResponses, 409: ProblemSchema },
      },
    },
    async (request) => service.putMember(ctx, actorOf(request), request.params.id, request.params.userId, request.body),
  );
  app.delete(
    '/workspaces/:id/members/:userId',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        description: 'Removes the member and their project memberships in the workspace. Members may remove themselves.',
        params: MemberParams,
        response: { 204: NoContent, ...problemResponses, 409: ProblemSchema },
      },
    },
    async (request, reply) => {
      await service.removeMember(ctx, actorOf(request), request.params.id, request.params.userId);
      return reply.code(204).send(null);
    },
  );
  done();
};
