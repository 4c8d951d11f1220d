import type { Money } from '../../packages/money/src/index.js';
import { localDateTime, rangeSpanDays } from './date-range.js';

/**
 * Minutes as decimal hours with two decimals (425 -> `7.08`): the context's `hours` fields, and the
 * `hours` filter in English (template-engine.ts `formatHours`). Here rather than in the template
 * engine, so that what reads a version's entries (dataset.ts, in a file process) does not load it.
 */
export const decimalHours = (minutes: number): string => (minutes / 60).toFixed(2);

/** Version of the variables templates see (docs/templates.md); bump on any incompatible change. */
export const RENDER_CONTEXT_VERSION = 1;

/**
 * One entry as the render query delivers it (report-data.repository.ts), with its local date and
 * time already formatted in the owner's zone by the database: a compact tuple, so that a report of
 * 100,000 entries crosses to the render worker as one JSON string, not a hundred thousand objects.
 * The money fields (billing.md §5) come last; the rate and amount are null wherever money is not
 * shown.
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
  billable?: boolean,
  billableMinutes?: number,
  rateCurrency?: string | null,
  rateMinor?: number | null,
  amountMinor?: number | null,
];

/** An amount of money: an integer count of the currency's minor unit (billing.md §1). */
export type Amount = Money;

/**
 * What every total carries: tracked minutes, billable minutes after rounding, and one amount per
 * currency. The billing sums are optional in a render's input (a caller without them renders as
 * before billing: 0 and no amounts); the render statement always gives them.
 */
export interface GroupSums {
  minutes: number;
  entryCount: number;
  billableMinutes?: number;
  /** Tracked minutes of the non-billable entries. */
  nonBillableMinutes?: number;
  /** In currency order; empty when no entry has an amount. */
  amounts?: Amount[];
}

/** Time summed over one client, project or user; `id` is null for entries without one. */
interface GroupTotal extends GroupSums {
  id: string | null;
  name: string;
}

export interface ProjectTotal extends GroupTotal {
  clientId?: string | null;
}

/**
 * The entries of one person on one project, billable at one rate or not billable (the Invoice
 * summary's lines); a non-billable line has no rate or amount.
 */
export interface BillableLine {
  projectId: string | null;
  userId: string;
  billable: boolean;
  rate: Amount | null;
  minutes: number;
  billableMinutes: number;
  entryCount: number;
  amount: Amount | null;
}

export interface RenderAggregates extends Omit<GroupSums, 'minutes'> {
  totalMinutes: number;
  /** Whether the render shows money (access.ts `rendersMoney`); absent: no. */
  moneyVisible?: boolean;
  byClient?: GroupTotal[];
  byProject: ProjectTotal[];
  byUser: GroupTotal[];
  byTag: ({ tag: string } & GroupSums)[];
  /** Days in the owner's timezone. */
  byDay: ({ date: string } & GroupSums)[];
  lines?: BillableLine[];
}

/** The report's options as the render reads them (billing.md §3). */
export interface RenderOptions {
  rounding: { mode: 'none' } | { mode: 'up' | 'down' | 'nearest'; minutes: number };
  hideAmounts: boolean;
  billable: 'all' | 'billable' | 'nonBillable';
  durationFormat: 'hm' | 'decimal';
  locale: string;
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
  /** Absent: the defaults, in `en`. */
  options?: RenderOptions;
  aggregates: RenderAggregates;
}

export interface RenderInput extends RenderFrame {
  /** The filtered entries in any order; null when the template never reads entries. */
  entries: readonly EntryTuple[] | null;
}

/**
 * The variables a template sees (render context v1, documented in docs/templates.md).
 * Only fresh plain objects and arrays, so nothing but the documented own properties is
 * reachable. Entries are sorted by start, then id; client, project, user and tag groups are
 * ordered by minutes descending, then name (tag), then id; days are in calendar order and carry
 * their entries. Without entries (`entries: null`), `entries` and every day's `entries` are empty.
 * Where the render shows no money (`aggregates.moneyVisible` false) every rate, amount and list of
 * amounts is null.
 */
