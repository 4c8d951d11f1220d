/**
 * Per-version discussion (reports-api.md 4.4): comments and reactions on one immutable content
 * version, readable under the report's read rule, writable by participants once the version is sent.
 */
import { REACTION_KEYS } from '../../db/schema.js';
import type { AppContext } from '../../http/types.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { AuthContext } from '../auth/auth.js';
import { reportReadGrant } from '../reports/report-access.js';
import * as repo from './discussion.repository.js';
import type { Comment, CommentInput, Discussion, ReactionInput, ReactionSummary } from './discussion.schemas.js';

interface Access {
  shared: boolean;
  /** The report owner (with current membership) or a holder of a delivery of this version. */
  participant: boolean;
}

/**
 * Who may see a version's discussion. A recipient of the version (a self-copy included) is a
 * participant whatever their workspace memberships: they hold the version in their inbox, which
 * is not re-checked either. Everyone else goes through the one report read rule, where only
 * the 'owner' grant (owner still in every filtered workspace) makes a participant; admins read
 * only. No delivery and no grant: 404, existence hidden.
 */
async function access(ctx: AppContext, actor: AuthContext, contentId: string): Promise<Access> {
  const state = await repo.findContentState(ctx.db, contentId, actor.user.id);
  if (!state) throw notFound();
  if (state.received) return { shared: true, participant: true };
  const grant = await reportReadGrant(ctx.db, actor, state.report);
  if (grant === null) throw notFound();
  return { shared: state.shared, participant: grant === 'owner' };
}

/** Writes: readers who are not participants get 403 (platform.md 1), an unsent version 409. */
async function writable(ctx: AppContext, actor: AuthContext, contentId: string): Promise<void> {
  const { shared, participant } = await access(ctx, actor, contentId);
  if (!participant) throw forbidden('Only the report owner and the recipients of this version may write to its discussion.');
  if (!shared) throw conflict('This version has not been sent; its discussion opens once it is.');
}

/**
 * Reaction rows (in reaction order) to summaries: only keys someone used, in the fixed key order
 * of reports-api.md 2.5, names in the order people reacted.
 */
export function summarize(rows: readonly repo.ReactionRow[], callerId: string): ReactionSummary[] {
  const byKey = new Map<string, ReactionSummary>();
  for (const row of rows) {
    let summary = byKey.get(row.emoji);
    if (!summary) {
      summary = { emoji: row.emoji as ReactionSummary['emoji'], count: 0, reactedByMe: false, userNames: [] };
      byKey.set(row.emoji, summary);
    }
    summary.count += 1;
    summary.userNames.push(row.userName);
    if (row.userId === callerId) summary.reactedByMe = true;
  }
  return REACTION_KEYS.flatMap((key) => byKey.get(key) ?? []);
}

export function toComment(row: repo.CommentWithImage, callerId: string, reactions: ReactionSummary[]): Comment {
  return {
    id: row.id,
    reportContentId: row.reportContentId,
    authorUserId: row.authorUserId,
    authorName: row.authorName,
    authorImageUrl: row.authorImageUrl,
    body: row.body,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    editable: row.authorUserId !== null && row.authorUserId === callerId,
    reactions,
  };
}

/**
 * The whole thread in a fixed number of queries however long it is: one for the comments with
 * their authors' live avatars, one for every reaction of the version; the rest is assembled here.
 */
export async function getDiscussion(ctx: AppContext, actor: AuthContext, contentId: string): Promise<Discussion> {
  const { shared } = await access(ctx, actor, contentId);
  const [commentRows, reactionRows] = await Promise.all([repo.listComments(ctx.db, contentId), repo.listReactions(ctx.db, contentId)]);

  const byTarget = new Map<string | null, repo.ReactionRow[]>();
  for (const row of reactionRows) {
    const list = byTarget.get(row.commentId);
    if (list) list.push(row);
    else byTarget.set(row.commentId, [row]);
  }
  const userId = actor.user.id;
  return {
    reportContentId: contentId,
    shared,
    reactions: summarize(byTarget.get(null) ?? [], userId),
    comments: commentRows.map((row) => toComment(row, userId, summarize(byTarget.get(row.id) ?? [], userId))),
  };
}

/** A body of only whitespace says nothing; like a blank report note it is treated as absent. */
function assertNotBlank(body: string): void {
  if (body.trim() === '') throw badRequest('The request is not valid.', [{ path: '/body', message: 'must not be blank' }]);
}

/** The author's name is frozen now; their avatar stays live (read from users on every fetch). */
export async function createComment(ctx: AppContext, actor: AuthContext, contentId: string, input: CommentInput): Promise<Comment> {
  assertNotBlank(input.body);
  await writable(ctx, actor, contentId);
  const now = ctx.clock.now();
  // A version deleted meanwhile fails the foreign key: the error handler answers 404.
  const row = await repo.insertComment(ctx.db, {
    id: newId(),
    reportContentId: contentId,
    authorUserId: actor.user.id,
    authorName: actor.user.name,
    body: input.body,
    createdAt: now,
    updatedAt: now,
  });
  return toComment({ ...row, authorImageUrl: actor.user.imageUrl }, actor.user.id, []);
}

/** Author only; a missing comment, one of another version and someone else's all give the same 404. */
export async function editComment(
  ctx: AppContext,
  actor: AuthContext,
  contentId: string,
  commentId: string,
  input: CommentInput,
): Promise<Comment> {
  assertNotBlank(input.body);
  await writable(ctx, actor, contentId);
  const key = { contentId, commentId, authorUserId: actor.user.id };
  const row = await repo.updateOwnComment(ctx.db, key, input.body, ctx.clock.now());
  if (!row) throw notFound();
  const reactions = summarize(await repo.listReactions(ctx.db, contentId, commentId), actor.user.id);
  return toComment({ ...row, authorImageUrl: actor.user.imageUrl }, actor.user.id, reactions);
}

export async function deleteComment(ctx: AppContext, actor: AuthContext, contentId: string, commentId: string): Promise<void> {
  await writable(ctx, actor, contentId);
  if (!(await repo.deleteOwnComment(ctx.db, { contentId, commentId, authorUserId: actor.user.id }))) throw notFound();
}

/**
 * Toggles the caller's reaction on the version body (commentId null) or on one of its comments,
 * and returns that target's summaries as they are after the toggle.
 */
export async function toggleReaction(
  ctx: AppContext,
  actor: AuthContext,
  contentId: string,
  commentId: string | null,
  input: ReactionInput,
): Promise<ReactionSummary[]> {
  await writable(ctx, actor, contentId);
  if (commentId !== null && !(await repo.commentOnVersion(ctx.db, contentId, commentId))) throw notFound();
  const key = { contentId, commentId, userId: actor.user.id, emoji: input.emoji };
  await repo.toggleReaction(ctx.db, key, newId(), ctx.clock.now());
  return summarize(await repo.listReactions(ctx.db, contentId, commentId), actor.user.id);
}
