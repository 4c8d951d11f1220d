/**
 * startOfDay (packages/money): the first instant of a date in a zone, with Intl alone, as
 * PostgreSQL reads `date::timestamp at time zone zone` (the render statement's rate rule); checked
 * against luxon, which the server's date ranges use, wherever midnight happens once.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { startOfDay, zoneOffset } from '../../packages/money/src/zoned-day.js';

const iso = (ms: number) => new Date(ms).toISOString();

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

  it("agrees with luxon's start of the day in zones on both sides of the date line, where midnight happens once", () => {
    const zones = [
      'Europe/Berlin',
      'America/New_York',
      'America/Santiago',
      'Asia/Tehran',
      'Australia/Lord_Howe',
      'Pacific/Chatham',
      'Pacific/Kiritimati',
      'Pacific/Apia',
      'America/Sao_Paulo',
      'Africa/Casablanca',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.date({ min: new Date('1971-01-01T00:00:00Z'), max: new Date('2090-12-31T00:00:00Z'), noInvalidDate: true }),
        (zone, day) => {
          const date = day.toISOString().slice(0, 10);
          // A date the zone skipped whole (Pacific/Kiritimati had no 1994-12-31) has no midnight to agree on.
          fc.pre(DateTime.fromISO(date, { zone }).toISODate() === date);
          const start = startOfDay(date, zone);
          // Midnight happens twice only where the instant before the start is on the same date.
          const before = DateTime.fromMillis(start - 1, { zone }).toISODate();
          fc.pre(before !== date);
          const luxon = DateTime.fromISO(date, { zone }).toMillis();
          expect(iso(start)).toBe(iso(luxon));
          expect(DateTime.fromMillis(start, { zone }).toISODate()).toBe(date);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('reads the offset at an instant in whole seconds', () => {
    expect(zoneOffset(Date.parse('2026-07-01T12:00:00.999Z'), 'Europe/Berlin')).toBe(2 * 3_600_000);
    expect(zoneOffset(Date.parse('2026-01-01T12:00:00Z'), 'America/St_Johns')).toBe(-3.5 * 3_600_000);
  });
});
