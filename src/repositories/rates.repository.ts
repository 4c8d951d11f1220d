import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { onlyRow, rowsOf } from '../db/rows.js';
import { rates, workspaces } from '../db/schema.js';
import { mayManageRates, projectReadableBy } from '../modules/access/predicates.js';

export type RateRow = typeof rates.$inferSelect;

/** The keys of one level: a workspace, and a project and a user where the level has them. */
export interface RateLevel {
  workspaceId: string;
  projectId: string | null;
  userId: string | null;
}

/** The level a row with these keys belongs to (the table's check `rates_level_keys` holds the same rule). */
export function levelOf(keys: RateLevel): RateRow['level'] {
  if (keys.projectId !== null) return keys.userId !== null ? 'project_member' : 'project';
  return keys.userId !== null ? 'workspace_member' : 'workspace';
}

/**
 * The workspace's currency and whether `userId` may manage its rates (predicates.ts
 * `mayManageRates`), in one statement; undefined when the workspace does not exist.
 */
export async function rateStanding(
  db: Db,
  workspaceId: string,
  userId: string,
): Promise<{ currency: string; manages: boolean } | undefined> {
  const [row] = await db
    .select({ currency: workspaces.currency, manages: sql<boolean>`${mayManageRates(workspaces.id, userId)}` })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return row;
}

/** Whether the user may log time on the project: a member of it, or an admin/owner of its workspace. */
export async function mayLogOnProject(db: Db, projectId: string, workspaceId: string, userId: string): Promise<boolean> {
  const result = await db.execute(sql`select ${projectReadableBy(userId, { id: projectId, workspaceId })} as ok`);
  return rowsOf<{ ok: boolean }>(result)[0]?.ok === true;
}

/**
 * Writes the level's row for a date, or replaces the one it has: the unique key
 * `rates_level_date_key` (null keys compared as equal) decides, so concurrent writes for one date
 * leave one row.
 */
export async function putRate(db: Db, row: typeof rates.$inferInsert): Promise<RateRow> {
  return onlyRow(
    await db
      .insert(rates)
      .values(row)
      .onConflictDoUpdate({
        target: [rates.workspaceId, rates.projectId, rates.userId, rates.effectiveFrom],
        set: { currency: sql`excluded.currency`, minor: sql`excluded.minor`, createdAt: sql`excluded.created_at` },
      })
      .returning(),
  );
}

/** The level's rows, oldest date first. */
export function listRates(db: Db, level: RateLevel): Promise<RateRow[]> {
  return db
    .select()
    .from(rates)
    .where(
      and(
        eq(rates.workspaceId, level.workspaceId),
        level.projectId === null ? isNull(rates.projectId) : eq(rates.projectId, level.projectId),
        level.userId === null ? isNull(rates.userId) : eq(rates.userId, level.userId),
      ),
    )
    .orderBy(asc(rates.effectiveFrom));
}
