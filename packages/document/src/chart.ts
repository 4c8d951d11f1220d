import { nice, ticks } from 'd3-array';
import { currencyExponent, formatMoney } from '../../money/src/index.js';
import { CHART_INFO, parseChart, shortenText, type ChartData } from './chart-format.js';
import { phrase } from './phrases.js';

/**
 * A chart fence (chart-format.ts) drawn as SVG, with no script and no style attribute or element:
 * on a page, colours come from the classes DOCUMENT_CSS gives `.chart-*` (so a chart follows the
 * page's light, dark and print schemes); for a PDF, `chartSvgForPrint` writes the same drawing
 * with explicit presentation attributes. The second series (not billable) is hatched by a pattern
 * inside the SVG, so the series differ without colour. d3-array gives the axes their round ends
 * and ticks; positions and markup are computed here, so the same data gives the same bytes.
 *
 * A page carries each chart drawn twice: wide, and narrow for a phone, where the wide drawing
 * scaled down would set its text too small to read. DOCUMENT_CSS shows the one that fits the
 * chart's box (a container query), so a chart never scrolls sideways; print and the PDF use the
 * wide one.
 */

/** The wide drawing's width, in CSS pixels at its natural size: a page's column, a PDF's page. */
const WIDE = 640;
/** The narrow drawing's: a phone's column (358 px at 390 px), shown where the wide one would shrink below 30rem. */
const NARROW = 360;
const FONT_SIZE = 12;
const LEGEND_HEIGHT = 30;
const LEGEND_LINE = 20;
const HATCH = 'chart-hatch';

type Role = 'text' | 'muted' | 'grid' | 'axis' | 's1' | 's2' | 'hatch-bg' | 'hatch';

/** How a drawing is painted: by classes the page's stylesheet colours, or by explicit attributes. */
interface Paint {
  root: string;
  attrs: (role: Role) => string;
}

const cssPaint = (variant: 'wide' | 'narrow'): Paint => ({
  root: ` class="chart-svg chart-${variant}"`,
  attrs: (role) => ` class="chart-${role}"`,
});
const WIDE_PAINT = cssPaint('wide');
const NARROW_PAINT = cssPaint('narrow');

/** Greys and black on white, legible when printed without colour. */
const PRINT_ATTRS: Record<Role, string> = {
  text: ' fill="#000000"',
  muted: ' fill="#333333"',
  grid: ' stroke="#bbbbbb" stroke-width="0.5"',
  axis: ' stroke="#000000" stroke-width="1"',
  s1: ' fill="#555555" stroke="#000000" stroke-width="0.5"',
  s2: ' stroke="#000000" stroke-width="0.75"',
  'hatch-bg': ' fill="#ffffff"',
  hatch: ' stroke="#000000" stroke-width="1.5"',
};

const PRINT_PAINT: Paint = {
  root: ' font-family="Helvetica, Arial, sans-serif"',
  attrs: (role) => PRINT_ATTRS[role],
};

/**
 * The HTML of a chart fence for a page: a figure with a visible caption, the SVG (`role="img"`,
 * `<title>`, `<desc>`, a legend; wide and narrow, of which the page shows one) and its data in a
 * table the reader can open. Null when `body` is not a chart (the caller shows the code block).
 * `key` makes the hatch patterns' ids unique on a page that shows several charts or several
 * documents.
 */
export function chartHtml(body: string, key: string): string | null {
  const data = parseChart(body);
  if (!data) return null;
  const id = `${HATCH}-${hashOf(body)}-${key}`;
  return [
    `<figure class="chart">`,
    `<figcaption>${escapeXml(data.title)}</figcaption>`,
    `<div class="chart-box">${drawChart(data, WIDE_PAINT, id, WIDE)}${drawChart(data, NARROW_PAINT, `${id}-n`, NARROW)}</div>`,
    `<details class="chart-data"><summary>${escapeXml(phrase(data.locale ?? 'en', 'Data'))}</summary>${dataTable(data)}</details>`,
    `</figure>\n`,
  ].join('\n');
}

/**
 * A standalone SVG of a chart fence for a PDF: explicit fills, strokes and font family, black and
 * greys on white, no classes or stylesheet needed. `info` is the fence's info string; null when
 * the fence is not a chart.
 */
export function chartSvgForPrint(info: string, body: string): string | null {
  if (info.trim() !== CHART_INFO) return null;
  const data = parseChart(body);
  return data ? drawChart(data, PRINT_PAINT, `${HATCH}-${hashOf(body)}`, WIDE) : null;
}

