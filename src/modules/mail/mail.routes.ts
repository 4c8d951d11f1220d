import formbody from '@fastify/formbody';
import type { FastifyError } from 'fastify';
import { Type } from 'typebox';
import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { VIEWER_RESPONSE_HEADERS } from '../../http/response-headers.js';
import { PAGED_HEADERS, pageHeaders } from '../../http/paging.js';
import { pageOf } from '../../lib/paging.js';
import { NOT_FOUND_PAGE, VIEWER_HEADERS, renderUnsubscribePage } from '../../render/share-page.js';
import { actorOf } from '../auth/auth.js';
import * as service from './mail.service.js';
import { NotificationPreferencesPatchSchema, NotificationPreferencesSchema, OutboxMessageSchema, OutboxQuery } from './mail.schemas.js';
import { readUnsubscribeToken, unsubscribeKey, type Unsubscribe } from './unsubscribe.js';

const tags = ['mail'];

export const mailRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.route(
    route({
      method: 'GET',
      url: '/me/notifications',
      scope: 'read',
      tags,
      operationId: 'getNotificationPreferences',
      summary: 'Your e-mail preferences',
      description:
        'Which mail Chronicle sends you (each event on or off), whether inbox mail carries the PDF, and immediate or a daily digest.',
      response: { 200: NotificationPreferencesSchema },
      handler: async (request) => service.getPreferences(ctx, actorOf(request)),
    }),
  );
  app.route(
    route({
      method: 'PATCH',
      url: '/me/notifications',
      scope: 'write',
      tags,
      operationId: 'updateNotificationPreferences',
      summary: 'Change your e-mail preferences',
      description: 'Changes the named fields and answers all of them. Mail already written keeps the preferences it was written under.',
      body: NotificationPreferencesPatchSchema,
      response: { 200: NotificationPreferencesSchema },
      handler: async (request) => service.updatePreferences(ctx, actorOf(request), request.body),
    }),
  );
  app.route(
    route({
      method: 'GET',
      url: '/admin/outbox',
      scope: 'read',
      tags,
      operationId: 'listOutbox',
      summary: 'The outbox',
      description:
        'Instance admins only (403 for anyone else). Every message Chronicle wrote, newest first, with its status and, once composed, ' +
        'its subject, text and HTML as sent. With no SMTP_URL every message stays here as `kept`: what would have been sent. ' +
        'The parts may hold share links and set-password links: treat them as secrets (Cache-Control: no-store). ' +
        'Paged: `limit` (default 100, at most 200) and `offset`; `status` filters.',
      secret: true,
      querystring: OutboxQuery,
      responseHeaders: PAGED_HEADERS,
      response: { 200: Type.Array(OutboxMessageSchema, { description: 'Newest first.' }) },
      handler: async (request, reply) => {
        const page = pageOf(request.query);
        const { items, total } = await service.listOutbox(ctx, actorOf(request), request.query.status, page);
        pageHeaders(reply, request, ctx.config.publicBaseUrl, page, items.length, total);
        return items;
      },
    }),
  );
  done();
};

const htmlResponse = (description: string) => ({ description, content: { 'text/html': { schema: Type.String() } } });
const TokenParams = Type.Object({ token: Type.String({ description: 'The signed token of the link (longer than 700 characters: 404).' }) });
const pageResponses = {
  200: htmlResponse('The page: a button to unsubscribe, or the confirmation.'),
  404: htmlResponse('A link this installation did not sign.'),
};
const ONE_CLICK_FORM = {
  required: false,
  content: {
    'application/x-www-form-urlencoded': {
      schema: { type: 'object', properties: { 'List-Unsubscribe': { type: 'string', enum: ['One-Click'] } } },
    },
  },
};

function describe(target: Unsubscribe): string {
  if (target.kind === 'address') return 'this report';
  if (target.kind === 'digest') return 'reports in your inbox and discussions (your daily digest)';
  return {
    inbox: 'reports that arrive in your inbox',
    discussion: 'new comments and reactions',
    scheduleProblems: 'scheduled runs that fail',
  }[target.event];
}

/**
 * The unsubscribe links of every mail (delivery.md §3, RFC 8058), under /mail: public, HTML, with
 * the viewer's headers. A GET shows a button and changes nothing; a POST (the button, or a mail
 * client's one-click `List-Unsubscribe=One-Click`) turns the link's event off.
 */
export const mailPageRoutes: FeatureRoutes = (app, { ctx }, done) => {
  const key = unsubscribeKey(ctx.shareKey);
  app.removeAllContentTypeParsers();
  void app.register(formbody, { bodyLimit: 1024 });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(404).headers(VIEWER_HEADERS).send(NOT_FOUND_PAGE);
    request.log.error({ err: error }, 'unsubscribe failed');
    return reply.code(500).headers(VIEWER_HEADERS).send(renderUnsubscribePage('this', false));
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).headers(VIEWER_HEADERS).send(NOT_FOUND_PAGE));
  const headers = Object.fromEntries(Object.keys(pageResponses).map((status) => [status, VIEWER_RESPONSE_HEADERS]));
  const common = { scope: 'public', tags, params: TokenParams, responseHeaders: headers, response: pageResponses } as const;
  app.route(
    route({
      ...common,
      method: 'GET',
      url: '/unsubscribe/:token',
      exposeHeadRoute: false,
      operationId: 'showUnsubscribe',
      summary: 'An unsubscribe link',
      description:
        'Public. A page with a button that unsubscribes; opening it changes nothing. A link this installation did not sign: 404.',
      handler: async (request, reply) => {
        const target = readUnsubscribeToken(key, request.params.token);
        if (!target) return reply.code(404).headers(VIEWER_HEADERS).send(NOT_FOUND_PAGE);
        return reply
          .code(200)
          .headers(VIEWER_HEADERS)
          .send(renderUnsubscribePage(describe(target), false));
      },
    }),
  );
  app.route(
    route({
      ...common,
      method: 'POST',
      url: '/unsubscribe/:token',
      operationId: 'unsubscribe',
      summary: 'Unsubscribe (one click)',
      description:
        "Public; RFC 8058 one-click (`List-Unsubscribe=One-Click`, the page's button sends the same). Turns off the mail the link names, " +
        'for that user or outside address only; doing it again changes nothing. A link this installation did not sign: 404.',
      documentedBody: ONE_CLICK_FORM,
      handler: async (request, reply) => {
        const target = readUnsubscribeToken(key, request.params.token);
        if (!target) return reply.code(404).headers(VIEWER_HEADERS).send(NOT_FOUND_PAGE);
        await service.unsubscribe(ctx, target);
        return reply
          .code(200)
          .headers(VIEWER_HEADERS)
          .send(renderUnsubscribePage(describe(target), true));
      },
    }),
  );
  done();
};
