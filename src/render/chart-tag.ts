import { Tag, TypeGuards, evalQuotedToken, type Context, type Emitter, type Liquid, type TagToken, type TopLevelToken } from './liquid.js';
// The chart's format and the phrases alone, not the package's Markdown and drawing: a render
// worker's first render waits for what its modules import.
import {
  CHART_INFO,
  CHART_KINDS,
  CHART_LIMITS,
  chartLabel,
  chartLocale,
  writeChart,
  type ChartData,
  type ChartKind,
  type ChartRow,
} from '../../packages/document/src/chart-format.js';
import { phrase } from '../../packages/document/src/phrases.js';

/**
 * `{% chart "hours_by_day" %}`, `{% chart "hours_by_project", limit: 8 %}` (docs/templates.md
 * "Charts"): writes the chart's data as a `chart` fence into the Markdown, where the share page and
 * the web app draw it (packages/document chart.ts) and the stored version keeps it. The name and
 * the limit are literals, checked when the template is saved; the data comes from the render
 * context as Chronicle built it (a template's `assign` cannot change what a chart shows).
 */
export class ChartTag extends Tag {
  private readonly kind: ChartKind;
  private readonly limit: number;

  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid) {
    super(token, remainTokens, liquid);
    const name = this.tokenizer.readValue();
    if (!name || !TypeGuards.isQuotedToken(name)) throw new Error(`chart expects a chart name in quotes: ${KIND_LIST}`);
    const kind = evalQuotedToken(name);
    if (!isKind(kind)) throw new Error(`unknown chart "${kind.slice(0, 40)}": use one of ${KIND_LIST}`);
    this.kind = kind;
    let limit = DEFAULT_LIMIT;
    for (const hash of this.tokenizer.readHashes()) {
      const key = hash.name.content;
      if (key !== 'limit') throw new Error(`chart takes no argument '${key.slice(0, 40)}' (only limit)`);
      if (kind === 'hours_by_day') throw new Error('chart "hours_by_day" takes no limit: it shows every day of the period');
      const value = hash.value;
      const n = value && TypeGuards.isNumberToken(value) ? value.content : NaN;
      if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT) throw new Error(`chart limit must be a whole number from 1 to ${MAX_LIMIT}`);
      limit = n;
    }
    this.tokenizer.skipBlank();
    if (!this.tokenizer.end()) throw new Error(`chart: unexpected "${this.tokenizer.remaining().slice(0, 40)}"`);
    this.limit = limit;
  }

  *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
    const scope = ctx.environments as Record<string, unknown>;
    // Fences one after another, a blank line between; the template's own line break ends the last.
    const fences = chartsOf(this.kind, this.limit, scope).map((chart) => `\`\`\`${CHART_INFO}\n${writeChart(chart)}\`\`\``);
    emitter.write(fences.join('\n\n'));
    yield;
  }
}

/** Bars a chart of names shows when the template gives no limit; the rest is one "Other" bar. */
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;

const KIND_LIST = CHART_KINDS.map((k) => `"${k}"`).join(', ');
const isKind = (name: string): name is ChartKind => (CHART_KINDS as readonly string[]).includes(name);

/** The two series of an hours chart, in the report's language. */
const hoursSeries = (locale: string): string[] => [phrase(locale, 'Billable'), phrase(locale, 'Not billable')];

/**
 * The charts the tag writes for a context: none when there is nothing to chart; one per currency
 * for amounts. Titles, series and the "Other" bar are in the report's language (packages/document
 * phrases.ts). A report in a locale other than `en` names it in each chart, which is then drawn
 * with that locale's numbers, dates and amounts (English charts keep the bytes they had).
 */
export function chartsOf(kind: ChartKind, limit: number, scope: Record<string, unknown>): ChartData[] {
  const locale = record(record(scope.report).options).locale;
  const charts = chartsOfKind(kind, limit, scope, typeof locale === 'string' ? locale : 'en');
  const tag = typeof locale === 'string' && locale !== 'en' ? chartLocale(locale) : null;
  return tag === null ? charts : charts.map((chart) => ({ ...chart, locale: tag }));
}

