/** The web app's pure helpers for the Time and Settings screens: wall times in a zone, and session names. */
import { describe, expect, it } from 'vitest';
import { describeUserAgent } from '../../web/src/features/settings/user-agent.js';
import { addDays, dayOf, fromLocalInput, mondayOf, startOfDay, toLocalInput } from '../../web/src/lib/zoned-time.js';

describe('wall times in a zone', () => {
  it('reads and writes a datetime-local value in the zone, not the machine’s', () => {
    expect(fromLocalInput('2026-10-06T09:00', 'America/New_York')?.toISOString()).toBe('2026-10-06T13:00:00.000Z');
    expect(fromLocalInput('2026-01-06T09:00', 'America/New_York')?.toISOString()).toBe('2026-01-06T14:00:00.000Z');
    expect(fromLocalInput('2026-10-06T09:00', 'Asia/Kolkata')?.toISOString()).toBe('2026-10-06T03:30:00.000Z');
    expect(toLocalInput(new Date('2026-10-07T03:30:00Z'), 'America/New_York')).toBe('2026-10-06T23:30');
    expect(fromLocalInput('2026-10-06 09:00', 'UTC')).toBeNull();
  });

  it('moves a skipped wall time past the gap and takes the earlier of a repeated one', () => {
    // 8 March 2026: New York's clocks go from 2:00 to 3:00.
    expect(fromLocalInput('2026-03-08T02:30', 'America/New_York')?.toISOString()).toBe('2026-03-08T07:30:00.000Z');
    // 1 November 2026: 1:30 happens twice; the first is still daylight time.
    expect(fromLocalInput('2026-11-01T01:30', 'America/New_York')?.toISOString()).toBe('2026-11-01T05:30:00.000Z');
    // East of UTC too: Berlin showed 02:30 on 25 October 2026 at 00:30 UTC (summer time) and again at 01:30.
    expect(fromLocalInput('2026-10-25T02:30', 'Europe/Berlin')?.toISOString()).toBe('2026-10-25T00:30:00.000Z');
    // Lord Howe's clocks go back half an hour: 01:45 happened at 14:45 and at 15:15 UTC.
    expect(fromLocalInput('2026-04-05T01:45', 'Australia/Lord_Howe')?.toISOString()).toBe('2026-04-04T14:45:00.000Z');
    expect(fromLocalInput('2026-03-29T02:30', 'Europe/Berlin')?.toISOString()).toBe('2026-03-29T01:30:00.000Z');
  });

  it('starts a day at its first instant after a change hours before midnight, and a skipped day where the next one begins', () => {
    // Apia moved from UTC-11 to UTC-10 at 03:00 on 2011-09-24, and skipped 2011-12-30 whole.
    expect(startOfDay('2011-09-25', 'Pacific/Apia').toISOString()).toBe('2011-09-25T10:00:00.000Z');
    expect(startOfDay('2024-11-03', 'America/Havana').toISOString()).toBe('2024-11-03T04:00:00.000Z');
    expect(startOfDay('2011-12-30', 'Pacific/Apia').toISOString()).toBe('2011-12-30T10:00:00.000Z');
  });

  it('gives the day and the Monday-based week an instant falls in there', () => {
    expect(dayOf(new Date('2026-10-07T03:30:00Z'), 'America/New_York')).toBe('2026-10-06');
    expect(dayOf(new Date('2026-10-07T03:30:00Z'), 'UTC')).toBe('2026-10-07');
    expect(mondayOf('2026-10-06')).toBe('2026-10-05');
    expect(mondayOf('2026-10-05')).toBe('2026-10-05');
    expect(mondayOf('2026-10-11')).toBe('2026-10-05');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(startOfDay('2026-10-06', 'America/New_York').toISOString()).toBe('2026-10-06T04:00:00.000Z');
  });
});

describe('session names', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36', 'Chrome on Linux'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36', 'Chrome on Linux'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0', 'Firefox on Windows'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
      'Edge on Windows',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      'Safari on macOS',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari on iPhone',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0 Mobile/15E148 Safari/604.1',
      'Chrome on iPhone',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
      'Samsung Internet on Android',
    ],
    [
      'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      'Chrome on ChromeOS',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 OPR/111.0.0.0',
      'Opera on Windows',
    ],
    ['curl/8.5.0', 'curl'],
    ['Mozilla/5.0 (X11; Linux x86_64) Something/1.0', 'A browser on Linux'],
    ['', 'Unknown browser'],
    [null, 'Unknown browser'],
  ])('%s is %s', (userAgent, name) => {
    expect(describeUserAgent(userAgent)).toBe(name);
  });
});