function drawChart(data: ChartData, paint: Paint, hatchId: string, width: number): string {
  const key = legend(data, paint, hatchId, width);
  const plot =
    data.kind === 'hours_by_day' ? columns(data, paint, hatchId, width, key.height) : bars(data, paint, hatchId, width, key.height);
  const height = plot.height;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg"${paint.root} viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" font-size="${FONT_SIZE}">` +
    `<title>${escapeXml(data.title)}</title><desc>${escapeXml(describe(data))}</desc>` +
    `<defs><pattern id="${hatchId}" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)">` +
    `<rect width="6" height="6"${paint.attrs('hatch-bg')}/><path d="M1.5 0V6"${paint.attrs('hatch')}/></pattern></defs>` +
    key.markup +
    plot.markup +
    `</svg>`
  );
}

/**
 * Series swatches and names along the top (textWidth reckons each name); a name that would pass
 * the drawing's edge starts a line of its own.
 */
function legend(data: ChartData, paint: Paint, hatchId: string, width: number): Plot {
  let x = 0;
  let y = 0;
  let out = '';
  data.series.forEach((name, i) => {
    const label = data.unit === 'minutes' ? name : `${name} (${data.unit})`;
    const size = 20 + textWidth(label);
    if (x > 0 && x + size > width) {
      x = 0;
      y += LEGEND_LINE;
    }
    out += `<rect x="${x}" y="${y + 6}" width="14" height="14"${segmentPaint(paint, i, hatchId)}/>`;
    out += `<text x="${x + 20}" y="${y + 17.5}"${paint.attrs('text')}>${escapeXml(label)}</text>`;
    x += size + 24;
  });
  return { markup: `<g>${out}</g>`, height: LEGEND_HEIGHT + y };
}

const segmentPaint = (paint: Paint, series: number, hatchId: string): string =>
  series === 0 ? paint.attrs('s1') : `${paint.attrs('s2')} fill="url(#${hatchId})"`;

interface Plot {
  markup: string;
  height: number;
}

/**
 * Days (or months, years) as stacked columns along a time axis, hours up the side, under a legend
 * `legendHeight` tall; the axis names every so many columns, at most seven (four when narrow).
 */
function columns(data: ChartData, paint: Paint, hatchId: string, width: number, legendHeight: number): Plot {
  const top = legendHeight + 8;
  const bottom = top + 180;
  const left = 52;
  const right = width - 8;
  const n = data.rows.length;
  const x = band(n, left, right, n > 62 ? 0.1 : 0.25, 0.1);
  const y = linear(Math.max(1, ...data.rows.map(rowTotal)) / 60, bottom, top);
  let out = '';
  for (const tick of y.ticks) {
    out += `<line x1="${left}" x2="${right}" y1="${num(y(tick))}" y2="${num(y(tick))}"${paint.attrs('grid')} shape-rendering="crispEdges"/>`;
    out += `<text x="${left - 6}" y="${num(y(tick) + 4)}" text-anchor="end"${paint.attrs('muted')}>${escapeXml(hoursTick(tick, data.locale))}</text>`;
  }
  const columnWidth = num(x.width);
  data.rows.forEach((row, i) => {
    let sum = 0;
    let rects = '';
    row.values.forEach((value, s) => {
      if (value === 0) return;
      const y0 = y(sum / 60);
      sum += value;
      const y1 = y(sum / 60);
      rects += `<rect x="${num(x.at(i))}" y="${num(y1)}" width="${columnWidth}" height="${num(y0 - y1)}"${segmentPaint(paint, s, hatchId)}/>`;
    });
    // No tooltip per column: up to 400 of them would double the drawing, and the table has the values.
    out += rects;
  });
  out += `<line x1="${left}" x2="${right}" y1="${bottom}" y2="${bottom}"${paint.attrs('axis')} shape-rendering="crispEdges"/>`;
  const step = Math.max(1, Math.ceil(n / (width < WIDE ? 4 : 7)));
  for (let i = 0; i < n; i += step) {
    const label = timeLabel(data.rows[i]?.label ?? '', data.locale);
    out += `<text x="${num(x.at(i) + x.width / 2)}" y="${bottom + 16}" text-anchor="middle"${paint.attrs('muted')}>${escapeXml(label)}</text>`;
  }
  return { markup: out, height: bottom + 24 };
}

