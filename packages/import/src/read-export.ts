/**
 * Reads a detailed-report export into rows ready to import, each with the line it starts on; every
 * row that cannot be read says which line, which column and why. Nothing here talks to a server.
 */
import { parse } from 'csv-parse/sync';
import { DateTime } from 'luxon';
import { instantOfWall, type WallTime } from '../../money/src/index.js';
import {
  COLUMNS,
  detectDateFormat,
  findMoneyColumns,
  parseClockDuration,
  parseBillable,
  parseDate,
  parseDecimalHours,
  parseTime,
  splitTags,
  type CalendarDay,
  type DateFormat,
  type ExportFormat,
  type Field,
  type MoneyField,
} from './formats.js';

/** Chronicle's limits on an entry (docs/api.md "Time entries"). */
const MAX_MINUTES = 1440;
const MAX_DESCRIPTION = 2000;
const MAX_TAGS = 20;
const MAX_TAG = 50;

export interface RowProblem {
  line: number;
  /** The column's name as in the file's header; null when the row as a whole is at fault. */
  column: string | null;
  message: string;
}

export interface ExportRow {
  line: number;
  email: string;
  project: string | null;
  /** The project's client as the file names it; null when the cell is empty or absent. */
  client: string | null;
  description: string;
  /** Absent when the file has no Billable column: the server then uses the project's default. */
  billable?: boolean;
  tags: string[];
  /** ISO 8601 with the offset of the import's time zone. */
  start: string;
  minutes: number;
  /**
   * The export's rate and amount as written, each with the currency its header or the row's
   * Currency cell names (null: none named); only the columns the file has, and never imported.
   */
  money?: Partial<Record<MoneyField, ExportMoney>>;
}

/** A money cell of a row, unread: rate-check.ts reads it in its currency. */
export interface ExportMoney {
  text: string;
  currency: string | null;
}

export interface ReadResult {
  rows: ExportRow[];
  failed: RowProblem[];
  skipped: RowProblem[];
  dateFormat: DateFormat;
  /** The header name of each field found, for messages about server refusals. */
  columns: Partial<Record<Field, string>>;
  /** The header name of the rate and amount columns the file has. */
  moneyColumns: Partial<Record<MoneyField, string>>;
}

export class ExportFormatError extends Error {}

export interface ReadOptions {
  /** The zone the export's local times are in (an IANA name). */
  timezone: string;
  /** Omitted: detected from the file. */
  dateFormat?: DateFormat;
}

/** Splits the file into records, each with the line it starts on (fields may hold newlines). */
function records(text: string): { line: number; cells: string[] }[] {
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    parsed = parse(text, { bom: true, info: true, skip_empty_lines: true, relax_column_count: true }) as unknown as typeof parsed;
  } catch (error) {
    const e = error as Error & { lines?: number };
    throw new ExportFormatError(`The file is not valid CSV${e.lines ? ` (line ${e.lines})` : ''}: ${e.message}`);
  }
  return parsed.map(({ record, info }) => {
    const newlines = record.reduce((n, cell) => n + (cell.match(/\r\n|\r|\n/g)?.length ?? 0), 0);
    return { line: info.lines - newlines, cells: record };
  });
}

