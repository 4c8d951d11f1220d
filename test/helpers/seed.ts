/**
 * Fixtures written straight into the database, for tests that need a lot of data but are not
 * about the endpoint that would create it. What goes in is what the API would have stored.
 */
import { timeEntries } from '../../src/db/schema.js';
import { newId } from '../../src/lib/ids.js';
import type { TestContext } from './test-app.js';

export interface SeedEntry {
  workspaceId: string;
  userId: string;
  projectId?: string | null;
  start: string;
  minutes: number;
  description?: string;
  tags?: string[];
  billable?: boolean;
}

/** Inserts time entries in batches; returns their ids in order. */
export async function seedEntries(t: TestContext, entries: readonly SeedEntry[]): Promise<string[]> {
  const now = new Date();
  const rows = entries.map((e) => ({
    id: newId(),
    workspaceId: e.workspaceId,
    userId: e.userId,
    projectId: e.projectId ?? null,
    start: new Date(e.start),
    minutes: e.minutes,
    description: e.description ?? '',
    tags: e.tags ?? [],
    billable: e.billable ?? false,
    createdAt: now,
    updatedAt: now,
  }));
  for (let i = 0; i < rows.length; i += 500) await t.database.db.insert(timeEntries).values(rows.slice(i, i + 500));
  return rows.map((r) => r.id);
}
