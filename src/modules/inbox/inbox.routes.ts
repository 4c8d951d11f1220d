import { Type } from 'typebox';
import type { App, AppContext } from '../../http/types.js';
import { IdParams, problemResponses } from '../../http/schemas.js';
import { caller } from '../auth/auth.js';
import * as service from './inbox.service.js';
import { InboxMessageSchema, InboxMessageWithContentSchema } from './inbox.schemas.js';

const tags = ['inbox'];

export function inboxRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/v1/inbox',
    {
      config: { scope: 'read' },
      schema: { tags, response: { 200: Type.Array(InboxMessageSchema, { description: 'Newest first.' }), ...problemResponses } },
    },
    async (request) => service.list(ctx, caller(request)),
  );
  app.get(
    '/api/v1/inbox/:id',
    { config: { scope: 'read' }, schema: { tags, params: IdParams, response: { 200: InboxMessageWithContentSchema, ...problemResponses } } },
    async (request) => service.get(ctx, caller(request), request.params.id),
  );
  app.post(
    '/api/v1/inbox/:id/read',
    { config: { scope: 'write' }, schema: { tags, params: IdParams, response: { 200: InboxMessageSchema, ...problemResponses } } },
    async (request) => service.markRead(ctx, caller(request), request.params.id),
  );
}
