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
import { isoInstant, rowsOf } from '../db/rows.js';
import { entryReadableBy } from '../modules/access/predicates.js';

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

/**
 * Each entry's rate as a table (modules/rates/rate-table.ts): the cell of its workspace, user,
 * project and interval in `currencies` and `minors`, laid out as
 * `((workspace × users + user) × (projects + 1) + project) × (thresholds + 1) + bucket`, where a
 * project's position is 0 for an entry without a project with rates of its own, and the bucket is
 * the interval between two consecutive `thresholds` (ISO instants, ascending) that holds the
 * entry's start, 0 before the first.
 */
export interface RateTable {
  workspaces: string[];
  users: string[];
  /** The projects with rates of their own: an entry on another project is priced by its workspace's levels. */
  projects: string[];
  thresholds: string[];
  currencies: (string | null)[];
  minors: (number | null)[];
}

/** The money of a render: how minutes are rounded, and its rate table (null: the render shows no money, or there are no rates). */
export interface MoneySettings {
  rounding: MinuteRounding;
  rates: RateTable | null;
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

/** An instant as PostgreSQL reads it: ISO 8601, with the year 10000 written as digits (not `+010000`). */
const instantText = (instant: Date) => instant.toISOString().replace(/^\+0*/, '');

/**
 * The entries of the selection that the owner may read (predicates.ts `entryReadableBy`, whose
 * form lets the scan look the owner's admin workspaces and member projects up once, not per entry).
 */
function where(s: EntrySelection): SQL {
  const owner = s.ownerUserId;
  return sql`t.workspace_id = any(${sql.param(s.workspaceIds)}::text[])
    and t.start >= ${instantText(s.start)}::timestamptz and t.start < ${instantText(s.end)}::timestamptz
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
 * The cell of the rate table (modules/rates/rate-table.ts) that holds the rate of the entry `row`:
 * the positions of its workspace, user and project (0: no project with rates of its own) in the
 * table's lists, and the interval its start falls in, found by `width_bucket`, a binary search
 * over the table's sorted starts. 1-based, as PostgreSQL's arrays; null for a user the table lacks.
 */
function rateCell(table: RateTable, row: string): SQL {
  const n = (value: number) => sql.raw(String(value));
  const column = (name: string) => sql.raw(`${row}.${name}`);
  // A list of one is every entry's (the statement reads only the table's workspaces and users): no lookup.
  const position = (list: readonly string[], key: SQL) =>
    list.length === 1 ? sql`0` : sql`(array_position(${sql.param(list)}::text[], ${key}) - 1)`;
  const project =
    table.projects.length === 0 ? sql`0` : sql`coalesce(array_position(${sql.param(table.projects)}::text[], ${column('project_id')}), 0)`;
  const width = table.thresholds.length + 1;
  return sql`(((${position(table.workspaces, column('workspace_id'))} * ${n(table.users.length)} + ${position(table.users, column('user_id'))})
      * ${n(table.projects.length + 1)} + ${project}) * ${n(width)}
    + width_bucket(${column('start')}, ${sql.param(table.thresholds)}::timestamptz[]) + 1)`;
}

/**
 * The grouping sets of the render's one pass over its entries, and the `grouping()` value that
 * marks each set's rows: per project, per user, per day, per person on a project at a rate (the
 * Invoice summary's lines), and the whole report; each also per amount currency where the rate
 * table has several (loadRenderData).
 */
const SETS = { project: 15, user: 23, day: 27, line: 4, total: 31 } as const;

/**
 * The sums of the rows of `gs` in one grouping set, per `key`: tracked minutes, entries, billable
 * minutes, the non-billable entries' minutes, and a JSON list of one amount per currency (never
 * converted), in code order.
 */
function sums(key: string, set: number, from: SQL = sql`gs`): SQL {
  const k = sql.raw(key);
  return sql`(select ${k}, sum(m)::int as m, sum(n)::int as n, sum(bm)::int as bm, sum(nbm)::int as nbm,
      coalesce(json_agg(json_build_object('currency', cur, 'minor', amt) order by cur) filter (where cur is not null), '[]') as amounts
    from ${from} where g = ${sql.raw(String(set))} group by ${k})`;
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
 * says (0 when it is not billable); its rate is its cell of `money.rates`, which the caller passes
 * only when the render shows money (access.ts `rendersMoney`) and there are rates; its amount is
 * round_half_up(billable minutes x rate / 60) in integers. Every total is the sum of its entries'
 * amounts, per currency, from one pass of grouping sets over the entries.
 *
 * Where the rate table has at most one currency (a report over one workspace, or over workspaces
 * that bill in the same currency), a group's amount has that currency when it has an amount at all,
 * so the grouping sets leave the currency out of their keys: each of the five hashes one column
 * less per entry (on the bench's 5,000 priced entries about a third of what money adds to the
 * statement). With two or more, every set is also keyed by currency, and a group has a row per
 * currency.
 *
 * The rate's cell, its lookups and the amount are each computed once per entry: PostgreSQL pulls a
 * plain subquery up into its parent and copies its expressions to every place that names them (the
 * amount, its currency and its rate named the cell's lookup seven times per entry), so each of those
 * subqueries ends in `offset 0`, which keeps it as one evaluation per row. On the bench's 5,000
 * priced entries this took the statement from 14 to about 1 ms above the same one without money.
 *
 * Two forms are chosen for the cost per entry: the local day is a `date` (hashed and compared as
 * one, and written by JSON as `YYYY-MM-DD`), not text from `to_char`; and the tags' sums take
 * `unnest` in a select list, one projection over the entries, not a function scan per entry. On
 * 20,000 entries the two took the statement from about 250 to 227 ms on PGlite and 175 to 163 ms on
 * PostgreSQL, its answer the same to the byte (docs/performance.md "The render statement's local
 * day and tags (2 December 2026, night)").
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
  const table = options.money.rates;
  const currencies = [...new Set(table?.currencies.filter((c) => c !== null))];
  const byCurrency = currencies.length > 1;
  // A group's currency, where the sets are not keyed by it: the one there is, if the group has an amount.
  const groupCurrency = byCurrency ? sql`cur` : sql`case when sum(amount) is not null then ${currencies[0] ?? null}::text end as cur`;
  // The currency as the last column of every grouping key, or not at all.
  const key = byCurrency ? sql`, cur` : sql``;
  const sets = sql`(project_id${key}), (user_id${key}), (day${key}), (project_id, user_id, billable, amount_rate${key}), (${byCurrency ? sql`cur` : sql``})`;
  const result = await db.execute(sql`
    with capped as (
      select count(*)::int as n, coalesce(sum(b), 0)::bigint as bytes
      from (select ${bytes} as b from time_entries t where ${w} limit ${options.maxEntries + 1}) x
    ),
    b as (
      select t.id, t.start, t.minutes, t.description, t.tags, t.project_id, t.user_id, t.workspace_id, t.billable,
        (t.start at time zone ${tz})::date as day,
        to_char(t.start at time zone ${tz}, 'HH24:MI') as local_time,
        ${billableMinutes} as billable_minutes
      from time_entries t
      where ${w} and (select n from capped) <= ${options.maxEntries} and (select bytes from capped) <= ${options.maxBytes}
    ),
    r as (${
      table
        ? sql`
      select b.*, x.currency, x.rate_minor
      from b, lateral (select (${sql.param(table.currencies)}::text[])[c.cell] as currency, (${sql.param(table.minors)}::int[])[c.cell] as rate_minor
        from (select ${rateCell(table, 'b')} as cell offset 0) c offset 0) x`
        : sql`
      select b.*, null::text as currency, null::int as rate_minor from b`
    }
    ),
    e as materialized (
      select b.*, a.amount,
        case when a.amount is not null then b.currency end as cur,
        case when a.amount is not null then b.rate_minor end as amount_rate
      from r as b, lateral (select case when b.billable and b.rate_minor is not null
        then (2 * b.billable_minutes::bigint * b.rate_minor + 60) / 120 end as amount ${table ? sql`offset 0` : sql``}) a
    ),
    gs as materialized (
      select grouping(project_id, user_id, day, billable, amount_rate) as g, project_id, user_id, day, billable, amount_rate, ${groupCurrency},
        sum(minutes) as m, count(*) as n, sum(billable_minutes) as bm, coalesce(sum(minutes) filter (where not billable), 0) as nbm,
        sum(amount) as amt
      from e
      group by grouping sets (${sets})
    ),
    pc as materialized (
      select p.client_id, gs.cur, gs.m, gs.n, gs.bm, gs.nbm, gs.amt, gs.g
      from gs left join projects p on p.id = gs.project_id where gs.g = ${sql.raw(String(SETS.project))}
    )
    select (select n from capped) as matched, (select bytes from capped)::text as bytes,
      json_build_object(
        'totalMinutes', (select coalesce(sum(m), 0)::int from gs where g = ${sql.raw(String(SETS.total))}),
        'entryCount', (select coalesce(sum(n), 0)::int from gs where g = ${sql.raw(String(SETS.total))}),
        'billableMinutes', (select coalesce(sum(bm), 0)::int from gs where g = ${sql.raw(String(SETS.total))}),
        'nonBillableMinutes', (select coalesce(sum(nbm), 0)::int from gs where g = ${sql.raw(String(SETS.total))}),
        'amounts', (select coalesce(json_agg(json_build_object('currency', cur, 'minor', amt) order by cur), '[]')
          from gs where g = ${sql.raw(String(SETS.total))} and cur is not null),
        'byClient', (select coalesce(json_agg(json_build_object('id', g.client_id, 'name', c.name, ${SUM_FIELDS})), '[]')
          from ${sums(
            'client_id',
            SETS.project,
            sql`(select client_id, cur, sum(m) as m, sum(n) as n, sum(bm) as bm, sum(nbm) as nbm, sum(amt) as amt, g
            from pc group by client_id, cur, g) x`,
          )} g left join clients c on c.id = g.client_id),
        'byProject', (select coalesce(json_agg(json_build_object('id', g.project_id, 'name', p.name, 'clientId', p.client_id, ${SUM_FIELDS})), '[]')
          from ${sums('project_id', SETS.project)} g left join projects p on p.id = g.project_id),
        'byUser', (select coalesce(json_agg(json_build_object('id', g.user_id, 'name', u.name, ${SUM_FIELDS})), '[]')
          from ${sums('user_id', SETS.user)} g join users u on u.id = g.user_id),
        'byTag', (select coalesce(json_agg(json_build_object('tag', g.tag, ${SUM_FIELDS})), '[]')
          from ${sums(
            'tag',
            0,
            sql`(select tag, ${groupCurrency}, sum(minutes) as m, count(*) as n, sum(billable_minutes) as bm,
              coalesce(sum(minutes) filter (where not billable), 0) as nbm, sum(amount) as amt, 0 as g
            from (select unnest(tags) as tag, minutes, billable_minutes, billable, amount${byCurrency ? sql`, cur` : sql``} from e) e
            group by tag${key}) x`,
          )} g),
        'byDay', (select coalesce(json_agg(json_build_object('date', g.day, ${SUM_FIELDS}) order by g.day), '[]')
          from ${sums('day', SETS.day)} g),
        'lines', (select coalesce(json_agg(json_build_object('projectId', project_id, 'userId', user_id, 'billable', billable,
            'currency', cur, 'rateMinor', amount_rate, 'minutes', m, 'billableMinutes', bm, 'entryCount', n, 'amount', amt)), '[]')
          from gs where g = ${sql.raw(String(SETS.line))}),
        'restrictsRecipients', exists (select 1 from e where user_id <> ${s.ownerUserId} and project_id is not null),
        'workspaces', (select coalesce(json_agg(json_build_object('id', w.id, 'name', w.name)), '[]')
          from workspaces w where w.id = any(${sql.param(s.workspaceIds)}::text[]))
      )::text as aggregates,
      ${
        options.withEntries
          ? sql`(select coalesce(json_agg(json_build_array(e.id, ${isoInstant('e.start')},
              e.day, e.local_time, e.minutes, e.description, e.tags, e.project_id, e.user_id, e.workspace_id,
              e.billable, e.billable_minutes, e.currency, e.rate_minor, e.amount)), '[]')::text from e)`
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
