import { describe, expect, it } from 'vitest';
import { amountOf, appliedRate, rateFor, type RateEntry, type RatedEntry } from '../../packages/money/src/index.js';

const eur = (minor: number) => ({ currency: 'EUR', minor });
const entry = (start: string, fields: Partial<RatedEntry> = {}): RatedEntry => ({
  start: new Date(start),
  userId: 'u1',
  projectId: 'p1',
  timezone: 'UTC',
  ...fields,
});
const workspace = (effectiveFrom: string, minor: number | null): RateEntry => ({
  projectId: null,
  userId: null,
  effectiveFrom,
  hourly: minor === null ? null : eur(minor),
});
const workspaceMember = (effectiveFrom: string, minor: number | null, userId = 'u1'): RateEntry => ({
  ...workspace(effectiveFrom, minor),
  userId,
});
const project = (effectiveFrom: string, minor: number | null, projectId = 'p1'): RateEntry => ({
  ...workspace(effectiveFrom, minor),
  projectId,
});
const projectMember = (effectiveFrom: string, minor: number | null, projectId = 'p1', userId = 'u1'): RateEntry => ({
  ...workspace(effectiveFrom, minor),
  projectId,
  userId,
});

describe('rateFor', () => {
  it('is null without rates', () => {
    expect(rateFor(entry('2026-03-01T10:00:00Z'), [])).toBeNull();
  });

  it('takes the most specific level that has a rate in force', () => {
    const rates = [
      workspace('2026-01-01', 100),
      workspaceMember('2026-01-01', 200),
      project('2026-01-01', 300),
      projectMember('2026-01-01', 400),
    ];
    const at = '2026-03-01T10:00:00Z';
    expect(rateFor(entry(at), rates)).toEqual(eur(400));
    expect(rateFor(entry(at), rates.slice(0, 3))).toEqual(eur(300));
    expect(rateFor(entry(at), rates.slice(0, 2))).toEqual(eur(200));
    expect(rateFor(entry(at), rates.slice(0, 1))).toEqual(eur(100));
  });

  it('matches levels by the entry’s own project and user only', () => {
    const rates = [
      workspace('2026-01-01', 100),
      workspaceMember('2026-01-01', 200, 'u2'),
      project('2026-01-01', 300, 'p2'),
      projectMember('2026-01-01', 400, 'p1', 'u2'),
      projectMember('2026-01-01', 500, 'p2', 'u1'),
    ];
    expect(rateFor(entry('2026-03-01T10:00:00Z'), rates)).toEqual(eur(100));
  });

  it('gives an unassigned entry the workspace member or workspace rate, never a project one', () => {
    const rates = [workspace('2026-01-01', 100), project('2026-01-01', 300), projectMember('2026-01-01', 400)];
    expect(rateFor(entry('2026-03-01T10:00:00Z', { projectId: null }), rates)).toEqual(eur(100));
    expect(rateFor(entry('2026-03-01T10:00:00Z', { projectId: null }), [...rates, workspaceMember('2026-01-01', 200)])).toEqual(eur(200));
  });

  it('takes the latest row of a level that has started, whatever the order of the list', () => {
    const rates = [project('2026-06-01', 3), project('2026-01-01', 1), project('2026-03-01', 2)];
    expect(rateFor(entry('2025-12-31T23:59:59Z'), rates)).toBeNull();
    expect(rateFor(entry('2026-01-01T00:00:00Z'), rates)).toEqual(eur(1));
    expect(rateFor(entry('2026-02-28T23:59:59Z'), rates)).toEqual(eur(1));
    expect(rateFor(entry('2026-03-01T00:00:00Z'), rates)).toEqual(eur(2));
    expect(rateFor(entry('2026-07-01T00:00:00Z'), rates)).toEqual(eur(3));
  });

  it('falls through a level before its first row to the next level', () => {
    const rates = [workspace('2026-01-01', 100), project('2026-03-01', 300)];
    expect(rateFor(entry('2026-02-15T10:00:00Z'), rates)).toEqual(eur(100));
    expect(rateFor(entry('2026-03-15T10:00:00Z'), rates)).toEqual(eur(300));
  });

  it('ends a level at a null row, falling through to the next level, until a later row starts it again', () => {
    const rates = [workspace('2026-01-01', 100), project('2026-01-01', 300), project('2026-04-01', null), project('2026-07-01', 350)];
    expect(rateFor(entry('2026-03-31T23:00:00Z'), rates)).toEqual(eur(300));
    expect(rateFor(entry('2026-04-01T00:00:00Z'), rates)).toEqual(eur(100));
    expect(rateFor(entry('2026-07-01T00:00:00Z'), rates)).toEqual(eur(350));
    // With no level below, a null row means no rate at all.
    expect(rateFor(entry('2026-04-02T00:00:00Z'), [workspace('2026-01-01', 100), workspace('2026-04-01', null)])).toBeNull();
  });

  it('counts a rate of 0 as a rate', () => {
    expect(rateFor(entry('2026-03-01T10:00:00Z'), [workspace('2026-01-01', 100), project('2026-01-01', 0)])).toEqual(eur(0));
  });

  it("starts a rate at 00:00 of its date in the entry user's time zone", () => {
    const rates = [workspace('2026-01-01', 1), workspace('2026-03-01', 2)];
    // 23:30 UTC on 28 February is 08:30 on 1 March in Tokyo and 18:30 on 28 February in New York.
    const at = '2026-02-28T23:30:00Z';
    expect(rateFor(entry(at, { timezone: 'Asia/Tokyo' }), rates)).toEqual(eur(2));
    expect(rateFor(entry(at, { timezone: 'America/New_York' }), rates)).toEqual(eur(1));
    expect(rateFor(entry(at), rates)).toEqual(eur(1));
    // Exactly midnight in Tokyo is in, a millisecond before is not.
    expect(rateFor(entry('2026-02-28T15:00:00.000Z', { timezone: 'Asia/Tokyo' }), rates)).toEqual(eur(2));
    expect(rateFor(entry('2026-02-28T14:59:59.999Z', { timezone: 'Asia/Tokyo' }), rates)).toEqual(eur(1));
  });

  it('starts a rate at the first instant of a day whose midnight a DST change skips', () => {
    // In Santiago, clocks went from 00:00 to 01:00 on 2024-09-08: that day starts at 01:00 local, 04:00 UTC.
    const rates = [workspace('2024-01-01', 1), workspace('2024-09-08', 2)];
    const santiago = { timezone: 'America/Santiago' };
    expect(rateFor(entry('2024-09-08T03:59:59.999Z', santiago), rates)).toEqual(eur(1));
    expect(rateFor(entry('2024-09-08T04:00:00.000Z', santiago), rates)).toEqual(eur(2));
  });

  it('starts a rate at the midnight of a day that is 25 hours long', () => {
    // Europe/Paris leaves summer time on 2026-10-25: midnight is still +02:00, 22:00 UTC the day before.
    const rates = [workspace('2026-01-01', 1), workspace('2026-10-25', 2), workspace('2026-10-26', 3)];
    const paris = { timezone: 'Europe/Paris' };
    expect(rateFor(entry('2026-10-24T21:59:59.999Z', paris), rates)).toEqual(eur(1));
    expect(rateFor(entry('2026-10-24T22:00:00.000Z', paris), rates)).toEqual(eur(2));
    // The next midnight is +01:00: 23:00 UTC on the 25th, 25 hours later.
    expect(rateFor(entry('2026-10-25T22:59:59.999Z', paris), rates)).toEqual(eur(2));
    expect(rateFor(entry('2026-10-25T23:00:00.000Z', paris), rates)).toEqual(eur(3));
  });
});

