import { localDateTime, rangeSpanDays } from './date-range.js';
import { formatHours } from './template-engine.js';

/** Version of the variables templates see (docs/templates.md); bump on any incompatible change. */
export const RENDER_CONTEXT_VERSION = 1;

/**
 * One entry as the render query delivers it (report-data.repository.ts), with its local date and
 * time already formatted in the owner's zone by the database: a compact tuple, so that a report of
 * 100,000 entries crosses to the render worker as one JSON string, not a hundred thousand objects.
 */
export type EntryTuple = [
  id: string,
  start: string,
  date: string,
  time: string,
  minutes: number,
  description: string,
  tags: string[],
  projectId: string | null,
  userId: string,
  workspaceId: string,
];

/** Time summed over one project or user; `id` is null for entries without a project. */
interface GroupTotal {
  id: string | null;
  name: string;
  minutes: number;
  entryCount: number;
}

export interface RenderAggregates {
  totalMinutes: number;
  entryCount: number;
  byProject: GroupTotal[];
  byUser: GroupTotal[];
  byTag: { tag: string; minutes: number; entryCount: number }[];
  /** Days in the owner's timezone. */
  byDay: { date: string; minutes: number; entryCount: number }[];
}

/** Everything of the context but the entries: small, built on the main thread. */
export interface RenderFrame {
  /** `id` is null in a preview. */
  report: { id: string | null; name: string; note: string | null; version: number };
  period: { from: string; to: string; preset: string | null };
  timezone: string;
  /** ISO 8601 instant. */
  generatedAt: string;
  owner: { id: string; name: string; email: string };
  workspaces: { id: string; name: string }[];
  template: { id: string; name: string };
  aggregates: RenderAggregates;
}

export interface RenderInput extends RenderFrame {
  /** The filtered entries in any order; null when the template never reads entries. */
  entries: readonly EntryTuple[] | null;
}

/**
 * The variables a template sees (render context v1, documented in docs/templates.md).
 * Only fresh plain objects and arrays, so nothing but the documented own properties is
 * reachable. Entries are sorted by start, then id; project, user and tag groups are ordered by
 * minutes descending, then name (tag), then id; days are in calendar order and carry their
 * entries. Without entries (`entries: null`), `entries` and every day's `entries` are empty.
 */
export function buildRenderContext(input: RenderInput): Record<string, unknown> {
  const { timezone, aggregates } = input;
  const total = aggregates.totalMinutes;
  const entries = entryViews(input);
  const generated = localDateTime(new Date(input.generatedAt), timezone);
  return {
    contextVersion: RENDER_CONTEXT_VERSION,
    report: {
      id: input.report.id,
      name: input.report.name,
      note: input.report.note,
      version: input.report.version,
      period: {
        from: input.period.from,
        to: input.period.to,
        preset: input.period.preset,
        days: rangeSpanDays(input.period),
      },
      timezone,
      generatedAt: input.generatedAt,
      generatedAtLocal: `${generated.date} ${generated.time}`,
    },
    owner: { id: input.owner.id, name: input.owner.name, email: input.owner.email },
    workspaces: input.workspaces.map((w) => ({ id: w.id, name: w.name })),
    template: { id: input.template.id, name: input.template.name },
    entries,
    totals: { minutes: total, entryCount: aggregates.entryCount, hours: formatHours(total) },
    groups: {
      byProject: sortGroups(aggregates.byProject).map((g) => groupView(g, total)),
      byUser: sortGroups(aggregates.byUser).map((g) => groupView(g, total)),
      byTag: [...aggregates.byTag]
        .sort((a, b) => b.minutes - a.minutes || byName(a.tag, b.tag))
        .map((t) => ({ tag: t.tag, ...amounts(t.minutes, t.entryCount, total) })),
      byDay: dayViews(aggregates.byDay, entries, total),
    },
  };
}

