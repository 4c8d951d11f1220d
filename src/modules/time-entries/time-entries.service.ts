/** Time entries (docs/api.md "Time entries"): logging, reading, editing and deleting them; who may is in access.ts. */
import type { Actor, AppContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import { badRequest, conflict, notFound, type AppError, type FieldError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { editableEntry, explainBatchRefusals, explainEntryRefusal, requireProjectForEntry } from '../access/access.js';
import * as repo from '../../repositories/time-entries.repository.js';
import {
  DEFAULT_LIMIT,
  FIRST_ENTRY_START,
  LAST_ENTRY_START,
  type CreateTimeEntriesBatchInput,
  type CreateTimeEntryInput,
  type TimeEntriesBatch,
  type ListTimeEntriesInput,
  type PatchTimeEntryInput,
  type TimeEntry,
} from './time-entries.schemas.js';

/** `stamps` lets a batch format its one creation time once rather than twice per row. */
function toTimeEntry(
  row: repo.TimeEntryRow,
  stamps = { createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() },
): TimeEntry {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    projectId: row.projectId,
    userId: row.userId,
    start: row.start.toISOString(),
    minutes: row.minutes,
    description: row.description,
    tags: row.tags,
    billable: row.billable,
    createdAt: stamps.createdAt,
    updatedAt: stamps.updatedAt,
  };
}

const invalid = (errors: FieldError[]) => badRequest('The request is not valid.', errors);

// The schema's date-time format has already checked the shape and the calendar; this rebuilds
// the canonical form because Date.parse refuses some shapes the format allows (an hour-only
// offset such as `+02`, a space separator in some engines).
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-]\d{2}):?(\d{2})?)$/;

/**
 * Reads an ISO 8601 instant the schema accepted. Leap seconds and instants outside years
 * 1000-9999 (UTC) are refused: a JavaScript Date cannot hold a leap second, and the driver reads
 * years below 100 back as 19xx or 20xx, so early instants would not survive a round trip.
 */
