import { DateTime, IANAZone } from 'luxon';

/**
 * Schedule arithmetic (delivery.md §1 "Schedules"): which instants a schedule runs at. Pure: no
 * clock, no database. Days are walked as calendar dates (UTC `DateTime`s holding a local date, so
 * the walk cannot trip over DST) and each chosen date is turned into an instant by `instantOn`.
 */

export type Frequency = 'daily' | 'weekly' | 'monthly';
export type Weekday = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';

/** A schedule's timing fields, as delivery.md §1 defines them. */
export interface ScheduleRule {
  frequency: Frequency;
  /** The day of a `weekly` rule; null otherwise. */
  weekday: Weekday | null;
  /** The day of a `monthly` rule, 1-28 or the month's last day; null otherwise. */
  dayOfMonth: number | 'last' | null;
  /** `HH:MM`, 24 h, on the owner's wall clock. */
  time: string;
}

/** Luxon's weekday numbers: Monday is 1, Sunday 7. */
const WEEKDAYS: readonly Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * How many consecutive dates one step walks at most: the next occurrence of a monthly rule is at
 * most 31 days after the date it ran on, plus that starting date. Weekly needs 8, daily 4.
 */
const MAX_DAYS_PER_STEP = 32;

/** The first occurrence strictly after `after`, as an instant. */
export function nextOccurrence(rule: ScheduleRule, zone: string, after: Date): Date {
  checkRule(rule);
  const local = DateTime.fromJSDate(after, { zone: zoneOf(zone) });
  if (!local.isValid) throw new RangeError('invalid instant');
  // Start on the local date of `after`: an earlier date's occurrence is on that earlier date (or,
  // past a gap, where the gap ends), so never after `after`.
  let day = DateTime.utc(local.year, local.month, local.day);
  for (let i = 0; i < MAX_DAYS_PER_STEP; i++, day = day.plus({ days: 1 })) {
    if (!selects(rule, day)) continue;
    const at = instantOn({ year: day.year, month: day.month, day: day.day }, rule.time, zone);
    if (at.getTime() > after.getTime()) return at;
  }
  throw new Error(`no occurrence within ${MAX_DAYS_PER_STEP} days of ${after.toISOString()}`);
}

/** The next `count` occurrences strictly after `after`, increasing. */
export function nextOccurrences(rule: ScheduleRule, zone: string, after: Date, count: number): Date[] {
  checkCount(count, 'count');
  const out: Date[] = [];
  let cursor = after;
  while (out.length < count) {
    cursor = nextOccurrence(rule, zone, cursor);
    out.push(cursor);
  }
  return out;
}

/**
 * The occurrences in `(fromExclusive, toInclusive]`, increasing. When more than `max` fall in the
 * window, the OLDEST `max` are returned and the rest left out: a caller making up missed runs
 * (delivery.md §1 "Exactly once") handles them in order and, seeing `max` of them, continues from
 * the last one returned.
 */
export function occurrencesBetween(rule: ScheduleRule, zone: string, fromExclusive: Date, toInclusive: Date, max: number): Date[] {
  checkCount(max, 'max');
  const out: Date[] = [];
  let cursor = fromExclusive;
  while (out.length < max) {
    cursor = nextOccurrence(rule, zone, cursor);
    if (cursor.getTime() > toInclusive.getTime()) break;
    out.push(cursor);
  }
  return out;
}

/**
 * The instant a calendar date's wall-clock `time` (`HH:MM`) happens in `zone`, by delivery.md §1:
 * a time that does not exist that day (a spring-forward gap) gives the first instant after the
 * gap, i.e. the instant the gap ends (Berlin 2026-03-29 02:30 -> 03:00 local); a time that occurs
 * twice gives the first of the two (the offset before the change). Luxon alone does neither: it
 * shifts a time in a gap forward by the gap's length (02:30 -> 03:30) and for a repeated time may
 * pick the later instant.
 *
 * Assumes the offset changes at most once within a day of the time, true of every zone in use.
 */
export function instantOn(date: { year: number; month: number; day: number }, time: string, zone: string): Date {
  const match = TIME.exec(time);
  if (!match) throw new Error(`time must be HH:MM, got ${JSON.stringify(time)}`);
  const tz = zoneOf(zone);
  // The wall-clock reading as if it were UTC; an instant `t` shows it when t + offset(t) == wall.
  const wall = Date.UTC(date.year, date.month - 1, date.day, Number(match[1]), Number(match[2]));
  if (Number.isNaN(wall)) throw new RangeError('invalid date');
  const offset = (t: number) => tz.offset(t) * 60_000;
  const local = (t: number) => t + offset(t);

  // The offsets around that day; an instant showing the time must use one of them.
  const offsets = [...new Set([offset(wall - 86_400_000), offset(wall), offset(wall + 86_400_000)])];
  const exact = offsets
    .map((o) => wall - o)
    .filter((t) => local(t) === wall)
    .sort((a, b) => a - b);
  // Shown once, or twice (a fall-back overlap): the first.
  if (exact[0] !== undefined) return new Date(exact[0]);

  // In a gap: the gap ends at the change, the first instant whose wall clock reads past `time`.
  // Between `wall - max offset` (before the change) and `wall - min offset` (after it) the wall
  // clock only moves forward, so bisect for the smallest instant reading `wall` or later.
  let before = wall - Math.max(...offsets);
  let after = wall - Math.min(...offsets);
  if (!(local(before) < wall && local(after) >= wall)) throw new Error(`cannot place ${time} in ${zone}`);
  while (after - before > 1) {
    const mid = Math.floor((before + after) / 2);
    if (local(mid) < wall) before = mid;
    else after = mid;
  }
  return new Date(after);
}

/** Whether the rule runs on the calendar date `day` (a UTC `DateTime` holding a local date). */
function selects(rule: ScheduleRule, day: DateTime): boolean {
  switch (rule.frequency) {
    case 'daily':
      return day.weekday <= 5;
    case 'weekly':
      return WEEKDAYS[day.weekday - 1] === rule.weekday;
    case 'monthly':
      return rule.dayOfMonth === 'last' ? day.day === day.daysInMonth : day.day === rule.dayOfMonth;
  }
}

/**
 * Callers validate a schedule before asking for its runs; a rule whose fields disagree with its
 * frequency is a bug there, so it fails loudly rather than running on some guessed day.
 */
function checkRule(rule: ScheduleRule): void {
  if (!consistent(rule)) throw new Error(`inconsistent schedule rule: ${JSON.stringify(rule)}`);
  if (!TIME.test(rule.time)) throw new Error(`time must be HH:MM, got ${JSON.stringify(rule.time)}`);
}

function consistent({ frequency, weekday, dayOfMonth }: ScheduleRule): boolean {
  switch (frequency) {
    case 'daily':
      return weekday === null && dayOfMonth === null;
    case 'weekly':
      return weekday !== null && WEEKDAYS.includes(weekday) && dayOfMonth === null;
    case 'monthly':
      return (
        weekday === null && (dayOfMonth === 'last' || (Number.isInteger(dayOfMonth) && Number(dayOfMonth) >= 1 && Number(dayOfMonth) <= 28))
      );
    default:
      return false;
  }
}

function checkCount(n: number, name: string): void {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`${name} must be a non-negative integer, got ${n}`);
}

function zoneOf(timezone: string): IANAZone {
  const zone = IANAZone.create(timezone);
  if (!zone.isValid) throw new RangeError(`unknown timezone: ${JSON.stringify(timezone)}`);
  return zone;
}
