/** Time entries (platform.md section 5): who may log, read, edit and delete them. */
import type { AppContext } from '../../http/types.js';
import { badRequest, forbidden, notFound, type FieldError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { Db } from '../../db/database.js';
import type { AuthContext } from '../auth/auth.js';
import { canReadProject, isAdminRole, workspaceRole } from '../access/access.repository.js';
import * as repo from './time-entries.repository.js';
import {
  DEFAULT_LIMIT,
  type CreateTimeEntryInput,
  type ListTimeEntriesInput,
  type PatchTimeEntryInput,
  type TimeEntry,
} from './time-entries.schemas.js';

export function toTimeEntry(row: repo.TimeEntryRow): TimeEntry {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    projectId: row.projectId,
    userId: row.userId,
    start: row.start.toISOString(),
    minutes: row.minutes,
    description: row.description,
    tags: row.tags,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const invalid = (errors: FieldError[]) => badRequest('The request is not valid.', errors);

// The schema's date-time format has already checked the shape and the calendar; this rebuilds
// the canonical form because Date.parse refuses some shapes the format allows (an hour-only
// offset such as `+02`, a space separator in some engines).
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-]\d{2}):?(\d{2})?)$/;
const MIN_INSTANT = Date.parse('1000-01-01T00:00:00.000Z');
const MAX_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * Reads an ISO 8601 instant the schema accepted. Leap seconds and instants outside years
 * 1000-9999 (UTC) are refused: a JavaScript Date cannot hold a leap second, and the driver reads
 * years below 100 back as 19xx or 20xx, so early instants would not survive a round trip.
 */
