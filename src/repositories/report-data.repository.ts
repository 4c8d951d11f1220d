/**
 * The data a report renders from, in ONE statement: the entries of the period its owner may read,
 * their totals and groupings, and the workspaces' names. The entries are read once (a
 * materialised CTE) and leave the database as a JSON text of compact tuples, which the main
 * thread hands to the render worker without parsing it.
 */
import { and, inArray, sql, type SQL } from 'drizzle-orm';
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import type { Db } from '../db/database.js';
import { projects } from '../db/schema.js';
import { rowsOf } from '../db/rows.js';
import { entryReadableBy, maySeeRatesInAll } from '../modules/access/predicates.js';

/** Which entries a report shows (docs/decisions.md, "Reports"). */
export interface EntrySelection {
  ownerUserId: string;
  workspaceIds: readonly string[];
  projectIds?: readonly string[] | undefined;
  /** Omitted or empty: only the owner's own entries. */
  userIds?: readonly string[] | undefined;
  tags?: readonly string[] | undefined;
  /** Entries on projects of these clients (billing.md §3). */
  clientIds?: readonly string[] | undefined;
  /** Which entries, by their `billable` flag; omitted: all. */
  billable?: 'all' | 'billable' | 'nonBillable' | undefined;
  /** Half-open instant interval [start, end). */
  start: Date;
  end: Date;
  /** The owner's zone: local days and times are computed in it. */
  timezone: string;
}

const AmountRow = Type.Object({ currency: Type.String(), minor: Type.Integer() });
const NullableString = Type.Union([Type.String(), Type.Null()]);
const Sums = {
  minutes: Type.Integer(),
  entryCount: Type.Integer(),
  billableMinutes: Type.Integer(),
  nonBillableMinutes: Type.Integer(),
  amounts: Type.Array(AmountRow),
};

/** The aggregates part of the statement's answer, checked as it is parsed. */
const RenderAggregatesRow = Type.Object({
  totalMinutes: Type.Integer(),
  entryCount: Type.Integer(),
  billableMinutes: Type.Integer(),
  nonBillableMinutes: Type.Integer(),
  amounts: Type.Array(AmountRow),
  /** predicates.ts `maySeeRatesInAll` for the owner: with the report's hideAmounts, whether money shows (access.ts `rendersMoney`). */
  ownerSeesRates: Type.Boolean(),
  byClient: Type.Array(Type.Object({ id: NullableString, name: NullableString, ...Sums })),
  byProject: Type.Array(Type.Object({ id: NullableString, name: NullableString, clientId: NullableString, ...Sums })),
  byUser: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), ...Sums })),
  byTag: Type.Array(Type.Object({ tag: Type.String(), ...Sums })),
  byDay: Type.Array(Type.Object({ date: Type.String(), ...Sums })),
  lines: Type.Array(
    Type.Object({
      projectId: NullableString,
      userId: Type.String(),
      billable: Type.Boolean(),
      currency: NullableString,
      rateMinor: Type.Union([Type.Integer(), Type.Null()]),
      minutes: Type.Integer(),
      billableMinutes: Type.Integer(),
      entryCount: Type.Integer(),
      amount: Type.Union([Type.Integer(), Type.Null()]),
    }),
  ),
  restrictsRecipients: Type.Boolean(),
  workspaces: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
});
const checkAggregates = Compile(RenderAggregatesRow);
export type RenderAggregatesRow = Static<typeof RenderAggregatesRow>;

/** How a billable entry's minutes are rounded (billing.md §3). */
export type MinuteRounding = { mode: 'none' } | { mode: 'up' | 'down' | 'nearest'; minutes: number };

/** The money of a render: how minutes are rounded, and whether the report hides amounts. */
export interface MoneySettings {
  rounding: MinuteRounding;
  hideAmounts: boolean;
}

