/**
 * Per-version discussion (docs/api.md "Discussion"): comments and reactions on one immutable content
 * version, readable under the report's read rule, writable by participants once the version is sent.
 */
import { REACTION_KEYS } from '../../db/schema.js';
import type { Actor, AppContext } from '../../context.js';
import { entityTag } from '../../http/conditional.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import type { Page } from '../../lib/paging.js';
import { newId } from '../../lib/ids.js';
import { discussionAccess, requireDiscussionWriter } from '../access/access.js';
import { readAs, type Caller } from '../auth/auth.js';
import { discussionPageKey, type CachedDiscussionPage } from './discussion-cache.js';
import * as repo from '../../repositories/discussion.repository.js';
import { discussionChanged } from '../mail/mail.service.js';
import type { Comment, CommentInput, ReactionInput, ReactionSummary } from './discussion.schemas.js';
import { commentCreated } from '../webhooks/webhook-events.js';

/** The caller's access to a version's discussion (access.ts `discussionAccess`). */
async function access(ctx: AppContext, actor: Actor, contentId: string) {
  return discussionAccess((await repo.findContentState(ctx.db, contentId, actor.user.id)).value, actor);
}

/** Writes: participants only (403 for other readers), on a version that was sent (409). */
async function writable(ctx: AppContext, actor: Actor, contentId: string): Promise<void> {
  requireDiscussionWriter(await access(ctx, actor, contentId));
}

/**
 * Reaction rows (in reaction order) to summaries: only keys someone used, in the fixed key order
 * of docs/api.md "Discussion", names in the order people reacted.
 */
function summarize(rows: readonly repo.ReactionRow[], callerId: string): ReactionSummary[] {
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

function toComment(row: repo.CommentWithImage, callerId: string, reactions: ReactionSummary[]): Comment {
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
 * One page of the thread as its JSON document with the thread's size and the page's entity tag:
 * the access check (for a caller whose credential is still to be found, in the statement that
 * finds it), then the page this process built at the revision the check read
 * (discussion-cache.ts), or the document built by the database in one statement however long the
 * thread is. A thread that fits one page is the whole thread.
 */
export async function getDiscussion(ctx: AppContext, caller: Caller, contentId: string, page: Page): Promise<CachedDiscussionPage> {
  const { actor, value: state } = await readAs(caller, (reader) => repo.findContentState(ctx.db, contentId, reader));
  const { shared } = discussionAccess(state, actor);
  const key = (revision: number) => discussionPageKey({ contentId, revision, callerId: actor.user.id, shared, page });
  const cached = state && ctx.discussions.get(key(state.revision));
  if (cached) return cached;
  const found = await repo.discussionJson(ctx.db, contentId, actor.user.id, shared, page);
  if (found === undefined) throw notFound();
  // The tag covers the thread's size too: a comment added past this page changes it.
  const built = { document: found.document, total: found.total, tag: entityTag(`${found.total}\n${found.document}`) };
  ctx.discussions.set(key(found.revision), built);
  return built;
}

/** A body of only whitespace says nothing; like a blank report note it is treated as absent. */
function assertNotBlank(body: string): void {
  if (body.trim() === '') throw badRequest('The request is not valid.', [{ path: '/body', message: 'must not be blank' }]);
}

/** The author's name is frozen now; their avatar stays live (read from users on every fetch). */
export async function createComment(ctx: AppContext, actor: Actor, contentId: string, input: CommentInput): Promise<Comment> {
  assertNotBlank(input.body);
  await writable(ctx, actor, contentId);
  const now = ctx.clock.now();
  const max = ctx.config.discussionMaxComments;
  const webhooks: string[] = [];
  const added = await ctx.newComments.run(contentId, () =>
    ctx.db.transaction(async (tx) => {
      const inserted = await repo.insertCommentCapped(
        tx,
        {
          id: newId(),
          reportContentId: contentId,
          authorUserId: actor.user.id,
          authorName: actor.user.name,
          body: input.body,
          createdAt: now,
          updatedAt: now,
        },
        max,
      );
      // The other participants' mail and the workspace's webhooks, in the comment's transaction.
      if (inserted.kind === 'added') {
        await discussionChanged(tx, ctx, now, contentId, actor.user.id, {
          type: 'comment',
          by: actor.user.name,
          text: excerpt(input.body),
        });
        webhooks.push(...(await commentCreated(tx, inserted.row, now)));
      }
      return inserted;
    }),
  );
  ctx.mailer.wake();
  await ctx.webhooks.enqueue(webhooks);
  // A version deleted meanwhile (its report was deleted) is the same 404 as a missing one.
  if (added.kind === 'missing') throw notFound();
  if (added.kind === 'full') {
    throw conflict(`This version's discussion holds ${max.toLocaleString('en-US')} comments, the most one version may have.`);
  }
  return toComment({ ...added.row, authorImageUrl: actor.user.imageUrl }, actor.user.id, []);
}

/** Author only; a missing comment, one of another version and someone else's all give the same 404. */
export async function editComment(
  ctx: AppContext,
  actor: Actor,
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

export async function deleteComment(ctx: AppContext, actor: Actor, contentId: string, commentId: string): Promise<void> {
  await writable(ctx, actor, contentId);
  if (!(await repo.deleteOwnComment(ctx.db, { contentId, commentId, authorUserId: actor.user.id }))) throw notFound();
}

/**
 * Toggles the caller's reaction on the version body (commentId null) or on one of its comments,
 * and returns that target's summaries as they are after the toggle. A comment of another version
 * is the same 404 as a missing one.
 */
export async function toggleReaction(
  ctx: AppContext,
  actor: Actor,
  contentId: string,
  commentId: string | null,
  input: ReactionInput,
): Promise<ReactionSummary[]> {
  await writable(ctx, actor, contentId);
  const key = { contentId, commentId, userId: actor.user.id, emoji: input.emoji };
  // Toggles of one target run one after another under its row lock (across processes), and the
  // summaries are read under that lock too: every answer is the state this toggle committed.
  // Within this process they queue before taking a connection, so a burst cannot drain the pool.
  const rows = await ctx.reactionToggles.run(`${contentId}/${commentId ?? ''}`, () =>
    ctx.db.transaction(async (tx) => {
      if (!(await repo.lockReactionTarget(tx, contentId, commentId))) throw notFound();
      const now = ctx.clock.now();
      if (await repo.toggleReaction(tx, key, newId(), now)) {
        await discussionChanged(tx, ctx, now, contentId, actor.user.id, { type: 'reaction', by: actor.user.name, text: input.emoji });
      }
      return repo.listReactions(tx, contentId, commentId);
    }),
  );
  ctx.mailer.wake();
  return summarize(rows, actor.user.id);
}

/** A comment's first characters as its mail names it: one line, at most 200 characters. */
function excerpt(body: string): string {
  const line = body.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}\u2026` : line;
}
