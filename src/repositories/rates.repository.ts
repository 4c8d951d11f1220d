import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { onlyRow, rowsOf } from '../db/rows.js';
import { rates, workspaces } from '../db/schema.js';
import { mayManageRates, maySeeRatesInAll, projectReadableBy } from '../modules/access/predicates.js';
import type { Money } from '../../packages/money/src/index.js';

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

/** A rate row as a render loads it: its workspace, its level's keys, its date and amount. */
export interface RenderRate {
  workspaceId: string;
  projectId: string | null;
  userId: string | null;
  /** YYYY-MM-DD */
  effectiveFrom: string;
  /** null ends the level from effectiveFrom. */
  hourly: Money | null;
}

/**
 * What a render prices with (billing.md §2): whether the report's owner may see rates in every one
 * of its workspaces (predicates.ts `maySeeRatesInAll`), and only then the rates that can apply to
 * its period (the row of each level in force when it starts and the rows that begin in it, two
 * days either side for the zones) for the levels of `userIds`, with those users' time zones; at
 * most `limit + 1` rows, so the caller can refuse a workspace with more than it may render.
 */
export async function ratesForRender(
  db: Db,
  s: { workspaceIds: readonly string[]; userIds: readonly string[]; ownerUserId: string; from: string; to: string; limit: number },
): Promise<{ seesRates: boolean; rates: RenderRate[]; zones: { id: string; timezone: string }[] }> {
  const workspaceIds = sql`${sql.param(s.workspaceIds)}::text[]`;
  const userIds = sql`${sql.param(s.userIds)}::text[]`;
  const result = await db.execute(sql`
    with v as (select ${maySeeRatesInAll(workspaceIds, s.ownerUserId)} as sees),
    r as (
      select workspace_id, project_id, user_id, to_char(effective_from, 'YYYY-MM-DD') as effective_from, currency, minor,
        lead(effective_from) over (partition by workspace_id, project_id, user_id order by effective_from) as next_from
      from rates
      where (select sees from v) and workspace_id = any(${workspaceIds}) and (user_id is null or user_id = any(${userIds}))
        and effective_from <= ${s.to}::date + 2
    )
    select (select sees from v) as sees,
      (select coalesce(json_agg(json_build_object('workspaceId', workspace_id, 'projectId', project_id, 'userId', user_id,
          'effectiveFrom', effective_from, 'hourly', case when minor is null then null else json_build_object('currency', currency, 'minor', minor) end)), '[]')
        from (select * from r where next_from is null or next_from >= ${s.from}::date - 2 limit ${s.limit + 1}) x)::text as rates,
      (select coalesce(json_agg(json_build_object('id', id, 'timezone', timezone)), '[]') from users where id = any(${userIds}))::text as zones
  `);
  const [row] = rowsOf<{ sees: boolean; rates: string; zones: string }>(result);
  if (!row) throw new Error('the rates query returned no row');
  return {
    seesRates: row.sees,
    rates: JSON.parse(row.rates) as RenderRate[],
    zones: JSON.parse(row.zones) as { id: string; timezone: string }[],
  };
}
