import { DateTime } from 'luxon';
import { localDateTime, rangeSpanDays } from './date-range.js';
import { formatHours } from './template-engine.js';

/** Version of the variables templates see (docs/templates.md); bump on any incompatible change. */
export const RENDER_CONTEXT_VERSION = 1;

export interface RenderEntryInput {
  id: string;
  start: Date;
  minutes: number;
  description: string;
  tags: string[];
  project: { id: string; name: string } | null;
  user: { id: string; name: string };
  workspace: { id: string; name: string };
}

/** Time summed over one project or user; `id` is null for entries without a project. */
export interface GroupTotal {
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

export interface RenderInput {
  /** `id` is null in a preview. */
  report: { id: string | null; name: string; note: string | null; version: number };
  period: { from: string; to: string; preset: string | null };
  timezone: string;
  generatedAt: Date;
  owner: { id: string; name: string; email: string };
  workspaces: { id: string; name: string }[];
  template: { id: string; name: string };
  /** Already filtered, sorted by start ascending. */
  entries: RenderEntryInput[];
  aggregates: RenderAggregates;
}

/**
 * The variables a template sees (render context v1, documented in docs/templates.md).
 * Only fresh plain objects and arrays, so nothing but the documented own properties is
 * reachable. Project, user and tag groups are ordered by minutes descending, then name
 * (tag), then id; days are in calendar order and carry their entries.
 */
export function buildRenderContext(input: RenderInput): Record<string, unknown> {
  const { timezone, aggregates } = input;
  const total = aggregates.totalMinutes;
  const entries = input.entries.map((entry) => entryView(entry, timezone));
  const generated = localDateTime(input.generatedAt, timezone);
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
      generatedAt: input.generatedAt.toISOString(),
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

type EntryView = ReturnType<typeof entryView>;

function entryView(entry: RenderEntryInput, timezone: string) {
  const { date, time } = localDateTime(entry.start, timezone);
  return {
    id: entry.id,
    date,
    time,
    start: entry.start.toISOString(),
    minutes: entry.minutes,
    description: entry.description,
    tags: [...entry.tags],
    project: entry.project ? { id: entry.project.id, name: entry.project.name } : null,
    user: { id: entry.user.id, name: entry.user.name },
    workspace: { id: entry.workspace.id, name: entry.workspace.name },
  };
}

function sortGroups(groups: GroupTotal[]): GroupTotal[] {
  return [...groups].sort(
    (a, b) => b.minutes - a.minutes || byName(a.name, b.name) || compare(a.id ?? '', b.id ?? ''),
  );
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
  return [...totals.keys()].sort(compare).map((date) => {
    const { minutes, entryCount } = totals.get(date)!;
    return {
      date,
      weekday: DateTime.fromISO(date, { zone: 'utc', locale: 'en-US' }).weekdayLong,
      ...amounts(minutes, entryCount, total),
      entries: byDate.get(date) ?? [],
    };
  });
}

const byName = new Intl.Collator('en').compare;

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
