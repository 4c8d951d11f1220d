import type { App, AppContext } from '../../http/types.js';
import { IdParams, NoContent, ProblemSchema, problemResponses } from '../../http/schemas.js';
import { caller } from '../auth/auth.js';
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

export function discussionRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/v1/report-contents/:id/discussion',
    { config: { scope: 'read' }, schema: { tags, params: IdParams, response: { 200: DiscussionSchema, ...problemResponses } } },
    async (request) => service.getDiscussion(ctx, caller(request), request.params.id),
  );
  app.post(
    '/api/v1/report-contents/:id/comments',
    { config: { scope: 'write' }, schema: { tags, params: IdParams, body: CommentBody, response: { 201: CommentSchema, ...writeProblems } } },
    async (request, reply) => reply.code(201).send(await service.createComment(ctx, caller(request), request.params.id, request.body)),
  );
  app.patch(
    '/api/v1/report-contents/:id/comments/:commentId',
    { config: { scope: 'write' }, schema: { tags, params: CommentParams, body: CommentBody, response: { 200: CommentSchema, ...writeProblems } } },
    async (request) => service.editComment(ctx, caller(request), request.params.id, request.params.commentId, request.body),
  );
  app.delete(
    '/api/v1/report-contents/:id/comments/:commentId',
    { config: { scope: 'write' }, schema: { tags, params: CommentParams, response: { 204: NoContent, ...writeProblems } } },
    async (request, reply) => {
      await service.deleteComment(ctx, caller(request), request.params.id, request.params.commentId);
      return reply.code(204).send(null);
    },
  );
  app.put(
    '/api/v1/report-contents/:id/reactions',
    { config: { scope: 'write' }, schema: { tags, params: IdParams, body: ReactionBody, response: { 200: ReactionSummariesSchema, ...writeProblems } } },
    async (request) => service.toggleReaction(ctx, caller(request), request.params.id, null, request.body),
  );
  app.put(
    '/api/v1/report-contents/:id/comments/:commentId/reactions',
    { config: { scope: 'write' }, schema: { tags, params: CommentParams, body: ReactionBody, response: { 200: ReactionSummariesSchema, ...writeProblems } } },
    async (request) => service.toggleReaction(ctx, caller(request), request.params.id, request.params.commentId, request.body),
  );
}
