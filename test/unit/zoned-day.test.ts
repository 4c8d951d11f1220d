/**
 * startOfDay and firstInstantOfDay (packages/money): where a calendar day starts in a zone, with
 * Intl alone. startOfDay reads it as PostgreSQL reads `date::timestamp at time zone zone` (the
 * render statement's rate rule); firstInstantOfDay is where a report's period begins. Both are
 * checked against a plain search of the dates Intl shows, which needs no knowledge of offsets.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstInstantOfDay, instantOfWall, startOfDay, zoneOffset, type WallTime } from '../../packages/money/src/zoned-day.js';

const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;

const ZONES = [
  'Europe/Berlin',
  'America/New_York',
  'America/Santiago',
  'America/Havana',
  'Asia/Tehran',
  'Asia/Beirut',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Pacific/Kiritimati',
  'Pacific/Apia',
  'America/Sao_Paulo',
  'Africa/Casablanca',
];
const dates = fc.date({ min: new Date('1971-01-01T00:00:00Z'), max: new Date('2090-12-31T00:00:00Z'), noInvalidDate: true });

/** Days around offset changes near midnight, and days skipped whole. */
const CHANGE_DAYS: [string, string][] = [
  ...['2011-09-24', '2011-09-25', '2011-09-26', '2011-12-29', '2011-12-30', '2011-12-31', '2012-01-01'].map((d): [string, string] => [
    d,
    'Pacific/Apia',
  ]),
  ...['2024-03-09', '2024-03-10', '2024-11-02', '2024-11-03', '2024-11-04'].map((d): [string, string] => [d, 'America/Havana']),
  ...['2024-04-06', '2024-04-07', '2024-09-07', '2024-09-08', '2024-09-09'].map((d): [string, string] => [d, 'America/Santiago']),
  ...['2018-11-04', '2019-02-16', '2019-02-17'].map((d): [string, string] => [d, 'America/Sao_Paulo']),
  ...['1994-12-30', '1994-12-31', '1995-01-01'].map((d): [string, string] => [d, 'Pacific/Kiritimati']),
  ...['2022-03-21', '2022-03-22', '2022-09-21', '2022-09-22'].map((d): [string, string] => [d, 'Asia/Tehran']),
  ...['2026-03-29', '2026-10-24', '2026-10-25'].map((d): [string, string] => [d, 'Asia/Beirut']),
  ...['2019-05-05', '2019-06-09'].map((d): [string, string] => [d, 'Africa/Casablanca']),
  ['2026-04-05', 'Australia/Lord_Howe'],
  ['2026-03-29', 'Europe/Berlin'],
];

const dateFormats = new Map<string, Intl.DateTimeFormat>();
/** The date and time a clock in `zone` shows at `instant`, as `YYYY-MM-DD HH:mm:ss`, from Intl. */
function wallAt(instant: number, zone: string): string {
  let format = dateFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, dateStyle: 'short', timeStyle: 'medium', hourCycle: 'h23' });
    dateFormats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** The first instant at which `zone` shows `date` or a later one, by halving 36 hours around UTC's midnight. */
function firstInstantByBisection(date: string, zone: string): number {
  const midnight = Date.parse(`${date}T00:00:00Z`);
  let [low, high] = [midnight - 18 * HOUR, midnight + 18 * HOUR];
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (wallAt(middle, zone).slice(0, 10) >= date) high = middle;
    else low = middle;
  }
  return high;
}

