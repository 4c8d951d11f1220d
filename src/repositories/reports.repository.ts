/** SQL of reports and their immutable content versions. */
import { and, count, desc, eq, gte, lte, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { onlyRow } from '../db/rows.js';
import { prepared } from '../db/prepared.js';
import { isMemberOfAll } from '../modules/access/predicates.js';
import { reportStandingColumns, type ReportStanding } from './access.repository.js';
import {
  credentialValues,
  foundCredential,
  preparedWithCredential,
  selectWithCredential,
  type CredentialRead,
  type Reader,
} from './auth.repository.js';
import { reportContents, reportDatasets, reports, shares } from '../db/schema.js';

export type ReportRow = typeof reports.$inferSelect;
export type ReportWithContent = ReportRow & { renderedMarkdown: string };

type ContentRow = typeof reportContents.$inferInsert;
type DatasetRow = typeof reportDatasets.$inferInsert;

/** A content version and, when it keeps one, its dataset. */
async function insertContent(db: Db, content: ContentRow, dataset: DatasetRow | null): Promise<void> {
  await db.insert(reportContents).values(content);
  if (dataset) await db.insert(reportDatasets).values(dataset);
}

/** Inserts a report with its first content version (the caller's transaction makes them one write). */
export async function insertReport(
  db: Db,
  report: typeof reports.$inferInsert,
  content: ContentRow,
  dataset: DatasetRow | null = null,
): Promise<ReportRow> {
  // The report's key to its current content is deferred to commit, so the report goes in first.
  const row = onlyRow(await db.insert(reports).values(report).returning());
  await insertContent(db, content, dataset);
  return row;
}

export async function findReport(db: Db, id: string): Promise<ReportRow | undefined> {
  const [row] = await db.select().from(reports).where(eq(reports.id, id));
  return row;
}

/** The report row, locked against every other edit until the caller's transaction ends. */
export async function lockReportForEdit(db: Db, id: string): Promise<ReportRow | undefined> {
  const [row] = await db.select().from(reports).where(eq(reports.id, id)).for('no key update');
  return row;
}

/** What a reader's read of a report selects: the row, its current document and the reader's standing. */
const reportReadFields = (readerId: SQL | Placeholder) => ({
  report: reports,
  renderedMarkdown: reportContents.renderedMarkdown,
  ...reportStandingColumns(readerId, reports.workspaceIds),
});

const reportForReader = prepared((db) =>
  db
    .select(reportReadFields(sql.placeholder('readerId')))
    .from(reports)
    .innerJoin(reportContents, eq(reportContents.id, reports.currentContentId))
    .where(eq(reports.id, sql.placeholder('id')))
    .prepare('report_for_reader'),
);

/** The same read for the credential it finds, in the statement that finds it (auth.repository.ts credentialSource). */
const reportForCredential = preparedWithCredential((db, source) =>
  selectWithCredential(db, source, reportReadFields(source.readerId))
    .leftJoin(reports, eq(reports.id, sql.placeholder('id')))
    .leftJoin(reportContents, eq(reportContents.id, reports.currentContentId))
    .prepare(source.name('report_for_reader')),
);

export interface ReportForReader {
  report: ReportWithContent;
  standing: ReportStanding;
}

type ReportReadRow = { report: ReportRow | null; renderedMarkdown: string | null; memberOfAll: boolean; adminOfOnlyWorkspace: boolean };

const reportForReaderOf = (row: ReportReadRow | undefined): ReportForReader | undefined =>
  row?.report && row.renderedMarkdown !== null
    ? {
        report: { ...row.report, renderedMarkdown: row.renderedMarkdown },
        standing: { memberOfAll: row.memberOfAll, adminOfOnlyWorkspace: row.adminOfOnlyWorkspace },
      }
    : undefined;

/**
 * The report with its current document and the reader's standing towards it, in one statement; for
 * a credential, that statement also finds it (and charges its user).
 */
export async function findReportForReader(db: Db, id: string, reader: Reader): Promise<CredentialRead<ReportForReader>> {
  if (typeof reader === 'string') {
    const [row] = await reportForReader(db).execute({ id, readerId: reader });
    return { credential: undefined, value: reportForReaderOf(row) };
  }
  const [row] = await reportForCredential(db, reader).execute({ ...credentialValues(reader), id });
  return { credential: row && foundCredential(row.credential), value: reportForReaderOf(row) };
}

/**
 * Appends version `expectedVersion + 1` and moves the report to it, only if the report is still at
 * `expectedVersion`: a concurrent edit makes this return undefined and the caller renders again.
 */
export async function appendVersion(
  db: Db,
  expectedVersion: number,
  patch: Omit<typeof reports.$inferInsert, 'ownerUserId' | 'createdAt'> & { id: string },
  content: ContentRow,
  dataset: DatasetRow | null = null,
): Promise<ReportRow | undefined> {
  const [row] = await db
    .update(reports)
    .set(patch)
    .where(and(eq(reports.id, patch.id), eq(reports.version, expectedVersion)))
    .returning();
  if (!row) return undefined;
  await insertContent(db, content, dataset);
  // Links that follow the newest version serve this one from the moment it commits (delivery.md §2).
  await db
    .update(shares)
    .set({ reportContentId: content.id, version: content.version })
    .where(and(eq(shares.reportId, patch.id), eq(shares.follows, 'latest')));
  return row;
}

export async function deleteReport(db: Db, id: string): Promise<void> {
  await db.delete(reports).where(eq(reports.id, id));
}

export interface ListFilter {
  ownerUserId?: string;
  /** Reports scoped to exactly this one workspace. */
  singleWorkspaceId?: string;
  templateId?: string;
  projectId?: string;
  from?: string;
  to?: string;
  limit?: number;
  offset: number;
}

/** The filters a list has, in a fixed order: which of them are present is the list statement's shape. */
const LIST_FILTERS = ['ownerUserId', 'singleWorkspaceId', 'templateId', 'projectId', 'from', 'to'] as const;
type ListFilterName = (typeof LIST_FILTERS)[number];

const p = (name: ListFilterName | 'limit' | 'offset' | 'readerId') => sql.placeholder(name);

/** The condition of one filter, its value a placeholder of its own name. */
const LIST_CONDITIONS: Record<ListFilterName, () => SQL | undefined> = {
  ownerUserId: () => eq(reports.ownerUserId, p('ownerUserId')),
  singleWorkspaceId: () => sql`${reports.workspaceIds} = array[${p('singleWorkspaceId')}]::text[]`,
  templateId: () => eq(reports.templateId, p('templateId')),
  projectId: () =>
    or(sql`${reports.filters} -> 'projectIds' ? ${p('projectId')}`, sql`${reports.snapshotProjectIds} @> array[${p('projectId')}]::text[]`),
  from: () => gte(reports.periodTo, p('from')),
  to: () => lte(reports.periodFrom, p('to')),
};

/** The filters `f` has, in LIST_FILTERS order. */
const presentFilters = (f: ListFilter): ListFilterName[] => LIST_FILTERS.filter((name) => f[name] !== undefined && f[name] !== '');

const listWhere = (present: readonly ListFilterName[]): SQL | undefined => and(...present.map((name) => LIST_CONDITIONS[name]()));

/** A report as lists show it, with the reader's membership of all its workspaces. */
export type ReportListRow = Pick<
  ReportRow,
  | 'id'
  | 'name'
  | 'ownerUserId'
  | 'templateId'
  | 'filters'
  | 'options'
  | 'note'
  | 'totalMinutes'
  | 'snapshotProjectIds'
  | 'version'
  | 'createdAt'
  | 'updatedAt'
> & { readerMemberOfAll: boolean };

function listStatement(db: Db, present: readonly ListFilterName[], limited: boolean, offset: boolean, name: string) {
  const ids = db
    .select({ id: reports.id, total: sql<number>`count(*) over ()`.as('total') })
    .from(reports)
    .where(listWhere(present))
    .orderBy(desc(reports.createdAt), desc(reports.id));
  const from = offset ? ids.offset(p('offset')) : ids;
  const page = (limited ? from.limit(p('limit')) : from).as('page');
  return db
    .select({
      id: reports.id,
      name: reports.name,
      ownerUserId: reports.ownerUserId,
      templateId: reports.templateId,
      filters: reports.filters,
      options: reports.options,
      note: reports.note,
      totalMinutes: reports.totalMinutes,
      snapshotProjectIds: reports.snapshotProjectIds,
      version: reports.version,
      createdAt: reports.createdAt,
      updatedAt: reports.updatedAt,
      // The reader's workspaces are read once for the page, not once per row (isMemberOfAll).
      readerMemberOfAll: isMemberOfAll(reports.workspaceIds, p('readerId')).mapWith(Boolean),
      total: sql<number>`${page.total}`.mapWith(Number),
    })
    .from(page)
    .innerJoin(reports, eq(reports.id, page.id))
    .orderBy(desc(reports.createdAt), desc(reports.id))
    .prepare(name);
}

const listCount = (db: Db, present: readonly ListFilterName[], name: string) =>
  db.select({ n: count() }).from(reports).where(listWhere(present)).prepare(name);

/**
 * The list's statements, one per shape (which filters are present, whether the page is limited
 * and offset): at most 256, each built and prepared once per database handle, so a list request
 * neither builds its query nor has PostgreSQL plan it again.
 */
const listStatements = new Map<
  string,
  { page: (db: Db) => ReturnType<typeof listStatement>; count: (db: Db) => ReturnType<typeof listCount> }
>();

function listStatementsFor(f: ListFilter) {
  const present = presentFilters(f);
  const limited = f.limit !== undefined;
  const offset = f.offset > 0;
  const shape = [...LIST_FILTERS.map((name) => (present.includes(name) ? '1' : '0')), limited ? '1' : '0', offset ? '1' : '0'].join('');
  let statements = listStatements.get(shape);
  if (!statements) {
    statements = {
      page: prepared((db) => listStatement(db, present, limited, offset, `reports_list_${shape}`)),
      count: prepared((db) => listCount(db, present, `reports_list_count_${shape}`)),
    };
    listStatements.set(shape, statements);
  }
  return statements;
}

/**
 * One page of reports, newest first with the id as tie-break, and the size of the whole filtered
 * set, in one statement: a narrow page of ids (ordered by the owner index, counted by a window)
 * is joined back to the wide rows, so only the page's rows are read in full and only they get the
 * reader's membership check. Only a page past the end needs a second statement to count.
 */
export async function listReports(db: Db, f: ListFilter, readerId: string): Promise<{ rows: ReportListRow[]; total: number }> {
  const statements = listStatementsFor(f);
  const values = { ...f, readerId };
  const found = await statements.page(db).execute(values);
  const total = found[0]?.total ?? (f.offset > 0 ? ((await statements.count(db).execute(values))[0]?.n ?? 0) : 0);
  return { rows: found.map(({ total: _total, ...row }) => row), total };
}

/** The distinct template ids of the owner's reports, the one used by the newest report first (ties: id desc). */
export async function listTemplateIds(db: Db, ownerUserId: string): Promise<string[]> {
  const rows = await db
    .select({ templateId: reports.templateId })
    .from(reports)
    .where(eq(reports.ownerUserId, ownerUserId))
    .groupBy(reports.templateId)
    .orderBy(desc(sql`max(${reports.createdAt})`), desc(reports.templateId));
  return rows.map((r) => r.templateId);
}
