/**
 * The instant a calendar day starts in a time zone, with Intl alone (the web app bundles no date
 * library for it), read two ways:
 *
 * - `startOfDay`, as PostgreSQL reads `'YYYY-MM-DD'::timestamp at time zone …`, which is how
 *   reports place a rate's `effectiveFrom` (docs/decisions.md "The rate rule in packages/money"):
 *   where midnight is skipped (a DST change at 00:00) the day starts at the change; where it
 *   happens twice, at the later one.
 * - `firstInstantOfDay`, the first instant whose date in the zone is that day or later, which is
 *   where a report's period begins (docs/api.md "Time entries"): the earlier midnight where there
 *   are two, so that every entry is in the period of the date it shows.
 *
 * `instantOfWall` turns any wall-clock reading into an instant (the web app's time inputs, the
 * importers' local times) by one rule whatever the season it runs in.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Before this instant every zone keeps its local mean time, the tz database's first offset. */
const EARLIEST = Date.UTC(1800, 0, 1);

/** One formatter per zone, kept (they are costly to make), at most this many at once. */
const formatters = new Map<string, Intl.DateTimeFormat>();
const MAX_FORMATTERS = 64;

function formatterOf(timezone: string): Intl.DateTimeFormat {
  let format = formatters.get(timezone);
  if (!format) {
    // Throws a RangeError for a zone Intl does not know.
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    formatters.set(timezone, format);
  }
  return format;
}

/** The zone's offset from UTC at `instant`, in milliseconds (whole seconds, as zones have them). */
export function zoneOffset(instant: number, timezone: string): number {
  // Intl writes years before 1 AD without their sign, and every zone had one offset then.
  if (instant < EARLIEST) return zoneOffset(EARLIEST, timezone);
  const parts: Record<string, string> = {};
  for (const { type, value } of formatterOf(timezone).formatToParts(instant)) parts[type] = value;
  // From 1800 on, Date.UTC takes the year as it is.
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - (instant - (((instant % 1000) + 1000) % 1000));
}

/** Days kept by startOfDay, keyed by zone and date; a file's rates repeat a few dates many times. */
const days = new Map<string, number>();
const MAX_DAYS = 10_000;

/**
 * The first instant of `date` (YYYY-MM-DD) in `timezone`, in milliseconds since the epoch. Throws a
 * RangeError for a malformed date or an unknown zone.
 */
export function startOfDay(date: string, timezone: string): number {
  const key = `${timezone} ${date}`;
  const known = days.get(key);
  if (known !== undefined) return known;
  const m = /^([1-9]\d{3})-(\d{2})-(\d{2})$/.exec(date);
  const [year, month, day] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
  const midnight = Date.UTC(year, month - 1, day);
  const probe = new Date(midnight);
  if (!m || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) throw new RangeError(`invalid date: ${JSON.stringify(date)}`);
  // Offsets run from UTC-12 to UTC+14 (some old local mean times a little further), so local
  // midnight is less than 18 hours from UTC's: the offsets at both ends of that window are the
  // ones before and after any change near it.
  const candidates = [zoneOffset(midnight - 18 * HOUR, timezone), zoneOffset(midnight + 18 * HOUR, timezone)].map(
    (offset) => midnight - offset,
  );
  const valid = candidates.filter((instant) => zoneOffset(instant, timezone) === midnight - instant);
  // One reading of 00:00 exists: it. Two (a fold) or none (a gap): the later instant.
  const start = valid.length === 1 ? (valid[0] as number) : Math.max(...candidates);
  if (days.size >= MAX_DAYS) days.clear();
  days.set(key, start);
  return start;
}

/** Days kept by firstInstantOfDay, keyed by zone and day. */
const firstInstants = new Map<string, number>();

/**
 * The first instant, in milliseconds since the epoch, at which the date in `timezone` is the day
 * `day` or a later one; `day` is that date's midnight in UTC (`Date.UTC(year, month - 1, date)`).
 * Where 00:00 happens twice it is the earlier; where a change skips it, the change; for a day the
 * zone skipped whole (Pacific/Apia had no 2011-12-30), the instant the next day began, so that
 * day's period is empty. Consecutive days meet without a gap or an overlap. Throws a RangeError
 * for an unknown zone.
 */
export function firstInstantOfDay(day: number, timezone: string): number {
  const key = `${timezone} ${day}`;
  const known = firstInstants.get(key);
  if (known !== undefined) return known;
  const reached = (instant: number) => localDay(instant, timezone) >= day;
  const starts = (instant: number) => reached(instant) && !reached(instant - 1);
  // Local midnight is less than 18 hours from UTC's (see startOfDay): it is midnight less the
  // offset before or after any change near it, unless a change falls between the two.
  const candidates = [zoneOffset(day - 18 * HOUR, timezone), zoneOffset(day + 18 * HOUR, timezone)]
    .map((offset) => day - offset)
    .sort((a, b) => a - b);
  let start = candidates.find(starts);
  if (start === undefined) {
    // A change within hours of midnight that neither offset reads: search the window.
    let [low, high] = [day - 18 * HOUR, day + 18 * HOUR];
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (reached(middle)) high = middle;
      else low = middle;
    }
    start = high;
  }
  if (firstInstants.size >= MAX_DAYS) firstInstants.clear();
  firstInstants.set(key, start);
  return start;
}

/** The date `instant` falls on in `timezone`, as that date's midnight in UTC. */
function localDay(instant: number, timezone: string): number {
  const wall = instant + zoneOffset(instant, timezone);
  return wall - (((wall % DAY) + DAY) % DAY);
}

/** A reading of a clock: a calendar date and a time of day. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second?: number;
}

/**
 * The instant, in milliseconds since the epoch, at which a clock in `timezone` shows `wall`. A
 * reading shown twice (the hour a change repeats) is the first of its two instants, east of UTC as
 * west of it; one a change skips is read with the offset before the change, which moves it forward
 * past the gap (02:30 on a night that goes from 02:00 to 03:00 is 03:30). Unlike a guess from the
 * zone's offset today, the answer does not depend on the season it is asked in. Throws a
 * RangeError for an unknown zone.
 */
export function instantOfWall(wall: WallTime, timezone: string): number {
  const asUtc =
    new Date(0).setUTCFullYear(wall.year, wall.month - 1, wall.day) + ((wall.hour * 60 + wall.minute) * 60 + (wall.second ?? 0)) * 1000;
  // Any change near the reading lies between the offsets a day either side of it.
  const candidates = [zoneOffset(asUtc - DAY, timezone), zoneOffset(asUtc, timezone), zoneOffset(asUtc + DAY, timezone)]
    .map((offset) => asUtc - offset)
    .sort((a, b) => a - b);
  return candidates.find((instant) => zoneOffset(instant, timezone) === asUtc - instant) ?? (candidates.at(-1) as number);
}
