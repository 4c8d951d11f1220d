import type { FeatureRoutes } from '../../http/types.js';
import { sendJsonText } from '../../http/problem.js';
import { IdParams, NoContent, ProblemSchema, problemResponses } from '../../http/schemas.js';
import { PAGED, PAGED_HEADERS, PageQuery, pageHeaders } from '../../http/paging.js';
import { pageOf } from '../../lib/paging.js';
import { actorOf } from '../auth/auth.js';
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
/** Writes on a version that was never sent. */
const writeProblems = { ...problemResponses, 409: ProblemSchema };

export const discussionRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.get(
    '/report-contents/:id/discussion',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        description:
          "The version's body reactions (on every page) and one page of its comments, oldest first. " +
          `Comments are paged: ${PAGED} A thread that fits one page is the whole thread.`,
        params: IdParams,
        querystring: PageQuery,
        ...PAGED_HEADERS,
        response: { 200: DiscussionSchema, ...problemResponses },
      },
    },
    // The database writes the document (discussion.repository.ts); it is sent as it is.
    async (request, reply) => {
      const page = pageOf(request.query);
      const { document, total } = await service.getDiscussion(ctx, actorOf(request), request.params.id, page);
      const shown = Math.max(0, Math.min(page.limit, total - page.offset));
      pageHeaders(reply, request, ctx.config.publicBaseUrl, page, shown, total);
      return sendJsonText(reply, document);
    },
  );
  app.post(
    '/report-contents/:id/comments',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        description:
          'Participants only, on a version that was sent (409 otherwise). A version holds at most DISCUSSION_MAX_COMMENTS ' +
          'comments (default 5,000); one more is 409.',
        params: IdParams,
        body: CommentBody,
        response: { 201: CommentSchema, ...writeProblems },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createComment(ctx, actorOf(request), request.params.id, request.body)),
  );
  app.patch(
    '/report-contents/:id/comments/:commentId',
    {
      config: { scope: 'write' },
      schema: { tags, params: CommentParams, body: CommentBody, response: { 200: CommentSchema, ...writeProblems } },
    },
    async (request) => service.editComment(ctx, actorOf(request), request.params.id, request.params.commentId, request.body),
  );
  app.delete(
    '/report-contents/:id/comments/:commentId',
    { config: { scope: 'write' }, schema: { tags, params: CommentParams, response: { 204: NoContent, ...writeProblems } } },
    async (request, reply) => {
      await service.deleteComment(ctx, actorOf(request), request.params.id, request.params.commentId);
      return reply.code(204).send(null);
    },
  );
  app.put(
    '/report-contents/:id/reactions',
    {
      config: { scope: 'write' },
      schema: { tags, params: IdParams, body: ReactionBody, response: { 200: ReactionSummariesSchema, ...writeProblems } },
    },
    async (request) => service.toggleReaction(ctx, actorOf(request), request.params.id, null, request.body),
  );
  app.put(
    '/report-contents/:id/comments/:commentId/reactions',
    {
      config: { scope: 'write' },
      schema: { tags, params: CommentParams, body: ReactionBody, response: { 200: ReactionSummariesSchema, ...writeProblems } },
    },
    async (request) => service.toggleReaction(ctx, actorOf(request), request.params.id, request.params.commentId, request.body),
  );
  done();
};
