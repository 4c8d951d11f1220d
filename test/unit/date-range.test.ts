import { describe, expect, it } from 'vitest';
import {
  DATE_PRESETS,
  isValidDate,
  isValidRange,
  isValidTimezone,
  localDateTime,
  periodBounds,
  rangeSpanDays,
  resolvePreset,
  type DatePreset,
  type DateRange,
} from '../../src/render/date-range.js';

const KIRITIMATI = 'Pacific/Kiritimati'; // UTC+14
const LOS_ANGELES = 'America/Los_Angeles';
const HOUR = 3_600_000;

function presets(timezone: string, now: string): Record<DatePreset, DateRange> {
  return Object.fromEntries(DATE_PRESETS.map((p) => [p, resolvePreset(p, timezone, new Date(now))])) as Record<DatePreset, DateRange>;
}

describe('resolvePreset', () => {
  // Sunday 05:00 in Los Angeles, already Monday 02:00 in Kiritimati.
  const now = '2026-03-15T12:00:00Z';

  it('takes today in the owner timezone: already tomorrow in Kiritimati', () => {
    expect(presets(KIRITIMATI, now)).toEqual({
      today: { from: '2026-03-16', to: '2026-03-16' },
      yesterday: { from: '2026-03-15', to: '2026-03-15' },
      last_7_days: { from: '2026-03-10', to: '2026-03-16' },
      last_30_days: { from: '2026-02-15', to: '2026-03-16' },
      this_week: { from: '2026-03-16', to: '2026-03-22' },
      last_week: { from: '2026-03-09', to: '2026-03-15' },
      this_month: { from: '2026-03-01', to: '2026-03-31' },
      last_month: { from: '2026-02-01', to: '2026-02-28' },
    });
  });

  it('takes today in the owner timezone: still the day before in Los Angeles', () => {
    expect(presets(LOS_ANGELES, now)).toEqual({
      today: { from: '2026-03-15', to: '2026-03-15' },
      yesterday: { from: '2026-03-14', to: '2026-03-14' },
      last_7_days: { from: '2026-03-09', to: '2026-03-15' },
      last_30_days: { from: '2026-02-14', to: '2026-03-15' },
      this_week: { from: '2026-03-09', to: '2026-03-15' },
      last_week: { from: '2026-03-02', to: '2026-03-08' },
      this_month: { from: '2026-03-01', to: '2026-03-31' },
      last_month: { from: '2026-02-01', to: '2026-02-28' },
    });
  });

  it('starts weeks on Monday, on a Monday and on a Sunday', () => {
    const monday = presets('UTC', '2026-03-16T00:00:00Z');
    const sunday = presets('UTC', '2026-03-22T23:59:59.999Z');
    expect(monday.this_week).toEqual({ from: '2026-03-16', to: '2026-03-22' });
    expect(sunday.this_week).toEqual({ from: '2026-03-16', to: '2026-03-22' });
    expect(monday.last_week).toEqual({ from: '2026-03-09', to: '2026-03-15' });
    expect(sunday.last_week).toEqual({ from: '2026-03-09', to: '2026-03-15' });
  });

  it('handles a leap February at a month boundary crossed by the timezone', () => {
    const now = '2028-02-29T12:00:00Z';
    const kiritimati = presets(KIRITIMATI, now); // 2028-03-01 02:00 there
    const losAngeles = presets(LOS_ANGELES, now); // 2028-02-29 04:00 there
    expect(kiritimati.yesterday).toEqual({ from: '2028-02-29', to: '2028-02-29' });
    expect(kiritimati.this_month).toEqual({ from: '2028-03-01', to: '2028-03-31' });
    expect(kiritimati.last_month).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(losAngeles.today).toEqual({ from: '2028-02-29', to: '2028-02-29' });
    expect(losAngeles.this_month).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(losAngeles.last_month).toEqual({ from: '2028-01-01', to: '2028-01-31' });
    expect(losAngeles.last_30_days).toEqual({ from: '2028-01-31', to: '2028-02-29' });
  });

  it('crosses a year boundary', () => {
    const kiritimati = presets(KIRITIMATI, '2026-12-31T11:00:00Z'); // Friday 2027-01-01 01:00 there
    expect(kiritimati.today).toEqual({ from: '2027-01-01', to: '2027-01-01' });
    expect(kiritimati.this_week).toEqual({ from: '2026-12-28', to: '2027-01-03' });
    expect(kiritimati.this_month).toEqual({ from: '2027-01-01', to: '2027-01-31' });
    expect(kiritimati.last_month).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });

  it('does not overflow from the 31st into the previous month', () => {
    expect(resolvePreset('last_month', 'UTC', new Date('2026-03-31T12:00:00Z'))).toEqual({
      from: '2026-02-01',
      to: '2026-02-28',
    });
  });

  it('is unaffected by a DST change on the day itself', () => {
    // 03:30 PDT on 2026-03-08, the day Los Angeles springs forward.
    const r = presets(LOS_ANGELES, '2026-03-08T10:30:00Z');
    expect(r.today).toEqual({ from: '2026-03-08', to: '2026-03-08' });
    expect(r.this_week).toEqual({ from: '2026-03-02', to: '2026-03-08' });
  });

  it('always gives ranges of the documented length', () => {
    const expected: Partial<Record<DatePreset, number>> = {
      today: 1,
      yesterday: 1,
      last_7_days: 7,
      last_30_days: 30,
      this_week: 7,
      last_week: 7,
    };
    for (const tz of [KIRITIMATI, LOS_ANGELES, 'Asia/Kathmandu']) {
      for (const [preset, range] of Object.entries(presets(tz, '2026-11-01T09:30:00Z'))) {
        const days = rangeSpanDays(range);
        expect(days).toBeGreaterThanOrEqual(1);
        if (expected[preset as DatePreset]) expect(days).toBe(expected[preset as DatePreset]);
      }
    }
  });

  it('rejects an unknown timezone', () => {
    expect(() => resolvePreset('today', 'Mars/Olympus', new Date())).toThrow(RangeError);
    expect(() => resolvePreset('today', 'local', new Date())).toThrow(RangeError);
  });
});