/** A linear axis from 0 to `max` rounded up to a round number, mapped onto [from, to]. */
function linear(max: number, from: number, to: number): { (value: number): number; ticks: number[] } {
  const [, end] = nice(0, max, 4);
  const scale = (value: number) => from + ((to - from) * value) / end;
  return Object.assign(scale, { ticks: ticks(0, end, 4) });
}

/** `n` bands over [from, to] with d3's padding (inner, and outer in steps): each one's start and the width. */
function band(n: number, from: number, to: number, inner: number, outer: number): { at: (i: number) => number; width: number } {
  const step = (to - from) / Math.max(1, n - inner + outer * 2);
  return { at: (i) => from + step * outer + step * i, width: step * (1 - inner) };
}

const BAR_HEIGHT = 14;

/**
 * Named categories as stacked horizontal bars, largest first, with each bar's total at its end,
 * under a legend `legendHeight` tall. Wide, the names stand in a column left of the bars; narrow,
 * each name stands above its bar, which then has the drawing's width.
 */
function bars(data: ChartData, paint: Paint, hatchId: string, width: number, legendHeight: number): Plot {
  const narrow = width < WIDE;
  const rowHeight = narrow ? 40 : 24;
  // Where a row's bar and texts sit below its top.
  const barY = narrow ? 20 : 5;
  const textY = barY + 11;
  const top = legendHeight + 6;
  // Narrow, the axis starts far enough in for its first tick's label to stay whole.
  const left = narrow ? 12 : 176;
  // Room after the longest bar for its total (`€1,000,000.00` is 13 characters, about 91 px, and 6 between).
  const right = width - 100;
  const bottom = top + data.rows.length * rowHeight;
  const money = data.unit !== 'minutes';
  const scale = money ? 10 ** currencyExponent(data.unit) : 60;
  const x = linear(Math.max(1, ...data.rows.map(rowTotal)) / scale, left, right);
  let out = '';
  // Narrow, the grid and the axis stand beside the bars only, one path each, so no line crosses a name.
  let grid = '';
  let axis = '';
  if (narrow) {
    for (let i = 0; i < data.rows.length; i++) {
      const y = top + i * rowHeight + barY - 3;
      for (const tick of x.ticks) grid += `M${num(x(tick))} ${y}v${BAR_HEIGHT + 6}`;
      axis += `M${left} ${y}v${BAR_HEIGHT + 6}`;
    }
    out += `<path d="${grid}"${paint.attrs('grid')} shape-rendering="crispEdges"/>`;
  }
  for (const tick of x.ticks) {
    if (!narrow) {
      out += `<line x1="${num(x(tick))}" x2="${num(x(tick))}" y1="${top}" y2="${bottom}"${paint.attrs('grid')} shape-rendering="crispEdges"/>`;
    }
    const label = money ? tickMoney(tick, data.unit, data.locale ?? 'en') : hoursTick(tick, data.locale);
    out += `<text x="${num(x(tick))}" y="${bottom + 16}" text-anchor="middle"${paint.attrs('muted')}>${escapeXml(label)}</text>`;
  }
  data.rows.forEach((row, i) => {
    const y = top + i * rowHeight;
    let sum = 0;
    let rects = '';
    row.values.forEach((value, s) => {
      if (value === 0) return;
      const x0 = x(sum / scale);
      sum += value;
      rects += `<rect x="${num(x0)}" y="${y + barY}" width="${num(x(sum / scale) - x0)}" height="${BAR_HEIGHT}"${segmentPaint(paint, s, hatchId)}/>`;
    });
    // Wide, a name fits the column left of the axis; narrow, the line above its bar.
    const label = escapeXml(shortenText(row.label, narrow ? width - left : left - 8, textWidth));
    const name = narrow
      ? `<text x="${left}" y="${y + 14}"${paint.attrs('text')}>${label}</text>`
      : `<text x="${left - 8}" y="${y + textY}" text-anchor="end"${paint.attrs('text')}>${label}</text>`;
    out +=
      `<g><title>${escapeXml(`${row.label}: ${rowSummary(data, row.values)}`)}</title>${name}${rects}` +
      `<text x="${num(x(sum / scale) + 6)}" y="${y + textY}"${paint.attrs('muted')}>${escapeXml(formatValue(data, sum))}</text></g>`;
  });
  out += narrow
    ? `<path d="${axis}"${paint.attrs('axis')} shape-rendering="crispEdges"/>`
    : `<line x1="${left}" x2="${left}" y1="${top}" y2="${bottom}"${paint.attrs('axis')} shape-rendering="crispEdges"/>`;
  return { markup: out, height: bottom + 24 };
}

