/**
 * The text of a chart inside a document (docs/templates.md "Charts"): a fenced code block with the
 * info string `chart`, whose body holds the chart's data, so a version's chart is frozen with it and
 * the Markdown stays readable as text:
 *
 * ```chart
 * hours_by_day: Hours by day
 * unit: minutes
 * series: Billable | Not billable
 * 2026-03-09: 90 | 45
 * 2026-03-10: 0 | 0
 * ```
 *
 * The first line names the kind and the title, then the unit (`minutes`, or an ISO 4217 code whose
 * minor units the values count), optionally the locale its numbers, dates and amounts are drawn in
 * (`locale: de-DE`; without the line, English), the series, and one line per category: its label,
 * `: `, and one whole number per series separated by ` | `. A label may hold anything but a line break and
 * control characters; it ends at the line's last `: `. Reading is strict and bounded: anything
 * else, or more than the limits below, is not a chart (the fence shows as the code block it is).
 */

export const CHART_KINDS = ['hours_by_day', 'hours_by_project', 'hours_by_person', 'amount_by_client'] as const;
export type ChartKind = (typeof CHART_KINDS)[number];

export interface ChartRow {
  label: string;
  /** One whole, non-negative number per series: minutes, or minor units of the chart's currency. */
  values: number[];
}

export interface ChartData {
  kind: ChartKind;
  title: string;
  /** `minutes`, or the ISO 4217 code of the amounts. */
  unit: string;
  series: string[];
  rows: ChartRow[];
  /**
   * The BCP 47 tag (canonical) whose formats draw the chart's numbers, dates and amounts: the
   * report's locale. Absent: English, as charts written before the line existed are drawn.
   */
  locale?: string;
}

/** The bounds of a chart: a year and a month of days, a few series, short lines. */
export const CHART_LIMITS = Object.freeze({
  rows: 400,
  series: 2,
  lineLength: 300,
  labelLength: 120,
  titleLength: 120,
  seriesNameLength: 40,
  /** The largest value: about 1.9 million years of minutes, or 10^15 minor units. */
  value: 999_999_999_999_999,
});

/** The info string of a chart fence. */
export const CHART_INFO = 'chart';

const KIND_SET: ReadonlySet<string> = new Set(CHART_KINDS);
const UNIT = /^(?:minutes|[A-Z]{3})$/;
/** A well-formed BCP 47 tag of at most 35 characters; it must also be in its canonical form (`chartLocale`). */
const LOCALE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;
const LOCALE_MAX_LENGTH = 35;

/** `tag` when it is a canonical BCP 47 tag (`de-DE`, not `de-de`) of at most 35 characters; else null. */
export function chartLocale(tag: string): string | null {
  if (tag.length > LOCALE_MAX_LENGTH || !LOCALE.test(tag)) return null;
  try {
    return Intl.getCanonicalLocales(tag)[0] === tag ? tag : null;
  } catch {
    return null;
  }
}
/** One or two whole numbers of at most 15 digits, without leading zeros. */
const ONE_VALUE = /^(0|[1-9]\d{0,14})$/;
const TWO_VALUES = /^(0|[1-9]\d{0,14}) \| (0|[1-9]\d{0,14})$/;
// eslint-disable-next-line no-control-regex -- control characters are what a label may not hold (line breaks end lines).
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;
const MAX_BODY = (CHART_LIMITS.rows + 4) * (CHART_LIMITS.lineLength + 1);

