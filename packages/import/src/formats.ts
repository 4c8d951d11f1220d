/**
 * The detailed-report CSV exports of Toggl Track and Clockify, by their own column names
 * (docs/cli.md "Importing from Toggl Track and Clockify"). Each tool names a column one way or, across versions, another; the
 * first name present in the header wins.
 */
export type ExportFormat = 'toggl' | 'clockify';

export type Field =
  | 'email'
  | 'client'
  | 'project'
  | 'description'
  | 'billable'
  | 'tags'
  | 'startDate'
  | 'startTime'
  | 'endDate'
  | 'endTime'
  | 'duration'
  | 'hours';

/** The export's money columns, compared with Chronicle's rates and never imported (docs/cli.md "Rates and amounts"). */
export type MoneyField = 'rate' | 'amount';

/**
 * Rate and amount headers, the same in both tools across versions: Toggl's `Amount (USD)` (older
 * detailed reports), `Hourly rate` and `Billable amount (USD)` (newer ones), Clockify's
 * `Billable Rate (USD)` and `Billable Amount (USD)`. The currency is the code in parentheses; an
 * empty `()` or none names no currency. Clockify's `Cost Rate (…)` and `Cost Amount (…)` are what
 * work costs, not what it bills, and match neither.
 */
const MONEY_HEADERS: Record<MoneyField, RegExp> = {
  rate: /^(?:billable rate|hourly rate|rate)\s*(?:\(\s*([a-z]{3})?\s*\))?$/i,
  amount: /^(?:billable amount|amount)\s*(?:\(\s*([a-z]{3})?\s*\))?$/i,
};
/** A column of each row's currency (Toggl's newer exports), read where the header names none. */
const CURRENCY_HEADER = /^currency$/i;

/** A money column: where it is, its header as written, and the currency the header names. */
export interface MoneyColumn {
  index: number;
  name: string;
  currency: string | null;
}

/** The first rate and amount columns of a header, and the index of its currency column. */
export function findMoneyColumns(header: readonly string[]): Partial<Record<MoneyField, MoneyColumn>> & { currency?: number } {
  const found: Partial<Record<MoneyField, MoneyColumn>> & { currency?: number } = {};
  header.forEach((cell, index) => {
    const name = cell.trim();
    for (const field of ['rate', 'amount'] as const) {
      const m = found[field] ? null : MONEY_HEADERS[field].exec(name);
      if (m) found[field] = { index, name, currency: m[1]?.toUpperCase() ?? null };
    }
    if (found.currency === undefined && CURRENCY_HEADER.test(name)) found.currency = index;
  });
  return found;
}

export const COLUMNS: Record<ExportFormat, Partial<Record<Field, readonly string[]>>> = {
  // User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags,Amount (USD)
  // (the money columns are found by findMoneyColumns)
  toggl: {
    email: ['Email'],
    client: ['Client'],
    project: ['Project'],
    billable: ['Billable'],
    description: ['Description'],
    tags: ['Tags'],
    startDate: ['Start date'],
    startTime: ['Start time'],
    endDate: ['End date', 'Stop date'],
    endTime: ['End time', 'Stop time'],
    duration: ['Duration'],
  },
  // Project,Client,Description,Task,User,Group,Email,Tags,Billable,Start Date,Start Time,End Date,End Time,
  // Duration (h),Duration (decimal),Billable Rate (USD),Billable Amount (USD)
  clockify: {
    email: ['Email'],
    client: ['Client'],
    project: ['Project'],
    billable: ['Billable'],
    description: ['Description'],
    tags: ['Tags', 'Tag'],
    startDate: ['Start Date'],
    startTime: ['Start Time'],
    endDate: ['End Date'],
    endTime: ['End Time'],
    duration: ['Duration (h)'],
    hours: ['Duration (decimal)'],
  },
};

/** Calendar date layouts seen in exports; Clockify follows each user's settings. */
export const DATE_FORMATS = ['YYYY-MM-DD', 'MM/DD/YYYY', 'DD/MM/YYYY', 'DD.MM.YYYY'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

export interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

/**
 * The date layout of a file: ISO and dotted dates say so; with slashes, a first part over 12
 * anywhere means day first, otherwise month first (Clockify's default, US style).
 */
export function detectDateFormat(values: readonly string[]): DateFormat {
  const present = values.map((v) => v.trim()).filter((v) => v !== '');
  if (present.some((v) => v.includes('.'))) return 'DD.MM.YYYY';
  if (!present.some((v) => v.includes('/'))) return 'YYYY-MM-DD';
  return present.some((v) => Number(v.split('/')[0]) > 12) ? 'DD/MM/YYYY' : 'MM/DD/YYYY';
}

const DATE_PATTERNS: Record<DateFormat, { pattern: RegExp; order: [number, number, number] }> = {
  // order: the capture groups of year, month, day
  'YYYY-MM-DD': { pattern: /^(\d{4})-(\d{1,2})-(\d{1,2})$/, order: [1, 2, 3] },
  'MM/DD/YYYY': { pattern: /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/, order: [3, 1, 2] },
  'DD/MM/YYYY': { pattern: /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/, order: [3, 2, 1] },
  'DD.MM.YYYY': { pattern: /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/, order: [3, 2, 1] },
};

export function parseDate(value: string, format: DateFormat): CalendarDay | null {
  const { pattern, order } = DATE_PATTERNS[format];
  const m = pattern.exec(value.trim());
  if (!m) return null;
  const [year, month, day] = order.map((i) => Number(m[i]));
  if (year === undefined || month === undefined || day === undefined) return null;
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (year < 1000 || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  return { year, month, day };
}

/** `13:05`, `13:05:09`, `1:05 PM`, `01:05:09 pm`: seconds since midnight, or null. */
export function parseTime(value: string): number | null {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?$/.exec(value.trim());
  if (!m) return null;
  let hour = Number(m[1]);
  const minute = Number(m[2]);
  const second = Number(m[3] ?? 0);
  const meridiem = m[4]?.toLowerCase();
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem === 'pm' ? 12 : 0);
  }
  if (hour > 23 || minute > 59 || second > 59) return null;
  return hour * 3600 + minute * 60 + second;
}

/** `1:30:00`, `0:13`, `123:00:00` (hours may pass 24): seconds, or null. */
export function parseClockDuration(value: string): number | null {
  const m = /^(\d{1,4}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!m || Number(m[2]) > 59 || Number(m[3] ?? 0) > 59) return null;
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0);
}

/** `1.50` or `1,50` hours: seconds, or null. */
export function parseDecimalHours(value: string): number | null {
  const m = /^(\d{1,4})(?:[.,](\d+))?$/.exec(value.trim());
  if (!m) return null;
  return Math.round(Number(`${m[1]}.${m[2] ?? '0'}`) * 3600);
}

/** `Yes`/`No` (Toggl, Clockify) or `true`/`false`, any case: the entry's billable, or null. */
export function parseBillable(value: string): boolean | null {
  const v = value.trim().toLowerCase();
  if (v === 'yes' || v === 'true') return true;
  if (v === 'no' || v === 'false') return false;
  return null;
}

/** Tags as exported: one cell, comma separated; blanks dropped, duplicates once. */
export function splitTags(value: string): string[] {
  return [
    ...new Set(
      value
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== ''),
    ),
  ];
}
