import { Type } from 'typebox';
import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams } from '../../http/schemas.js';
import { actorOf } from '../auth/auth.js';
import { MemberParams } from '../workspaces/workspaces.schemas.js';
import * as service from './rates.service.js';
import { PutRateBody, RateSchema } from './rates.schemas.js';

const tags = ['rates'];

/** Who may call a rate route, and what a 404 hides. */
const ADMINS_ONLY =
  'Workspace admins and owners (and instance admins). Everyone else, members of the workspace included, gets 404, as if the rates did not exist.';
const PUT_RULES =
  "`effectiveFrom` defaults to today in the caller's time zone; a level has one row per date, so a second PUT for a date replaces the first. `hourly` null ends the level from that date. The currency must be the workspace's (400 at /hourly/currency).";
const HISTORY = "The level's history, oldest date first.";

/** The four levels: path, operation names, and how the service finds the level. */
const LEVELS = [
  {
    url: '/projects/:id/members/:userId/rates',
    name: 'ProjectMemberRate',
    what: 'project member rate',
    note: 'The user must be one who may log time on the project (a member of it, or an admin or owner of its workspace), else 404.',
    params: MemberParams,
    level: service.projectMemberLevel,
  },
  {
    url: '/projects/:id/rates',
    name: 'ProjectRate',
    what: 'project rate',
    note: '',
    params: IdParams,
    level: service.projectLevel,
  },
  {
    url: '/workspaces/:id/members/:userId/rates',
    name: 'WorkspaceMemberRate',
    what: 'workspace member rate',
    note: 'The user must be a member of the workspace, else 404.',
    params: MemberParams,
    level: service.workspaceMemberLevel,
  },
  {
    url: '/workspaces/:id/rates',
    name: 'WorkspaceRate',
    what: 'workspace rate',
    note: '',
    params: IdParams,
    level: service.workspaceLevel,
  },
] as const;

export const rateRoutes: FeatureRoutes = (app, { ctx }, done) => {
  for (const level of LEVELS) {
    const note = level.note === '' ? '' : ` ${level.note}`;
    app.route(
      route({
        method: 'GET',
        url: level.url,
        scope: 'read',
        tags,
        operationId: `list${level.name}s`,
        summary: `List the ${level.what}'s history`,
        description: `${HISTORY}${note} ${ADMINS_ONLY}`,
        params: level.params,
        response: { 200: Type.Array(RateSchema) },
        handler: async (request) => {
          const { id, userId } = request.params as { id: string; userId?: string };
          return service.listRates(ctx, await level.level(ctx, actorOf(request), id, userId as string));
        },
      }),
    );
    app.route(
      route({
        method: 'PUT',
        url: level.url,
        scope: 'write',
        tags,
        operationId: `put${level.name}`,
        summary: `Set the ${level.what} from a date`,
        description: `${PUT_RULES}${note} ${ADMINS_ONLY}`,
        params: level.params,
        body: PutRateBody,
        response: { 200: RateSchema },
        handler: async (request) => {
          const { id, userId } = request.params as { id: string; userId?: string };
          const target = await level.level(ctx, actorOf(request), id, userId as string);
          return service.putRate(ctx, actorOf(request), target, request.body);
        },
      }),
    );
  }
  done();
};
