/**
 * Schedule arithmetic (delivery.md §1): which days a rule picks and at which instant its wall-clock
 * time happens there, across DST gaps and overlaps, half-hour offsets and the date line. The DST
 * facts below were read from the runtime's zone data through luxon.
 */
import fc from 'fast-check';
import { DateTime, IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  instantOn,
  nextOccurrence,
  nextOccurrences,
  occurrencesBetween,
  type ScheduleRule,
  type Weekday,
} from '../../src/modules/schedules/occurrences.js';

const BERLIN = 'Europe/Berlin'; // 2026: 02:00 -> 03:00 on 03-29, 03:00 -> 02:00 on 10-25
const LOS_ANGELES = 'America/Los_Angeles'; // 2026: 02:00 -> 03:00 on 03-08, 02:00 -> 01:00 on 11-01
const ST_JOHNS = 'America/St_Johns'; // -03:30/-02:30; 2026: 02:00 -> 03:00 on 03-08, 02:00 -> 01:00 on 11-01
const LORD_HOWE = 'Australia/Lord_Howe'; // +10:30/+11; 2026: 02:00 -> 02:30 on 10-04, 02:00 -> 01:30 on 04-05
const KIRITIMATI = 'Pacific/Kiritimati'; // +14, no DST
const ZONES = [BERLIN, LOS_ANGELES, ST_JOHNS, LORD_HOWE, KIRITIMATI, 'UTC', 'Asia/Kolkata'];
const WEEKDAYS: Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

const daily = (time: string): ScheduleRule => ({ frequency: 'daily', weekday: null, dayOfMonth: null, time });
const weekly = (weekday: Weekday, time: string): ScheduleRule => ({ frequency: 'weekly', weekday, dayOfMonth: null, time });
const monthly = (dayOfMonth: number | 'last', time: string): ScheduleRule => ({ frequency: 'monthly', weekday: null, dayOfMonth, time });

const iso = (d: Date) => d.toISOString();
const on = (date: string, time: string, zone: string) => {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return iso(instantOn({ year, month, day }, time, zone));
};
const next = (rule: ScheduleRule, zone: string, after: string, count: number) =>
  nextOccurrences(rule, zone, new Date(after), count).map(iso);

