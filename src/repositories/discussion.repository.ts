/** SQL of per-version discussions: comments and reactions (docs/api.md "Discussion"). */
import { and, asc, count, eq, isNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { isoInstant, onlyRow } from '../db/rows.js';
import { prepared } from '../db/prepared.js';
import type { Page } from '../lib/paging.js';
import {
  REACTION_KEYS,
  comments,
  deliveries,
  discussionRevisions,
  reactions,
  reportContents,
  reports,
  sends,
  users,
} from '../db/schema.js';
import type { ReportRow } from './reports.repository.js';
import { reportStandingColumns, type ReportStanding } from './access.repository.js';
import {
  credentialValues,
  foundCredential,
  preparedWithCredential,
  selectWithCredential,
  type CredentialRead,
  type Reader,
} from './auth.repository.js';

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
  /** The user's standing towards the report, for the report read rules. */
  standing: ReportStanding;
  /** The discussion's revision (discussion_revisions): moved by every write a discussion read shows. */
  revision: number;
}

/** The version's discussion revision, in the statement that reads it (0 for a version stored before revisions existed). */
const revisionOf =
  sql<number>`coalesce((select dr.revision from ${discussionRevisions} dr where dr.report_content_id = ${reportContents.id}), 0)`.mapWith(
    Number,
  );

/** What the access check of a version's discussion selects, for `readerId`. */
const contentStateFields = (readerId: SQL | Placeholder) => ({
  report: reports,
  // report_id first so the lookup can use the sends (report_id, sent_at) index.
  shared:
    sql<boolean>`exists (select 1 from ${sends} s where s.report_id = ${reports.id} and s.report_content_id = ${reportContents.id})`.mapWith(
      Boolean,
    ),
  received:
    sql<boolean>`exists (select 1 from ${deliveries} d where d.report_content_id = ${reportContents.id} and d.recipient_user_id = ${readerId})`.mapWith(
      Boolean,
    ),
  ...reportStandingColumns(readerId, reports.workspaceIds),
  revision: revisionOf,
});

const contentState = prepared((db) =>
  db
    .select(contentStateFields(sql.placeholder('userId')))
    .from(reportContents)
    .innerJoin(reports, eq(reports.id, reportContents.reportId))
    .where(eq(reportContents.id, sql.placeholder('contentId')))
    .prepare('discussion_content_state'),
);

/** The same check for the credential it finds, in the statement that finds it (auth.repository.ts credentialSource). */
const contentStateForCredential = preparedWithCredential((db, source) =>
  selectWithCredential(db, source, contentStateFields(source.readerId))
    .leftJoin(reportContents, eq(reportContents.id, sql.placeholder('contentId')))
    .leftJoin(reports, eq(reports.id, reportContents.reportId))
    .prepare(source.name('discussion_content_state')),
);

type ContentStateRow = Omit<ContentState, 'report' | 'standing'> & {
  report: ReportRow | null;
  memberOfAll: boolean;
  adminOfOnlyWorkspace: boolean;
};

const contentStateOf = (row: ContentStateRow | undefined): ContentState | undefined => {
  if (!row?.report) return undefined;
  const { report, shared, received, memberOfAll, adminOfOnlyWorkspace, revision } = row;
  return { report, shared, received, standing: { memberOfAll, adminOfOnlyWorkspace }, revision };
};

/**
 * The version's report, its delivery state and the reader's standing, in one statement (for a
 * credential, the statement that finds it); no value when the version does not exist.
 */
export async function findContentState(db: Db, contentId: string, reader: Reader): Promise<CredentialRead<ContentState>> {
  if (typeof reader === 'string') {
    const [row] = await contentState(db).execute({ contentId, userId: reader });
    return { credential: undefined, value: contentStateOf(row) };
  }
  const [row] = await contentStateForCredential(db, reader).execute({ ...credentialValues(reader), contentId });
  return { credential: row && foundCredential(row.credential), value: contentStateOf(row) };
}

const p = (name: string) => sql.placeholder(name);
const KEY_ORDER = sql.raw(`array[${REACTION_KEYS.map((k) => `'${k}'`).join(', ')}]`);

/**
 * A version's discussion as the API's JSON document (discussion.schemas.ts), built by the
 * database in one statement: a page of a thousand comments is one value to read, not thousands
 * of rows to decode and reassemble. One page of comments, oldest first, each with its author's
 * live avatar; the body's reaction summaries on every page; summaries per target in the fixed
 * key order, names in reaction order; `editable` and `reactedByMe` for `callerId`. `total` is the
 * number of comments of the whole thread.
 */