/** The data as a table: a row per category, a column per series (and their total), a total row. */
/** The chart's numbers as a table, its headings in the chart's language. */
function dataTable(data: ChartData): string {
  const locale = data.locale ?? 'en';
  const total = phrase(locale, 'Total');
  const both = data.series.length > 1;
  const head = [phrase(locale, firstColumn(data)), ...data.series, ...(both ? [total] : [])];
  const cells = (values: number[], open: string, close: string): string => {
    let out = '';
    for (const value of values) out += `<td class="align-right">${open}${escapeXml(formatValue(data, value))}${close}</td>`;
    return both ? `${out}<td class="align-right">${open}${escapeXml(formatValue(data, sumOf(values)))}${close}</td>` : out;
  };
  let body = '';
  for (const row of data.rows) body += `<tr><td>${escapeXml(row.label)}</td>${cells(row.values, '', '')}</tr>`;
  const totals = data.series.map((_, s) => sumOf(data.rows.map((r) => r.values[s] ?? 0)));
  return (
    `<div class="table-wrap" tabindex="0"><table><thead><tr>${head.map((h) => `<th scope="col">${escapeXml(h)}</th>`).join('')}</tr></thead>` +
    `<tbody>${body}<tr class="total grand-total"><td><strong>${escapeXml(total)}</strong></td>${cells(totals, '<strong>', '</strong>')}</tr></tbody></table></div>`
  );
}

/** The text a screen reader hears, in the chart's language: what is charted, over how many categories, the total and the largest. */
function describe(data: ChartData): string {
  const locale = data.locale ?? 'en';
  const count = String(data.rows.length);
  const totals = data.series.map((_, s) => sumOf(data.rows.map((r) => r.values[s] ?? 0)));
  const kind =
    data.kind === 'hours_by_day'
      ? phrase(locale, COLUMN_CHART[firstColumn(data) as 'Day' | 'Month' | 'Year'], {
          count,
          from: data.rows[0]?.label ?? '',
          to: data.rows.at(-1)?.label ?? '',
        })
      : phrase(locale, BAR_CHART[firstColumn(data) as 'Project' | 'Person' | 'Client'], { count });
  const [first, second] = data.series;
  const series = first !== undefined && second !== undefined ? phrase(locale, ', {first} and {second} stacked', { first, second }) : '';
  let largest = data.rows[0];
  for (const row of data.rows) if (largest && rowTotal(row) > rowTotal(largest)) largest = row;
  const most = largest
    ? ` ${phrase(locale, 'Largest: {label}, {value}.', { label: largest.label, value: formatValue(data, rowTotal(largest)) })}`
    : '';
  return `${kind}${series}. ${phrase(locale, 'Total {total}.', { total: rowSummary(data, totals) })}${most}`;
}

const COLUMN_CHART = {
  Day: 'Column chart of {count} days, {from} to {to}',
  Month: 'Column chart of {count} months, {from} to {to}',
  Year: 'Column chart of {count} years, {from} to {to}',
} as const;

const BAR_CHART = {
  Project: 'Bar chart of {count} projects',
  Person: 'Bar chart of {count} persons',
  Client: 'Bar chart of {count} clients',
} as const;

/** What the chart's categories are: the English of a phrase (packages/document phrases.ts). */
function firstColumn(data: ChartData): 'Day' | 'Month' | 'Year' | 'Project' | 'Person' | 'Client' {
  switch (data.kind) {
    case 'hours_by_day': {
      const first = data.rows[0]?.label ?? '';
      return /^\d{4}-\d{2}-\d{2}$/.test(first) ? 'Day' : /^\d{4}-\d{2}$/.test(first) ? 'Month' : 'Year';
    }
    case 'hours_by_project':
      return 'Project';
    case 'hours_by_person':
      return 'Person';
    case 'amount_by_client':
      return 'Client';
  }
}

/** `7h 05m (billable 5h 00m, not billable 2h 05m)`, or the amount. */
function rowSummary(data: ChartData, values: number[]): string {
  const total = formatValue(data, sumOf(values));
  if (values.length < 2) return total;
  return `${total} (${data.series.map((name, s) => `${name.toLowerCase()} ${formatValue(data, values[s] ?? 0)}`).join(', ')})`;
}

