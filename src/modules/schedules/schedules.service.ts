/**
 * Report schedules (delivery.md §1; docs/api.md "Schedules"): read, create or replace, delete,
 * the run history and run-now. Owner only, like every action for a report; everyone else gets
 * the report's 404. The runs themselves are schedule-runner.ts.
 */
import { DateTime } from 'luxon';
import type { Actor, AppContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import type { Page, Paged } from '../../lib/paging.js';
import { badRequest, conflict, notFound, type FieldError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { blankToNull } from '../../lib/text.js';
import { normalizeEmail } from '../../lib/email.js';
import type { DatePreset } from '../../render/date-range.js';
import { isActiveOwner } from '../access/access.js';
import { refusedRecipients } from '../sending/sending.service.js';
import { findReport, type ReportRow } from '../../repositories/reports.repository.js';
import * as repo from '../../repositories/schedules.repository.js';
import { nextOccurrence, nextOccurrences, type ScheduleRule, type Weekday } from './occurrences.js';
import { NEXT_RUNS, type Schedule, type ScheduleInput, type ScheduleRun } from './schedules.schemas.js';

/** The preset a run renders when the schedule names none (delivery.md §1). */
const DEFAULT_PRESET: Record<ScheduleRule['frequency'], DatePreset> = {
  daily: 'yesterday',
  weekly: 'last_week',
  monthly: 'last_month',
};

export function ruleOf(row: Pick<repo.ScheduleRow, 'frequency' | 'weekday' | 'dayOfMonth' | 'localTime'>): ScheduleRule {
  return {
    frequency: row.frequency as ScheduleRule['frequency'],
    weekday: row.weekday as Weekday | null,
    dayOfMonth: row.dayOfMonth === null ? null : row.dayOfMonth === 'last' ? 'last' : Number(row.dayOfMonth),
    time: row.localTime,
  };
}

/** The next occurrence after `now` in the owner's zone, or null for a paused schedule. */
export const nextRunOf = (
  row: Pick<repo.ScheduleRow, 'active' | 'frequency' | 'weekday' | 'dayOfMonth' | 'localTime'>,
  timezone: string,
  now: Date,
) => (row.active ? nextOccurrence(ruleOf(row), timezone, now) : null);

function toSchedule(row: repo.ScheduleRow, timezone: string, now: Date): Schedule {
  const rule = ruleOf(row);
  return {
    reportId: row.reportId,
    frequency: rule.frequency,
    weekday: rule.weekday,
    dayOfMonth: rule.dayOfMonth,
    time: row.localTime,
    timezone,
    dateRange: row.datePreset as DatePreset,
    recipientUserIds: row.recipientUserIds,
    sendToSelf: row.sendToSelf,
    message: row.message,
    emails: row.emails,
    emailLink: row.emailLink as Schedule['emailLink'],
    attachPdf: row.attachPdf,
    active: row.active,
    nextRuns: row.active
      ? nextOccurrences(rule, timezone, now, NEXT_RUNS).map((at) => DateTime.fromJSDate(at, { zone: timezone }).toISO() ?? at.toISOString())
      : [],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toRun(row: repo.RunRow): ScheduleRun {
  return {
    id: row.id,
    trigger: row.trigger as ScheduleRun['trigger'],
    scheduledFor: row.scheduledFor.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    status: row.status as ScheduleRun['status'],
    version: row.version,
    reportContentId: row.reportContentId,
    delivered: row.delivered,
    skipped: row.skipped as ScheduleRun['skipped'],
    emailed: row.emailed,
    error: row.error,
  };
}

/** The report when the caller is its owner with current membership; the report's 404 otherwise. */
async function ownedReport(ctx: AppContext, actor: Actor, reportId: string): Promise<ReportRow> {
  const report = await findReport(ctx.db, reportId);
  if (!report || !(await isActiveOwner(ctx.db, actor, report))) throw notFound();
  return report;
}

export async function get(ctx: AppContext, actor: Actor, reportId: string): Promise<Schedule> {
  await ownedReport(ctx, actor, reportId);
  const row = await repo.findSchedule(ctx.db, reportId);
  if (!row) throw notFound();
  return toSchedule(row, actor.user.timezone, ctx.clock.now());
}

/** The fields that belong to other frequencies, and those this one needs, as field errors. */
function ruleErrors(input: ScheduleInput): FieldError[] {
  const errors: FieldError[] = [];
  if (input.frequency === 'weekly' && input.weekday === undefined)
    errors.push({ path: '/weekday', message: 'is required for a weekly schedule' });
  if (input.frequency !== 'weekly' && input.weekday !== undefined)
    errors.push({ path: '/weekday', message: 'is only for weekly schedules' });
  if (input.frequency === 'monthly' && input.dayOfMonth === undefined) {
    errors.push({ path: '/dayOfMonth', message: 'is required for a monthly schedule' });
  }
  if (input.frequency !== 'monthly' && input.dayOfMonth !== undefined)
    errors.push({ path: '/dayOfMonth', message: 'is only for monthly schedules' });
  return errors;
}

/**
 * Creates or replaces the schedule; `created` says which. Recipients must be candidates now (a
 * run skips, and names, those who stop being candidates later). Replacing it skips the runs
 * already queued under the old one.
 */
export async function put(
  ctx: AppContext,
  actor: Actor,
  reportId: string,
  input: ScheduleInput,
): Promise<{ schedule: Schedule; created: boolean }> {
  const report = await ownedReport(ctx, actor, reportId);
  const recipients = input.recipientUserIds ?? [];
  const refused = await refusedRecipients(ctx.db, report, actor, recipients);
  const errors = [...ruleErrors(input), ...refused.map(({ index, reason }) => ({ path: `/recipientUserIds/${index}`, message: reason }))];
  if (errors.length > 0) throw badRequest('The schedule cannot be saved with these fields.', errors);
  const now = ctx.clock.now();
  const fields = {
    frequency: input.frequency,
    weekday: input.weekday ?? null,
    dayOfMonth: input.dayOfMonth === undefined ? null : String(input.dayOfMonth),
    localTime: input.time,
    active: input.active ?? true,
  };
  const saved = await repo.upsertSchedule(ctx.db, {
    reportId,
    ...fields,
    datePreset: input.dateRange ?? DEFAULT_PRESET[input.frequency],
    recipientUserIds: [...new Set(recipients)],
    sendToSelf: input.sendToSelf ?? false,
    message: blankToNull(input.message),
    emails: [...new Set((input.emails ?? []).map(normalizeEmail))],
    emailLink: input.emailLink ?? 'version',
    attachPdf: input.attachPdf ?? false,
    nextRunAt: nextRunOf(fields, actor.user.timezone, now),
    updatedAt: now,
  });
  return { schedule: toSchedule(saved, actor.user.timezone, now), created: saved.revision === 1 };
}

/**
 * The owner's time zone changed: their active schedules' next runs move to the new zone's wall
 * clock, so the change applies from the next run (delivery.md §1).
 */
export async function followOwnerTimezone(ctx: AppContext, db: Db, ownerUserId: string, timezone: string): Promise<void> {
  const now = ctx.clock.now();
  for (const schedule of await repo.activeSchedulesOf(db, ownerUserId)) {
    await repo.setNextRun(db, schedule.reportId, nextRunOf(schedule, timezone, now));
  }
}

/** Deletes the schedule; runs already queued are skipped, the history stays with the report. */
export async function remove(ctx: AppContext, actor: Actor, reportId: string): Promise<void> {
  await ownedReport(ctx, actor, reportId);
  if (!(await repo.deleteSchedule(ctx.db, reportId))) throw notFound();
}

export async function runs(ctx: AppContext, actor: Actor, reportId: string, page: Page): Promise<Paged<ScheduleRun>> {
  await ownedReport(ctx, actor, reportId);
  const { items, total } = await repo.listRuns(ctx.db, reportId, page);
  return { items: items.map(toRun), total };
}

/**
 * Queues a run of the schedule now, worked by the job engine like any occurrence (the answer is
 * the queued run; its history shows the outcome). One at a time per report: another run-now
 * while a run of the report waits or runs is a 409.
 */
export async function runNow(ctx: AppContext, actor: Actor, reportId: string): Promise<ScheduleRun> {
  await ownedReport(ctx, actor, reportId);
  const schedule = await repo.findSchedule(ctx.db, reportId);
  if (!schedule) throw notFound();
  const now = ctx.clock.now();
  const run = await repo.insertManualRun(ctx.db, {
    id: newId(),
    reportId,
    trigger: 'manual',
    scheduledFor: now,
    revision: schedule.revision,
    status: 'queued',
    queuedAt: now,
  });
  if (!run) throw conflict('A run of this report is already queued or running; its history shows when it is done.');
  await ctx.scheduler.enqueue(run.id);
  return toRun(run);
}
