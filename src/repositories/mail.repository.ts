/** SQL of outgoing mail, e-mail preferences and unsubscribed outside addresses (delivery.md §3). */
import { and, asc, count, desc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import { versionReportColumns } from './exports.repository.js';
import {
  deliveries,
  mailMessages,
  mailSuppressions,
  notificationPreferences,
  reportContents,
  reports,
  scheduleRuns,
  shares,
  users,
} from '../db/schema.js';
import { totalOf, type Page, type Paged } from '../lib/paging.js';
import { rowsOf } from '../db/rows.js';

export type MessageRow = typeof mailMessages.$inferSelect;
export type MessageInsert = typeof mailMessages.$inferInsert;
export type PreferencesRow = typeof notificationPreferences.$inferSelect;
export type PreferencesPatch = Partial<Omit<PreferencesRow, 'userId' | 'updatedAt'>>;

/** A recipient as mail needs them: where to write, in which zone, and what they asked for. */
export interface MailRecipient {
  id: string;
  name: string;
  email: string;
  timezone: string;
  preferences: PreferencesRow | null;
}

export async function insertMessages(db: Db, rows: MessageInsert[]): Promise<void> {
  if (rows.length > 0) await db.insert(mailMessages).values(rows);
}

/** The users with their preferences (null: the defaults), in one statement. */
export async function mailRecipients(db: Db, userIds: readonly string[]): Promise<MailRecipient[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .select({
      user: { id: users.id, name: users.name, email: users.email, timezone: users.timezone },
      preferences: notificationPreferences,
    })
    .from(users)
    .leftJoin(notificationPreferences, eq(notificationPreferences.userId, users.id))
    .where(inArray(users.id, [...userIds]));
  return rows.map((r) => ({ ...r.user, preferences: r.preferences }));
}

export async function findPreferences(db: Db, userId: string): Promise<PreferencesRow | undefined> {
  const [row] = await db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId));
  return row;
}

/** Writes the given preferences over the user's current ones (or the defaults); returns the result. */
export async function savePreferences(db: Db, userId: string, patch: PreferencesPatch, now: Date): Promise<PreferencesRow> {
  const [row] = await db
    .insert(notificationPreferences)
    .values({ userId, ...patch, updatedAt: now })
    .onConflictDoUpdate({ target: notificationPreferences.userId, set: { ...patch, updatedAt: now } })
    .returning();
  if (!row) throw new Error('an upsert returned no row');
  return row;
}

export async function suppressAddress(db: Db, reportId: string, address: string): Promise<void> {
  await db.insert(mailSuppressions).values({ reportId, address }).onConflictDoNothing();
}

/** Of `addresses`, those that unsubscribed from the report's mail. */
export async function suppressedAddresses(db: Db, reportId: string, addresses: readonly string[]): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const rows = await db
    .select({ address: mailSuppressions.address })
    .from(mailSuppressions)
    .where(and(eq(mailSuppressions.reportId, reportId), inArray(mailSuppressions.address, [...addresses])));
  return new Set(rows.map((r) => r.address));
}

/**
 * The statements each message's attempt makes (claim, the delivery it names, the outcome) are
 * prepared: a backlog of a thousand messages builds their SQL once, not a thousand times
 * (docs/performance.md "Mail that read its version for every message (3 December 2026)").
 */
const claimStatement = prepared((db) =>
  db
    .update(mailMessages)
    .set({ status: 'sending', attempts: sql`${mailMessages.attempts} + 1`, claimedAt: sql`${sql.placeholder('now')}` })
    .where(
      and(
        eq(mailMessages.id, sql.placeholder('id')),
        or(
          and(eq(mailMessages.status, 'queued'), lte(mailMessages.dueAt, sql.placeholder('now'))),
          and(eq(mailMessages.status, 'sending'), lt(mailMessages.claimedAt, sql.placeholder('staleBefore'))),
        ),
      ),
    )
    .returning()
    .prepare('mail_claim'),
);

/**
 * Takes a message for one attempt: a queued one that is due, or one whose attempt went silent
 * before `staleBefore` (its process died mid-send). Another process gets nothing.
 */
export async function claimMessage(db: Db, id: string, now: Date, staleBefore: Date): Promise<MessageRow | undefined> {
  const [row] = await claimStatement(db).execute({ id, now: now.toISOString(), staleBefore: staleBefore.toISOString() });
  return row;
}