describe('instantOn', () => {
  it('Europe/Berlin spring forward (2026-03-29, 02:00 -> 03:00 at 01:00Z): 02:30 runs when the gap ends', () => {
    expect(on('2026-03-29', '02:30', BERLIN)).toBe('2026-03-29T01:00:00.000Z'); // 03:00+02:00, not luxon's 03:30
    expect(on('2026-03-29', '02:00', BERLIN)).toBe('2026-03-29T01:00:00.000Z');
    expect(on('2026-03-29', '01:59', BERLIN)).toBe('2026-03-29T00:59:00.000Z');
    expect(on('2026-03-29', '03:00', BERLIN)).toBe('2026-03-29T01:00:00.000Z');
    expect(on('2026-03-29', '09:00', BERLIN)).toBe('2026-03-29T07:00:00.000Z');
    expect(on('2026-03-28', '09:00', BERLIN)).toBe('2026-03-28T08:00:00.000Z');
  });

  it('Europe/Berlin fall back (2026-10-25, 03:00 -> 02:00 at 01:00Z): 02:30 runs at the first 02:30', () => {
    expect(on('2026-10-25', '02:30', BERLIN)).toBe('2026-10-25T00:30:00.000Z'); // +02:00, not luxon's +01:00
    expect(on('2026-10-25', '02:00', BERLIN)).toBe('2026-10-25T00:00:00.000Z');
    expect(on('2026-10-25', '03:00', BERLIN)).toBe('2026-10-25T02:00:00.000Z');
    expect(on('2026-10-25', '09:00', BERLIN)).toBe('2026-10-25T08:00:00.000Z');
    expect(on('2026-10-24', '09:00', BERLIN)).toBe('2026-10-24T07:00:00.000Z');
  });

  it('America/Los_Angeles (2026-03-08 02:00 -> 03:00, 2026-11-01 02:00 -> 01:00)', () => {
    expect(on('2026-03-08', '02:30', LOS_ANGELES)).toBe('2026-03-08T10:00:00.000Z'); // 03:00-07:00
    expect(on('2026-03-08', '09:00', LOS_ANGELES)).toBe('2026-03-08T16:00:00.000Z');
    expect(on('2026-03-07', '09:00', LOS_ANGELES)).toBe('2026-03-07T17:00:00.000Z');
    expect(on('2026-11-01', '01:30', LOS_ANGELES)).toBe('2026-11-01T08:30:00.000Z'); // the first, -07:00
    expect(on('2026-11-01', '09:00', LOS_ANGELES)).toBe('2026-11-01T17:00:00.000Z');
  });

  it('America/St_Johns, half-hour offset (2026-03-08 02:00 -> 03:00, 2026-11-01 02:00 -> 01:00)', () => {
    expect(on('2026-03-08', '02:30', ST_JOHNS)).toBe('2026-03-08T05:30:00.000Z'); // 03:00-02:30
    expect(on('2026-03-08', '09:00', ST_JOHNS)).toBe('2026-03-08T11:30:00.000Z');
    expect(on('2026-11-01', '01:30', ST_JOHNS)).toBe('2026-11-01T04:00:00.000Z'); // the first, -02:30
    expect(on('2026-11-01', '09:00', ST_JOHNS)).toBe('2026-11-01T12:30:00.000Z'); // -03:30
  });

  it('Australia/Lord_Howe, a 30-minute shift (2026-10-04 02:00 -> 02:30, 2026-04-05 02:00 -> 01:30)', () => {
    expect(on('2026-10-04', '02:15', LORD_HOWE)).toBe('2026-10-03T15:30:00.000Z'); // 02:30+11:00
    expect(on('2026-10-04', '02:00', LORD_HOWE)).toBe('2026-10-03T15:30:00.000Z');
    expect(on('2026-10-04', '02:30', LORD_HOWE)).toBe('2026-10-03T15:30:00.000Z');
    expect(on('2026-10-04', '09:00', LORD_HOWE)).toBe('2026-10-03T22:00:00.000Z');
    expect(on('2026-04-05', '01:45', LORD_HOWE)).toBe('2026-04-04T14:45:00.000Z'); // the first, +11:00
    expect(on('2026-04-05', '01:30', LORD_HOWE)).toBe('2026-04-04T14:30:00.000Z');
    expect(on('2026-04-05', '02:00', LORD_HOWE)).toBe('2026-04-04T15:30:00.000Z'); // once, +10:30
    expect(on('2026-04-05', '09:00', LORD_HOWE)).toBe('2026-04-04T22:30:00.000Z');
  });

  it('Pacific/Kiritimati is +14:00: its Monday 09:00 is Sunday 19:00 UTC', () => {
    expect(on('2026-03-16', '09:00', KIRITIMATI)).toBe('2026-03-15T19:00:00.000Z');
    expect(on('2026-03-16', '00:00', KIRITIMATI)).toBe('2026-03-15T10:00:00.000Z');
  });

  it('refuses a time that is not HH:MM and an unknown zone', () => {
    for (const time of ['9:00', '24:00', '12:60', '12:00:00', '']) {
      expect(() => instantOn({ year: 2026, month: 1, day: 1 }, time, 'UTC')).toThrow(Error);
    }
    expect(() => instantOn({ year: 2026, month: 1, day: 1 }, '09:00', 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('nextOccurrence and nextOccurrences', () => {
  it('weekly across both 2026 Berlin changes keeps the wall-clock time', () => {
    expect(next(weekly('sunday', '09:00'), BERLIN, '2026-03-20T00:00:00Z', 3)).toEqual([
      '2026-03-22T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
      '2026-04-05T07:00:00.000Z',
    ]);
    expect(next(weekly('sunday', '02:30'), BERLIN, '2026-03-20T00:00:00Z', 3)).toEqual([
      '2026-03-22T01:30:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-04-05T00:30:00.000Z',
    ]);
    expect(next(weekly('sunday', '02:30'), BERLIN, '2026-10-20T00:00:00Z', 2)).toEqual([
      '2026-10-25T00:30:00.000Z',
      '2026-11-01T01:30:00.000Z',
    ]);
  });

  it('runs a repeated time once, at the first of the two', () => {
    // After the first 02:30 of 2026-10-25, the second 02:30 (01:30Z) is not another run.
    expect(iso(nextOccurrence(weekly('sunday', '02:30'), BERLIN, new Date('2026-10-25T00:30:00Z')))).toBe('2026-11-01T01:30:00.000Z');
    expect(iso(nextOccurrence(daily('01:30'), LOS_ANGELES, new Date('2026-11-01T08:30:00Z')))).toBe('2026-11-02T09:30:00.000Z');
  });

  it('daily runs Monday to Friday, skipping the weekend', () => {
    // Thursday 2026-03-12 13:00 in Berlin.
    expect(next(daily('09:00'), BERLIN, '2026-03-12T12:00:00Z', 5)).toEqual([
      '2026-03-13T08:00:00.000Z',
      '2026-03-16T08:00:00.000Z',
      '2026-03-17T08:00:00.000Z',
      '2026-03-18T08:00:00.000Z',
      '2026-03-19T08:00:00.000Z',
    ]);
    // Friday 09:00 in Kiritimati is Thursday 19:00 UTC; Saturday and Sunday there are skipped.
    expect(next(daily('09:00'), KIRITIMATI, '2026-03-12T20:00:00Z', 2)).toEqual(['2026-03-15T19:00:00.000Z', '2026-03-16T19:00:00.000Z']);
  });

  it.each(WEEKDAYS.map((weekday, i) => [weekday, i] as const))('weekly on %s', (weekday, i) => {
    // From Monday 2026-06-01 00:00 UTC.
    const first = `2026-06-0${i + 1}`;
    expect(next(weekly(weekday, '09:00'), 'UTC', '2026-06-01T00:00:00Z', 2)).toEqual([
      `${first}T09:00:00.000Z`,
      new Date(Date.parse(`${first}T09:00:00Z`) + 7 * 86_400_000).toISOString(),
    ]);
  });

  it('weekly on Monday in Kiritimati runs on its Monday, a Sunday in UTC', () => {
    const runs = nextOccurrences(weekly('monday', '09:00'), KIRITIMATI, new Date('2026-03-14T00:00:00Z'), 3);
    expect(runs.map(iso)).toEqual(['2026-03-15T19:00:00.000Z', '2026-03-22T19:00:00.000Z', '2026-03-29T19:00:00.000Z']);
    for (const run of runs) expect(DateTime.fromJSDate(run, { zone: KIRITIMATI }).weekday).toBe(1);
  });

  it('monthly on the 28th', () => {
    expect(next(monthly(28, '09:00'), 'UTC', '2026-01-15T00:00:00Z', 4)).toEqual([
      '2026-01-28T09:00:00.000Z',
      '2026-02-28T09:00:00.000Z',
      '2026-03-28T09:00:00.000Z',
      '2026-04-28T09:00:00.000Z',
    ]);
  });

  it('monthly on the last day: February of a leap and a common year, 30- and 31-day months', () => {
    // 09:00 in Kolkata (+05:30) is 03:30 UTC.
    expect(next(monthly('last', '09:00'), 'Asia/Kolkata', '2028-01-01T00:00:00Z', 5)).toEqual([
      '2028-01-31T03:30:00.000Z',
      '2028-02-29T03:30:00.000Z',
      '2028-03-31T03:30:00.000Z',
      '2028-04-30T03:30:00.000Z',
      '2028-05-31T03:30:00.000Z',
    ]);
    expect(next(monthly('last', '09:00'), 'Asia/Kolkata', '2027-01-31T03:30:00Z', 2)).toEqual([
      '2027-02-28T03:30:00.000Z',
      '2027-03-31T03:30:00.000Z',
    ]);
    // December 31st to January 31st, the longest step.
    expect(next(monthly('last', '23:59'), 'UTC', '2026-12-31T23:59:00Z', 1)).toEqual(['2027-01-31T23:59:00.000Z']);
  });

  it('is strictly after: from an occurrence itself, the following one', () => {
    const rule = weekly('wednesday', '09:00');
    expect(iso(nextOccurrence(rule, BERLIN, new Date('2026-03-18T08:00:00Z')))).toBe('2026-03-25T08:00:00.000Z');
    expect(iso(nextOccurrence(rule, BERLIN, new Date('2026-03-18T07:59:59.999Z')))).toBe('2026-03-18T08:00:00.000Z');
    expect(iso(nextOccurrence(monthly(28, '00:00'), 'UTC', new Date('2026-01-28T00:00:00Z')))).toBe('2026-02-28T00:00:00.000Z');
  });

  it('gives an empty list for a count of 0 and refuses a negative or fractional count', () => {
    expect(nextOccurrences(daily('09:00'), 'UTC', new Date('2026-01-01T00:00:00Z'), 0)).toEqual([]);
    expect(() => nextOccurrences(daily('09:00'), 'UTC', new Date(), -1)).toThrow(RangeError);
    expect(() => nextOccurrences(daily('09:00'), 'UTC', new Date(), 1.5)).toThrow(RangeError);
  });

  it('refuses a rule whose fields disagree with its frequency', () => {
    const after = new Date('2026-01-01T00:00:00Z');
    const bad: ScheduleRule[] = [
      { frequency: 'daily', weekday: 'monday', dayOfMonth: null, time: '09:00' },
      { frequency: 'daily', weekday: null, dayOfMonth: 1, time: '09:00' },
      { frequency: 'weekly', weekday: null, dayOfMonth: null, time: '09:00' },
      { frequency: 'weekly', weekday: 'monday', dayOfMonth: 1, time: '09:00' },
      { frequency: 'weekly', weekday: 'caturday' as Weekday, dayOfMonth: null, time: '09:00' },
      { frequency: 'monthly', weekday: null, dayOfMonth: null, time: '09:00' },
      { frequency: 'monthly', weekday: 'monday', dayOfMonth: 1, time: '09:00' },
      { frequency: 'monthly', weekday: null, dayOfMonth: 29, time: '09:00' },
      { frequency: 'monthly', weekday: null, dayOfMonth: 0, time: '09:00' },
      { frequency: 'monthly', weekday: null, dayOfMonth: 1.5, time: '09:00' },
      { frequency: 'hourly' as 'daily', weekday: null, dayOfMonth: null, time: '09:00' },
      { frequency: 'daily', weekday: null, dayOfMonth: null, time: '9:00' },
    ];
    for (const rule of bad) expect(() => nextOccurrence(rule, 'UTC', after), JSON.stringify(rule)).toThrow(Error);
  });
});

describe('occurrencesBetween', () => {
  const rule = daily('09:00');
  const between = (from: string, to: string, max: number) => occurrencesBetween(rule, 'UTC', new Date(from), new Date(to), max).map(iso);

  it('excludes the start and includes the end', () => {
    expect(between('2026-03-02T09:00:00Z', '2026-03-04T09:00:00Z', 100)).toEqual(['2026-03-03T09:00:00.000Z', '2026-03-04T09:00:00.000Z']);
    expect(between('2026-03-02T08:59:59.999Z', '2026-03-04T08:59:59.999Z', 100)).toEqual([
      '2026-03-02T09:00:00.000Z',
      '2026-03-03T09:00:00.000Z',
    ]);
  });

  it('returns the oldest `max` when more fall in the window', () => {
    expect(between('2026-03-01T00:00:00Z', '2026-03-31T00:00:00Z', 3)).toEqual([
      '2026-03-02T09:00:00.000Z',
      '2026-03-03T09:00:00.000Z',
      '2026-03-04T09:00:00.000Z',
    ]);
    expect(between('2026-03-01T00:00:00Z', '2026-03-31T00:00:00Z', 100)).toHaveLength(21);
    expect(between('2026-03-01T00:00:00Z', '2026-03-31T00:00:00Z', 0)).toEqual([]);
  });

  it('is empty for a window with no run, an empty window and a reversed one', () => {
    expect(between('2026-03-07T00:00:00Z', '2026-03-08T23:59:59Z', 100)).toEqual([]); // a weekend
    expect(between('2026-03-02T09:00:00Z', '2026-03-02T09:00:00Z', 100)).toEqual([]);
    expect(between('2026-03-10T00:00:00Z', '2026-03-02T00:00:00Z', 100)).toEqual([]);
  });
});

// --- Properties -------------------------------------------------------------------------------

const MINUTE = 60_000;
/**
 * The zone's offset at an instant, from the runtime's zone data through luxon, remembered: each
 * reading costs Intl a formatToParts, and the sweeps below read the same instants many times.
 */
const offsets = new Map<string, Map<number, number>>();
function offsetMs(t: number, zone: string): number {
  let known = offsets.get(zone);
  if (!known) offsets.set(zone, (known = new Map()));
  let offset = known.get(t);
  if (offset === undefined) known.set(t, (offset = IANAZone.create(zone).offset(t) * MINUTE));
  return offset;
}
/** The wall clock in `zone` at `t`, as `yyyy-MM-ddTHH:mm:ss.SSS`: the instant moved by its offset, read as UTC. */
const wallAt = (t: number, zone: string) => new Date(t + offsetMs(t, zone)).toISOString().slice(0, 23);
/** Fails with `label` when `ok` is false; the sweeps check thousands of instants, and an `expect` each costs more than the check. */
function check(ok: boolean, label: string): void {
  if (!ok) expect(ok, label).toBe(true);
}

/**
 * delivery.md §1's time rules, checked from the zone's data and not from instantOn's method: `at`
 * is the first instant whose wall clock in `zone` reads `date`T`time` or later, and it reads
 * exactly that unless the time does not exist that day (then the clock jumped over it at `at`,
 * the end of the gap). Being the first such instant also makes it the earlier of a repeated time.
 */
function expectRunsAt(at: number, date: string, time: string, zone: string): void {
  const target = `${date}T${time}:00.000`;
  const label = `${new Date(at).toISOString()} for ${target} in ${zone}`;
  check(wallAt(at, zone) >= target, label);
  check(wallAt(at - 1, zone) < target, label);
  // The wall-clock reading as if it were UTC: an instant t reads it when t + offset(t) equals it.
  const wall = Date.parse(`${target}Z`);
  if (wallAt(at, zone) !== target) {
    // A gap: the offset grew at `at` and no instant reads the time that day.
    check(offsetMs(at - 1, zone) < offsetMs(at, zone), label);
    for (const o of [offsetMs(at - 1, zone), offsetMs(at, zone)]) check(wallAt(wall - o, zone) !== target, label);
  }
  // The earlier of a repeated time: no instant before `at` (with any offset of the last 6 h) reads it.
  for (let k = 1; k <= 24; k++) {
    const earlier = wall - offsetMs(at - k * 15 * MINUTE, zone);
    if (earlier < at) check(wallAt(earlier, zone) !== target, label);
  }
}

/** Whether `rule` picks the calendar date `day` (a UTC DateTime holding it). */
function picks(rule: ScheduleRule, day: DateTime): boolean {
  if (rule.frequency === 'daily') return day.weekday <= 5;
  if (rule.frequency === 'weekly') return WEEKDAYS[day.weekday - 1] === rule.weekday;
  return rule.dayOfMonth === 'last' ? day.day === day.daysInMonth : day.day === rule.dayOfMonth;
}

const localDate = (t: number, zone: string) => {
  const l = DateTime.fromMillis(t, { zone });
  return DateTime.utc(l.year, l.month, l.day);
};

const hhmm = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
// Half the times fall where these zones change their clocks (00:00-03:59 local).
const times = fc.oneof(
  hhmm,
  fc
    .tuple(fc.integer({ min: 0, max: 3 }), fc.constantFrom(0, 1, 15, 29, 30, 31, 45, 59))
    .map(([h, m]) => `0${h}:${String(m).padStart(2, '0')}`),
);
const rules: fc.Arbitrary<ScheduleRule> = fc.oneof(
  times.map(daily),
  fc.tuple(fc.constantFrom(...WEEKDAYS), times).map(([w, t]) => weekly(w, t)),
  fc.tuple(fc.oneof(fc.integer({ min: 1, max: 28 }), fc.constant('last' as const)), times).map(([d, t]) => monthly(d, t)),
);
/** The instants `zone` changes its offset in 2020-2035: weekly samples, then bisected to the millisecond. */
function clockChanges(zone: string): number[] {
  const changes: number[] = [];
  for (let t = Date.UTC(2020, 0, 1); t < Date.UTC(2036, 0, 1); t += 7 * 86_400_000) {
    let [before, after] = [t, t + 7 * 86_400_000];
    if (offsetMs(before, zone) === offsetMs(after, zone)) continue;
    while (after - before > 1) {
      const mid = Math.floor((before + after) / 2);
      if (offsetMs(mid, zone) === offsetMs(before, zone)) before = mid;
      else after = mid;
    }
    changes.push(after);
  }
  return changes;
}
const CHANGES = ZONES.flatMap((zone) => clockChanges(zone).map((at) => ({ zone, at })));

// Half the cases start up to three weeks before one of these zones' clock changes, with a rule
// that runs on the day of the change (or daily) at a time near the change, so gaps and repeated
// times come up in most runs.
const DAY = 86_400_000;
const earlyTimes = fc
  .tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, m]) => `0${h}:${String(m).padStart(2, '0')}`);
const cases = fc.oneof(
  fc.tuple(
    rules,
    fc.constantFrom(...ZONES),
    fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T23:59:59Z'), noInvalidDate: true }),
  ),
  fc
    .tuple(fc.constantFrom(...CHANGES), fc.integer({ min: -21 * DAY, max: 0 }), earlyTimes, fc.constantFrom('daily', 'weekly', 'monthly'))
    .map(([change, before, time, kind]) => {
      const day = localDate(change.at, change.zone);
      const rule =
        kind === 'daily'
          ? daily(time)
          : kind === 'monthly' && day.day <= 28
            ? monthly(day.day, time)
            : weekly(WEEKDAYS[day.weekday - 1] as Weekday, time);
      return [rule, change.zone, new Date(change.at + before)] as const;
    }),
);

describe('occurrence properties', () => {
  it('the next ten are increasing, on the right days at the right wall-clock time, none skipped or repeated', () => {
    fc.assert(
      fc.property(cases, ([r, zone, from]) => {
        const runs = nextOccurrences(r, zone, from, 10);
        expect(runs).toHaveLength(10);
        const instants = runs.map((d) => d.getTime());
        expect(instants[0]).toBeGreaterThan(from.getTime());
        for (let i = 1; i < instants.length; i++) expect(instants[i]).toBeGreaterThan(instants[i - 1] as number);

        for (const t of instants) {
          const day = localDate(t, zone);
          expect(picks(r, day), `${new Date(t).toISOString()} on ${day.toISODate() ?? ''}`).toBe(true);
          expectRunsAt(t, day.toISODate() ?? '', r.time, zone);
        }

        // Each run leads to the next, and no day between two runs (or before the first) is picked.
        for (let i = 0; i + 1 < runs.length; i++) expect(iso(nextOccurrence(r, zone, runs[i] as Date))).toBe(iso(runs[i + 1] as Date));
        let day = localDate(from.getTime(), zone);
        const start = day;
        for (const t of instants) {
          const last = localDate(t, zone);
          for (day = day.plus({ days: 1 }); day.toMillis() < last.toMillis(); day = day.plus({ days: 1 }))
            check(!picks(r, day), `no run between two runs, but ${day.toISODate() ?? ''} is picked`);
          day = last;
        }
        // The starting day's run, if it is not the first one, was already due.
        if (picks(r, start) && localDate(instants[0] as number, zone).toMillis() > start.toMillis()) {
          const due = wallAt(from.getTime(), zone) >= `${start.toISODate() ?? ''}T${r.time}:00.000`;
          const inRepeatedHour = offsetMs(from.getTime() - 6 * 60 * MINUTE, zone) > offsetMs(from.getTime(), zone);
          expect(due || inRepeatedHour).toBe(true);
        }

        const last = runs[runs.length - 1] as Date;
        expect(occurrencesBetween(r, zone, from, last, 100).map(iso)).toEqual(runs.map(iso));
        expect(occurrencesBetween(r, zone, from, last, 4).map(iso)).toEqual(runs.slice(0, 4).map(iso));
      }),
      { numRuns: 200 },
    );
  });

  it('instantOn keeps the time rules on and around every clock change of 2020-2035', () => {
    // 2 a year in Berlin, Los Angeles, St. John's and Lord Howe; none in the others.
    expect(
      CHANGES.filter((c) => c.at >= Date.UTC(2026, 0, 1) && c.at < Date.UTC(2027, 0, 1)).map((c) => `${c.zone} ${iso(new Date(c.at))}`),
    ).toEqual([
      `${BERLIN} 2026-03-29T01:00:00.000Z`,
      `${BERLIN} 2026-10-25T01:00:00.000Z`,
      `${LOS_ANGELES} 2026-03-08T10:00:00.000Z`,
      `${LOS_ANGELES} 2026-11-01T09:00:00.000Z`,
      `${ST_JOHNS} 2026-03-08T05:30:00.000Z`,
      `${ST_JOHNS} 2026-11-01T04:30:00.000Z`,
      `${LORD_HOWE} 2026-04-04T15:00:00.000Z`,
      `${LORD_HOWE} 2026-10-03T15:30:00.000Z`,
    ]);
    for (const { zone, at: change } of CHANGES) {
      for (let d = -1; d <= 1; d++) {
        const day = localDate(change + d * DAY, zone);
        for (let minutes = 0; minutes < 4 * 60; minutes += 15) {
          const time = `0${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
          expectRunsAt(
            instantOn({ year: day.year, month: day.month, day: day.day }, time, zone).getTime(),
            day.toISODate() ?? '',
            time,
            zone,
          );
        }
      }
    }
  });
});
