import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { sendJsonText } from '../../http/problem.js';
import { IdParams, NoContent } from '../../http/schemas.js';
import { PAGED_HEADERS, PageQuery, pageHeaders } from '../../http/paging.js';
import { pageOf } from '../../lib/paging.js';
import { actorOf, callerOf } from '../auth/auth.js';
import * as service from './discussion.service.js';
import {
  CommentBody,
  CommentParams,
  CommentSchema,
  DiscussionSchema,
  ReactionBody,
  ReactionSummariesSchema,
} from './discussion.schemas.js';

const tags = ['discussion'];
const CANNOT_READ = 'A version the caller cannot read answers 404.';
/** Writes on a version that was never sent. */
const writes = { scope: 'write', tags, problems: [409] } as const;

export const discussionRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.route(
    route({
      method: 'GET',
      url: '/report-contents/:id/discussion',
      scope: 'read',
      tags,
      operationId: 'getDiscussion',
      conditional: true,
      credentialInRead: true,
      summary: 'Read a discussion',
      description:
        'Participants (the owner and everyone the version was sent to) and readers of the report; a version the caller cannot read answers 404.',
      params: IdParams,
      querystring: PageQuery,
      responseHeaders: PAGED_HEADERS,
      response: { 200: DiscussionSchema },
      // The database writes the document (discussion.repository.ts); it is sent as it is.
      handler: async (request, reply) => {
        const page = pageOf(request.query);
        const { document, total, tag } = await service.getDiscussion(ctx, callerOf(request), request.params.id, page);
        const shown = Math.max(0, Math.min(page.limit, total - page.offset));
        pageHeaders(reply, request, ctx.config.publicBaseUrl, page, shown, total);
        void reply.header('etag', tag);
        return sendJsonText(reply, document);
      },
    }),
  );
  app.route(
    route({
      ...writes,
      method: 'POST',
      url: '/report-contents/:id/comments',
      operationId: 'createComment',
      summary: 'Comment on a report version',
      description: `Participants only (403 for readers who are not). ${CANNOT_READ}`,
      params: IdParams,
      body: CommentBody,
      response: { 201: CommentSchema },
      handler: async (request, reply) =>
        reply.code(201).send(await service.createComment(ctx, actorOf(request), request.params.id, request.body)),
    }),
  );
  app.route(
    route({
      ...writes,
      method: 'PATCH',
      url: '/report-contents/:id/comments/:commentId',
      operationId: 'updateComment',
      summary: 'Edit a comment',
      description: 'Its author only (403). A deleted comment is 409; a version the caller cannot read answers 404.',
      params: CommentParams,
      body: CommentBody,
      response: { 200: CommentSchema },
      handler: async (request) => service.editComment(ctx, actorOf(request), request.params.id, request.params.commentId, request.body),
    }),
  );
  app.route(
    route({
      ...writes,
      method: 'DELETE',
      url: '/report-contents/:id/comments/:commentId',
      operationId: 'deleteComment',
      summary: 'Delete a comment',
      description: `Its author only (403). ${CANNOT_READ}`,
      params: CommentParams,
      response: { 204: NoContent },
      handler: async (request, reply) => {
        await service.deleteComment(ctx, actorOf(request), request.params.id, request.params.commentId);
        return reply.code(204).send(null);
      },
    }),
  );
  app.route(
    route({
      ...writes,
      method: 'PUT',
      url: '/report-contents/:id/reactions',
      operationId: 'toggleReportReaction',
      summary: 'React to a report version',
      description: `Participants only (403); toggles the caller's reaction. ${CANNOT_READ}`,
      params: IdParams,
      body: ReactionBody,
      response: { 200: ReactionSummariesSchema },
      handler: async (request) => service.toggleReaction(ctx, actorOf(request), request.params.id, null, request.body),
    }),
  );
  app.route(
    route({
      ...writes,
      method: 'PUT',
      url: '/report-contents/:id/comments/:commentId/reactions',
      operationId: 'toggleCommentReaction',
      summary: 'React to a comment',
      description: `Participants only (403); toggles the caller's reaction. ${CANNOT_READ}`,
      params: CommentParams,
      body: ReactionBody,
      response: { 200: ReactionSummariesSchema },
      handler: async (request) => service.toggleReaction(ctx, actorOf(request), request.params.id, request.params.commentId, request.body),
    }),
  );
  done();
};