export type RenderData =
  /** More entries match than a render may take; nothing was loaded. */
  | { kind: 'too-many'; limit: number }
  /** The matching entries' descriptions and tags come to more than `limit` bytes; nothing was loaded. */
  | { kind: 'too-large'; limit: number }
  | {
      kind: 'ok';
      aggregates: RenderAggregatesRow;
      /** JSON array of EntryTuple (render-context.ts), in no particular order; null unless asked for. */
      entriesJson: string | null;
    };

/**
 * The entries of the selection that the owner may read (predicates.ts `entryReadableBy`, whose
 * form lets the scan look the owner's admin workspaces and member projects up once, not per entry).
 */
function where(s: EntrySelection): SQL {
  const owner = s.ownerUserId;
  return sql`t.workspace_id = any(${sql.param(s.workspaceIds)}::text[])
    and t.start >= ${s.start.toISOString()}::timestamptz and t.start < ${s.end.toISOString()}::timestamptz
    and ${s.userIds?.length ? sql`t.user_id = any(${sql.param(s.userIds)}::text[])` : sql`t.user_id = ${owner}`}
    ${s.projectIds?.length ? sql`and t.project_id = any(${sql.param(s.projectIds)}::text[])` : sql``}
    ${s.tags?.length ? sql`and t.tags && ${sql.param(s.tags)}::text[]` : sql``}
    ${s.clientIds?.length ? sql`and t.project_id in (select cp.id from projects cp where cp.client_id = any(${sql.param(s.clientIds)}::text[]))` : sql``}
    ${s.billable === 'billable' ? sql`and t.billable` : s.billable === 'nonBillable' ? sql`and not t.billable` : sql``}
    and ${entryReadableBy(owner, { userId: sql`t.user_id`, workspaceId: sql`t.workspace_id`, projectId: sql`t.project_id` })}`;
}

/**
 * `minutes` rounded to a multiple of the step, in integers: up, down, or to the nearest with
 * halves up (billing.md §3). The step is one of the schema's literals, so it is written inline.
 */
export function roundedMinutes(minutes: SQL, rounding: MinuteRounding): SQL {
  if (rounding.mode === 'none') return minutes;
  const step = rounding.minutes;
  if (!Number.isInteger(step) || step < 1 || step > 60) throw new Error(`a rounding step of ${step} minutes`);
  const n = sql.raw(String(step));
  switch (rounding.mode) {
    case 'up':
      return sql`((${minutes} + ${sql.raw(String(step - 1))}) / ${n} * ${n})`;
    case 'down':
      return sql`(${minutes} / ${n} * ${n})`;
    case 'nearest':
      return sql`((2 * ${minutes} + ${n}) / (2 * ${n}) * ${n})`;
  }
}

/**
 * The hourly rate of the entry `t` whose user is `u` (billing.md §2, the same rule as rate-for.ts):
 * per level, most specific first, the row in force at the entry's start (the newest whose
 * `effective_from` began, at 00:00 in the zone of the entry's user, at or before it); the first
 * level whose row has an amount. A row without one ends its level. Nothing is read unless `shown`.
 */
const rateOfEntry = (shown: SQL): SQL => sql`(
  select lv.currency, lv.minor from (
    select distinct on (r.project_id is null, r.user_id is null)
      r.project_id is null as pn, r.user_id is null as un, r.currency, r.minor
    from rates r
    where ${shown} and r.workspace_id = t.workspace_id
      and (r.project_id is null or r.project_id = t.project_id)
      and (r.user_id is null or r.user_id = t.user_id)
      and (r.effective_from::timestamp at time zone u.timezone) <= t.start
    order by r.project_id is null, r.user_id is null, r.effective_from desc
  ) lv
  where lv.minor is not null
  order by lv.pn, lv.un
  limit 1
)`;

/**
 * The sums of the entries of `from` grouped by `keys`: tracked minutes, entries, billable minutes,
 * the non-billable entries' minutes, and a JSON list of one amount per currency (never converted).
 */
