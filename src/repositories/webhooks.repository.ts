/** SQL of webhook endpoints, their deliveries and the hourly share-view mark (delivery.md §4). */
import { and, arrayContains, asc, count, desc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { reportContents, reports, scheduleRuns, webhookDeliveries, webhookEndpoints, webhookShareViews, workspaces } from '../db/schema.js';
import { rowsOf } from '../db/rows.js';
import { totalOf, type Page, type Paged } from '../lib/paging.js';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type EndpointInsert = typeof webhookEndpoints.$inferInsert;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type DeliveryInsert = typeof webhookDeliveries.$inferInsert;

export async function findEndpoint(db: Db, id: string): Promise<EndpointRow | undefined> {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  return row;
}

export function listEndpoints(db: Db, workspaceId: string): Promise<EndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.workspaceId, workspaceId))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
}

/**
 * Inserts an endpoint unless the workspace already has `max`: the workspace's row is locked for
 * the count, so two creates at once cannot both take the last place. Undefined: the workspace is
 * gone; 'full': no place left.
 */
export async function insertEndpointCapped(db: Db, row: EndpointInsert, max: number): Promise<EndpointRow | 'full' | undefined> {
  return db.transaction(async (tx) => {
    const locked = await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, row.workspaceId)).for('no key update');
    if (locked.length === 0) return undefined;
    const [existing] = await tx.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.workspaceId, row.workspaceId));
    if ((existing?.n ?? 0) >= max) return 'full';
    const [inserted] = await tx.insert(webhookEndpoints).values(row).returning();
    return inserted;
  });
}

export async function updateEndpoint(
  db: Db,
  id: string,
  changes: Partial<Pick<EndpointRow, 'url' | 'events' | 'format' | 'active' | 'updatedAt'>>,
): Promise<EndpointRow | undefined> {
  const [row] = await db.update(webhookEndpoints).set(changes).where(eq(webhookEndpoints.id, id)).returning();
  return row;
}

/** Deletes the endpoint and, by cascade, its deliveries (queued ones are never sent). */
export async function deleteEndpoint(db: Db, id: string): Promise<void> {
  await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
}

/** The active endpoints of these workspaces that take events of `type`. */
export function subscribedEndpoints(db: Db, workspaceIds: readonly string[], type: string): Promise<Pick<EndpointRow, 'id'>[]> {
  return db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        inArray(webhookEndpoints.workspaceId, [...workspaceIds]),
        eq(webhookEndpoints.active, true),
        arrayContains(webhookEndpoints.events, [type]),
      ),
    );
}

export async function insertDeliveries(db: Db, rows: DeliveryInsert[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const inserted = await db.insert(webhookDeliveries).values(rows).onConflictDoNothing().returning({ id: webhookDeliveries.id });
  return inserted.map((r) => r.id);
}

/**
 * Takes a delivery for one attempt: a queued one that is due, or one whose attempt started before
 * `staleBefore` (its process died). Undefined when another attempt holds it, it is not due, or it
 * is done: each attempt is made by one process only.
 */
export async function claimDelivery(db: Db, id: string, now: Date, staleBefore: Date): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: 'delivering', attempts: sql`${webhookDeliveries.attempts} + 1`, startedAt: now })
    .where(
      and(
        eq(webhookDeliveries.id, id),
        or(
          and(eq(webhookDeliveries.status, 'queued'), lte(webhookDeliveries.nextAttemptAt, now)),
          and(eq(webhookDeliveries.status, 'delivering'), lt(webhookDeliveries.startedAt, staleBefore)),
        ),
      ),
    )
    .returning();
  return row;
}

export type AttemptOutcome = Pick<DeliveryRow, 'status' | 'nextAttemptAt' | 'responseStatus' | 'error' | 'deliveredAt'>;

/** Records an attempt's outcome if `attempt` still holds the delivery; false when a later one took it over. */
export async function finishAttempt(db: Db, id: string, attempt: number, outcome: AttemptOutcome): Promise<boolean> {
  const done = await db
    .update(webhookDeliveries)
    .set(outcome)
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'delivering'), eq(webhookDeliveries.attempts, attempt)))
    .returning({ id: webhookDeliveries.id });
  return done.length > 0;
}

