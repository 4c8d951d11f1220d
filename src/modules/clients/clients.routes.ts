import { Type } from 'typebox';
import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams, NoContent } from '../../http/schemas.js';
import { sendJsonText } from '../../http/problem.js';
import { actorOf } from '../auth/auth.js';
import { NOT_MEMBER } from '../workspaces/workspaces.schemas.js';
import * as service from './clients.service.js';
import { ClientSchema, CreateClientBody, PatchClientBody } from './clients.schemas.js';

const tags = ['clients'];

/** How a client route answers someone outside the client's workspace. */
const NOT_MEMBER_OF_CLIENT = 'A client in a workspace the caller is not a member of answers 404, as if it did not exist.';

export const clientRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.route(
    route({
      method: 'GET',
      url: '/workspaces/:id/clients',
      scope: 'read',
      tags,
      operationId: 'listClients',
      summary: 'List clients',
      description: `Members; every client of the workspace, archived ones included, newest first. ${NOT_MEMBER}`,
      params: IdParams,
      response: { 200: Type.Array(ClientSchema) },
      // The database writes the list (clients.repository.ts); it is sent as it is.
      handler: async (request, reply) => sendJsonText(reply, await service.listClients(ctx, actorOf(request), request.params.id)),
    }),
  );
  app.route(
    route({
      method: 'POST',
      url: '/workspaces/:id/clients',
      scope: 'write',
      tags,
      operationId: 'createClient',
      summary: 'Create a client',
      description: `Workspace admins and owners (403 for members). A name the workspace already has, ignoring case, is 409. ${NOT_MEMBER}`,
      params: IdParams,
      body: CreateClientBody,
      response: { 201: ClientSchema },
      problems: [409],
      handler: async (request, reply) =>
        reply.code(201).send(await service.createClient(ctx, actorOf(request), request.params.id, request.body)),
    }),
  );
  app.route(
    route({
      method: 'PATCH',
      url: '/clients/:id',
      scope: 'write',
      tags,
      operationId: 'updateClient',
      summary: 'Rename or archive a client',
      description: `Workspace admins and owners (403 for members). A name the workspace already has, ignoring case, is 409. ${NOT_MEMBER_OF_CLIENT}`,
      params: IdParams,
      body: PatchClientBody,
      response: { 200: ClientSchema },
      problems: [409],
      handler: async (request) => service.patchClient(ctx, actorOf(request), request.params.id, request.body),
    }),
  );
  app.route(
    route({
      method: 'DELETE',
      url: '/clients/:id',
      scope: 'write',
      tags,
      operationId: 'deleteClient',
      summary: 'Delete a client',
      description: `Workspace admins and owners (403 for members). Its projects stay, with clientId null. ${NOT_MEMBER_OF_CLIENT}`,
      params: IdParams,
      response: { 204: NoContent },
      handler: async (request, reply) => {
        await service.deleteClient(ctx, actorOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    }),
  );
  done();
};
