import { Type } from 'typebox';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams, NoContent, problemResponses } from '../../http/schemas.js';
import { actorOf } from '../auth/auth.js';
import * as service from './projects.service.js';
import { CreateProjectBody, ProjectListItemSchema, ProjectMemberParams, ProjectMemberSchema, ProjectSchema } from './projects.schemas.js';

const tags = ['projects'];

export const projectRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.post(
    '/workspaces/:id/projects',
    {
      config: { scope: 'write' },
      schema: { tags, params: IdParams, body: CreateProjectBody, response: { 201: ProjectSchema, ...problemResponses } },
    },
    async (request, reply) => reply.code(201).send(await service.createProject(ctx, actorOf(request), request.params.id, request.body)),
  );
  app.get(
    '/workspaces/:id/projects',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        description: 'Every project of the workspace, newest first.',
        params: IdParams,
        response: { 200: Type.Array(ProjectListItemSchema), ...problemResponses },
      },
    },
    async (request) => service.listProjects(ctx, actorOf(request), request.params.id),
  );
  app.get(
    '/projects/:id/members',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        description: 'Newest membership first (then user id, descending).',
        params: IdParams,
        response: { 200: Type.Array(ProjectMemberSchema), ...problemResponses },
      },
    },
    async (request) => service.listProjectMembers(ctx, actorOf(request), request.params.id),
  );
  app.put(
    '/projects/:id/members/:userId',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        description: 'Idempotent. The user must be a member of the workspace (else 400).',
        params: ProjectMemberParams,
        response: { 204: NoContent, ...problemResponses },
      },
    },
    async (request, reply) => {
      await service.addProjectMember(ctx, actorOf(request), request.params.id, request.params.userId);
      return reply.code(204).send(null);
    },
  );
  app.delete(
    '/projects/:id/members/:userId',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        description: 'Idempotent: 204 even when the user was not a member.',
        params: ProjectMemberParams,
        response: { 204: NoContent, ...problemResponses },
      },
    },
    async (request, reply) => {
      await service.removeProjectMember(ctx, actorOf(request), request.params.id, request.params.userId);
      return reply.code(204).send(null);
    },
  );
  done();
};
