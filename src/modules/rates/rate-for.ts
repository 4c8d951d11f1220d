/**
 * Which hourly rate an entry gets (docs/api.md "Rates"): the first level, most specific first
 * (project member, project, workspace member, workspace), that has a rate in force on the entry's
 * start. A level's row is in force from 00:00 of its `effectiveFrom` in the time zone of the
 * entry's user until the next row of the level; a row without an amount ends the level from its
 * date. None in force at any level: null, and the entry has no amount. Pure: the caller loads the
 * rates of the entry's workspace.
 */
import { periodBounds } from '../../render/date-range.js';
import type { Money } from './rates.schemas.js';

/** One row of a level's history: a project and a user where the level has them. */
export interface RateEntry {
  projectId: string | null;
  userId: string | null;
  /** YYYY-MM-DD */
  effectiveFrom: string;
  /** null ends the level from effectiveFrom. */
  hourly: Money | null;
}

/** What the rule looks at in a time entry. */
export interface RatedEntry {
  start: Date;
  userId: string;
  projectId: string | null;
  /** The IANA time zone of the entry's user. */
  timezone: string;
}

/** The levels, most specific first: does a row belong to this entry's level? */
const LEVELS: readonly ((rate: RateEntry, entry: RatedEntry) => boolean)[] = [
  (r, e) => e.projectId !== null && r.projectId === e.projectId && r.userId === e.userId,
  (r, e) => e.projectId !== null && r.projectId === e.projectId && r.userId === null,
  (r, e) => r.projectId === null && r.userId === e.userId,
  (r) => r.projectId === null && r.userId === null,
];

/** The instant a rate starts for an entry: 00:00 of its date in the entry user's zone (or the first instant of the day where DST skips midnight). */
function startsAt(effectiveFrom: string, timezone: string): number {
  return periodBounds({ from: effectiveFrom, to: effectiveFrom }, timezone).start.getTime();
}

export function rateFor(entry: RatedEntry, rates: readonly RateEntry[]): Money | null {
  const start = entry.start.getTime();
  for (const belongs of LEVELS) {
    let current: RateEntry | undefined;
    for (const rate of rates) {
      if (!belongs(rate, entry) || startsAt(rate.effectiveFrom, entry.timezone) > start) continue;
      if (!current || rate.effectiveFrom > current.effectiveFrom) current = rate;
    }
    if (current?.hourly) return current.hourly;
  }
  return null;
}
