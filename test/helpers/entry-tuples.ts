/** Render-context entries for unit tests, written as objects and turned into the tuples the render query yields. */
import { localDateTime } from '../../src/render/date-range.js';
import type { EntryTuple } from '../../src/render/render-context.js';

export interface TestEntry {
  id: string;
  start: string;
  minutes: number;
  description: string;
  tags: string[];
  project: { id: string; name: string } | null;
  user: { id: string; name: string };
  workspace: { id: string; name: string };
}

/** The tuple of one entry, its local date and time in `timezone` as the database would give them. */
export function entryTuple(entry: TestEntry, timezone: string): EntryTuple {
  const start = new Date(entry.start);
  const { date, time } = localDateTime(start, timezone);
  return [
    entry.id,
    start.toISOString(),
    date,
    time,
    entry.minutes,
    entry.description,
    [...entry.tags],
    entry.project?.id ?? null,
    entry.user.id,
    entry.workspace.id,
  ];
}
