/** SQL of sending: recipient candidates, send batches and their deliveries. */
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { deliveries, projects, reportContents, reports, sends, users, workspaceMembers, workspaces } from '../db/schema.js';
import { totalOf, type Page, type Paged } from '../lib/paging.js';
import { mayReceiveReport, projectReadableBy, type RecipientScope } from '../modules/access/predicates.js';
import type { ReportRow } from './reports.repository.js';

/** A send batch with the version number of the content it sent. */
export type SendRow = typeof sends.$inferSelect & { version: number };
export type DeliveryInsert = typeof deliveries.$inferInsert;
export type CandidateRow = Pick<typeof users.$inferSelect, 'id' | 'name' | 'email' | 'imageUrl'>;
export interface TeammateDeliveryRow {
  sendId: string;
  userId: string;
  name: string;
  readAt: Date | null;
}

/**
 * The report row, locked against a concurrent edit until the caller's transaction ends, so the
 * version it names is the one delivered and still current when the send commits.
 */
export async function lockReport(db: Db, id: string): Promise<ReportRow | undefined> {
  const [row] = await db.select().from(reports).where(eq(reports.id, id)).for('share');
  return row;
}

/**
 * Recipient candidates of a report, in one query, the same for the candidate list and the send
 * check: the users predicates.ts `mayReceiveReport` admits, newest first. `onlyUserIds` narrows
 * the answer to those users (the send-time check).
 */
export function recipientCandidates(db: Db, report: RecipientScope, onlyUserIds?: readonly string[]): Promise<CandidateRow[]> {
  return db
    .select({ id: users.id, name: users.name, email: users.email, imageUrl: users.imageUrl })
    .from(users)
    .where(and(onlyUserIds ? inArray(users.id, [...onlyUserIds]) : undefined, mayReceiveReport(report, users.id)))
    .orderBy(desc(users.createdAt), desc(users.id));
}

/** Why users are not recipient candidates of a report: what of its scope they cannot read. */
export interface RecipientStanding {
  /** The report's workspaces, by name. */
  workspaces: { id: string; name: string }[];
  /** Per user: the report's workspaces they are a member of. */
  memberships: Map<string, Set<string>>;
  /** Per user: the version's restricting projects they cannot read (a deleted one has name null). */
  unreadable: Map<string, { id: string; name: string | null }[]>;
}

/**
 * The facts behind predicates.ts `mayReceiveReport` for the given users, to explain a refusal
 * (access.ts `explainRecipientRefusal`): their memberships among the report's workspaces and,
 * when the version restricts by project, the projects they cannot read (`projectReadableBy`).
 */
export async function recipientStanding(
  db: Db,
  report: Pick<ReportRow, 'workspaceIds' | 'snapshotProjectIds' | 'restrictsRecipients'>,
  userIds: readonly string[],
): Promise<RecipientStanding> {
  const ids = [...new Set(userIds)];
  const named = await db
    .select({ id: workspaces.id, name: workspaces.name })
    .from(workspaces)
    .where(inArray(workspaces.id, report.workspaceIds));
  const workspaceList = report.workspaceIds.map((id) => ({ id, name: named.find((w) => w.id === id)?.name ?? id }));
  const memberships = new Map<string, Set<string>>(ids.map((id) => [id, new Set<string>()]));
  if (ids.length > 0) {
    const rows = await db
      .select({ userId: workspaceMembers.userId, workspaceId: workspaceMembers.workspaceId })
      .from(workspaceMembers)
      .where(and(inArray(workspaceMembers.userId, ids), inArray(workspaceMembers.workspaceId, report.workspaceIds)));
    for (const row of rows) memberships.get(row.userId)?.add(row.workspaceId);
  }
  const unreadable = new Map<string, { id: string; name: string | null }[]>(ids.map((id) => [id, []]));
  const projectIds = [...new Set(report.snapshotProjectIds ?? [])];
  if (report.restrictsRecipients && projectIds.length > 0 && ids.length > 0) {
    const existing = await db.select({ id: projects.id }).from(projects).where(inArray(projects.id, projectIds));
    const gone = projectIds.filter((id) => !existing.some((p) => p.id === id));
    const rows = await db
      .select({ userId: users.id, id: projects.id, name: projects.name })
      .from(users)
      .innerJoin(projects, inArray(projects.id, projectIds))
      .where(and(inArray(users.id, ids), sql`not ${projectReadableBy(users.id)}`))
      .orderBy(asc(projects.name), asc(projects.id));
    for (const row of rows) unreadable.get(row.userId)?.push({ id: row.id, name: row.name });
    for (const list of unreadable.values()) list.push(...gone.map((id) => ({ id, name: null })));
  }
  return { workspaces: workspaceList, memberships, unreadable };
}

export async function insertSend(db: Db, row: typeof sends.$inferInsert): Promise<void> {
  await db.insert(sends).values(row);
}

export async function insertDeliveries(db: Db, rows: DeliveryInsert[]): Promise<void> {
  if (rows.length > 0) await db.insert(deliveries).values(rows);
}

/** One page of the report's send batches, newest first, with the number of batches. */
export async function listSends(db: Db, reportId: string, page: Page): Promise<Paged<SendRow>> {
  const rows = await db
    .select({ send: sends, version: reportContents.version, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(sends)
    .innerJoin(reportContents, eq(reportContents.id, sends.reportContentId))
    .where(eq(sends.reportId, reportId))
    .orderBy(desc(sends.sentAt), desc(sends.id))
    .limit(page.limit)
    .offset(page.offset);
  const total = await totalOf(
    rows,
    page,
    async () => (await db.select({ n: count() }).from(sends).where(eq(sends.reportId, reportId)))[0]?.n ?? 0,
  );
  return { items: rows.map((r) => ({ ...r.send, version: r.version })), total };
}

/** The teammate deliveries (self-copies left out) of the given send batches of the report, with the recipient's name. */
export function listTeammateDeliveries(db: Db, reportId: string, sendIds: readonly string[]): Promise<TeammateDeliveryRow[]> {
  if (sendIds.length === 0) return Promise.resolve([]);
  return db
    .select({ sendId: deliveries.sendId, userId: deliveries.recipientUserId, name: users.name, readAt: deliveries.readAt })
    .from(deliveries)
    .innerJoin(users, eq(users.id, deliveries.recipientUserId))
    .where(and(eq(deliveries.reportId, reportId), inArray(deliveries.sendId, [...sendIds]), eq(deliveries.self, false)))
    .orderBy(asc(users.name), asc(users.id));
}
