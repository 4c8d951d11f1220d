import { and, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { projects, timeEntries } from '../../db/schema.js';
import { entryReadableBy } from '../access/access.repository.js';

export type TimeEntryRow = typeof timeEntries.$inferSelect;

export interface EntryFilters {
  workspaceId?: string;
  userId?: string;
  projectId?: string;
  from?: Date;
  to?: Date;
}

export async function insertEntry(db: Db, row: typeof timeEntries.$inferInsert): Promise<TimeEntryRow> {
  const [created] = await db.insert(timeEntries).values(row).returning();
  return created!;
}

/** The entry when `readerId` may read it; undefined hides missing and unreadable alike. */
export async function findReadableEntry(db: Db, id: string, readerId: string): Promise<TimeEntryRow | undefined> {
  const [row] = await db
    .select()
    .from(timeEntries)
    .where(and(eq(timeEntries.id, id), entryReadableBy(readerId)));
  return row;
}

/** Each filter is a plain column condition so the (workspace|user|project, start) indexes apply. */
function listCondition(readerId: string, filters: EntryFilters): SQL | undefined {
  return and(
    entryReadableBy(readerId),
    filters.workspaceId === undefined ? undefined : eq(timeEntries.workspaceId, filters.workspaceId),
    filters.userId === undefined ? undefined : eq(timeEntries.userId, filters.userId),
    filters.projectId === undefined ? undefined : eq(timeEntries.projectId, filters.projectId),
    filters.from === undefined ? undefined : gte(timeEntries.start, filters.from),
    filters.to === undefined ? undefined : lt(timeEntries.start, filters.to),
  );
}

export function listReadableEntries(
  db: Db,
  readerId: string,
  filters: EntryFilters,
  page: { limit: number; offset: number },
): Promise<TimeEntryRow[]> {
  return db
    .select()
    .from(timeEntries)
    .where(listCondition(readerId, filters))
    .orderBy(desc(timeEntries.start), desc(timeEntries.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countReadableEntries(db: Db, readerId: string, filters: EntryFilters): Promise<number> {
  const [row] = await db.select({ n: count() }).from(timeEntries).where(listCondition(readerId, filters));
  return row?.n ?? 0;
}

export async function updateEntry(db: Db, id: string, patch: Partial<typeof timeEntries.$inferInsert>): Promise<TimeEntryRow | undefined> {
  const [row] = await db.update(timeEntries).set(patch).where(eq(timeEntries.id, id)).returning();
  return row;
}

export async function deleteEntry(db: Db, id: string): Promise<void> {
  await db.delete(timeEntries).where(eq(timeEntries.id, id));
}

export async function projectInWorkspace(db: Db, projectId: string, workspaceId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.workspaceId, workspaceId)));
  return row !== undefined;
}