export function buildRenderContext(input: RenderInput): Record<string, unknown> {
  const { timezone, aggregates } = input;
  const options = input.options ?? DEFAULT_RENDER_OPTIONS;
  const total = aggregates.totalMinutes;
  const money = aggregates.moneyVisible ?? false;
  const names = nameMaps(input);
  const entries = entryViews(input.entries, input, names);
  const generated = localDateTime(new Date(input.generatedAt), timezone);
  const sums = (g: GroupSums) => groupSums(g, total, money);
  const byProject = sortGroups(aggregates.byProject).map((g) => ({
    id: g.id,
    name: g.name,
    client: g.clientId == null ? null : (names.clients.get(g.clientId) ?? unknown(g.clientId)),
    ...sums(g),
    lines: lineViews(aggregates.lines ?? [], g.id, names, money),
  }));
  const byClient = sortGroups(aggregates.byClient ?? []).map((c) => ({
    id: c.id,
    name: c.name,
    ...sums(c),
    projects: byProject.filter((p) => (p.client?.id ?? null) === c.id),
  }));
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
      options: {
        rounding: { ...options.rounding },
        hideAmounts: options.hideAmounts,
        billable: options.billable,
        durationFormat: options.durationFormat,
        locale: options.locale,
      },
      showsMoney: money,
    },
    owner: { id: input.owner.id, name: input.owner.name, email: input.owner.email },
    workspaces: input.workspaces.map((w) => ({ id: w.id, name: w.name })),
    template: { id: input.template.id, name: input.template.name },
    entries,
    totals: {
      minutes: total,
      entryCount: aggregates.entryCount,
      hours: decimalHours(total),
      billableMinutes: aggregates.billableMinutes ?? 0,
      nonBillableMinutes: aggregates.nonBillableMinutes ?? 0,
      billableHours: decimalHours(aggregates.billableMinutes ?? 0),
      amounts: money ? copyAmounts(aggregates.amounts ?? []) : null,
    },
    groups: {
      byClient,
      byProject,
      byUser: sortGroups(aggregates.byUser).map((g) => ({ id: g.id, name: g.name, ...sums(g) })),
      byTag: [...aggregates.byTag].sort((a, b) => b.minutes - a.minutes || byName(a.tag, b.tag)).map((t) => ({ tag: t.tag, ...sums(t) })),
      byDay: dayViews(aggregates.byDay, entries, total, money, options.locale),
    },
  };
}

type Named = { id: string; name: string };
interface NameMaps {
  clients: Map<string, Named>;
  /** Each project's client, where it has one. */
  clientOfProject: Map<string, Named>;
  projects: Map<string, Named>;
  users: Map<string, Named>;
  workspaces: Map<string, Named>;
}

const unknown = (id: string): Named => ({ id, name: '' });

const DEFAULT_RENDER_OPTIONS: RenderOptions = {
  rounding: { mode: 'none' },
  hideAmounts: false,
  billable: 'all',
  durationFormat: 'hm',
  locale: 'en',
};

/**
 * What names a render's entries and says whether their money shows: a render's input, or the names
 * a version's dataset keeps with its entries (dataset.ts).
 */
export interface EntryNaming {
  workspaces: readonly Named[];
  aggregates: {
    moneyVisible?: boolean;
    byClient?: readonly { id: string | null; name: string }[];
    byProject: readonly { id: string | null; name: string; clientId?: string | null }[];
    byUser: readonly { id: string | null; name: string }[];
  };
}

/** One `{ id, name }` object per client, project, user and workspace, shared by every view that names it. */
function nameMaps(input: EntryNaming): NameMaps {
  const named = (list: readonly { id: string | null; name: string }[]) =>
    new Map(list.flatMap((g) => (g.id === null ? [] : [[g.id, { id: g.id, name: g.name }] as const])));
  const clients = named(input.aggregates.byClient ?? []);
  const clientOfProject = new Map(
    input.aggregates.byProject.flatMap((p) =>
      p.id === null || p.clientId == null ? [] : [[p.id, clients.get(p.clientId) ?? unknown(p.clientId)] as const],
    ),
  );
  return {
    clients,
    clientOfProject,
    projects: named(input.aggregates.byProject),
    users: named(input.aggregates.byUser),
    workspaces: named(input.workspaces),
  };
}

const asAmount = (currency: string | null, minor: number | null): Amount | null =>
  currency === null || minor === null ? null : { currency, minor };

const copyAmounts = (list: readonly Amount[]): Amount[] => list.map((a) => ({ currency: a.currency, minor: a.minor }));

export interface EntryView {
  id: string;
  date: string;
  time: string;
  start: string;
  minutes: number;
  description: string;
  tags: string[];
  project: Named | null;
  user: Named;
  workspace: Named;
  client: Named | null;
  billable: boolean;
  billableMinutes: number;
  rate: Amount | null;
  amount: Amount | null;
}

/**
 * The entries as a render sees them, sorted by start then id, names resolved and money null where
 * the render shows none: the context's `entries`, and the rows a version's dataset gives its
 * exports (dataset.ts).
 */
export function renderedEntries(entries: readonly EntryTuple[], naming: EntryNaming): EntryView[] {
  return entryViews(entries, naming, nameMaps(naming));
}

/** Entry objects from the tuples (the context is read-only, so shared name objects are invisible to a template). */
function entryViews(entries: readonly EntryTuple[] | null, naming: EntryNaming, names: NameMaps): EntryView[] {
  if (!entries) return [];
  const money = naming.aggregates.moneyVisible ?? false;
  const views = entries.map(
    ([
      id,
      start,
      date,
      time,
      minutes,
      description,
      tags,
      projectId,
      userId,
      workspaceId,
      billable = false,
      billableMinutes = 0,
      currency = null,
      rate = null,
      amount = null,
    ]): EntryView => ({
      id,
      date,
      time,
      start,
      minutes,
      description,
      tags: [...tags],
      project: projectId === null ? null : (names.projects.get(projectId) ?? unknown(projectId)),
      user: names.users.get(userId) ?? unknown(userId),
      workspace: names.workspaces.get(workspaceId) ?? unknown(workspaceId),
      client: projectId === null ? null : (names.clientOfProject.get(projectId) ?? null),
      billable,
      billableMinutes,
      rate: money ? asAmount(currency, rate) : null,
      amount: money ? asAmount(currency, amount) : null,
    }),
  );
  // ISO instants in UTC with milliseconds sort as text.
  return views.sort((a, b) => compare(a.start, b.start) || compare(a.id, b.id));
}

