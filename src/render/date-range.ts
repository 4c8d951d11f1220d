import { DateTime, IANAZone } from 'luxon';
import { firstInstantOfDay } from '../../packages/money/src/index.js';

export const DATE_PRESETS = [
  'today',
  'yesterday',
  'last_7_days',
  'last_30_days',
  'this_week',
  'last_week',
  'this_month',
  'last_month',
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

/** A calendar period, both ends `YYYY-MM-DD` and inclusive. */
export interface DateRange {
  from: string;
  to: string;
}

/** Longest accepted absolute range, in days (docs/api.md "Filters"). */
export const MAX_RANGE_DAYS = 366;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
// Intl also accepts offsets ("+01:00") on newer runtimes and luxon reads "local" and
// "UTC+3" as zones of its own; only named IANA zones are allowed.
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]*$/;

/** Whether `s` is a strict `YYYY-MM-DD` string naming a real calendar date. */
export function isValidDate(s: string): boolean {
  return ISO_DATE.test(s) && DateTime.fromISO(s, { zone: 'utc' }).isValid;
}

/**
 * Names found valid, so that a render's period and a profile's zone are not checked by making a
 * formatter (about 50 µs) every time. Intl accepts a name in any letter case, so a client could
 * make up many valid spellings: the set stops growing at a size no real use reaches.
 */
const knownZones = new Set<string>();
const KNOWN_ZONES_MAX = 2_000;

/** Whether `tz` is an IANA time-zone name the runtime knows (for example `Europe/Paris`, `UTC`). */
export function isValidTimezone(tz: string): boolean {
  if (knownZones.has(tz)) return true;
  if (!ZONE_NAME.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    return false;
  }
  if (knownZones.size < KNOWN_ZONES_MAX) knownZones.add(tz);
  return true;
}

/** The runtime's canonical spelling of a valid zone name (`europe/paris` -> `Europe/Paris`). */
export function canonicalTimezone(tz: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
}

/**
 * Resolves a relative preset against `now`, with today's date taken in `timezone`
 * (docs/api.md "Time entries"). Weeks run Monday to Sunday and are returned whole, future
 * days included. Throws a RangeError for an unknown timezone.
 */
export function resolvePreset(preset: DatePreset, timezone: string, now: Date): DateRange {
  const local = DateTime.fromJSDate(now, { zone: zoneOf(timezone) });
  // Calendar arithmetic on a UTC copy of the local date cannot trip over DST.
  const today = DateTime.utc(local.year, local.month, local.day);
  switch (preset) {
    case 'today':
      return span(today, today);
    case 'yesterday': {
      const day = today.minus({ days: 1 });
      return span(day, day);
    }
    case 'last_7_days':
      return span(today.minus({ days: 6 }), today);
    case 'last_30_days':
      return span(today.minus({ days: 29 }), today);
    case 'this_week': {
      const monday = today.minus({ days: today.weekday - 1 });
      return span(monday, monday.plus({ days: 6 }));
    }
    case 'last_week': {
      const monday = today.minus({ days: today.weekday - 1 + 7 });
      return span(monday, monday.plus({ days: 6 }));
    }
    case 'this_month':
      return span(today.startOf('month'), today.endOf('month'));
    case 'last_month': {
      const month = today.startOf('month').minus({ months: 1 });
      return span(month, month.endOf('month'));
    }
  }
}

/**
 * Number of days in the range, both ends included (`from == to` gives 1); zero or
 * negative when `to` precedes `from`. Throws a RangeError for an invalid date.
 */
export function rangeSpanDays(r: DateRange): number {
  return calendarDate(r.to).diff(calendarDate(r.from), 'days').days + 1;
}

/** Whether `r` is an acceptable absolute range: real dates, `from <= to`, at most 366 days. */
export function isValidRange(r: DateRange): boolean {
  if (!isValidDate(r.from) || !isValidDate(r.to)) return false;
  const days = rangeSpanDays(r);
  return days >= 1 && days <= MAX_RANGE_DAYS;
}

/**
 * The instants bounding a period in `timezone`: `[from 00:00, (to + 1 day) 00:00)`
 * (docs/api.md "Time entries"). Days are 23 or 25 hours long across DST changes; where a
 * zone skips midnight, a day starts at its first valid instant, and where midnight happens
 * twice, at the first, so an entry is in the period of the date it shows.
 */
export function periodBounds(r: DateRange, timezone: string): { start: Date; end: Date } {
  zoneOf(timezone);
  const end = calendarDate(r.to).plus({ days: 1 });
  return {
    start: new Date(firstInstantOfDay(calendarDate(r.from).toMillis(), timezone)),
    end: new Date(firstInstantOfDay(end.toMillis(), timezone)),
  };
}

/** An instant as a wall-clock date (`YYYY-MM-DD`) and time (`HH:mm`) in `timezone`. */
export function localDateTime(instant: Date, timezone: string): { date: string; time: string } {
  const local = DateTime.fromJSDate(instant, { zone: zoneOf(timezone) });
  if (!local.isValid) throw new RangeError('invalid instant');
  return { date: local.toFormat('yyyy-MM-dd'), time: local.toFormat('HH:mm') };
}

function zoneOf(timezone: string): IANAZone {
  if (!isValidTimezone(timezone)) throw new RangeError(`unknown timezone: ${JSON.stringify(timezone)}`);
  return IANAZone.create(timezone);
}

function calendarDate(s: string): DateTime {
  if (!isValidDate(s)) throw new RangeError(`invalid date: ${JSON.stringify(s)}`);
  return DateTime.fromISO(s, { zone: 'utc' });
}

function span(from: DateTime, to: DateTime): DateRange {
  return { from: from.toFormat('yyyy-MM-dd'), to: to.toFormat('yyyy-MM-dd') };
}
