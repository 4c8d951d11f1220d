/** When a held message's digest goes out: the next 08:00 in the recipient's zone (mail.service.ts `nextDigestAt`). */
import { describe, expect, it } from 'vitest';
import { nextDigestAt } from '../../src/modules/mail/mail.service.js';

const at = (now: string, zone: string) => nextDigestAt(new Date(now), zone).toISOString();

describe('nextDigestAt', () => {
  it('is 08:00 today before it, and tomorrow from 08:00 on', () => {
    expect(at('2026-11-30T06:59:59.999Z', 'Europe/Berlin')).toBe('2026-11-30T07:00:00.000Z');
    expect(at('2026-11-30T07:00:00.000Z', 'Europe/Berlin')).toBe('2026-12-01T07:00:00.000Z');
    expect(at('2026-11-30T23:30:00.000Z', 'Europe/Berlin')).toBe('2026-12-01T07:00:00.000Z');
  });

  it('reads the day in the zone, not in UTC', () => {
    // 22:00 UTC on the 30th is 07:00 on 1 December in Tokyo: its 08:00 is an hour away.
    expect(at('2026-11-30T22:00:00.000Z', 'Asia/Tokyo')).toBe('2026-11-30T23:00:00.000Z');
    expect(at('2026-12-01T03:00:00.000Z', 'America/Los_Angeles')).toBe('2026-12-01T16:00:00.000Z');
  });

  it('takes the offset of the day it falls on, across a change', () => {
    // Berlin went to summer time at 01:00 UTC on 2026-03-29: that day's 08:00 is at 06:00 UTC.
    expect(at('2026-03-28T12:00:00.000Z', 'Europe/Berlin')).toBe('2026-03-29T06:00:00.000Z');
    expect(at('2026-10-24T12:00:00.000Z', 'Europe/Berlin')).toBe('2026-10-25T07:00:00.000Z');
  });

  it('reads an unknown zone as UTC', () => {
    expect(at('2026-11-30T09:00:00.000Z', 'Mars/Olympus')).toBe('2026-12-01T08:00:00.000Z');
  });
});