/** A project's lines, billable first, then by person name, then rate (lowest first: usually the older); money null where it is hidden. */
function lineViews(lines: readonly BillableLine[], projectId: string | null, names: NameMaps, money: boolean) {
  return lines
    .filter((l) => l.projectId === projectId)
    .map((l) => ({
      user: names.users.get(l.userId) ?? unknown(l.userId),
      billable: l.billable,
      rate: money && l.rate ? { ...l.rate } : null,
      minutes: l.minutes,
      billableMinutes: l.billableMinutes,
      hours: decimalHours(l.billableMinutes),
      entryCount: l.entryCount,
      amount: money && l.amount ? { ...l.amount } : null,
    }))
    .sort(
      (a, b) =>
        Number(b.billable) - Number(a.billable) ||
        byName(a.user.name, b.user.name) ||
        compare(a.user.id, b.user.id) ||
        compare(a.rate?.currency ?? '', b.rate?.currency ?? '') ||
        (a.rate?.minor ?? -1) - (b.rate?.minor ?? -1),
    );
}

function sortGroups<T extends GroupTotal>(groups: readonly T[]): T[] {
  return [...groups].sort((a, b) => b.minutes - a.minutes || byName(a.name, b.name) || compare(a.id ?? '', b.id ?? ''));
}

function groupSums(g: GroupSums, total: number, money: boolean) {
  return {
    minutes: g.minutes,
    entryCount: g.entryCount,
    hours: decimalHours(g.minutes),
    share: share(g.minutes, total),
    billableMinutes: g.billableMinutes ?? 0,
    nonBillableMinutes: g.nonBillableMinutes ?? 0,
    amounts: money ? copyAmounts(g.amounts ?? []) : null,
  };
}

// A percentage of the period's total with one decimal, as display text ("42.5").
function share(minutes: number, total: number): string {
  return total > 0 ? ((minutes * 100) / total).toFixed(1) : '0.0';
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function weekday(date: string): string {
  return WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()] ?? '';
}

/** One weekday formatter per locale (making one costs far more than using it), at most a few dozen kept. */
const weekdayFormats = new Map<string, Intl.DateTimeFormat>();

/** The day's weekday in `locale` ("Monday", "Montag", "月曜日"). */
function weekdayName(date: string, locale: string): string {
  let format = weekdayFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
    if (weekdayFormats.size >= 32) weekdayFormats.clear();
    weekdayFormats.set(locale, format);
  }
  return format.format(new Date(`${date}T00:00:00Z`));
}

const NO_SUMS = { billableMinutes: 0, nonBillableMinutes: 0, amounts: [] };

// Days come from the aggregates; a day that only the entries know about (which would
// mean the caller bucketed days in another zone) is still listed, so no entry is lost
// from a timesheet.
function dayViews(days: RenderAggregates['byDay'], entries: EntryView[], total: number, money: boolean, locale: string) {
  const byDate = new Map<string, EntryView[]>();
  for (const entry of entries) {
    const list = byDate.get(entry.date);
    if (list) list.push(entry);
    else byDate.set(entry.date, [entry]);
  }
  const totals = new Map<string, GroupSums>(days.map((d) => [d.date, d]));
  for (const [date, list] of byDate) {
    if (!totals.has(date)) {
      totals.set(date, { minutes: list.reduce((sum, e) => sum + e.minutes, 0), entryCount: list.length, ...NO_SUMS });
    }
  }
  return [...totals.entries()]
    .sort(([a], [b]) => compare(a, b))
    .map(([date, sums]) => ({
      date,
      weekday: weekday(date),
      weekdayName: weekdayName(date, locale),
      ...groupSums(sums, total, money),
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
 * as `groups[x]` might reach it). The number of days, `groups.byDay.size` (every built-in
 * template's header counts them), is the same without the entries: the days come from the same
 * statement's sums (`dayViews`). Paths come from LiquidJS's static analysis; erring towards "yes"
 * only costs time.
 */
export function readsEntries(paths: ReadonlyArray<ReadonlyArray<unknown>>): boolean {
  return paths.some(([root, child, grandchild]) => {
    if (root === 'entries') return true;
    if (root !== 'groups') return false;
    if (child === 'byDay') return grandchild !== 'size';
    return !(child === 'byClient' || child === 'byProject' || child === 'byUser' || child === 'byTag');
  });
}