describe('isValidDate', () => {
  it.each(['2026-02-28', '2028-02-29', '2000-02-29', '2026-12-31', '2026-01-01'])('accepts %s', (s) => {
    expect(isValidDate(s)).toBe(true);
  });

  it.each([
    '2026-02-29',
    '2026-02-30',
    '1900-02-29',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '2026-1-1',
    '20260101',
    '2026-01-01T00:00',
    ' 2026-01-01',
    '2026-01-01 ',
    '+02026-01-01',
    '',
    'today',
  ])('rejects %j', (s) => {
    expect(isValidDate(s)).toBe(false);
  });
});

describe('rangeSpanDays and isValidRange', () => {
  it('counts both ends', () => {
    expect(rangeSpanDays({ from: '2026-03-08', to: '2026-03-08' })).toBe(1);
    expect(rangeSpanDays({ from: '2026-03-01', to: '2026-03-31' })).toBe(31);
    expect(rangeSpanDays({ from: '2026-01-01', to: '2026-12-31' })).toBe(365);
    expect(rangeSpanDays({ from: '2028-01-01', to: '2028-12-31' })).toBe(366);
  });

  it('accepts 366 days and refuses 367', () => {
    const span366 = { from: '2026-01-01', to: '2027-01-01' };
    const span367 = { from: '2026-01-01', to: '2027-01-02' };
    expect(rangeSpanDays(span366)).toBe(366);
    expect(rangeSpanDays(span367)).toBe(367);
    expect(isValidRange(span366)).toBe(true);
    expect(isValidRange(span367)).toBe(false);
  });

  it('refuses reversed ranges and invalid dates', () => {
    expect(rangeSpanDays({ from: '2026-03-02', to: '2026-03-01' })).toBe(0);
    expect(isValidRange({ from: '2026-03-02', to: '2026-03-01' })).toBe(false);
    expect(isValidRange({ from: '2026-02-30', to: '2026-03-01' })).toBe(false);
    expect(() => rangeSpanDays({ from: '2026-02-30', to: '2026-03-01' })).toThrow(RangeError);
  });
});