export type MessageOutcome = Partial<Pick<MessageRow, 'status' | 'subject' | 'body' | 'error' | 'sentAt' | 'dueAt'>>;
const OUTCOME_FIELDS = ['status', 'subject', 'body', 'error', 'sentAt', 'dueAt'] as const;

/** One prepared statement per set of fields an outcome writes (a sent mail's, a failure's, a retry's). */
const finishStatements = new Map<string, ReturnType<typeof finishStatementOf>>();

function finishStatementOf(fields: readonly (typeof OUTCOME_FIELDS)[number][]) {
  return prepared((db) =>
    db
      .update(mailMessages)
      // Each value as the column takes it (PostgreSQL infers the parameter's type from the column).
      .set(Object.fromEntries(fields.map((field) => [field, sql`${sql.placeholder(field)}`])))
      .where(
        and(
          eq(mailMessages.id, sql.placeholder('id')),
          eq(mailMessages.status, 'sending'),
          eq(mailMessages.attempts, sql.placeholder('attempt')),
        ),
      )
      .returning({ id: mailMessages.id })
      .prepare(`mail_finish_${fields.join('_')}`),
  );
}

/** Records what an attempt did, if the attempt still holds the message; false otherwise. */
export async function finishMessage(db: Db, id: string, attempt: number, outcome: MessageOutcome): Promise<boolean> {
  const fields = OUTCOME_FIELDS.filter((field) => outcome[field] !== undefined);
  if (fields.length === 0) throw new Error('an outcome sets no field');
  const shape = fields.join(',');
  let statement = finishStatements.get(shape);
  if (!statement) finishStatements.set(shape, (statement = finishStatementOf(fields)));
  const values: Record<string, unknown> = { id, attempt };
  for (const field of fields) {
    const value = outcome[field];
    values[field] = value instanceof Date ? value.toISOString() : value;
  }
  const done = await statement(db).execute(values);
  return done.length > 0;
}

/**
 * What the ticker hands to the job engine: queued messages that are due, and messages whose
 * attempt went silent. Held batches whose time has come are queued first.
 */
export async function dueMessages(db: Db, now: Date, staleBefore: Date, limit: number): Promise<string[]> {
  await db
    .update(mailMessages)
    .set({ status: 'queued' })
    .where(and(eq(mailMessages.status, 'held'), eq(mailMessages.forDigest, false), lte(mailMessages.dueAt, now)));
  const rows = await db
    .select({ id: mailMessages.id })
    .from(mailMessages)
    .where(
      or(
        and(eq(mailMessages.status, 'queued'), lte(mailMessages.dueAt, now)),
        and(eq(mailMessages.status, 'sending'), lt(mailMessages.claimedAt, staleBefore)),
      ),
    )
    .orderBy(asc(mailMessages.dueAt))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Users with digest messages due by `now`, each once. */
export async function dueDigestRecipients(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ userId: mailMessages.recipientUserId })
    .from(mailMessages)
    .where(and(eq(mailMessages.status, 'held'), eq(mailMessages.forDigest, true), lte(mailMessages.dueAt, now)))
    .limit(limit);
  return rows.flatMap((r) => (r.userId ? [r.userId] : []));
}

/**
 * Gathers a user's held messages due by `now` into the digest `digest` (written by the caller in
 * the same transaction), locking them so two processes cannot take the same ones; returns how many.
 */
export async function gatherDigest(db: Db, userId: string, digestId: string, now: Date): Promise<number> {
  // Counted in the statement: a user's day can hold thousands of messages, and only their number comes back.
  const result = await db.execute(sql`
    with gathered as (
      update ${mailMessages} set status = 'digested', digest_id = ${digestId}
      where recipient_user_id = ${userId} and status = 'held' and for_digest and due_at <= ${now.toISOString()}::timestamptz
      returning 1
    )
    select count(*)::int as n from gathered`);
  return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
}

/**
 * The first `limit` messages a digest carries, oldest first, and how many it carries in all: a
 * digest shows a bounded number of them whatever a day brought.
 */