function sumOf(values: number[]): number {
  let sum = 0;
  for (const value of values) sum += value;
  return sum;
}
const rowTotal = (row: { values: number[] }) => sumOf(row.values);

function formatValue(data: ChartData, value: number): string {
  if (data.unit !== 'minutes') return formatMoney({ currency: data.unit, minor: value }, data.locale ?? 'en');
  return `${Math.floor(value / 60)}h ${String(value % 60).padStart(2, '0')}m`;
}

/**
 * Formatters by locale and what they format (making one costs far more than using it); a chart
 * names its locale, so a page of charts in one report's locale keeps a handful.
 */
const formats = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function formatFor<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let format = formats.get(key) as T | undefined;
  if (!format) {
    format = make();
    if (formats.size > 64) formats.clear();
    formats.set(key, format);
  }
  return format;
}

/** A tick of a money axis in `locale`: whole units where the tick is whole (`€1,500`, `1.500 €`). */
function tickMoney(major: number, currency: string, locale: string): string {
  const format = formatFor(
    `money ${locale} ${currency}`,
    () =>
      new Intl.NumberFormat(locale, {
        style: 'currency',
        currency,
        minimumFractionDigits: 0,
        maximumFractionDigits: currencyExponent(currency),
      }),
  );
  return format.format(major);
}

/** A tick of an hours axis: `2.5 h`, or in a chart's locale `2,5 h`. */
function hoursTick(hours: number, locale: string | undefined): string {
  if (locale === undefined) return `${hours} h`;
  return `${formatFor(`hours ${locale}`, () => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 })).format(hours)} h`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * `2026-03-09` -> `9 Mar`, `2026-03` -> `Mar 2026` (in a chart's locale: `9. März`, `März 2026`,
 * `3月9日`); anything else as it is, shortened.
 */
function timeLabel(label: string, locale: string | undefined): string {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(label);
  const month = day ? null : /^(\d{4})-(\d{2})$/.exec(label);
  if (locale !== undefined && (day || month)) {
    const date = new Date(`${day ? label : `${label}-01`}T00:00:00Z`);
    if (!Number.isNaN(date.getTime())) {
      const options: Intl.DateTimeFormatOptions = day
        ? { day: 'numeric', month: 'short', timeZone: 'UTC' }
        : { month: 'short', year: 'numeric', timeZone: 'UTC' };
      return formatFor(`${day ? 'day' : 'month'} ${locale}`, () => new Intl.DateTimeFormat(locale, options)).format(date);
    }
  }
  if (day) return `${Number(day[3])} ${MONTHS[Number(day[2]) - 1] ?? day[2]}`;
  if (month) return `${MONTHS[Number(month[2]) - 1] ?? month[2]} ${month[1]}`;
  return label.length > 12 ? `${label.slice(0, 11)}…` : label;
}

/**
 * A text's width at the chart's 12 px type, reckoned without a font: 12 px for a character of
 * Chinese, Japanese or Korean (or a full-width form or an emoji), 7 px for any other, which is a
 * little more than most Latin letters take. The drawings lay legends and names out by it.
 */
function textWidth(text: string): number {
  let width = 0;
  for (const char of text) width += WIDE_CHARACTER.test(char) ? FONT_SIZE : 7;
  return width;
}

const WIDE_CHARACTER =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u30FF\uFF01-\uFF60\uFFE0-\uFFE6\p{Extended_Pictographic}]/u;
/** A coordinate with one decimal: enough on screen and in print, and the same bytes everywhere. */
function num(value: number): string {
  // Integers print fast and the same everywhere; a float's shortest form is slower to find.
  const tenths = Math.round(Math.abs(value) * 10);
  const digit = tenths % 10;
  const text = digit === 0 ? String(tenths / 10) : `${(tenths - digit) / 10}.${digit}`;
  return value < 0 && tenths > 0 ? `-${text}` : text;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text and attribute values in SVG and HTML: names are user input. */
export function escapeXml(text: string): string {
  return NEEDS_ESCAPE.test(text) ? text.replace(ESCAPED, (c) => XML_ESCAPES[c] ?? c) : text;
}

const NEEDS_ESCAPE = /[&<>"']/;
const ESCAPED = /[&<>"']/g;

/** FNV-1a of the body, in base 36: a short, stable part of the pattern's id. */
function hashOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}