const discussionDocument = prepared((db) =>
  db
    .select({
      // The revision the document was built at, read in its own snapshot: a cached copy is keyed by it.
      revision: revisionOf,
      total: sql<number>`(select count(*) from comments c where c.report_content_id = ${p('contentId')})`.mapWith(Number),
      document: sql<string>`(
        with page as (
          select c.id, c.report_content_id, c.author_user_id, c.author_name, c.body, c.created_at, c.updated_at, u.image_url
          from comments c left join users u on u.id = c.author_user_id
          where c.report_content_id = ${p('contentId')}
          order by c.created_at, c.id
          limit ${p('limit')} offset ${p('offset')}
        ),
        summaries as (
          select r.comment_id, r.emoji,
            json_build_object('emoji', r.emoji, 'count', count(*), 'reactedByMe', bool_or(r.user_id = ${p('callerId')}),
              'userNames', json_agg(u.name order by r.created_at, r.id)) as summary
          from reactions r join users u on u.id = r.user_id
          where r.report_content_id = ${p('contentId')} and (r.comment_id is null or r.comment_id in (select id from page))
          group by r.comment_id, r.emoji
        ),
        by_target as (
          select s.comment_id, json_agg(s.summary order by array_position(${KEY_ORDER}, s.emoji)) as list
          from summaries s group by s.comment_id
        )
        select json_build_object(
          'reportContentId', ${p('contentId')}::text,
          'shared', ${p('shared')}::boolean,
          'reactions', coalesce((select t.list from by_target t where t.comment_id is null), '[]'),
          'comments', coalesce((select json_agg(json_build_object(
              'id', page.id, 'reportContentId', page.report_content_id, 'authorUserId', page.author_user_id,
              'authorName', page.author_name, 'authorImageUrl', page.image_url, 'body', page.body,
              'createdAt', ${isoInstant('page.created_at')}, 'updatedAt', ${isoInstant('page.updated_at')},
              'editable', coalesce(page.author_user_id = ${p('callerId')}, false),
              'reactions', coalesce(t.list, '[]')
            ) order by page.created_at, page.id) from page left join by_target t on t.comment_id = page.id), '[]')
        )::text)`,
    })
    .from(reportContents)
    .where(eq(reportContents.id, p('contentId')))
    .prepare('discussion_document'),
);

/** One page of a discussion as the API sends it, with the thread's size and the revision it shows. */
export interface DiscussionPage {
  document: string;
  total: number;
  revision: number;
}

/** One page of the discussion's JSON document and the thread's number of comments; undefined when the version does not exist. */
export async function discussionJson(
  db: Db,
  contentId: string,
  callerId: string,
  shared: boolean,
  page: Page,
): Promise<DiscussionPage | undefined> {
  const [row] = await discussionDocument(db).execute({ contentId, callerId, shared, limit: page.limit, offset: page.offset });
  return row;
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

/**
 * Adds a comment unless the version already holds `max` (DISCUSSION_MAX_COMMENTS).
 * Call it in a transaction: the version row's lock (`FOR NO KEY UPDATE`, which leaves other
 * writers' foreign-key checks alone) makes concurrent comments count one after another, so the
 * cap holds exactly, on every process.
 */
export async function insertCommentCapped(
  db: Db,
  row: typeof comments.$inferInsert,
  max: number,
): Promise<{ kind: 'added'; row: CommentRow } | { kind: 'missing' } | { kind: 'full' }> {
  const locked = await db
    .select({ id: reportContents.id })
    .from(reportContents)
    .where(eq(reportContents.id, row.reportContentId))
    .for('no key update');
  if (locked.length === 0) return { kind: 'missing' };
  const [existing] = await db.select({ n: count() }).from(comments).where(eq(comments.reportContentId, row.reportContentId));
  if ((existing?.n ?? 0) >= max) return { kind: 'full' };
  return { kind: 'added', row: onlyRow(await db.insert(comments).values(row).returning()) };
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
 * Locks the reaction target for the caller's transaction: the version row for a reaction on the
 * body, the comment row (which must belong to the version) for one on a comment. `FOR NO KEY
 * UPDATE` queues toggles on one target behind each other without blocking the foreign-key checks
 * of new comments and reactions. False when the target does not exist.
 */
export async function lockReactionTarget(db: Db, contentId: string, commentId: string | null): Promise<boolean> {
  const rows =
    commentId === null
      ? await db.select({ id: reportContents.id }).from(reportContents).where(eq(reportContents.id, contentId)).for('no key update')
      : await db
          .select({ id: comments.id })
          .from(comments)
          .where(and(eq(comments.id, commentId), eq(comments.reportContentId, contentId)))
          .for('no key update');
  return rows.length > 0;
}

/**
 * Toggles one reaction: removes it if present, else adds it. Call it inside a transaction that
 * holds the target's lock (lockReactionTarget), so each toggle sees the outcome of the one before:
 * without it, two toggles could both find the reaction absent and both "add" it.
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
  await db
    .insert(reactions)
    .values({ id, reportContentId: key.contentId, commentId: key.commentId, userId: key.userId, emoji: key.emoji, createdAt: now });
  return true;
}
