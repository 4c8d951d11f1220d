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
import { entryReadableBy } from '../modules/access/predicates.js';

/** Which entries a report shows (docs/decisions.md, "Reports"). */
export interface EntrySelection {
  ownerUserId: string;
  workspaceIds: readonly string[];
  projectIds?: readonly string[] | undefined;
  /** Omitted or empty: only the owner's own entries. */
  userIds?: readonly string[] | undefined;
  tags?: readonly string[] | undefined;
  /** Half-open instant interval [start, end). */
  start: Date;
  end: Date;
  /** The owner's zone: local days and times are computed in it. */
  timezone: string;
}

const Amounts = { minutes: Type.Integer(), entryCount: Type.Integer() };

/** The aggregates part of the statement's answer, checked as it is parsed. */
const RenderAggregatesRow = Type.Object({
  totalMinutes: Type.Integer(),
  entryCount: Type.Integer(),
  byProject: Type.Array(
    Type.Object({ id: Type.Union([Type.String(), Type.Null()]), name: Type.Union([Type.String(), Type.Null()]), ...Amounts }),
  ),
  byUser: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), ...Amounts })),
  byTag: Type.Array(Type.Object({ tag: Type.String(), ...Amounts })),
  byDay: Type.Array(Type.Object({ date: Type.String(), ...Amounts })),
  restrictsRecipients: Type.Boolean(),
  workspaces: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
});
const checkAggregates = Compile(RenderAggregatesRow);
export type RenderAggregatesRow = Static<typeof RenderAggregatesRow>;

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
    and ${entryReadableBy(owner, { userId: sql`t.user_id`, workspaceId: sql`t.workspace_id`, projectId: sql`t.project_id` })}`;
}

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
 */
export async function loadRenderData(
  db: Db,
  s: EntrySelection,
  options: { withEntries: boolean; maxEntries: number; maxBytes: number },
): Promise<RenderData> {
  const w = where(s);
  const tz = s.timezone;
  const bytes = options.withEntries ? entryTextBytes : sql`0`;
  const result = await db.execute(sql`
    with capped as (
      select count(*)::int as n, coalesce(sum(b), 0)::bigint as bytes
      from (select ${bytes} as b from time_entries t where ${w} limit ${options.maxEntries + 1}) x
    ),
    e as materialized (
      select t.id, t.start, t.minutes, t.description, t.tags, t.project_id, t.user_id, t.workspace_id,
        to_char(t.start at time zone ${tz}, 'YYYY-MM-DD') as day,
        to_char(t.start at time zone ${tz}, 'HH24:MI') as local_time
      from time_entries t
      where ${w} and (select n from capped) <= ${options.maxEntries} and (select bytes from capped) <= ${options.maxBytes}
    )
    select (select n from capped) as matched, (select bytes from capped)::text as bytes,
      json_build_object(
        'totalMinutes', (select coalesce(sum(minutes), 0)::int from e),
        'entryCount', (select count(*)::int from e),
        'byProject', (select coalesce(json_agg(json_build_object('id', g.project_id, 'name', p.name, 'minutes', g.m, 'entryCount', g.n)), '[]')
          from (select project_id, sum(minutes)::int as m, count(*)::int as n from e group by project_id) g
          left join projects p on p.id = g.project_id),
        'byUser', (select coalesce(json_agg(json_build_object('id', g.user_id, 'name', u.name, 'minutes', g.m, 'entryCount', g.n)), '[]')
          from (select user_id, sum(minutes)::int as m, count(*)::int as n from e group by user_id) g
          join users u on u.id = g.user_id),
        'byTag', (select coalesce(json_agg(json_build_object('tag', g.tag, 'minutes', g.m, 'entryCount', g.n)), '[]')
          from (select tag, sum(minutes)::int as m, count(*)::int as n from e, unnest(e.tags) as tag group by tag) g),
        'byDay', (select coalesce(json_agg(json_build_object('date', g.day, 'minutes', g.m, 'entryCount', g.n) order by g.day), '[]')
          from (select day, sum(minutes)::int as m, count(*)::int as n from e group by day) g),
        'restrictsRecipients', exists (select 1 from e where user_id <> ${s.ownerUserId} and project_id is not null),
        'workspaces', (select coalesce(json_agg(json_build_object('id', w.id, 'name', w.name)), '[]')
          from workspaces w where w.id = any(${sql.param(s.workspaceIds)}::text[]))
      )::text as aggregates,
      ${
        options.withEntries
          ? sql`(select coalesce(json_agg(json_build_array(e.id, to_char(e.start at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              e.day, e.local_time, e.minutes, e.description, e.tags, e.project_id, e.user_id, e.workspace_id)), '[]')::text from e)`
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