interface EntryView {
  id: string;
  date: string;
  time: string;
  start: string;
  minutes: number;
  description: string;
  tags: string[];
  project: { id: string; name: string } | null;
  user: { id: string; name: string };
  workspace: { id: string; name: string };
}

/**
 * Entry objects from the tuples, sharing one `{ id, name }` object per project, user and
 * workspace (the context is read-only, so sharing is invisible to a template).
 */
function entryViews(input: RenderInput): EntryView[] {
  if (!input.entries) return [];
  const named = (list: readonly { id: string | null; name: string }[]) =>
    new Map(list.flatMap((g) => (g.id === null ? [] : [[g.id, { id: g.id, name: g.name }] as const])));
  const projects = named(input.aggregates.byProject);
  const users = named(input.aggregates.byUser);
  const workspaces = named(input.workspaces);
  const unknown = (id: string) => ({ id, name: '' });
  const views = input.entries.map(([id, start, date, time, minutes, description, tags, projectId, userId, workspaceId]): EntryView => ({
    id,
    date,
    time,
    start,
    minutes,
    description,
    tags: [...tags],
    project: projectId === null ? null : (projects.get(projectId) ?? unknown(projectId)),
    user: users.get(userId) ?? unknown(userId),
    workspace: workspaces.get(workspaceId) ?? unknown(workspaceId),
  }));
  // ISO instants in UTC with milliseconds sort as text.
  return views.sort((a, b) => compare(a.start, b.start) || compare(a.id, b.id));
}

function sortGroups(groups: GroupTotal[]): GroupTotal[] {
  return [...groups].sort((a, b) => b.minutes - a.minutes || byName(a.name, b.name) || compare(a.id ?? '', b.id ?? ''));
}

function groupView(g: GroupTotal, total: number) {
  return { id: g.id, name: g.name, ...amounts(g.minutes, g.entryCount, total) };
}

function amounts(minutes: number, entryCount: number, total: number) {
  return { minutes, entryCount, hours: formatHours(minutes), share: share(minutes, total) };
}

// A percentage of the period's total with one decimal, as display text ("42.5").
function share(minutes: number, total: number): string {
  return total > 0 ? ((minutes * 100) / total).toFixed(1) : '0.0';
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function weekday(date: string): string {
  return WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()] ?? '';
}

// Days come from the aggregates; a day that only the entries know about (which would
// mean the caller bucketed days in another zone) is still listed, so no entry is lost
// from a timesheet.
function dayViews(days: RenderAggregates['byDay'], entries: EntryView[], total: number) {
  const byDate = new Map<string, EntryView[]>();
  for (const entry of entries) {
    const list = byDate.get(entry.date);
    if (list) list.push(entry);
    else byDate.set(entry.date, [entry]);
  }
  const totals = new Map(days.map((d) => [d.date, { minutes: d.minutes, entryCount: d.entryCount }]));
  for (const [date, list] of byDate) {
    if (!totals.has(date)) {
      totals.set(date, { minutes: list.reduce((sum, e) => sum + e.minutes, 0), entryCount: list.length });
    }
  }
  return [...totals.entries()]
    .sort(([a], [b]) => compare(a, b))
    .map(([date, { minutes, entryCount }]) => ({
      date,
      weekday: weekday(date),
      ...amounts(minutes, entryCount, total),
      entries: byDate.get(date) ?? [],
    }));
}

const byName = new Intl.Collator('en').compare;

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Whether a template may read entries: `entries` itself, or anything under `groups` that is not
 * one of the entry-free groups (`groups.byDay` carries each day's entries; a dynamic lookup such
 * as `groups[x]` might reach it). Paths come from LiquidJS's static analysis; erring towards
 * "yes" only costs time.
 */
export function readsEntries(paths: ReadonlyArray<ReadonlyArray<unknown>>): boolean {
  return paths.some(([root, child]) => {
    if (root === 'entries') return true;
    if (root !== 'groups') return false;
    return !(child === 'byProject' || child === 'byUser' || child === 'byTag');
  });
}