function chartsOfKind(kind: ChartKind, limit: number, scope: Record<string, unknown>, locale: string): ChartData[] {
  const groups = record(scope.groups);
  switch (kind) {
    case 'hours_by_day':
      return nonEmpty(daysChart(list(groups.byDay), record(record(scope.report).period), locale));
    case 'hours_by_project':
      return nonEmpty(namesChart(kind, list(groups.byProject), limit, 'project', locale));
    case 'hours_by_person':
      return nonEmpty(namesChart(kind, list(groups.byUser), limit, 'person', locale));
    case 'amount_by_client':
      return record(scope.report).showsMoney === true
        ? amountCharts(list(groups.byClient), list(record(scope.totals).amounts), limit, locale)
        : [];
  }
}

const nonEmpty = (chart: ChartData): ChartData[] => (chart.rows.length > 0 ? [chart] : []);

/**
 * Tracked minutes split into those of billable entries and the rest, so a bar is as long as the
 * time the document's tables show (billable time after rounding is a number of its own, not a part).
 */
function hoursOf(group: Record<string, unknown>): number[] {
  const minutes = whole(group.minutes);
  const notBillable = Math.min(whole(group.nonBillableMinutes), minutes);
  return [minutes - notBillable, notBillable];
}

/**
 * Every day of the period, days without time included, so the axis is time; a period of more than
 * 400 days is charted by month, and one of more than 400 months by year.
 */