export function readExport(text: string, format: ExportFormat, options: ReadOptions): ReadResult {
  const [header, ...body] = records(text);
  if (!header) throw new ExportFormatError('The file is empty.');
  const names = header.cells.map((c) => c.trim().toLowerCase());
  const index: Partial<Record<Field, number>> = {};
  const columns: Partial<Record<Field, string>> = {};
  for (const [field, candidates] of Object.entries(COLUMNS[format]) as [Field, readonly string[]][]) {
    for (const candidate of candidates) {
      const i = names.indexOf(candidate.toLowerCase());
      if (i >= 0) {
        index[field] = i;
        columns[field] = header.cells[i]?.trim() ?? candidate;
        break;
      }
    }
  }
  const missing = (['email', 'startDate', 'startTime'] as const).filter((f) => index[f] === undefined);
  if (index.duration === undefined && index.hours === undefined && (index.endDate === undefined || index.endTime === undefined)) {
    missing.push('duration' as never);
  }
  if (missing.length > 0) {
    const expected = missing.map((f) => `"${COLUMNS[format][f]?.[0] ?? f}"`).join(', ');
    throw new ExportFormatError(`This is not a ${format} detailed report: the header has no ${expected} column.`);
  }

  const cell = (cells: string[], field: Field) => {
    const i = index[field];
    return i === undefined ? '' : (cells[i] ?? '');
  };
  const dateFormat = options.dateFormat ?? detectDateFormat(body.map((r) => cell(r.cells, 'startDate')));
  const money = findMoneyColumns(header.cells);
  const moneyFields = (['rate', 'amount'] as const).flatMap((field) => {
    const column = money[field];
    return column ? [{ field, column }] : [];
  });
  const moneyOf = (cells: string[]): ExportRow['money'] => {
    if (moneyFields.length === 0) return undefined;
    const rowCurrency = money.currency === undefined ? '' : (cells[money.currency] ?? '').trim().toUpperCase();
    const fallback = /^[A-Z]{3}$/.test(rowCurrency) ? rowCurrency : null;
    return Object.fromEntries(
      moneyFields.map(({ field, column }) => [field, { text: (cells[column.index] ?? '').trim(), currency: column.currency ?? fallback }]),
    );
  };
  const result: ReadResult = {
    rows: [],
    failed: [],
    skipped: [],
    dateFormat,
    columns,
    moneyColumns: Object.fromEntries(moneyFields.map(({ field, column }) => [field, column.name])),
  };

  for (const { line, cells } of body) {
    const problems: RowProblem[] = [];
    const fail = (field: Field | null, message: string) =>
      problems.push({ line, column: field ? (columns[field] ?? field) : null, message });
    if (cells.length !== header.cells.length) {
      result.failed.push({ line, column: null, message: `has ${cells.length} fields where the header has ${header.cells.length}` });
      continue;
    }

    const email = cell(cells, 'email').trim().toLowerCase();
    if (email === '') fail('email', 'is empty; users are matched by e-mail');

    const dateText = cell(cells, 'startDate');
    const timeText = cell(cells, 'startTime');
    const day = parseDate(dateText, dateFormat);
    const seconds = parseTime(timeText);
    if (!day) fail('startDate', `cannot read "${dateText}" as a date (${dateFormat})`);
    if (seconds === null) fail('startTime', `cannot read "${timeText}" as a time of day`);
    const start = day && seconds !== null ? instantOfWall(wallAt(day, seconds), options.timezone) : null;

    const durationSeconds = readDuration(cells, cell, start, options.timezone, dateFormat, fail);
    const description = cell(cells, 'description');
    if (description.length > MAX_DESCRIPTION) fail('description', `is ${description.length} characters long; at most ${MAX_DESCRIPTION}`);
    const billableText = cell(cells, 'billable');
    const billable = index.billable === undefined ? undefined : parseBillable(billableText);
    if (billable === null) fail('billable', `cannot read "${billableText}" as billable (Yes, No, true or false)`);
    const tags = splitTags(cell(cells, 'tags'));
    if (tags.length > MAX_TAGS) fail('tags', `has ${tags.length} tags; at most ${MAX_TAGS}`);
    const longTag = tags.find((t) => t.length > MAX_TAG);
    if (longTag !== undefined) fail('tags', `has a tag of ${longTag.length} characters; at most ${MAX_TAG}`);

    if (problems.length > 0 || start === null || durationSeconds === null) {
      result.failed.push(...problems);
      continue;
    }
    const minutes = Math.round(durationSeconds / 60);
    if (minutes === 0) {
      result.skipped.push({ line, column: columns.duration ?? columns.hours ?? null, message: 'is under 30 seconds (0 minutes)' });
      continue;
    }
    if (minutes > MAX_MINUTES) {
      result.failed.push({
        line,
        column: columns.duration ?? columns.hours ?? null,
        message: `is ${minutes} minutes; an entry is at most 24 hours`,
      });
      continue;
    }
    const project = cell(cells, 'project').trim();
    const client = cell(cells, 'client').trim();
    result.rows.push({
      line,
      email,
      project: project === '' ? null : project,
      client: client === '' ? null : client,
      description,
      ...(billable === undefined || billable === null ? {} : { billable }),
      tags,
      start: DateTime.fromMillis(start, { zone: options.timezone }).toISO({ suppressMilliseconds: true }) ?? '',
      minutes,
      ...(moneyFields.length === 0 ? {} : { money: moneyOf(cells) }),
    });
  }
  return result;
}

/**
 * A date and a time of day in seconds as a clock reading. Local times go to instants by packages/money
 * `instantOfWall`: the first of a repeated hour, past a skipped one, the same in every season (luxon's
 * guess starts from the zone's offset on the day the file is read).
 */
function wallAt(day: CalendarDay, seconds: number): WallTime {
  return { ...day, hour: Math.floor(seconds / 3600), minute: Math.floor(seconds / 60) % 60, second: seconds % 60 };
}

/**
 * The entry's length in seconds: the clock duration column, else decimal hours, else end minus
 * start. A cell that is present but unreadable is an error rather than a reason to look elsewhere.
 */
function readDuration(
  cells: string[],
  cell: (cells: string[], field: Field) => string,
  start: number | null,
  timezone: string,
  dateFormat: DateFormat,
  fail: (field: Field | null, message: string) => void,
): number | null {
  const clock = cell(cells, 'duration').trim();
  if (clock !== '') {
    const seconds = parseClockDuration(clock);
    if (seconds === null) fail('duration', `cannot read "${clock}" as a duration (H:MM:SS)`);
    return seconds;
  }
  const hours = cell(cells, 'hours').trim();
  if (hours !== '') {
    const seconds = parseDecimalHours(hours);
    if (seconds === null) fail('hours', `cannot read "${hours}" as decimal hours`);
    return seconds;
  }
  const endDay = parseDate(cell(cells, 'endDate'), dateFormat);
  const endSeconds = parseTime(cell(cells, 'endTime'));
  if (!endDay || endSeconds === null) {
    fail('duration', 'is empty, and there is no readable end date and time (a timer still running?)');
    return null;
  }
  if (start === null) return null;
  const seconds = Math.round((instantOfWall(wallAt(endDay, endSeconds), timezone) - start) / 1000);
  if (seconds < 0) {
    fail('endTime', 'is before the start');
    return null;
  }
  return seconds;
}