describe('periodBounds', () => {
  function hours(r: DateRange, tz: string): number {
    const { start, end } = periodBounds(r, tz);
    return (end.getTime() - start.getTime()) / HOUR;
  }

  it('gives a 23-hour day when Los Angeles springs forward', () => {
    const { start, end } = periodBounds({ from: '2026-03-08', to: '2026-03-08' }, LOS_ANGELES);
    expect(start.toISOString()).toBe('2026-03-08T08:00:00.000Z');
    expect(end.toISOString()).toBe('2026-03-09T07:00:00.000Z');
    expect(hours({ from: '2026-03-08', to: '2026-03-08' }, LOS_ANGELES)).toBe(23);
  });

  it('gives a 25-hour day when Los Angeles falls back', () => {
    const { start, end } = periodBounds({ from: '2026-11-01', to: '2026-11-01' }, LOS_ANGELES);
    expect(start.toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect(end.toISOString()).toBe('2026-11-02T08:00:00.000Z');
    expect(hours({ from: '2026-11-01', to: '2026-11-01' }, LOS_ANGELES)).toBe(25);
  });

  it('spans whole months across a DST change', () => {
    const { start, end } = periodBounds({ from: '2026-03-01', to: '2026-03-31' }, LOS_ANGELES);
    expect(start.toISOString()).toBe('2026-03-01T08:00:00.000Z');
    expect(end.toISOString()).toBe('2026-04-01T07:00:00.000Z');
    expect(hours({ from: '2026-03-01', to: '2026-03-31' }, LOS_ANGELES)).toBe(31 * 24 - 1);
  });

  it('places days far east of UTC before UTC midnight', () => {
    const { start, end } = periodBounds({ from: '2026-03-16', to: '2026-03-16' }, KIRITIMATI);
    expect(start.toISOString()).toBe('2026-03-15T10:00:00.000Z');
    expect(end.toISOString()).toBe('2026-03-16T10:00:00.000Z');
  });

  it('starts a day whose midnight does not exist at its first valid instant', () => {
    // Sao Paulo jumped from 00:00 to 01:00 on 2018-11-04.
    const day = periodBounds({ from: '2018-11-04', to: '2018-11-04' }, 'America/Sao_Paulo');
    const before = periodBounds({ from: '2018-11-03', to: '2018-11-03' }, 'America/Sao_Paulo');
    expect(day.start.toISOString()).toBe('2018-11-04T03:00:00.000Z');
    expect(localDateTime(day.start, 'America/Sao_Paulo')).toEqual({ date: '2018-11-04', time: '01:00' });
    expect(before.end.getTime()).toBe(day.start.getTime());
    expect((day.end.getTime() - day.start.getTime()) / HOUR).toBe(23);
  });

  it('starts a day whose midnight happens twice at the first, so its first hour is in its own period', () => {
    // Havana went from 01:00 back to 00:00 on 2024-11-03: 00:00 was at 04:00 and at 05:00 UTC.
    const day = periodBounds({ from: '2024-11-03', to: '2024-11-03' }, 'America/Havana');
    expect(day.start.toISOString()).toBe('2024-11-03T04:00:00.000Z');
    expect(localDateTime(new Date(day.start.getTime() - 1), 'America/Havana').date).toBe('2024-11-02');
    expect((day.end.getTime() - day.start.getTime()) / HOUR).toBe(25);
  });

  it('starts a day at its midnight when the zone changed offset hours before it', () => {
    // Apia moved from UTC-11 to UTC-10 at 03:00 on 2011-09-24; a guess from today's offset lands an hour late.
    const day = periodBounds({ from: '2011-09-25', to: '2011-09-25' }, 'Pacific/Apia');
    expect(day.start.toISOString()).toBe('2011-09-25T10:00:00.000Z');
    expect(localDateTime(day.start, 'Pacific/Apia')).toEqual({ date: '2011-09-25', time: '00:00' });
  });

  it('gives a day the zone skipped whole an empty period', () => {
    const skipped = periodBounds({ from: '2011-12-30', to: '2011-12-30' }, 'Pacific/Apia');
    expect(skipped.start.getTime()).toBe(skipped.end.getTime());
    expect(periodBounds({ from: '2011-12-29', to: '2011-12-31' }, 'Pacific/Apia').end.toISOString()).toBe('2011-12-31T10:00:00.000Z');
  });

  it('bounds the first and last dates the API takes', () => {
    expect(periodBounds({ from: '0000-01-01', to: '0000-01-01' }, 'UTC').start.toISOString()).toBe('0000-01-01T00:00:00.000Z');
    expect(periodBounds({ from: '9999-12-31', to: '9999-12-31' }, 'UTC').end.toISOString()).toBe('+010000-01-01T00:00:00.000Z');
  });

  it('makes consecutive periods meet without a gap or an overlap', () => {
    const a = periodBounds({ from: '2026-10-25', to: '2026-10-31' }, LOS_ANGELES);
    const b = periodBounds({ from: '2026-11-01', to: '2026-11-07' }, LOS_ANGELES);
    expect(a.end.getTime()).toBe(b.start.getTime());
  });

  it('rejects an unknown timezone', () => {
    expect(() => periodBounds({ from: '2026-03-08', to: '2026-03-08' }, 'Nowhere/Land')).toThrow(RangeError);
  });
});

describe('isValidTimezone', () => {
  it.each(['UTC', 'Europe/Paris', LOS_ANGELES, KIRITIMATI, 'Asia/Kathmandu', 'America/Argentina/Buenos_Aires'])('accepts %s', (tz) => {
    expect(isValidTimezone(tz)).toBe(true);
  });

  it.each(['', ' ', 'local', 'Local', 'UTC+3', '+01:00', 'Mars/Olympus', 'Europe/Paris ', '../etc/passwd', 'system'])(
    'rejects %j',
    (tz) => {
      expect(isValidTimezone(tz)).toBe(false);
    },
  );

  it('answers the same when asked again, past thousands of spellings of valid names (its memory of valid names is bounded)', () => {
    const name = 'america/argentina/buenos_aires';
    // 3,000 letter-case spellings, each a valid name to Intl.
    const spellings = Array.from({ length: 3_000 }, (_, n) =>
      Array.from(name, (c, i) => ((n >> (i % 12)) & 1 ? c.toUpperCase() : c)).join(''),
    );
    expect(new Set(spellings).size).toBe(3_000);
    expect(spellings.every((tz) => isValidTimezone(tz) && isValidTimezone(tz))).toBe(true);
    for (const tz of ['Mars/Olympus', 'local', 'UTC+3']) expect(isValidTimezone(tz)).toBe(false);
    for (const tz of ['UTC', KIRITIMATI]) expect(isValidTimezone(tz)).toBe(true);
  });
});

describe('localDateTime', () => {
  it('formats an instant in the given zone', () => {
    const instant = new Date('2026-03-15T12:00:00Z');
    expect(localDateTime(instant, KIRITIMATI)).toEqual({ date: '2026-03-16', time: '02:00' });
    expect(localDateTime(instant, LOS_ANGELES)).toEqual({ date: '2026-03-15', time: '05:00' });
    expect(localDateTime(instant, 'UTC')).toEqual({ date: '2026-03-15', time: '12:00' });
  });

  it('shows the repeated hour twice when clocks fall back', () => {
    expect(localDateTime(new Date('2026-11-01T08:30:00Z'), LOS_ANGELES)).toEqual({ date: '2026-11-01', time: '01:30' });
    expect(localDateTime(new Date('2026-11-01T09:30:00Z'), LOS_ANGELES)).toEqual({ date: '2026-11-01', time: '01:30' });
  });
});
