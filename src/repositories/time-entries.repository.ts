import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import { rowsOf } from '../db/rows.js';
import { projects, timeEntries } from '../db/schema.js';
import { entryReadableBy, mayAssignProject, mayLogEntry, type Arg, type NewEntryKeys } from '../modules/access/predicates.js';
import { factColumns, factsOf, firstFailing, type Facts } from './access.repository.js';

export type TimeEntryRow = typeof timeEntries.$inferSelect;

export interface EntryFilters {
  workspaceId?: string;
  userId?: string;
  projectId?: string;
  /** Entries carrying this tag. */
  tag?: string;
  from?: Date;
  to?: Date;
}

export type NewEntry = Required<
  Pick<
    typeof timeEntries.$inferInsert,
    'id' | 'workspaceId' | 'projectId' | 'userId' | 'start' | 'minutes' | 'description' | 'tags' | 'createdAt'
  >
> & {
  /** null: the project's `billableByDefault` (false for an unassigned entry), decided by the insert itself. */
  billable: boolean | null;
};

const p = (name: string) => sql.placeholder(name);

/**
 * An entry's `billable`: the one its request gave, else its project's `billableByDefault` as the
 * statement that inserts the entry reads it, else false (an unassigned entry). Deciding it in the
 * insert leaves no moment between reading the default and writing the entry.
 */
const billableOf = (given: SQL, projectId: SQL, workspaceId: SQL): SQL =>
  sql`coalesce(${given}, (select pb.billable_by_default from ${projects} pb
    where pb.id = ${projectId} and pb.workspace_id = ${workspaceId}), false)`;

/**
 * Inserts the entry in one statement that also checks the whole rule of logging it
 * (predicates.ts `mayLogEntry`), decides its `billable` (billableOf), and keeps the user's entries
 * in the workspace within the quota: it locks their count's row (time_entry_counts, which every
 * member has from joining, migration 0023) and inserts only while the count is under `quota`; the
 * insert's trigger then adds the entry to the count, and the lock holds to the statement's end,
 * so concurrent inserts for one user and workspace count one after the other on any process.
 * Undefined when any part of the rule fails or the quota is reached; the caller then asks why
 * (the slow path, only for refusals).
 */
const insertIfAllowed = prepared((db) =>
  db
    .insert(timeEntries)
    .select(
      sql`select ${p('id')}::text, ${p('workspaceId')}::text, ${p('projectId')}::text, ${p('userId')}::text,
          ${p('start')}::timestamptz, ${p('minutes')}::int, ${p('description')}::text, ${p('tags')}::text[],
          ${billableOf(sql`${p('billable')}::boolean`, sql`${p('projectId')}::text`, sql`${p('workspaceId')}::text`)},
          ${p('createdAt')}::timestamptz, ${p('createdAt')}::timestamptz
        where ${mayLogEntry({ actorId: p('actorId'), workspaceId: p('workspaceId'), userId: p('userId'), projectId: p('projectId') })}
          and (select tc.entries from time_entry_counts tc
            where tc.workspace_id = ${p('workspaceId')}::text and tc.user_id = ${p('userId')}::text for update) < ${p('quota')}::int`,
    )
    .returning()
    .prepare('insert_time_entry'),
);

export async function insertEntryIfAllowed(db: Db, entry: NewEntry, actorId: string, quota: number): Promise<TimeEntryRow | undefined> {
  const [row] = await insertIfAllowed(db).execute({
    ...entry,
    start: entry.start.toISOString(),
    createdAt: entry.createdAt.toISOString(),
    actorId,
    quota,
  });
  return row;
}

/** The entry when `readerId` may read it; undefined hides missing and unreadable alike. */
export async function findReadableEntry(db: Db, id: string, readerId: string): Promise<TimeEntryRow | undefined> {
  const [row] = await db
    .select()
    .from(timeEntries)
    .where(and(eq(timeEntries.id, id), entryReadableBy(readerId)));
  return row;
}

/** What separates a workspace's id from a tag in chronicle_workspace_tags (`chr(31)`, the unit separator). */
const TAG_SEPARATOR = '\u001f';

/**
 * The workspace and tag conditions of a list, for its page or for its count. The page reads the
 * workspace's entries newest first (its `(workspace, start)` index) and stops at the page's end,
 * so a tag is a filter on the way. The count visits every match: a tag within one workspace is
 * looked up in the index of tags qualified by their workspace (migration 0025_workspace_tags),
 * which holds that workspace's matches alone and implies the workspace (with the workspace's own
 * condition beside it, the planner would also read all of the workspace's entries to intersect
 * the two). The page with that condition instead sorts every match (24 ms against 3 ms for 4,125
 * matches on PostgreSQL), the count with the page's reads every workspace's entries of the tag.
 */
