/**
 * Which hourly rate an entry gets (billing.md §2, docs/api.md "Rates"): the first level, most
 * specific first (project member, project, workspace member, workspace), that has a rate in force
 * on the entry's start. A level's row is in force from 00:00 of its `effectiveFrom` in the time
 * zone of the entry's user until the next row of the level; a row without an amount ends the level
 * from its date. None in force at any level: null, and the entry has no amount. Pure: the caller
 * loads the rates of the entry's workspace. The server's tests hold the render statement to it,
 * and the importers compare an export's rates with it.
 */
import type { Money } from './index.js';
import { startOfDay } from './zoned-day.js';

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

/** The four levels, most specific first. */
export const RATE_LEVELS = ['projectMember', 'project', 'workspaceMember', 'workspace'] as const;
export type RateLevel = (typeof RATE_LEVELS)[number];

/** Does a row belong to this entry's level? */
const BELONGS: Record<RateLevel, (rate: RateEntry, entry: RatedEntry) => boolean> = {
  projectMember: (r, e) => e.projectId !== null && r.projectId === e.projectId && r.userId === e.userId,
  project: (r, e) => e.projectId !== null && r.projectId === e.projectId && r.userId === null,
  workspaceMember: (r, e) => r.projectId === null && r.userId === e.userId,
  workspace: (r) => r.projectId === null && r.userId === null,
};

/** The entry's rate and the level it comes from, or null when no level has one in force. */
export function appliedRate(entry: RatedEntry, rates: readonly RateEntry[]): { hourly: Money; level: RateLevel } | null {
  const start = entry.start.getTime();
  for (const level of RATE_LEVELS) {
    const belongs = BELONGS[level];
    let current: RateEntry | undefined;
    for (const rate of rates) {
      if (!belongs(rate, entry) || startOfDay(rate.effectiveFrom, entry.timezone) > start) continue;
      if (!current || rate.effectiveFrom > current.effectiveFrom) current = rate;
    }
    if (current?.hourly) return { hourly: current.hourly, level };
  }
  return null;
}

/** The entry's hourly rate, or null. */
export function rateFor(entry: RatedEntry, rates: readonly RateEntry[]): Money | null {
  return appliedRate(entry, rates)?.hourly ?? null;
}

/** An entry's amount in minor units: round_half_up(billableMinutes × rate.minor / 60) (billing.md §1), in integers. */
export function amountOf(billableMinutes: number, rate: Money): Money {
  const product = billableMinutes * rate.minor;
  if (!Number.isSafeInteger(product) || product < 0) throw new RangeError('amount out of range');
  const n = product + 30;
  return { currency: rate.currency, minor: (n - (n % 60)) / 60 };
}