function daysChart(byDay: Record<string, unknown>[], period: Record<string, unknown>, locale: string): ChartData {
  const days = byDay.filter((d) => typeof d.date === 'string' && ISO_DAY.test(d.date));
  const dates = days.map((d) => d.date as string);
  for (const end of [period.from, period.to]) if (typeof end === 'string' && ISO_DAY.test(end)) dates.push(end);
  if (days.length === 0 || dates.length === 0)
    return { kind: 'hours_by_day', title: phrase(locale, 'Hours by day'), unit: 'minutes', series: hoursSeries(locale), rows: [] };
  const first = dates.reduce((a, b) => (a < b ? a : b));
  const last = dates.reduce((a, b) => (a > b ? a : b));
  const spanDays = Math.round((Date.parse(last) - Date.parse(first)) / DAY_MS) + 1;
  const monthsSpan = (Number(last.slice(0, 4)) - Number(first.slice(0, 4))) * 12 + Number(last.slice(5, 7)) - Number(first.slice(5, 7)) + 1;
  const unit = spanDays <= CHART_LIMITS.rows ? 'day' : monthsSpan <= CHART_LIMITS.rows ? 'month' : 'year';
  const keyOf = (date: string) => (unit === 'day' ? date : unit === 'month' ? date.slice(0, 7) : date.slice(0, 4));
  const sums = new Map<string, number[]>();
  for (const day of days) {
    const key = keyOf(day.date as string);
    const [b, n] = hoursOf(day);
    const sum = sums.get(key) ?? [0, 0];
    sums.set(key, [add(sum[0], b), add(sum[1], n)]);
  }
  const keys = unit === 'day' ? dayKeys(first, spanDays) : unit === 'month' ? monthKeys(first, monthsSpan) : yearKeys(first, last);
  const rows = keys.slice(-CHART_LIMITS.rows).map((key) => ({ label: key, values: sums.get(key) ?? [0, 0] }));
  const title = phrase(locale, unit === 'day' ? 'Hours by day' : unit === 'month' ? 'Hours by month' : 'Hours by year');
  return { kind: 'hours_by_day', title, unit: 'minutes', series: hoursSeries(locale), rows };
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

const dayKeys = (first: string, n: number): string[] =>
  Array.from({ length: n }, (_, i) => new Date(Date.parse(first) + i * DAY_MS).toISOString().slice(0, 10));

function monthKeys(first: string, n: number): string[] {
  const year = Number(first.slice(0, 4));
  const month = Number(first.slice(5, 7)) - 1;
  return Array.from({ length: n }, (_, i) => {
    const m = month + i;
    return `${String(year + Math.floor(m / 12)).padStart(4, '0')}-${String((m % 12) + 1).padStart(2, '0')}`;
  });
}

function yearKeys(first: string, last: string): string[] {
  const from = Number(first.slice(0, 4));
  return Array.from({ length: Number(last.slice(0, 4)) - from + 1 }, (_, i) => String(from + i).padStart(4, '0'));
}

/** The first `limit` groups (the context orders them by minutes), the rest summed as one "Other" bar. */
function namesChart(kind: ChartKind, groups: Record<string, unknown>[], limit: number, noun: Noun, locale: string): ChartData {
  const none = phrase(locale, 'No project');
  const shown = groups.slice(0, limit).map((g) => ({ label: chartLabel(nameOf(g, none)), values: hoursOf(g) }));
  const rest = groups.slice(limit);
  const title = phrase(locale, noun === 'project' ? 'Hours by project' : 'Hours by person');
  return { kind, title, unit: 'minutes', series: hoursSeries(locale), rows: withOther(shown, rest.map(hoursOf), noun, locale) };
}

/**
 * One chart per currency (amounts in different currencies share no axis), in the order of
 * `totals.amounts`: each client's amount in it, largest first, clients without one left out.
 */
function amountCharts(byClient: Record<string, unknown>[], totals: Record<string, unknown>[], limit: number, locale: string): ChartData[] {
  const charts: ChartData[] = [];
  const none = phrase(locale, 'No client');
  for (const total of totals) {
    const currency = total.currency;
    if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) continue;
    const clients = byClient
      .map((c) => ({ label: chartLabel(nameOf(c, none)), values: [amountIn(c, currency)] }))
      .filter((c) => (c.values[0] ?? 0) > 0)
      .sort((a, b) => (b.values[0] ?? 0) - (a.values[0] ?? 0) || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
    const rows = withOther(
      clients.slice(0, limit),
      clients.slice(limit).map((c) => c.values),
      'client',
      locale,
    );
    if (rows.length > 0)
      charts.push({
        kind: 'amount_by_client',
        title: phrase(locale, 'Amount by client ({currency})', { currency }),
        unit: currency,
        series: [phrase(locale, 'Amount')],
        rows,
      });
  }
  return charts;
}

function amountIn(client: Record<string, unknown>, currency: string): number {
  const amount = list(client.amounts).find((a) => a.currency === currency);
  return amount ? whole(amount.minor) : 0;
}

type Noun = 'project' | 'person' | 'client';

const OTHER = { project: 'Other ({count} projects)', person: 'Other ({count} people)', client: 'Other ({count} clients)' } as const;

function withOther(shown: ChartRow[], rest: number[][], noun: Noun, locale: string): ChartRow[] {
  if (rest.length === 0) return shown;
  const values = (shown[0]?.values ?? rest[0] ?? []).map((_, s) => rest.reduce((sum, r) => add(sum, r[s]), 0));
  return [...shown, { label: phrase(locale, OTHER[noun], { count: String(rest.length) }), values }];
}

/** A group's name; the group of entries without a project (or a client) is named `none`, in the report's language. */
function nameOf(group: Record<string, unknown>, none: string): string {
  if (group.id === null) return none;
  return typeof group.name === 'string' ? group.name : '';
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

const list = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.map(record) : []);

/** A sum that stays within the chart's bound. */
const add = (a: number | undefined, b: number | undefined): number => Math.min((a ?? 0) + (b ?? 0), CHART_LIMITS.value);

/** A whole, non-negative count within the chart's bound; anything else counts as 0. */
const whole = (value: unknown): number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? Math.min(value, CHART_LIMITS.value) : 0;