describe('startOfDay', () => {
  it('is midnight in the zone: far east, far west, half hours, UTC', () => {
    expect(iso(startOfDay('2026-03-01', 'UTC'))).toBe('2026-03-01T00:00:00.000Z');
    expect(iso(startOfDay('2026-03-01', 'Asia/Tokyo'))).toBe('2026-02-28T15:00:00.000Z');
    expect(iso(startOfDay('2026-03-01', 'Pacific/Kiritimati'))).toBe('2026-02-28T10:00:00.000Z');
    expect(iso(startOfDay('2026-03-01', 'Pacific/Pago_Pago'))).toBe('2026-03-01T11:00:00.000Z');
    expect(iso(startOfDay('2026-03-01', 'Asia/Kolkata'))).toBe('2026-02-28T18:30:00.000Z');
    expect(iso(startOfDay('2026-07-01', 'America/St_Johns'))).toBe('2026-07-01T02:30:00.000Z');
  });

  it('starts a day whose midnight a DST change skips at the change', () => {
    // Santiago went from 00:00 to 01:00 on 2024-09-08.
    expect(iso(startOfDay('2024-09-08', 'America/Santiago'))).toBe('2024-09-08T04:00:00.000Z');
  });

  it('starts a day whose midnight happens twice at the later one, as PostgreSQL reads it', () => {
    // Havana went from 01:00 back to 00:00 on 2024-11-03: 00:00 was at 04:00 and at 05:00 UTC.
    expect(iso(startOfDay('2024-11-03', 'America/Havana'))).toBe('2024-11-03T05:00:00.000Z');
  });

  it('knows both midnights around a day of 25 hours', () => {
    expect(iso(startOfDay('2026-10-25', 'Europe/Paris'))).toBe('2026-10-24T22:00:00.000Z');
    expect(iso(startOfDay('2026-10-26', 'Europe/Paris'))).toBe('2026-10-25T23:00:00.000Z');
  });

  it('refuses a date that does not exist and a zone Intl does not know', () => {
    expect(() => startOfDay('2026-02-30', 'UTC')).toThrow(RangeError);
    expect(() => startOfDay('0999-01-01', 'UTC')).toThrow(RangeError);
    expect(() => startOfDay('2026-1-1', 'UTC')).toThrow(RangeError);
    expect(() => startOfDay('2026-03-01', 'Mars/Olympus')).toThrow(RangeError);
  });

  it('starts a day at 00:00 where the change before it is within hours of midnight', () => {
    // Apia moved to UTC-10 at 03:00 on 2011-09-24: its 25th began at 10:00 UTC.
    expect(iso(startOfDay('2011-09-25', 'Pacific/Apia'))).toBe('2011-09-25T10:00:00.000Z');
  });

  it("agrees with a search of the zone's dates, except that it takes the later of two midnights", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), dates, (zone, day) => {
        const date = day.toISOString().slice(0, 10);
        const first = firstInstantByBisection(date, zone);
        const start = startOfDay(date, zone);
        if (start !== first) {
          // Midnight happened twice: both instants show it.
          expect(start).toBeGreaterThan(first);
          expect([wallAt(first, zone), wallAt(start, zone)]).toEqual([`${date} 00:00:00`, `${date} 00:00:00`]);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('reads the offset at an instant in whole seconds', () => {
    expect(zoneOffset(Date.parse('2026-07-01T12:00:00.999Z'), 'Europe/Berlin')).toBe(2 * 3_600_000);
    expect(zoneOffset(Date.parse('2026-01-01T12:00:00Z'), 'America/St_Johns')).toBe(-3.5 * 3_600_000);
  });

  it('reads the local mean time before 1800, where Intl writes years without their sign', () => {
    expect(zoneOffset(Date.parse('0000-06-01T00:00:00Z'), 'America/New_York')).toBe(-(4 * 3600 + 56 * 60 + 2) * 1000);
  });
});

describe('firstInstantOfDay', () => {
  const first = (date: string, zone: string) => iso(firstInstantOfDay(Date.parse(`${date}T00:00:00Z`), zone));

  it('is the earlier of two midnights, the end of a gap, and the next day for a day skipped whole', () => {
    expect(first('2024-11-03', 'America/Havana')).toBe('2024-11-03T04:00:00.000Z');
    expect(first('2024-09-08', 'America/Santiago')).toBe('2024-09-08T04:00:00.000Z');
    expect(first('2011-09-25', 'Pacific/Apia')).toBe('2011-09-25T10:00:00.000Z');
    expect(first('2011-12-30', 'Pacific/Apia')).toBe('2011-12-30T10:00:00.000Z');
    expect(first('2011-12-31', 'Pacific/Apia')).toBe('2011-12-30T10:00:00.000Z');
    expect(first('1994-12-31', 'Pacific/Kiritimati')).toBe(first('1995-01-01', 'Pacific/Kiritimati'));
    // St. John's went back from 00:01 to 23:01 on 2000-10-29: the 29th showed for a minute, the
    // 28th for another hour, then the 29th again. The day begins when it first showed.
    expect(first('2000-10-29', 'America/St_Johns')).toBe('2000-10-29T02:30:00.000Z');
  });

  it('is the first instant the zone shows the date or a later one, on any day', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), dates, (zone, day) => {
        const date = day.toISOString().slice(0, 10);
        expect(iso(firstInstantOfDay(Date.parse(`${date}T00:00:00Z`), zone))).toBe(iso(firstInstantByBisection(date, zone)));
      }),
      { numRuns: 2000 },
    );
  });

  it('is the first instant of days around offset changes in every zone that has them', () => {
    for (const [date, zone] of CHANGE_DAYS) expect(first(date, zone), `${zone} ${date}`).toBe(iso(firstInstantByBisection(date, zone)));
  });

  it('refuses a zone Intl does not know', () => {
    expect(() => firstInstantOfDay(Date.parse('2026-03-01T00:00:00Z'), 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('instantOfWall', () => {
  /** What a clock in `zone` shows at `instant`, to the second, as a reading. */
  function readingAt(instant: number, zone: string): WallTime {
    const [year, month, day, hour, minute, second] = wallAt(instant, zone).split(/[- :]/).map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    return { year, month, day, hour, minute, second };
  }

  it('gives back the instant a reading was taken at, or the first instant of a repeated one', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: Date.UTC(1971, 0, 1) / 1000, max: Date.UTC(2090, 0, 1) / 1000 }),
        (zone, seconds) => {
          const instant = seconds * 1000;
          const reading = readingAt(instant, zone);
          const back = instantOfWall(reading, zone);
          expect(readingAt(back, zone)).toEqual(reading);
          expect(back).toBeLessThanOrEqual(instant);
          // Earlier only within a repeated stretch, which is hours long at most.
          expect(instant - back).toBeLessThanOrEqual(3 * HOUR);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('takes the first of a repeated reading and moves a skipped one past the gap, east and west of UTC', () => {
    const at = (zone: string, year: number, month: number, day: number, hour: number, minute: number) =>
      iso(instantOfWall({ year, month, day, hour, minute }, zone));
    expect(at('Europe/Berlin', 2026, 10, 25, 2, 30)).toBe('2026-10-25T00:30:00.000Z');
    expect(at('America/New_York', 2026, 11, 1, 1, 30)).toBe('2026-11-01T05:30:00.000Z');
    expect(at('Europe/Berlin', 2026, 3, 29, 2, 30)).toBe('2026-03-29T01:30:00.000Z');
    expect(at('America/New_York', 2026, 3, 8, 2, 30)).toBe('2026-03-08T07:30:00.000Z');
    expect(at('Pacific/Apia', 2011, 9, 25, 0, 30)).toBe('2011-09-25T10:30:00.000Z');
  });
});
