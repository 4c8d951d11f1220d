/**
 * Wall times in a named IANA zone (the signed-in person's profile zone), with the platform's Intl
 * only: an instant's date and time there, a wall time there back to an instant, and the calendar
 * day and Monday-based week an instant falls in (weeks as report periods count them, docs/api.md).
 */

import { instantOfWall, type WallTime } from '../../../packages/money/src/index.js';

export type { WallTime };

const partsFormats = new Map<string, Intl.DateTimeFormat>();

function partsFormat(zone: string): Intl.DateTimeFormat {
  let format = partsFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    });
    partsFormats.set(zone, format);
  }
  return format;
}

/** What a clock in `zone` shows at `instant`. */
export function wallTime(instant: Date, zone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const part of partsFormat(zone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts.year ?? 0, month: parts.month ?? 1, day: parts.day ?? 1, hour: (parts.hour ?? 0) % 24, minute: parts.minute ?? 0 };
}

/**
 * The instant a clock in `zone` shows `wall`. A wall time skipped by a daylight-saving change
 * moves forward past the gap; one shown twice is the first of its two instants (packages/money
 * `instantOfWall`, which the importers use too).
 */
export function instantOf(wall: WallTime, zone: string): Date {
  return new Date(instantOfWall(wall, zone));
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `2026-11-03T09:30` in `zone`, for a datetime-local input. */
export function toLocalInput(instant: Date, zone: string): string {
  const w = wallTime(instant, zone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/** A datetime-local input's `YYYY-MM-DDTHH:MM` read in `zone`; null when it is not one. */
export function fromLocalInput(value: string, zone: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  return instantOf({ year, month, day, hour, minute }, zone);
}

/** The calendar day (`YYYY-MM-DD`) `instant` falls on in `zone`. */
export function dayOf(instant: Date, zone: string): string {
  const w = wallTime(instant, zone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

/** `YYYY-MM-DD` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The Monday (`YYYY-MM-DD`) of the week `date` is in. */
export function mondayOf(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, -((weekday + 6) % 7));
}

/** The first instant of calendar day `date` in `zone`. */
export function startOfDay(date: string, zone: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return instantOf({ year, month, day, hour: 0, minute: 0 }, zone);
}