describe('appliedRate and amountOf', () => {
  it('names the level the rate comes from', () => {
    const at = entry('2026-03-01T10:00:00Z');
    const rates = [
      workspace('2026-01-01', 100),
      workspaceMember('2026-01-01', 200),
      project('2026-01-01', 300),
      projectMember('2026-01-01', 400),
    ];
    expect(appliedRate(at, rates)).toEqual({ hourly: eur(400), level: 'projectMember' });
    expect(appliedRate(at, rates.slice(0, 3))).toEqual({ hourly: eur(300), level: 'project' });
    expect(appliedRate(at, rates.slice(0, 2))).toEqual({ hourly: eur(200), level: 'workspaceMember' });
    expect(appliedRate(at, rates.slice(0, 1))).toEqual({ hourly: eur(100), level: 'workspace' });
    expect(appliedRate(at, [])).toBeNull();
  });

  it('rounds an amount half up, in integers', () => {
    expect(amountOf(40, eur(10000))).toEqual(eur(6667));
    expect(amountOf(1, eur(30))).toEqual(eur(1)); // 0.5 rounds up
    expect(amountOf(1, eur(29))).toEqual(eur(0));
    expect(amountOf(1440, eur(100_000_000))).toEqual(eur(2_400_000_000));
    expect(amountOf(0, eur(9999))).toEqual(eur(0));
  });
});
