import { Type } from 'typebox';
import type { App, AppContext } from '../../http/types.js';
import { IdParams, NoContent, ProblemSchema, problemResponses } from '../../http/schemas.js';
import { caller } from '../auth/auth.js';
import { projectRoutes } from '../projects/projects.routes.js';
import * as service from './workspaces.service.js';
import { CreateWorkspaceBody, MemberParams, MemberSchema, PatchWorkspaceBody, PutMemberBody, WorkspaceSchema } from './workspaces.schemas.js';

const tags = ['workspaces'];

export function workspaceRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/api/v1/workspaces',
    { config: { scope: 'write' }, schema: { tags, body: CreateWorkspaceBody, response: { 201: WorkspaceSchema, ...problemResponses } } },
    async (request, reply) => reply.code(201).send(await service.createWorkspace(ctx, caller(request), request.body)),
  );
  app.get(
    '/api/v1/workspaces',
    {
      config: { scope: 'read' },
      schema: { tags, description: "The caller's own workspaces, newest first.", response: { 200: Type.Array(WorkspaceSchema), ...problemResponses } },
    },
    async (request) => service.listWorkspaces(ctx, caller(request)),
  );
  app.get(
    '/api/v1/workspaces/:id',
    { config: { scope: 'read' }, schema: { tags, params: IdParams, response: { 200: WorkspaceSchema, ...problemResponses } } },
    async (request) => service.getWorkspace(ctx, caller(request), request.params.id),
  );
  app.patch(
    '/api/v1/workspaces/:id',
    { config: { scope: 'write' }, schema: { tags, params: IdParams, body: PatchWorkspaceBody, response: { 200: WorkspaceSchema, ...problemResponses } } },
    async (request) => service.patchWorkspace(ctx, caller(request), request.params.id, request.body),
  );
  app.get(
    '/api/v1/workspaces/:id/members',
    {
      config: { scope: 'read' },
      schema: { tags, description: 'Newest membership first (then user id, descending).', params: IdParams, response: { 200: Type.Array(MemberSchema), ...problemResponses } },
    },
    async (request) => service.listMembers(ctx, caller(request), request.params.id),
  );
  app.put(
    '/api/v1/workspaces/:id/members/:userId',
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
    async (request) => service.putMember(ctx, caller(request), request.params.id, request.params.userId, request.body),
  );
  app.delete(
    '/api/v1/workspaces/:id/members/:userId',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        description: "Removes the member and their project memberships in the workspace. Members may remove themselves.",
        params: MemberParams,
        response: { 204: NoContent, ...problemResponses, 409: ProblemSchema },
      },
    },
    async (request, reply) => {
      await service.removeMember(ctx, caller(request), request.params.id, request.params.userId);
      return reply.code(204).send(null);
    },
  );
  projectRoutes(app, ctx);
}
