import { Type } from 'typebox';
import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams, NoContent } from '../../http/schemas.js';
import { sendJsonText } from '../../http/problem.js';
import { actorOf } from '../auth/auth.js';
import { NOT_MEMBER } from '../workspaces/workspaces.schemas.js';
import * as service from './projects.service.js';
import {
  CreateProjectBody,
  PatchProjectBody,
  ProjectListItemSchema,
  ProjectMemberParams,
  ProjectMemberSchema,
  ProjectSchema,
} from './projects.schemas.js';

const tags = ['projects'];

export const projectRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.route(
    route({
      method: 'POST',
      url: '/workspaces/:id/projects',
      scope: 'write',
      tags,
      operationId: 'createProject',
      summary: 'Create a project',
      description: `Workspace admins (403 for members). A clientId that is not a client of this workspace is 400. ${NOT_MEMBER}`,
      params: IdParams,
      body: CreateProjectBody,
      response: { 201: ProjectSchema },
      handler: async (request, reply) =>
        reply.code(201).send(await service.createProject(ctx, actorOf(request), request.params.id, request.body)),
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/workspaces/:id/projects',
      scope: 'read',
      tags,
      operationId: 'listProjects',
      summary: 'List projects',
      description: `Members; each project says whether the caller is a member. ${NOT_MEMBER}`,
      params: IdParams,
      response: { 200: Type.Array(ProjectListItemSchema) },
      // The database writes the list (projects.repository.ts); it is sent as it is.
      handler: async (request, reply) => sendJsonText(reply, await service.listProjects(ctx, actorOf(request), request.params.id)),
    }),
  );
  app.route(
    route({
      method: 'PATCH',
      url: '/projects/:id',
      scope: 'write',
      tags,
      operationId: 'updateProject',
      summary: 'Change a project',
      description:
        "Its name, client (null for none) or billableByDefault; a new default applies to entries logged from then on, never to existing ones. Workspace admins (403 for members); a clientId that is not a client of the project's workspace is 400. A project in a workspace the caller is not a member of answers 404.",
      params: IdParams,
      body: PatchProjectBody,
      response: { 200: ProjectSchema },
      handler: async (request) => service.patchProject(ctx, actorOf(request), request.params.id, request.body),
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/projects/:id/members',
      scope: 'read',
      tags,
      operationId: 'listProjectMembers',
      summary: 'List project members',
      description: "Members of the project's workspace; a project in a workspace the caller is not a member of answers 404.",
      params: IdParams,
      response: { 200: Type.Array(ProjectMemberSchema) },
      handler: async (request) => service.listProjectMembers(ctx, actorOf(request), request.params.id),
    }),
  );
  app.route(
    route({
      method: 'PUT',
      url: '/projects/:id/members/:userId',
      scope: 'write',
      tags,
      operationId: 'addProjectMember',
      summary: 'Add a project member',
      description: 'Workspace admins; the user must be a member of the workspace (400). Non-members of the workspace get 404.',
      params: ProjectMemberParams,
      response: { 204: NoContent },
      handler: async (request, reply) => {
        await service.addProjectMember(ctx, actorOf(request), request.params.id, request.params.userId);
        return reply.code(204).send(null);
      },
    }),
  );
  app.route(
    route({
      method: 'DELETE',
      url: '/projects/:id/members/:userId',
      scope: 'write',
      tags,
      operationId: 'removeProjectMember',
      summary: 'Remove a project member',
      description: 'Workspace admins. Non-members of the workspace get 404.',
      params: ProjectMemberParams,
      response: { 204: NoContent },
      handler: async (request, reply) => {
        await service.removeProjectMember(ctx, actorOf(request), request.params.id, request.params.userId);
        return reply.code(204).send(null);
      },
    }),
  );
  done();
};
