/** SQL of per-version discussions: comments and reactions (reports-api.md 4.4). */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { comments, deliveries, reactions, reportContents, reports, sends, users } from '../../db/schema.js';
import type { ReportRow } from '../reports/reports.repository.js';

export type CommentRow = typeof comments.$inferSelect;
export type CommentWithImage = CommentRow & { authorImageUrl: string | null };

export interface ContentState {
  report: ReportRow;
  /**
   * The version was sent at least once (a self-copy counts). Read from the send batches, not the
   * deliveries: a batch stays when a recipient's account goes, so "sent" never reverts.
   */
  shared: boolean;
  /** The user holds a delivery of this version. */
  received: boolean;
}

/** The version's report and its delivery state for `userId`, in one round trip; undefined when the version does not exist. */
export async function findContentState(db: Db, contentId: string, userId: string): Promise<ContentState | undefined> {
  const [row] = await db
    .select({
      report: reports,
      // report_id first so the lookup can use the sends (report_id, sent_at) index.
      shared: sql<boolean>`exists (select 1 from ${sends} s where s.report_id = ${reports.id} and s.report_content_id = ${reportContents.id})`.mapWith(
        Boolean,
      ),
      received: sql<boolean>`exists (select 1 from ${deliveries} d where d.report_content_id = ${reportContents.id} and d.recipient_user_id = ${userId})`.mapWith(
        Boolean,
      ),
    })
    .from(reportContents)
    .innerJoin(reports, eq(reports.id, reportContents.reportId))
    .where(eq(reportContents.id, contentId));
  return row;
}

/** Every comment of the version, oldest first, with its author's live avatar (null once the account is gone). */
export function listComments(db: Db, contentId: string): Promise<CommentWithImage[]> {
  return db
    .select({
      id: comments.id,
      reportContentId: comments.reportContentId,
      authorUserId: comments.authorUserId,
      authorName: comments.authorName,
      body: comments.body,
      createdAt: comments.createdAt,
      updatedAt: comments.updatedAt,
      authorImageUrl: users.imageUrl,
    })
    .from(comments)
    .leftJoin(users, eq(users.id, comments.authorUserId))
    .where(eq(comments.reportContentId, contentId))
    .orderBy(asc(comments.createdAt), asc(comments.id));
}

export interface ReactionRow {
  commentId: string | null;
  emoji: string;
  userId: string;
  userName: string;
}

/**
 * Reactions of the version in the order they were made, with the reacting user's name.
 * `commentId` narrows to one target: null for the body, a string for one comment, undefined for all.
 */
export function listReactions(db: Db, contentId: string, commentId?: string | null): Promise<ReactionRow[]> {
  const target =
    commentId === undefined ? undefined : commentId === null ? isNull(reactions.commentId) : eq(reactions.commentId, commentId);
  return db
    .select({ commentId: reactions.commentId, emoji: reactions.emoji, userId: reactions.userId, userName: users.name })
    .from(reactions)
    .innerJoin(users, eq(users.id, reactions.userId))
    .where(and(eq(reactions.reportContentId, contentId), target))
    .orderBy(asc(reactions.createdAt), asc(reactions.id));
}

export async function insertComment(db: Db, row: typeof comments.$inferInsert): Promise<CommentRow> {
  const [created] = await db.insert(comments).values(row).returning();
  return created!;
}

/** Whether the comment exists on this very version. */
export async function commentOnVersion(db: Db, contentId: string, commentId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: comments.id })
    .from(comments)
    .where(and(eq(comments.id, commentId), eq(comments.reportContentId, contentId)));
  return row !== undefined;
}

/** The author's own comment on this version, matched in the UPDATE itself so a miss of any kind looks the same. */
export async function updateOwnComment(
  db: Db,
  key: { contentId: string; commentId: string; authorUserId: string },
  body: string,
  now: Date,
): Promise<CommentRow | undefined> {
  const [row] = await db
    .update(comments)
    .set({ body, updatedAt: now })
    .where(and(eq(comments.id, key.commentId), eq(comments.reportContentId, key.contentId), eq(comments.authorUserId, key.authorUserId)))
    .returning();
  return row;
}

/** Deletes the author's own comment (its reactions go by cascade); false when nothing matched. */
export async function deleteOwnComment(db: Db, key: { contentId: string; commentId: string; authorUserId: string }): Promise<boolean> {
  const rows = await db
    .delete(comments)
    .where(and(eq(comments.id, key.commentId), eq(comments.reportContentId, key.contentId), eq(comments.authorUserId, key.authorUserId)))
    .returning({ id: comments.id });
  return rows.length > 0;
}

export interface ReactionKey {
  contentId: string;
  commentId: string | null;
  userId: string;
  emoji: string;
}

/**
 * Toggles one reaction with two single-statement writes and no read-then-write gap: remove it if
 * present, else add it. A concurrent toggle that adds the same row first makes the insert a no-op
 * (the unique key, nulls not distinct, is the arbiter), so racing toggles never duplicate or fail.
 * Returns whether the reaction was added.
 */
export async function toggleReaction(db: Db, key: ReactionKey, id: string, now: Date): Promise<boolean> {
  const removed = await db
    .delete(reactions)
    .where(
      and(
        eq(reactions.reportContentId, key.contentId),
        key.commentId === null ? isNull(reactions.commentId) : eq(reactions.commentId, key.commentId),
        eq(reactions.userId, key.userId),
        eq(reactions.emoji, key.emoji),
      ),
    )
    .returning({ id: reactions.id });
  if (removed.length > 0) return false;
  const added = await db
    .insert(reactions)
    .values({ id, reportContentId: key.contentId, commentId: key.commentId, userId: key.userId, emoji: key.emoji, createdAt: now })
    .onConflictDoNothing()
    .returning({ id: reactions.id });
  return added.length > 0;
}