export async function digestItems(db: Db, digestId: string, limit: number): Promise<{ items: MessageRow[]; total: number }> {
  const rows = await db
    .select({ message: mailMessages, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(mailMessages)
    .where(eq(mailMessages.digestId, digestId))
    .orderBy(asc(mailMessages.createdAt), asc(mailMessages.id))
    .limit(limit);
  return { items: rows.map((row) => row.message), total: rows[0]?.total ?? 0 };
}

/**
 * Participants' pending discussion batches: creates each, or adds `item` to the one still held.
 * The unique index on (version, recipient) while held makes concurrent writers meet on one row.
 */
export async function addToDiscussionBatches(db: Db, rows: MessageInsert[], item: unknown): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(mailMessages)
    .values(rows.map((row) => ({ ...row, data: { items: [item] } })))
    .onConflictDoUpdate({
      target: [mailMessages.reportContentId, mailMessages.recipientUserId],
      targetWhere: sql`${mailMessages.kind} = 'discussion' and ${mailMessages.status} = 'held'`,
      // At most 20 changes are named; the mail says how many more there were.
      set: {
        data: sql`case when jsonb_array_length(${mailMessages.data} -> 'items') < 20
          then jsonb_set(${mailMessages.data}, '{items}', (${mailMessages.data} -> 'items') || jsonb_build_array(${JSON.stringify(item)}::jsonb))
          else jsonb_set(${mailMessages.data}, '{more}', to_jsonb(coalesce((${mailMessages.data} ->> 'more')::int, 0) + 1)) end`,
      },
    });
}

/**
 * The other participants of a version's discussion (access.ts `discussionAccess`: the report's
 * owner and the version's recipients), with their preferences and when their last mail about
 * this discussion was due, in one statement.
 */
export async function discussionRecipients(
  db: Db,
  contentId: string,
  actorId: string,
): Promise<(MailRecipient & { lastMailAt: Date | null })[]> {
  const participants = sql`(
    select r.owner_user_id as user_id from ${reportContents} c join ${reports} r on r.id = c.report_id where c.id = ${contentId}
    union
    select d.recipient_user_id from ${deliveries} d where d.report_content_id = ${contentId})`;
  const rows = await db
    .select({
      user: { id: users.id, name: users.name, email: users.email, timezone: users.timezone },
      preferences: notificationPreferences,
      lastMailAt: sql<string | Date | null>`(select max(m.due_at) from ${mailMessages} m
        where m.kind = 'discussion' and m.report_content_id = ${contentId} and m.recipient_user_id = ${users.id}
          and m.status in ('queued', 'sending', 'sent', 'kept'))`,
    })
    .from(users)
    .leftJoin(notificationPreferences, eq(notificationPreferences.userId, users.id))
    .where(and(sql`${users.id} in (select user_id from ${participants} p)`, sql`${users.id} <> ${actorId}`));
  return rows.map((r) => ({ ...r.user, preferences: r.preferences, lastMailAt: r.lastMailAt === null ? null : new Date(r.lastMailAt) }));
}

/** The outbox (instance admins): every message, newest first. */
export async function listMessages(db: Db, status: string | undefined, page: Page): Promise<Paged<MessageRow>> {
  const where = status ? eq(mailMessages.status, status) : undefined;
  const rows = await db
    .select({ message: mailMessages, total: sql<number>`(count(*) over ())::int` })
    .from(mailMessages)
    .where(where)
    .orderBy(desc(mailMessages.createdAt), desc(mailMessages.id))
    .limit(page.limit)
    .offset(page.offset);
  const total = await totalOf(rows, page, async () => {
    const [row] = await db.select({ n: count() }).from(mailMessages).where(where);
    return row?.n ?? 0;
  });
  return { items: rows.map((r) => r.message), total };
}

/** Mail status of each teammate of the given sends, and of each outside address. */
export async function sendMail(
  db: Db,
  sendIds: readonly string[],
): Promise<
  { sendId: string; recipientUserId: string | null; toAddress: string; status: string; error: string | null; views: number | null }[]
> {
  if (sendIds.length === 0) return [];
  const rows = await db
    .select({
      sendId: mailMessages.sendId,
      recipientUserId: mailMessages.recipientUserId,
      toAddress: mailMessages.toAddress,
      status: mailMessages.status,
      error: mailMessages.error,
      views: shares.viewCount,
    })
    .from(mailMessages)
    .leftJoin(shares, eq(shares.id, mailMessages.shareId))
    .where(and(inArray(mailMessages.sendId, [...sendIds]), inArray(mailMessages.kind, ['delivery', 'address'])))
    .orderBy(asc(mailMessages.createdAt), asc(mailMessages.id));
  return rows.flatMap((r) => (r.sendId ? [{ ...r, sendId: r.sendId }] : []));
}

/**
 * The start of a version's document, where its front matter (name, period) is: a mail reads that
 * much, not a document of megabytes, unless it attaches the PDF.
 */
const DOCUMENT_HEAD = 64 * 1024;

/**
 * What a delivery mail says and attaches: the inbox message, its version's document (its head
 * only without `wholeDocument`) and its report.
 */
function deliveryStatementOf(wholeDocument: boolean) {
  return prepared((db) =>
    db
      .select({
        id: deliveries.id,
        reportContentId: deliveries.reportContentId,
        version: deliveries.version,
        reportName: deliveries.reportName,
        senderName: deliveries.senderName,
        message: deliveries.message,
        sentAt: deliveries.sentAt,
        markdown: wholeDocument
          ? reportContents.renderedMarkdown
          : sql<string>`left(${reportContents.renderedMarkdown}, ${sql.raw(String(DOCUMENT_HEAD))})`,
        report: versionReportColumns,
      })
      .from(deliveries)
      .innerJoin(reports, eq(reports.id, deliveries.reportId))
      .innerJoin(reportContents, eq(reportContents.id, deliveries.reportContentId))
      .where(eq(deliveries.id, sql.placeholder('id')))
      .prepare(wholeDocument ? 'mail_delivery_document' : 'mail_delivery_head'),
  );
}

const deliveryStatements = { whole: deliveryStatementOf(true), head: deliveryStatementOf(false) };

export async function deliveryForMail(db: Db, deliveryId: string, wholeDocument: boolean) {
  const [row] = await deliveryStatements[wholeDocument ? 'whole' : 'head'](db).execute({ id: deliveryId });
  return row;
}

/** A run's report and outcome, for the mail to its owner. */
export async function runForMail(db: Db, runId: string) {
  const [row] = await db
    .select({
      run: scheduleRuns,
      reportName: reports.name,
      workspaceIds: reports.workspaceIds,
    })
    .from(scheduleRuns)
    .innerJoin(reports, eq(reports.id, scheduleRuns.reportId))
    .where(eq(scheduleRuns.id, runId));
  return row;
}

/** A link minted for an outside address, with its version and what the mail says about it. */
export async function shareForMail(db: Db, shareId: string) {
  const [row] = await db
    .select({
      id: shares.id,
      reportId: shares.reportId,
      tokenEncrypted: shares.tokenEncrypted,
      follows: shares.follows,
      revokedAt: shares.revokedAt,
      reportContentId: shares.reportContentId,
      version: shares.version,
      ownerName: users.name,
      report: versionReportColumns,
    })
    .from(shares)
    .innerJoin(reports, eq(reports.id, shares.reportId))
    .innerJoin(users, eq(users.id, reports.ownerUserId))
    .where(eq(shares.id, shareId));
  return row;
}

/** A version's document (for its PDF and period): its head only without `wholeDocument`. */
export async function versionDocument(
  db: Db,
  contentId: string,
  wholeDocument: boolean,
): Promise<{ markdown: string; version: number } | undefined> {
  const [row] = await db
    .select({
      markdown: wholeDocument ? reportContents.renderedMarkdown : sql<string>`left(${reportContents.renderedMarkdown}, ${DOCUMENT_HEAD})`,
      version: reportContents.version,
    })
    .from(reportContents)
    .where(eq(reportContents.id, contentId));
  return row;
}

/**
 * A version's discussion as a participant's mail names it: the report, and the participant's own
 * inbox message of the version (none for the owner).
 */
export async function discussionForMail(db: Db, contentId: string, userId: string) {
  const [row] = await db
    .select({
      reportId: reports.id,
      reportName: reports.name,
      ownerUserId: reports.ownerUserId,
      workspaceIds: reports.workspaceIds,
      version: reportContents.version,
      deliveryId: sql<
        string | null
      >`(select d.id from ${deliveries} d where d.report_content_id = ${reportContents.id} and d.recipient_user_id = ${userId} order by d.sent_at desc limit 1)`,
    })
    .from(reportContents)
    .innerJoin(reports, eq(reports.id, reportContents.reportId))
    .where(eq(reportContents.id, contentId));
  return row;
}