function workspaceAndTag(filters: EntryFilters, purpose: 'page' | 'count'): SQL[] {
  const { workspaceId, tag } = filters;
  // A workspace id is a UUID; one holding the separator could name another workspace's tag.
  if (purpose === 'count' && workspaceId !== undefined && tag !== undefined && !workspaceId.includes(TAG_SEPARATOR)) {
    const qualified = `${workspaceId}${TAG_SEPARATOR}${tag}`;
    return [sql`chronicle_workspace_tags(${timeEntries.workspaceId}, ${timeEntries.tags}) @> array[${qualified}]::text[]`];
  }
  return [
    ...(workspaceId === undefined ? [] : [eq(timeEntries.workspaceId, workspaceId)]),
    ...(tag === undefined ? [] : [sql`${timeEntries.tags} @> array[${tag}]::text[]`]),
  ];
}

/**
 * The entries a list's page or count takes: each filter a plain column condition so the
 * (workspace|user|project, start) and tag indexes apply, except a workspace and a tag together in
 * a count, which look the tag up within the workspace (workspaceAndTag).
 */
export function entryListCondition(readerId: string, filters: EntryFilters, purpose: 'page' | 'count'): SQL | undefined {
  return and(
    entryReadableBy(readerId),
    ...workspaceAndTag(filters, purpose),
    filters.userId === undefined ? undefined : eq(timeEntries.userId, filters.userId),
    filters.projectId === undefined ? undefined : eq(timeEntries.projectId, filters.projectId),
    filters.from === undefined ? undefined : gte(timeEntries.start, filters.from),
    filters.to === undefined ? undefined : lt(timeEntries.start, filters.to),
  );
}