/** Deliveries due by `now` and attempts silent since before `staleBefore`: what the tick hands to the job engine. */
export function dueDeliveries(db: Db, now: Date, staleBefore: Date, limit: number): Promise<Pick<DeliveryRow, 'id'>[]> {
  return db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      or(
        and(eq(webhookDeliveries.status, 'queued'), lte(webhookDeliveries.nextAttemptAt, now)),
        and(eq(webhookDeliveries.status, 'delivering'), lt(webhookDeliveries.startedAt, staleBefore)),
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(limit);
}

/** An endpoint's deliveries, newest first, with the size of the whole list. */
export async function listDeliveries(db: Db, endpointId: string, page: Page): Promise<Paged<DeliveryRow>> {
  const rows = await db
    .select({ delivery: webhookDeliveries, total: sql<number>`(count(*) over ())::int` })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(page.limit)
    .offset(page.offset);
  const total = await totalOf(rows, page, async () => {
    const [row] = await db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
    return row?.n ?? 0;
  });
  return { items: rows.map((r) => r.delivery), total };
}

/** What an event says about a report: its name and workspaces, and the version a content row is. */
export interface ReportFacts {
  reportId: string;
  name: string;
  workspaceIds: string[];
  version: number;
  reportContentId: string;
}

export async function reportOfContent(db: Db, contentId: string): Promise<ReportFacts | undefined> {
  const [row] = await db
    .select({
      reportId: reports.id,
      name: reports.name,
      workspaceIds: reports.workspaceIds,
      version: reportContents.version,
      reportContentId: reportContents.id,
    })
    .from(reportContents)
    .innerJoin(reports, eq(reports.id, reportContents.reportId))
    .where(eq(reportContents.id, contentId));
  return row;
}

export type RunFacts = Pick<
  typeof scheduleRuns.$inferSelect,
  'id' | 'trigger' | 'status' | 'scheduledFor' | 'finishedAt' | 'version' | 'reportContentId' | 'delivered' | 'error'
> & { reportId: string; name: string; workspaceIds: string[] };

export async function runOfReport(db: Db, runId: string): Promise<RunFacts | undefined> {
  const [row] = await db
    .select({
      id: scheduleRuns.id,
      trigger: scheduleRuns.trigger,
      status: scheduleRuns.status,
      scheduledFor: scheduleRuns.scheduledFor,
      finishedAt: scheduleRuns.finishedAt,
      version: scheduleRuns.version,
      reportContentId: scheduleRuns.reportContentId,
      delivered: scheduleRuns.delivered,
      error: scheduleRuns.error,
      reportId: reports.id,
      name: reports.name,
      workspaceIds: reports.workspaceIds,
    })
    .from(scheduleRuns)
    .innerJoin(reports, eq(reports.id, scheduleRuns.reportId))
    .where(eq(scheduleRuns.id, runId));
  return row;
}

/**
 * Marks a `share.viewed` event of the link at `now` unless one was marked within the hour before
 * it; one statement, so processes sharing the database agree. Returns whether this call marked it,
 * and when the link's last event was (so a caller knows how long to skip asking again).
 */
export async function markShareView(db: Db, shareId: string, now: Date): Promise<{ marked: boolean; eventAt: Date }> {
  const at = now.toISOString();
  const result = await db.execute(sql`
    with marked as (
      insert into ${webhookShareViews} (share_id, event_at) values (${shareId}, ${at}::timestamptz)
      on conflict (share_id) do update set event_at = excluded.event_at
        where ${webhookShareViews}.event_at <= ${at}::timestamptz - interval '1 hour'
      returning event_at
    )
    select event_at, true as marked from marked
    union all
    select event_at, false as marked from ${webhookShareViews} where share_id = ${shareId} and not exists (select 1 from marked)`);
  const [row] = rowsOf<{ event_at: string | Date; marked: boolean }>(result);
  return { marked: row?.marked ?? false, eventAt: row ? new Date(row.event_at) : now };
}