/** Reads a chart fence's body; null for anything that is not exactly a chart within the limits. */
export function parseChart(body: string): ChartData | null {
  if (body.length > MAX_BODY) return null;
  const lines = body.endsWith('\n') ? body.slice(0, -1).split('\n') : body.split('\n');
  // The optional locale line stands between the unit and the series, where nothing else may.
  const localeLine = lines[2]?.startsWith('locale: ') ? lines[2] : null;
  const first = localeLine === null ? 3 : 4;
  if (lines.length < first + 1 || lines.length > CHART_LIMITS.rows + first || CONTROL.test(body)) return null;
  for (const line of lines) if (line.length > CHART_LIMITS.lineLength) return null;
  const [head = '', unitLine = ''] = lines;
  const seriesLine = lines[first - 1] ?? '';
  const locale = localeLine === null ? null : chartLocale(localeLine.slice(8));
  if (localeLine !== null && locale === null) return null;
  const headAt = head.indexOf(': ');
  const kind = head.slice(0, headAt);
  const title = head.slice(headAt + 2);
  if (headAt < 0 || !KIND_SET.has(kind) || !isText(title, CHART_LIMITS.titleLength)) return null;
  if (!unitLine.startsWith('unit: ')) return null;
  const unit = unitLine.slice(6);
  if (!UNIT.test(unit) || (kind === 'amount_by_client') === (unit === 'minutes')) return null;
  if (!seriesLine.startsWith('series: ')) return null;
  const series = seriesLine.slice(8).split(' | ');
  if (series.length > CHART_LIMITS.series || !series.every((s) => isText(s, CHART_LIMITS.seriesNameLength) && !s.includes('|'))) {
    return null;
  }
  const rows: ChartRow[] = [];
  const valuesPattern = series.length === 1 ? ONE_VALUE : TWO_VALUES;
  for (let i = first; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const at = line.lastIndexOf(': ');
    const label = line.slice(0, at);
    const values = valuesPattern.exec(line.slice(at + 2));
    if (at < 0 || !values || label.length > CHART_LIMITS.labelLength || label !== label.trim()) return null;
    rows.push({ label, values: values.length === 2 ? [Number(values[1])] : [Number(values[1]), Number(values[2])] });
  }
  return { kind: kind as ChartKind, title, unit, series, rows, ...(locale === null ? {} : { locale }) };
}

const isText = (text: string, max: number): boolean => text.length > 0 && text.length <= max && text === text.trim();

/**
 * The body of a chart fence (without the fence lines). Labels are made to fit: control characters
 * dropped, whitespace folded, trimmed, shortened to the label length; an empty one reads `(unnamed)`.
 * Throws for data outside the limits, which the caller is meant to respect.
 */
export function writeChart(data: ChartData): string {
  if (data.rows.length === 0 || data.rows.length > CHART_LIMITS.rows) throw new Error(`a chart has 1 to ${CHART_LIMITS.rows} rows`);
  const lines = [
    `${data.kind}: ${data.title}`,
    `unit: ${data.unit}`,
    ...(data.locale === undefined ? [] : [`locale: ${data.locale}`]),
    `series: ${data.series.join(' | ')}`,
  ];
  for (const row of data.rows) {
    if (
      row.values.length !== data.series.length ||
      !row.values.every((v) => Number.isSafeInteger(v) && v >= 0 && v <= CHART_LIMITS.value)
    ) {
      throw new Error('a chart value is a whole number from 0 to 10^15 - 1');
    }
    lines.push(`${chartLabel(row.label)}: ${row.values.join(' | ')}`);
  }
  const body = `${lines.join('\n')}\n`;
  if (parseChart(body) === null) throw new Error('the chart does not read back');
  return body;
}

// eslint-disable-next-line no-control-regex -- matching control characters is the point: they are dropped.
const CONTROL_ALL = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/g;
const SPACES = /[\s\u0085]+/g;

/** A name as a chart label: one line, no control characters, at most the label length. */
export function chartLabel(name: string): string {
  const text = name.replace(CONTROL_ALL, '').replace(SPACES, ' ').trim();
  if (text === '') return '(unnamed)';
  return shortenText(text, CHART_LIMITS.labelLength);
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * `text` at most `max` long as `measure` counts (UTF-16 units unless told): cut between characters
 * (graphemes) and ended with `…` when cut.
 */
export function shortenText(text: string, max: number, measure: (text: string) => number = (t) => t.length): string {
  if (measure(text) <= max) return text;
  const room = max - measure('…');
  let out = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    used += measure(segment);
    if (used > room) break;
    out += segment;
  }
  return `${out.trimEnd()}…`;
}
