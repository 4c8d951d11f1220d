/** SQL of schedules and their runs (delivery.md §1). */
import { and, asc, count, desc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { reportSchedules, reports, scheduleRuns, users } from '../db/schema.js';
import { totalOf, type Page, type Paged } from '../lib/paging.js';

export type ScheduleRow = typeof reportSchedules.$inferSelect;
export type ScheduleWrite = Omit<typeof reportSchedules.$inferInsert, 'revision' | 'createdAt'>;
export type RunRow = typeof scheduleRuns.$inferSelect;
export type RunInsert = typeof scheduleRuns.$inferInsert;

/** A due schedule with what its occurrences are computed from: the owner's time zone now. */
export interface DueSchedule {
  schedule: ScheduleRow;
  timezone: string;
}

export async function findSchedule(db: Db, reportId: string): Promise<ScheduleRow | undefined> {
  const [row] = await db.select().from(reportSchedules).where(eq(reportSchedules.reportId, reportId));
  return row;
}

/** Creates or replaces a report's schedule; either way its revision moves on. */
export async function upsertSchedule(db: Db, row: ScheduleWrite): Promise<ScheduleRow> {
  const { reportId: _reportId, ...changes } = row;
  const [saved] = await db
    .insert(reportSchedules)
    .values({ ...row, createdAt: row.updatedAt })
    .onConflictDoUpdate({ target: reportSchedules.reportId, set: { ...changes, revision: sql`${reportSchedules.revision} + 1` } })
    .returning();
  if (!saved) throw new Error('an upsert returned no row');
  return saved;
}

export async function deleteSchedule(db: Db, reportId: string): Promise<boolean> {
  const deleted = await db
    .delete(reportSchedules)
    .where(eq(reportSchedules.reportId, reportId))
    .returning({ id: reportSchedules.reportId });
  return deleted.length > 0;
}

/** An edit of the report moves its schedule's revision on: runs queued before it are skipped. */
export async function bumpRevision(db: Db, reportId: string): Promise<void> {
  await db
    .update(reportSchedules)
    .set({ revision: sql`${reportSchedules.revision} + 1` })
    .where(eq(reportSchedules.reportId, reportId));
}

/**
 * Up to `limit` schedules due at `now`, locked until the caller's transaction ends; another
 * process claiming at the same moment skips them (and takes others), so each is claimed once.
 */
export async function lockDueSchedules(db: Db, now: Date, limit: number): Promise<DueSchedule[]> {
  return db
    .select({ schedule: reportSchedules, timezone: users.timezone })
    .from(reportSchedules)
    .innerJoin(reports, eq(reports.id, reportSchedules.reportId))
    .innerJoin(users, eq(users.id, reports.ownerUserId))
    .where(and(eq(reportSchedules.active, true), lte(reportSchedules.nextRunAt, now)))
    .orderBy(asc(reportSchedules.nextRunAt))
    .limit(limit)
    .for('update', { of: reportSchedules, skipLocked: true });
}

export async function setNextRun(db: Db, reportId: string, nextRunAt: Date | null): Promise<void> {
  await db.update(reportSchedules).set({ nextRunAt }).where(eq(reportSchedules.reportId, reportId));
}

/** Every active schedule of reports `ownerUserId` owns (their time zone changed). */
export function activeSchedulesOf(db: Db, ownerUserId: string): Promise<ScheduleRow[]> {
  return db
    .select({ schedule: reportSchedules })
    .from(reportSchedules)
    .innerJoin(reports, eq(reports.id, reportSchedules.reportId))
    .where(and(eq(reports.ownerUserId, ownerUserId), eq(reportSchedules.active, true)))
    .then((rows) => rows.map((r) => r.schedule));
}

/**
 * Inserts runs; an occurrence that already has one (the unique index on report and instant) is
 * left as it is. Returns the runs inserted.
 */
export async function insertRuns(db: Db, rows: RunInsert[]): Promise<RunRow[]> {
  if (rows.length === 0) return [];
  return db.insert(scheduleRuns).values(rows).onConflictDoNothing().returning();
}

/** A run-now; undefined when one of the report is already queued or running (a unique index). */
export async function insertManualRun(db: Db, row: RunInsert): Promise<RunRow | undefined> {
  const [inserted] = await db.insert(scheduleRuns).values(row).onConflictDoNothing().returning();
  return inserted;
}

/**
 * Takes a run for one attempt: a queued run, or a running one whose attempt started before
 * `staleBefore` (its process died). Null when another attempt holds it or it is finished.
 */
export async function claimRun(db: Db, id: string, now: Date, staleBefore: Date): Promise<RunRow | undefined> {
  const [row] = await db
    .update(scheduleRuns)
    .set({ status: 'running', attempts: sql`${scheduleRuns.attempts} + 1`, startedAt: now })
    .where(
      and(
        eq(scheduleRuns.id, id),
        or(eq(scheduleRuns.status, 'queued'), and(eq(scheduleRuns.status, 'running'), lt(scheduleRuns.startedAt, staleBefore))),
      ),
    )
    .returning();
  return row;
}

export type RunOutcome = Pick<
  RunRow,
  'status' | 'finishedAt' | 'reportContentId' | 'version' | 'sendId' | 'delivered' | 'emailed' | 'skipped' | 'error'
>;

/**
 * Finishes a run if `attempt` still holds it (it is running and no later attempt took it over);
 * false otherwise, and the caller's transaction must not commit what the run made.
 */
export async function finishRun(db: Db, id: string, attempt: number, outcome: RunOutcome): Promise<boolean> {
  const done = await db
    .update(scheduleRuns)
    .set(outcome)
    .where(and(eq(scheduleRuns.id, id), eq(scheduleRuns.status, 'running'), eq(scheduleRuns.attempts, attempt)))
    .returning({ id: scheduleRuns.id });
  return done.length > 0;
}

/** Gives a run back to the queue after a temporary refusal (the job engine retries it later). */
export async function requeueRun(db: Db, id: string, attempt: number): Promise<void> {
  await db
    .update(scheduleRuns)
    .set({ status: 'queued' })
    .where(and(eq(scheduleRuns.id, id), eq(scheduleRuns.status, 'running'), eq(scheduleRuns.attempts, attempt)));
}

/** Names of users by id (a deleted user is absent). */
export async function userNames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(inArray(users.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Queued runs queued before `before`, and running ones started before it: their job may be lost. */
export function strandedRuns(db: Db, before: Date, limit: number): Promise<Pick<RunRow, 'id'>[]> {
  return db
    .select({ id: scheduleRuns.id })
    .from(scheduleRuns)
    .where(
      and(
        inArray(scheduleRuns.status, ['queued', 'running']),
        or(and(eq(scheduleRuns.status, 'queued'), lt(scheduleRuns.queuedAt, before)), lt(scheduleRuns.startedAt, before)),
      ),
    )
    .orderBy(asc(scheduleRuns.queuedAt))
    .limit(limit);
}

export async function findRun(db: Db, id: string): Promise<RunRow | undefined> {
  const [row] = await db.select().from(scheduleRuns).where(eq(scheduleRuns.id, id));
  return row;
}

/** A report's runs, newest occurrence first, with the size of the whole list. */
export async function listRuns(db: Db, reportId: string, page: Page): Promise<Paged<RunRow>> {
  const rows = await db
    .select({ run: scheduleRuns, total: sql<number>`(count(*) over ())::int` })
    .from(scheduleRuns)
    .where(eq(scheduleRuns.reportId, reportId))
    .orderBy(desc(scheduleRuns.scheduledFor), desc(scheduleRuns.id))
    .limit(page.limit)
    .offset(page.offset);
  const total = await totalOf(rows, page, async () => {
    const [row] = await db.select({ n: count() }).from(scheduleRuns).where(eq(scheduleRuns.reportId, reportId));
    return row?.n ?? 0;
  });
  return { items: rows.map((r) => r.run), total };
}