export function listReadableEntries(
  db: Db,
  readerId: string,
  filters: EntryFilters,
  page: { limit: number; offset: number },
): Promise<TimeEntryRow[]> {
  return db
    .select()
    .from(timeEntries)
    .where(entryListCondition(readerId, filters, 'page'))
    .orderBy(desc(timeEntries.start), desc(timeEntries.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countReadableEntries(db: Db, readerId: string, filters: EntryFilters): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(timeEntries)
    .where(entryListCondition(readerId, filters, 'count'));
  return row?.n ?? 0;
}

export async function updateEntry(db: Db, id: string, patch: Partial<typeof timeEntries.$inferInsert>): Promise<TimeEntryRow | undefined> {
  const [row] = await db.update(timeEntries).set(patch).where(eq(timeEntries.id, id)).returning();
  return row;
}

export async function deleteEntry(db: Db, id: string): Promise<void> {
  await db.delete(timeEntries).where(eq(timeEntries.id, id));
}

/**
 * A batch as two jsonb parameters, which `jsonb_to_recordset` turns back into tables: its distinct
 * (workspace, project, user) triples, and its rows, each naming its triple by position. A batch
 * usually has a handful of triples, so the rows carry a number instead of three ids.
 */
interface BatchParams {
  triples: string;
  rows: string;
  /** The triple of each row, by the row's index. */
  tripleOf: number[];
}

function batchParams(entries: readonly NewEntry[]): BatchParams {
  const positions = new Map<string, number>();
  const triples: { k: number; workspace_id: string; project_id: string | null; user_id: string }[] = [];
  const tripleOf = entries.map((e) => {
    const key = JSON.stringify([e.workspaceId, e.projectId, e.userId]);
    let k = positions.get(key);
    if (k === undefined) {
      k = triples.length;
      positions.set(key, k);
      triples.push({ k, workspace_id: e.workspaceId, project_id: e.projectId, user_id: e.userId });
    }
    return k;
  });
  const rows = entries.map((e, i) => ({
    k: tripleOf[i],
    id: e.id,
    start: e.start.toISOString(),
    minutes: e.minutes,
    description: e.description,
    tags: e.tags,
    billable: e.billable,
  }));
  return { triples: JSON.stringify(triples), rows: JSON.stringify(rows), tripleOf };
}

const TRIPLES = sql.raw('t(k int, workspace_id text, project_id text, user_id text)');
const ROWS = sql.raw('v(k int, id text, start timestamptz, minutes int, description text, tags text[], billable boolean)');

/** A row's keys in the batch statements: the columns of its triple. */
const tripleKeys = (actorId: Arg): NewEntryKeys => ({
  actorId,
  workspaceId: sql`t.workspace_id`,
  userId: sql`t.user_id`,
  projectId: sql`t.project_id`,
});

/**
 * Inserts a whole batch in one statement, every row checked by the rule of `insertIfAllowed`
 * (predicates.ts `mayLogEntry`), and nothing at all unless every row passes. The rule depends
 * only on a row's (workspace, user, project), so it is checked once per distinct triple rather
 * than once per row: a batch from one person on a few projects checks a handful. Returns how many
 * rows were inserted: the whole batch, or none when any row is refused (`batchEntryFacts` then
 * tells which and why). Every row gets the same creation time.
 */
const insertBatchIfAllowed = prepared((db) =>
  db
    .insert(timeEntries)
    .select(
      sql`with t as (select * from jsonb_to_recordset(${p('triples')}::jsonb) as ${TRIPLES}),
        allowed as (select 1 from t where ${mayLogEntry(tripleKeys(p('actorId')))})
        select v.id, t.workspace_id, t.project_id, t.user_id, v.start, v.minutes, v.description, v.tags,
          ${billableOf(sql`v.billable`, sql`t.project_id`, sql`t.workspace_id`)},
          ${p('createdAt')}::timestamptz, ${p('createdAt')}::timestamptz
        from jsonb_to_recordset(${p('rows')}::jsonb) as ${ROWS} join t on t.k = v.k
        where (select count(*) from allowed) = (select count(*) from t)`,
    )
    .returning({ id: timeEntries.id, billable: timeEntries.billable })
    .prepare('insert_time_entries_batch'),
);

/**
 * The `billable` of every row inserted, by entry id: all of the batch, or none when any row was
 * refused. The statement decides `billable` (billableOf), so it comes back from the database.
 */
export async function insertEntriesIfAllowed(
  db: Db,
  entries: readonly NewEntry[],
  actorId: string,
  createdAt: Date,
): Promise<Map<string, boolean>> {
  const { triples, rows } = batchParams(entries);
  const inserted = await insertBatchIfAllowed(db).execute({ triples, rows, actorId, createdAt: createdAt.toISOString() });
  return new Map(inserted.map((row) => [row.id, row.billable]));
}

/** Which parts of predicates.ts `mayLogEntry` hold for an entry. */
export type EntryFacts = Facts<ReturnType<typeof mayLogEntry.parts>>;

/** The parts of `mayLogEntry` for one entry, in one statement: the slow path, run only when the entry was refused. */
export function entryFacts(db: Db, entry: NewEntry, actorId: string): Promise<EntryFacts> {
  return factsOf(db, mayLogEntry.parts({ actorId, workspaceId: entry.workspaceId, userId: entry.userId, projectId: entry.projectId }));
}

/** The parts of `mayLogEntry` for one row of a batch. */
export interface BatchEntryFacts extends EntryFacts {
  /** The row's position in the batch. */
  index: number;
}

/** The facts of every row, from one statement over the batch's triples: the slow path, run only when a batch was refused. */
export async function batchEntryFacts(db: Db, entries: readonly NewEntry[], actorId: string): Promise<BatchEntryFacts[]> {
  const { triples, tripleOf } = batchParams(entries);
  const result = await db.execute(
    sql`select t.k as "k", ${factColumns(mayLogEntry.parts(tripleKeys(actorId)))} from jsonb_to_recordset(${triples}::jsonb) as ${TRIPLES}`,
  );
  const byTriple = new Map(rowsOf<EntryFacts & { k: number }>(result).map(({ k, ...facts }) => [k, facts]));
  return tripleOf.flatMap((k, index) => {
    const facts = byTriple.get(k);
    return facts ? [{ index, ...facts }] : [];
  });
}

/**
 * The first part of predicates.ts `mayAssignProject` that the project fails for an entry of this
 * workspace and user, one statement per part; undefined when the entry may be on it.
 */
export function projectRefusal(
  db: Db,
  projectId: string,
  workspaceId: string,
  userId: string,
): Promise<keyof ReturnType<typeof mayAssignProject.parts> | undefined> {
  return firstFailing(db, mayAssignProject.parts({ projectId, workspaceId, userId }));
}

/** A user's entries in one workspace: what ENTRY_QUOTA_PER_USER counts. */
export interface QuotaKey {
  userId: string;
  workspaceId: string;
}

const quotaKeys = (keys: readonly QuotaKey[]) => JSON.stringify(keys.map((k) => ({ user_id: k.userId, workspace_id: k.workspaceId })));

/**
 * The keys with more than `quota` entries, read from the counts the insert's triggers keep
 * (time_entry_counts). In the transaction of a batch's insert, after it: the insert's upsert of
 * each count holds that row to the end of the transaction, so what is read here is exact even
 * while other processes insert for the same user and workspace.
 */
export async function keysOverQuota(tx: Db, keys: readonly QuotaKey[], quota: number): Promise<QuotaKey[]> {
  const result = await tx.execute(sql`select c.user_id as "userId", c.workspace_id as "workspaceId"
    from time_entry_counts c
    join (select distinct * from jsonb_to_recordset(${quotaKeys(keys)}::jsonb) as q(user_id text, workspace_id text)) q
      on c.user_id = q.user_id and c.workspace_id = q.workspace_id
    where c.entries > ${quota}`);
  return rowsOf<QuotaKey>(result);
}