function readInstant(value: string): Date | null {
  const m = DATE_TIME.exec(value);
  const fraction = (m?.[5] ?? '').slice(0, 4);
  const offset = m?.[6] ? 'Z' : `${m?.[7]}:${m?.[8] ?? '00'}`;
  const ms = m && m[4] !== '60' ? Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}${fraction}${offset}`) : NaN;
  return ms >= FIRST_ENTRY_START && ms <= LAST_ENTRY_START ? new Date(ms) : null;
}

const INSTANT_RANGE = 'must be an instant in years 1000 to 9999 (UTC), without a leap second';

function parseInstant(value: string, path: string): Date {
  const instant = readInstant(value);
  if (!instant) throw invalid([{ path, message: INSTANT_RANGE }]);
  return instant;
}

/** PostgreSQL text cannot hold U+0000; refusing it here keeps it a 400 rather than a driver error. */
function nulErrors(description: string | undefined, tags: readonly string[] | undefined, prefix = ''): FieldError[] {
  const errors: FieldError[] = [];
  if (description?.includes('\u0000')) errors.push({ path: `${prefix}/description`, message: 'must not contain U+0000' });
  tags?.forEach((tag, i) => {
    if (tag.includes('\u0000')) errors.push({ path: `${prefix}/tags/${i}`, message: 'must not contain U+0000' });
  });
  return errors;
}

function assertNoNul(description: string | undefined, tags: readonly string[] | undefined): void {
  const errors = nulErrors(description, tags);
  if (errors.length > 0) throw invalid(errors);
}

function newEntry(actor: Actor, input: CreateTimeEntryInput, start: Date, createdAt: Date): repo.NewEntry {
  return {
    id: newId(),
    workspaceId: input.workspaceId,
    projectId: input.projectId ?? null,
    userId: input.userId ?? actor.user.id,
    start,
    minutes: input.minutes,
    description: input.description ?? '',
    tags: input.tags ?? [],
    billable: input.billable ?? null,
    createdAt,
  };
}

/** The 409 of an insert that would take a user past ENTRY_QUOTA_PER_USER in a workspace. */
function quotaReached(key: repo.QuotaKey, quota: number): AppError {
  return conflict(
    `User ${key.userId} would have more than ${quota.toLocaleString('en-US')} time entries in workspace ${key.workspaceId}, the most one user may have in one workspace (ENTRY_QUOTA_PER_USER); nothing was stored. Delete old entries or ask the operator to raise the quota.`,
  );
}

/**
 * Runs a batch's insert of `entries` under ENTRY_QUOTA_PER_USER (docs/api.md "Time entries"): in one
 * transaction it inserts, which updates the counts of every (user, workspace) the entries belong
 * to (time_entry_counts, kept by triggers), and reads those counts; past the quota the transaction
 * is rolled back and the answer is 409. Access rules are checked by the insert first, so a refused
 * entry never reveals anyone's count. The insert holds the counts' rows to the end of its
 * transaction, so two concurrent inserts for one user and workspace count one after the other, on
 * any process.
 */
async function withinQuota<T>(
  ctx: AppContext,
  entries: readonly repo.NewEntry[],
  insert: (tx: Db) => Promise<T>,
  stored: (result: T) => boolean,
): Promise<T> {
  const quota = ctx.config.entryQuotaPerUser;
  const keys = entries.map((e) => ({ userId: e.userId, workspaceId: e.workspaceId }));
  return ctx.db.transaction(async (tx) => {
    const result = await insert(tx);
    if (!stored(result)) return result;
    const [over] = await repo.keysOverQuota(tx, keys, quota);
    if (over) throw quotaReached(over, quota);
    return result;
  });
}

/**
 * Logs an entry (access.ts `explainEntryRefusal` states who may) under ENTRY_QUOTA_PER_USER. The
 * insert checks every rule and the quota itself, in one statement; the checks run only to explain
 * a refusal.
 */
export async function createEntry(ctx: AppContext, actor: Actor, input: CreateTimeEntryInput): Promise<TimeEntry> {
  const start = parseInstant(input.start, '/start');
  assertNoNul(input.description, input.tags);
  const entry = newEntry(actor, input, start, ctx.clock.now());
  const quota = ctx.config.entryQuotaPerUser;
  // A refusal the checks cannot explain means memberships changed in between: try once more.
  for (let attempt = 0; attempt < 2; attempt++) {
    const row = await repo.insertEntryIfAllowed(ctx.db, entry, actor.user.id, quota);
    if (row) return toTimeEntry(row);
    await explainEntryRefusal(ctx.db, actor, entry);
    // Every rule holds, so the quota refused it: the count is at the quota (over quota - 1).
    const [full] = await repo.keysOverQuota(ctx.db, [{ userId: entry.userId, workspaceId: entry.workspaceId }], quota - 1);
    if (full) throw quotaReached(full, quota);
  }
  throw conflict('Memberships changed while the entry was being saved; try again.');
}

/**
 * Logs up to 1,000 entries at once, all or nothing (docs/api.md "Time entries", batches): each row follows the
 * rules of `createEntry`, checked for the whole batch by one insert statement; when any row is
 * refused, nothing is stored and the 400 lists every refused row with its index and reason.
 */
export async function createEntries(ctx: AppContext, actor: Actor, input: CreateTimeEntriesBatchInput): Promise<TimeEntriesBatch> {
  const errors: FieldError[] = [];
  // One statement stores the whole batch: one creation time for all of it.
  const createdAt = ctx.clock.now();
  const entries = input.entries.map((item, index) => {
    const prefix = `/entries/${index}`;
    const start = readInstant(item.start);
    if (!start) errors.push({ path: `${prefix}/start`, message: INSTANT_RANGE, index });
    errors.push(...nulErrors(item.description, item.tags, prefix).map((e) => ({ ...e, index })));
    return newEntry(actor, item, start ?? new Date(0), createdAt);
  });
  if (errors.length > 0) throw invalid(errors);
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await withinQuota(
      ctx,
      entries,
      (tx) => repo.insertEntriesIfAllowed(tx, entries, actor.user.id, createdAt),
      (billable) => billable.size > 0,
    );
    // The statement stores what it was given and decides only `billable`, which it returns: the
    // answer is built from the batch itself and those.
    if (inserted.size === entries.length) {
      const stamp = createdAt.toISOString();
      const stamps = { createdAt: stamp, updatedAt: stamp };
      return {
        entries: entries.map((entry) => toTimeEntry({ ...entry, billable: inserted.get(entry.id) ?? false, updatedAt: createdAt }, stamps)),
      };
    }
    const refusals = await explainBatchRefusals(ctx.db, actor, entries);
    if (refusals.length > 0) throw badRequest('Some entries were refused; none was stored.', refusals);
  }
  throw conflict('Memberships changed while the entries were being saved; try again.');
}

export interface EntryPage {
  items: TimeEntry[];
  /** Size of the filtered set before limit and offset (X-Total-Count). */
  total: number;
}

/**
 * The entries the caller may read, newest first. `from`/`to` bound `start` as [from, to);
 * filters the caller cannot satisfy simply match nothing, so they reveal nothing.
 */
export async function listEntries(ctx: AppContext, actor: Actor, query: ListTimeEntriesInput): Promise<EntryPage> {
  const from = query.from === undefined ? undefined : parseInstant(query.from, '/query/from');
  const to = query.to === undefined ? undefined : parseInstant(query.to, '/query/to');
  if (from && to && to < from) throw invalid([{ path: '/query/to', message: 'must not be before from' }]);
  const filters: repo.EntryFilters = {
    ...(query.workspaceId === undefined ? {} : { workspaceId: query.workspaceId }),
    ...(query.userId === undefined ? {} : { userId: query.userId }),
    ...(query.projectId === undefined ? {} : { projectId: query.projectId }),
    ...(query.tag === undefined ? {} : { tag: query.tag }),
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
  };
  const page = { limit: query.limit ?? DEFAULT_LIMIT, offset: query.offset ?? 0 };
  const [rows, total] = await Promise.all([
    repo.listReadableEntries(ctx.db, actor.user.id, filters, page),
    repo.countReadableEntries(ctx.db, actor.user.id, filters),
  ]);
  return { items: rows.map((row) => toTimeEntry(row)), total };
}

/**
 * Project rules are checked when the patch names a project; an entry left on a project its user
 * has since lost access to stays editable otherwise.
 */
export async function patchEntry(ctx: AppContext, actor: Actor, id: string, input: PatchTimeEntryInput): Promise<TimeEntry> {
  const start = input.start === undefined ? undefined : parseInstant(input.start, '/start');
  assertNoNul(input.description, input.tags);
  return ctx.db.transaction(async (tx) => {
    const entry = await editableEntry(tx, actor, id);
    if (input.projectId) await requireProjectForEntry(tx, input.projectId, entry.workspaceId, entry.userId);
    const patch = {
      ...(input.projectId === undefined ? {} : { projectId: input.projectId }),
      ...(start === undefined ? {} : { start }),
      ...(input.minutes === undefined ? {} : { minutes: input.minutes }),
      ...(input.description === undefined ? {} : { description: input.description }),
      ...(input.tags === undefined ? {} : { tags: input.tags }),
      ...(input.billable === undefined ? {} : { billable: input.billable }),
    };
    if (Object.keys(patch).length === 0) return toTimeEntry(entry);
    const row = await repo.updateEntry(tx, id, { ...patch, updatedAt: ctx.clock.now() });
    if (!row) throw notFound();
    return toTimeEntry(row);
  });
}

export async function deleteEntry(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await editableEntry(tx, actor, id);
    await repo.deleteEntry(tx, id);
  });
}