function sums(keys: string, from: SQL = sql`e`): SQL {
  const k = sql.raw(keys);
  return sql`(select ${k}, sum(m)::int as m, sum(n)::int as n, sum(bm)::int as bm, coalesce(sum(nbm), 0)::int as nbm,
      coalesce(json_agg(json_build_object('currency', cur, 'minor', amt) order by cur) filter (where cur is not null), '[]') as amounts
    from (select ${k}, case when amount is not null then currency end as cur, sum(minutes) as m, count(*) as n,
        sum(billable_minutes) as bm, sum(minutes) filter (where not billable) as nbm, sum(amount) as amt
      from ${from} group by ${k}, cur) s
    group by ${k})`;
}

/** The JSON fields of a row of `sums`, aliased `g`. */
const SUM_FIELDS = sql`'minutes', g.m, 'entryCount', g.n, 'billableMinutes', g.bm, 'nonBillableMinutes', g.nbm, 'amounts', g.amounts`;

/**
 * The bytes an entry adds to a render beyond its fixed fields: its description and tags, in UTF-8.
 * A render's memory and time grow with these as much as with the number of entries.
 */
const entryTextBytes = sql`octet_length(t.description) + coalesce(octet_length(array_to_string(t.tags, '')), 0)`;

/**
 * Loads what a render needs, or reports that more than `maxEntries` entries match, or that the
 * entries' descriptions and tags come to more than `maxBytes` (both counted in the same statement,
 * up to `maxEntries + 1` entries, before any entry is loaded, so an oversized selection costs no
 * more than a full one). `withEntries: false` skips the entries for templates that never read
 * them, and then their text is not counted either.
 *
 * Money (billing.md): each entry's billable minutes are its minutes rounded as `money.rounding`
 * says (0 when it is not billable); its rate is looked up only when the render shows money (access.ts
 * `rendersMoney`: the report does not hide amounts and its owner may see rates in every workspace,
 * predicates.ts `maySeeRatesInAll`), and its amount is round_half_up(billable minutes x rate / 60) in integers.
 * Every total is the sum of its entries' amounts, per currency.
 */