function parseInstant(value: string, path: string): Date {
  const m = DATE_TIME.exec(value);
  const fraction = (m?.[5] ?? '').slice(0, 4);
  const offset = m?.[6] ? 'Z' : `${m?.[7]}:${m?.[8] ?? '00'}`;
  const ms = m && m[4] !== '60' ? Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}${fraction}${offset}`) : NaN;
  if (!(ms >= MIN_INSTANT && ms <= MAX_INSTANT)) {
    throw invalid([{ path, message: 'must be an instant in years 1000 to 9999 (UTC), without a leap second' }]);
  }
  return new Date(ms);
}

/** PostgreSQL text cannot hold U+0000; refusing it here keeps it a 400 rather than a driver error. */
function assertNoNul(description: string | undefined, tags: readonly string[] | undefined): void {
  const errors: FieldError[] = [];
  if (description?.includes('\u0000')) errors.push({ path: '/description', message: 'must not contain U+0000' });
  tags?.forEach((tag, i) => {
    if (tag.includes('\u0000')) errors.push({ path: `/tags/${i}`, message: 'must not contain U+0000' });
  });
  if (errors.length > 0) throw invalid(errors);
}

/**
 * A project on an entry must be one of the entry's workspace, readable by the entry's user
 * (project member or workspace admin/owner), so an entry never lands where its author cannot see it.
 */
async function assertProjectFor(db: Db, projectId: string, workspaceId: string, entryUserId: string): Promise<void> {
  if (!(await repo.projectInWorkspace(db, projectId, workspaceId))) {
    throw invalid([{ path: '/projectId', message: 'is not a project of this workspace' }]);
  }
  if (!(await canReadProject(db, entryUserId, projectId))) {
    throw invalid([{ path: '/projectId', message: "is not a project the entry's user may read" }]);
  }
}

/**
 * Any member logs their own time; naming another `userId` is for workspace admins/owners (403
 * otherwise, like other admin-only options), and that user must be a member (400).
 * Non-members get 404: the workspace stays hidden.
 */
export async function createEntry(ctx: AppContext, actor: AuthContext, input: CreateTimeEntryInput): Promise<TimeEntry> {
  const start = parseInstant(input.start, '/start');
  assertNoNul(input.description, input.tags);
  return ctx.db.transaction(async (tx) => {
    const role = await workspaceRole(tx, input.workspaceId, actor.user.id);
    if (!role) throw notFound();
    const userId = input.userId ?? actor.user.id;
    if (userId !== actor.user.id) {
      if (!isAdminRole(role)) throw forbidden('Only a workspace admin or owner may log time for another user.');
      if (!(await workspaceRole(tx, input.workspaceId, userId))) {
        throw invalid([{ path: '/userId', message: 'is not a member of this workspace' }]);
      }
    }
    const projectId = input.projectId ?? null;
    if (projectId !== null) await assertProjectFor(tx, projectId, input.workspaceId, userId);
    const now = ctx.clock.now();
    const row = await repo.insertEntry(tx, {
      id: newId(),
      workspaceId: input.workspaceId,
      projectId,
      userId,
      start,
      minutes: input.minutes,
      description: input.description ?? '',
      tags: input.tags ?? [],
      createdAt: now,
      updatedAt: now,
    });
    return toTimeEntry(row);
  });
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
export async function listEntries(ctx: AppContext, actor: AuthContext, query: ListTimeEntriesInput): Promise<EntryPage> {
  const from = query.from === undefined ? undefined : parseInstant(query.from, '/query/from');
  const to = query.to === undefined ? undefined : parseInstant(query.to, '/query/to');
  if (from && to && to < from) throw invalid([{ path: '/query/to', message: 'must not be before from' }]);
  const filters: repo.EntryFilters = {
    ...(query.workspaceId === undefined ? {} : { workspaceId: query.workspaceId }),
    ...(query.userId === undefined ? {} : { userId: query.userId }),
    ...(query.projectId === undefined ? {} : { projectId: query.projectId }),
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
  };
  const page = { limit: query.limit ?? DEFAULT_LIMIT, offset: query.offset ?? 0 };
  const [rows, total] = await Promise.all([
    repo.listReadableEntries(ctx.db, actor.user.id, filters, page),
    repo.countReadableEntries(ctx.db, actor.user.id, filters),
  ]);
  return { items: rows.map(toTimeEntry), total };
}

/**
 * The entry when the caller may change it: its own user or an admin/owner of its workspace,
 * either of them still a member there (writes need membership, as creating does). Everyone else
 * gets 404, readers included, as for other owner-only actions (platform.md section 1).
 */
async function editableEntry(db: Db, actor: AuthContext, id: string): Promise<repo.TimeEntryRow> {
  const entry = await repo.findReadableEntry(db, id, actor.user.id);
  if (!entry) throw notFound();
  const role = await workspaceRole(db, entry.workspaceId, actor.user.id);
  if (!role || (entry.userId !== actor.user.id && !isAdminRole(role))) throw notFound();
  return entry;
}

/**
 * Project rules are checked when the patch names a project; an entry left on a project its user
 * has since lost access to stays editable otherwise.
 */
export async function patchEntry(ctx: AppContext, actor: AuthContext, id: string, input: PatchTimeEntryInput): Promise<TimeEntry> {
  const start = input.start === undefined ? undefined : parseInstant(input.start, '/start');
  assertNoNul(input.description, input.tags);
  return ctx.db.transaction(async (tx) => {
    const entry = await editableEntry(tx, actor, id);
    if (input.projectId) await assertProjectFor(tx, input.projectId, entry.workspaceId, entry.userId);
    const patch = {
      ...(input.projectId === undefined ? {} : { projectId: input.projectId }),
      ...(start === undefined ? {} : { start }),
      ...(input.minutes === undefined ? {} : { minutes: input.minutes }),
      ...(input.description === undefined ? {} : { description: input.description }),
      ...(input.tags === undefined ? {} : { tags: input.tags }),
    };
    if (Object.keys(patch).length === 0) return toTimeEntry(entry);
    const row = await repo.updateEntry(tx, id, { ...patch, updatedAt: ctx.clock.now() });
    return toTimeEntry(row!);
  });
}

export async function deleteEntry(ctx: AppContext, actor: AuthContext, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await editableEntry(tx, actor, id);
    await repo.deleteEntry(tx, id);
  });
}
