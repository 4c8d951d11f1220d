/**
 * The entries a report shows and their totals, selected and aggregated in SQL. The read rule of
 * platform.md section 5 bounds everything: a report only ever contains entries its owner may read.
 */
import { and, asc, eq, gte, inArray, isNotNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { projects, timeEntries, users, workspaces } from '../../db/schema.js';
import { entryReadableBy } from '../access/access.repository.js';
import type { RenderAggregates, RenderEntryInput } from '../../render/render-context.js';

export interface EntrySelection {
  ownerUserId: string;
  workspaceIds: string[];
  projectIds?: string[] | undefined;
  /** Omitted or empty: only the owner's own entries. */
  userIds?: string[] | undefined;
  tags?: string[] | undefined;
  /** Half-open instant interval [start, end). */
  start: Date;
  end: Date;
  timezone: string;
}

function where(s: EntrySelection): SQL {
  const conditions: (SQL | undefined)[] = [
    inArray(timeEntries.workspaceId, s.workspaceIds),
    gte(timeEntries.start, s.start),
    lt(timeEntries.start, s.end),
    s.userIds?.length ? inArray(timeEntries.userId, s.userIds) : eq(timeEntries.userId, s.ownerUserId),
    s.projectIds?.length ? inArray(timeEntries.projectId, s.projectIds) : undefined,
    s.tags?.length ? sql`${timeEntries.tags} && ${sql.param(s.tags)}::text[]` : undefined,
    entryReadableBy(s.ownerUserId),
  ];
  return and(...conditions)!;
}

export async function selectEntries(db: Db, s: EntrySelection): Promise<RenderEntryInput[]> {
  const rows = await db
    .select({
      id: timeEntries.id,
      start: timeEntries.start,
      minutes: timeEntries.minutes,
      description: timeEntries.description,
      tags: timeEntries.tags,
      projectId: projects.id,
      projectName: projects.name,
      userId: users.id,
      userName: users.name,
      workspaceId: workspaces.id,
      workspaceName: workspaces.name,
    })
    .from(timeEntries)
    .innerJoin(users, eq(users.id, timeEntries.userId))
    .innerJoin(workspaces, eq(workspaces.id, timeEntries.workspaceId))
    .leftJoin(projects, eq(projects.id, timeEntries.projectId))
    .where(where(s))
    .orderBy(asc(timeEntries.start), asc(timeEntries.id));
  return rows.map((r) => ({
    id: r.id,
    start: r.start,
    minutes: r.minutes,
    description: r.description,
    tags: r.tags,
    project: r.projectId ? { id: r.projectId, name: r.projectName ?? '' } : null,
    user: { id: r.userId, name: r.userName },
    workspace: { id: r.workspaceId, name: r.workspaceName },
  }));
}

const minutes = sql<number>`coalesce(sum(${timeEntries.minutes}), 0)::int`;
const entryCount = sql<number>`count(*)::int`;

export interface ReportScope {
  /** Every project with an entry in the report. */
  projectIds: string[];
  /**
   * The projects of entries by someone other than the owner. Only these restrict recipients
   * (reports-api.md 4.1): a recipient learns nothing new from the owner's own time.
   */
  restrictingProjectIds: string[];
}

/**
 * Totals and groupings by project, user, tag and local day, each one grouped query, and the
 * projects that decide who may receive the report.
 */
export async function aggregateEntries(db: Db, s: EntrySelection): Promise<RenderAggregates & ReportScope> {
  const w = where(s);
  const day = sql<string>`to_char(${timeEntries.start} at time zone ${s.timezone}, 'YYYY-MM-DD')`;
  const [totals, byProject, byUser, byTag, byDay, othersProjects] = await Promise.all([
    db.select({ minutes, entryCount }).from(timeEntries).where(w),
    db
      .select({ id: timeEntries.projectId, name: sql<string | null>`max(${projects.name})`, minutes, entryCount })
      .from(timeEntries)
      .leftJoin(projects, eq(projects.id, timeEntries.projectId))
      .where(w)
      .groupBy(timeEntries.projectId),
    db
      .select({ id: timeEntries.userId, name: sql<string>`max(${users.name})`, minutes, entryCount })
      .from(timeEntries)
      .innerJoin(users, eq(users.id, timeEntries.userId))
      .where(w)
      .groupBy(timeEntries.userId),
    db
      .select({ tag: sql<string>`t.tag`, minutes, entryCount })
      .from(timeEntries)
      .innerJoin(sql`unnest(${timeEntries.tags}) as t(tag)`, sql`true`)
      .where(w)
      .groupBy(sql`t.tag`),
    // Grouped by position: the zone is a bound parameter, so a repeated expression would not match.
    db.select({ date: day, minutes, entryCount }).from(timeEntries).where(w).groupBy(sql`1`).orderBy(sql`1`),
    db
      .selectDistinct({ id: sql<string>`${timeEntries.projectId}` })
      .from(timeEntries)
      .where(and(w, ne(timeEntries.userId, s.ownerUserId), isNotNull(timeEntries.projectId))),
  ]);
  const byMinutesThenName = <T extends { minutes: number }>(key: (x: T) => string) => (a: T, b: T) =>
    b.minutes - a.minutes || key(a).localeCompare(key(b));
  const projectGroups = byProject
    .map((r) => ({ id: r.id, name: r.id ? (r.name ?? '') : 'No project', minutes: r.minutes, entryCount: r.entryCount }))
    .sort(byMinutesThenName((x) => x.name));
  return {
    totalMinutes: totals[0]?.minutes ?? 0,
    entryCount: totals[0]?.entryCount ?? 0,
    byProject: projectGroups,
    byUser: byUser.map((r) => ({ id: r.id, name: r.name, minutes: r.minutes, entryCount: r.entryCount })).sort(byMinutesThenName((x) => x.name)),
    byTag: byTag.sort(byMinutesThenName((x) => x.tag)),
    byDay,
    projectIds: projectGroups.flatMap((g) => (g.id ? [g.id] : [])).sort(),
    restrictingProjectIds: othersProjects.map((r) => r.id).sort(),
  };
}

/** Names of the filtered workspaces, in the order the filter lists them. */
export async function listWorkspaceNames(db: Db, ids: string[]): Promise<{ id: string; name: string }[]> {
  const rows = await db.select({ id: workspaces.id, name: workspaces.name }).from(workspaces).where(inArray(workspaces.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The subset of `projectIds` that belong to one of `workspaceIds`. */
export async function projectsInWorkspaces(db: Db, projectIds: string[], workspaceIds: string[]): Promise<Set<string>> {
  if (projectIds.length === 0) return new Set();
  const rows = await db
    .select({ id: projects.id })
    .from(projects)
    .where(and(inArray(projects.id, projectIds), inArray(projects.workspaceId, workspaceIds)));
  return new Set(rows.map((r) => r.id));
}
