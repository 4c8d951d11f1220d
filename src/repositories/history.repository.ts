/** SQL of a report's version history: its content versions, one version, a pair to compare. */
import { and, count, desc, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import { totalOf, type Page, type Paged } from '../lib/paging.js';
import { deliveries, reportContents, reports, sends } from '../db/schema.js';
import { reportStandingColumns, type ReportStanding } from './access.repository.js';
import {
  credentialValues,
  foundCredential,
  preparedWithCredential,
  selectWithCredential,
  type CredentialRead,
  type Reader,
} from './auth.repository.js';
import type { ReportRow } from './reports.repository.js';

const p = (name: string) => sql.placeholder(name);

/**
 * The version was sent at least once (a self-copy counts), read from the send batches as the
 * discussion reads it (discussion.repository.ts `ContentState.shared`).
 */
// Columns of the outer row are named in full: Drizzle leaves the table off in one-table queries,
// where a bare "id" would name the subquery's own column.
const sentColumn =
  sql<boolean>`exists (select 1 from ${sends} s where s.report_id = report_contents.report_id and s.report_content_id = report_contents.id)`.mapWith(
    Boolean,
  );

/** The user holds a delivery of the version (a self-copy included). */
const receivedBy = (userId: SQLWrapper | string) =>
  sql<boolean>`exists (select 1 from ${deliveries} d where d.report_content_id = report_contents.id and d.recipient_user_id = ${userId})`.mapWith(
    Boolean,
  );

/**
 * The document's front matter only (through its closing fence): the header has no `---` line of
 * its own, so the first `\n---\n` closes it. Enough to read a version's name, template and filters
 * without loading its whole body.
 */
const headerColumn = sql<string>`substr(${reportContents.renderedMarkdown}, 1, strpos(${reportContents.renderedMarkdown}, ${'\n---\n'}) + 4)`;

const versionColumns = {
  id: reportContents.id,
  reportId: reportContents.reportId,
  version: reportContents.version,
  createdAt: reportContents.createdAt,
  totalMinutes: reportContents.totalMinutes,
  snapshotProjectIds: reportContents.snapshotProjectIds,
  sent: sentColumn,
};

export interface VersionListRow {
  id: string;
  reportId: string;
  version: number;
  createdAt: Date;
  totalMinutes: number;
  snapshotProjectIds: string[];
  sent: boolean;
  /** The document's front matter (see headerColumn). */
  header: string;
}

/** The report and the reader's standing towards it, in one statement, without any document. */
const reportWithStanding = prepared((db) =>
  db
    .select({ report: reports, ...reportStandingColumns(p('readerId'), reports.workspaceIds) })
    .from(reports)
    .where(eq(reports.id, p('id')))
    .prepare('history_report_with_standing'),
);

export async function findReportWithStanding(
  db: Db,
  id: string,
  readerId: string,
): Promise<{ report: ReportRow; standing: ReportStanding } | undefined> {
  const [row] = await reportWithStanding(db).execute({ id, readerId });
  if (!row) return undefined;
  return { report: row.report, standing: { memberOfAll: row.memberOfAll, adminOfOnlyWorkspace: row.adminOfOnlyWorkspace } };
}

/** One page of the report's content versions, newest first, and how many it has. */
export async function listVersions(db: Db, reportId: string, page: Page): Promise<Paged<VersionListRow>> {
  const where = eq(reportContents.reportId, reportId);
  const rows = await db
    .select({ ...versionColumns, header: headerColumn, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(reportContents)
    .where(where)
    .orderBy(desc(reportContents.version))
    .limit(page.limit)
    .offset(page.offset);
  const total = await totalOf(rows, page, async () => (await db.select({ n: count() }).from(reportContents).where(where))[0]?.n ?? 0);
  return { items: rows.map(({ total: _total, ...row }) => row), total };
}

export interface VersionRow extends Omit<VersionListRow, 'header'> {
  renderedMarkdown: string;
  summary: unknown;
  /** The reader holds a delivery of this version. */
  received: boolean;
}

/** What a reader's read of one version selects: the version, its report, and the reader's standing. */
const versionReadFields = (readerId: SQLWrapper) => ({
  ...versionColumns,
  renderedMarkdown: reportContents.renderedMarkdown,
  summary: reportContents.summary,
  received: receivedBy(readerId),
  report: reports,
  ...reportStandingColumns(readerId, reports.workspaceIds),
});

const versionForReader = prepared((db) =>
  db
    .select(versionReadFields(p('readerId')))
    .from(reportContents)
    .innerJoin(reports, eq(reports.id, reportContents.reportId))
    .where(eq(reportContents.id, p('id')))
    .prepare('history_version_for_reader'),
);

/** The same read for the credential it finds, in the statement that finds it (auth.repository.ts credentialSource). */
const versionForCredential = preparedWithCredential((db, source) =>
  selectWithCredential(db, source, versionReadFields(source.readerId))
    .leftJoin(reportContents, eq(reportContents.id, p('id')))
    .leftJoin(reports, eq(reports.id, reportContents.reportId))
    .prepare(source.name('history_version_for_reader')),
);

export interface VersionForReader {
  version: VersionRow;
  report: ReportRow;
  standing: ReportStanding;
}

type VersionReadRow = VersionRow & { report: ReportRow; memberOfAll: boolean; adminOfOnlyWorkspace: boolean };

function versionForReaderOf(row: VersionReadRow): VersionForReader {
  const { report, memberOfAll, adminOfOnlyWorkspace, ...version } = row;
  return { version, report, standing: { memberOfAll, adminOfOnlyWorkspace } };
}

/**
 * One version with its report, whether the reader received it, and the reader's standing, in one
 * statement; for a credential, the statement that finds it (and charges its user).
 */
export async function findVersionForReader(db: Db, contentId: string, reader: Reader): Promise<CredentialRead<VersionForReader>> {
  if (typeof reader === 'string') {
    const [row] = await versionForReader(db).execute({ id: contentId, readerId: reader });
    return { credential: undefined, value: row && versionForReaderOf(row) };
  }
  const [row] = await versionForCredential(db, reader).execute({ ...credentialValues(reader), id: contentId });
  if (!row) return { credential: undefined, value: undefined };
  const { credential, ...read } = row;
  // Both sides are left-joined to the credential: no version, no report, and the reverse.
  const value = read.report && read.id !== null ? versionForReaderOf(read as VersionReadRow) : undefined;
  return { credential: foundCredential(credential), value };
}

export interface DiffVersionRow extends Omit<VersionRow, 'renderedMarkdown'> {
  /** The document's front matter (see headerColumn). */
  header: string;
  /** The whole document, or null when the documents of the pair are over `maxBodyBytes` together. */
  renderedMarkdown: string | null;
}

/**
 * The versions among `contentIds` that belong to the report, with whether the reader received
 * each. Their documents come only when together they are at most `maxBodyBytes` (UTF-8): a pair
 * too large for a line diff costs its front matter and sizes, not megabytes read, sent and decoded.
 */
export function findVersionPair(
  db: Db,
  reportId: string,
  contentIds: readonly string[],
  readerId: string,
  maxBodyBytes: number,
): Promise<DiffVersionRow[]> {
  return db
    .select({
      ...versionColumns,
      header: headerColumn,
      // A version compared with itself is one row that counts twice, as both sides are diffed.
      renderedMarkdown: sql<string | null>`case when sum(octet_length(${reportContents.renderedMarkdown})) over ()
          * case when count(*) over () = 1 then 2 else 1 end <= ${maxBodyBytes}
        then ${reportContents.renderedMarkdown} end`,
      summary: reportContents.summary,
      received: receivedBy(readerId),
    })
    .from(reportContents)
    .where(and(eq(reportContents.reportId, reportId), inArray(reportContents.id, [...contentIds])));
}