export async function loadRenderData(
  db: Db,
  s: EntrySelection,
  options: { withEntries: boolean; maxEntries: number; maxBytes: number; money: MoneySettings },
): Promise<RenderData> {
  const w = where(s);
  const tz = s.timezone;
  const bytes = options.withEntries ? entryTextBytes : sql`0`;
  const billableMinutes = sql`case when t.billable then ${roundedMinutes(sql`t.minutes`, options.money.rounding)} else 0 end`;
  const seesRates = maySeeRatesInAll(sql`${sql.param(s.workspaceIds)}::text[]`, s.ownerUserId);
  const result = await db.execute(sql`
    with capped as (
      select count(*)::int as n, coalesce(sum(b), 0)::bigint as bytes
      from (select ${bytes} as b from time_entries t where ${w} limit ${options.maxEntries + 1}) x
    ),
    mv as (select ${seesRates} as sees_rates),
    e as materialized (
      select t.id, t.start, t.minutes, t.description, t.tags, t.project_id, t.user_id, t.workspace_id, t.billable, p.client_id,
        to_char(t.start at time zone ${tz}, 'YYYY-MM-DD') as day,
        to_char(t.start at time zone ${tz}, 'HH24:MI') as local_time,
        ${billableMinutes} as billable_minutes,
        r.currency, r.minor as rate_minor,
        case when t.billable and r.minor is not null then (2 * (${billableMinutes})::bigint * r.minor + 60) / 120 end as amount
      from time_entries t
      join users u on u.id = t.user_id
      left join projects p on p.id = t.project_id
      left join lateral ${rateOfEntry(options.money.hideAmounts ? sql`false` : sql`(select sees_rates from mv)`)} r on true
      where ${w} and (select n from capped) <= ${options.maxEntries} and (select bytes from capped) <= ${options.maxBytes}
    )
    select (select n from capped) as matched, (select bytes from capped)::text as bytes,
      json_build_object(
        'totalMinutes', (select coalesce(sum(minutes), 0)::int from e),
        'entryCount', (select count(*)::int from e),
        'billableMinutes', (select coalesce(sum(billable_minutes), 0)::int from e),
        'nonBillableMinutes', (select coalesce(sum(minutes) filter (where not billable), 0)::int from e),
        'amounts', (select coalesce(json_agg(json_build_object('currency', a.currency, 'minor', a.minor) order by a.currency), '[]')
          from (select currency, sum(amount) as minor from e where amount is not null group by currency) a),
        'ownerSeesRates', (select sees_rates from mv),
        'byClient', (select coalesce(json_agg(json_build_object('id', g.client_id, 'name', c.name, ${SUM_FIELDS})), '[]')
          from ${sums('client_id')} g left join clients c on c.id = g.client_id),
        'byProject', (select coalesce(json_agg(json_build_object('id', g.project_id, 'name', p.name, 'clientId', p.client_id, ${SUM_FIELDS})), '[]')
          from ${sums('project_id')} g left join projects p on p.id = g.project_id),
        'byUser', (select coalesce(json_agg(json_build_object('id', g.user_id, 'name', u.name, ${SUM_FIELDS})), '[]')
          from ${sums('user_id')} g join users u on u.id = g.user_id),
        'byTag', (select coalesce(json_agg(json_build_object('tag', g.tag, ${SUM_FIELDS})), '[]')
          from ${sums('tag', sql`e, unnest(e.tags) as tag`)} g),
        'byDay', (select coalesce(json_agg(json_build_object('date', g.day, ${SUM_FIELDS}) order by g.day), '[]')
          from ${sums('day')} g),
        'lines', (select coalesce(json_agg(json_build_object('projectId', l.project_id, 'userId', l.user_id, 'billable', l.billable,
            'currency', l.cur, 'rateMinor', l.rm, 'minutes', l.m, 'billableMinutes', l.bm, 'entryCount', l.n, 'amount', l.amt)), '[]')
          from (select project_id, user_id, billable, case when billable then currency end as cur, case when billable then rate_minor end as rm,
              sum(minutes)::int as m, sum(billable_minutes)::int as bm, count(*)::int as n, sum(amount) as amt
            from e group by project_id, user_id, billable, cur, rm) l),
        'restrictsRecipients', exists (select 1 from e where user_id <> ${s.ownerUserId} and project_id is not null),
        'workspaces', (select coalesce(json_agg(json_build_object('id', w.id, 'name', w.name)), '[]')
          from workspaces w where w.id = any(${sql.param(s.workspaceIds)}::text[]))
      )::text as aggregates,
      ${
        options.withEntries
          ? sql`(select coalesce(json_agg(json_build_array(e.id, to_char(e.start at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              e.day, e.local_time, e.minutes, e.description, e.tags, e.project_id, e.user_id, e.workspace_id,
              e.billable, e.billable_minutes, e.client_id, e.currency, e.rate_minor, e.amount)), '[]')::text from e)`
          : sql`null::text`
      } as entries
  `);
  const [row] = rowsOf<{ matched: number; bytes: string; aggregates: string; entries: string | null }>(result);
  if (!row) throw new Error('the render data query returned no row');
  if (row.matched > options.maxEntries) return { kind: 'too-many', limit: options.maxEntries };
  if (Number(row.bytes) > options.maxBytes) return { kind: 'too-large', limit: options.maxBytes };
  const aggregates: unknown = JSON.parse(row.aggregates);
  if (!checkAggregates.Check(aggregates)) throw new Error('the render data query returned an unexpected shape');
  return { kind: 'ok', aggregates, entriesJson: row.entries };
}

/** The subset of `projectIds` that belong to one of `workspaceIds`. */
export async function projectsInWorkspaces(db: Db, projectIds: readonly string[], workspaceIds: readonly string[]): Promise<Set<string>> {
  if (projectIds.length === 0) return new Set();
  const rows = await db
    .select({ id: projects.id })
    .from(projects)
    .where(and(inArray(projects.id, [...projectIds]), inArray(projects.workspaceId, [...workspaceIds])));
  return new Set(rows.map((r) => r.id));
}
