/** SQL of exports: a version's stored dataset (docs/exports.md). */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { rowsOf } from '../db/rows.js';
import { reportContents, reportDatasets, reports } from '../db/schema.js';

export interface StoredDataset {
  format: number;
  entryCount: number;
  data: string;
}

/** The dataset stored with a content version; undefined for a version rendered before datasets were kept. */
export async function findDataset(db: Db, contentId: string): Promise<StoredDataset | undefined> {
  const [row] = await db
    .select({ format: reportDatasets.format, entryCount: reportDatasets.entryCount, data: reportDatasets.data })
    .from(reportDatasets)
    .where(eq(reportDatasets.contentId, contentId));
  return row;
}

/** The locale a version was rendered in, as its dataset records it; undefined without a dataset. */
export async function findDatasetLocale(db: Db, contentId: string): Promise<string | undefined> {
  const [row] = await db.select({ locale: reportDatasets.locale }).from(reportDatasets).where(eq(reportDatasets.contentId, contentId));
  return row?.locale;
}

export interface VersionFileSource {
  renderedMarkdown: string;
  version: number;
  createdAt: Date;
  report: { name: string; periodFrom: string; periodTo: string; options: unknown; workspaceIds: string[] };
}

/** What a version's file, mail or name needs of its report: its name, period, options and workspaces. */
export const versionReportColumns = {
  name: reports.name,
  periodFrom: reports.periodFrom,
  periodTo: reports.periodTo,
  options: reports.options,
  workspaceIds: reports.workspaceIds,
};

/** What a version's files are made of, by content id (the viewer's downloads; access is the caller's). */
export async function findVersionFileSource(db: Db, contentId: string): Promise<VersionFileSource | undefined> {
  const [row] = await db
    .select({
      renderedMarkdown: reportContents.renderedMarkdown,
      version: reportContents.version,
      createdAt: reportContents.createdAt,
      report: versionReportColumns,
    })
    .from(reportContents)
    .innerJoin(reports, eq(reports.id, reportContents.reportId))
    .where(eq(reportContents.id, contentId));
  return row;
}

/**
 * Counts one download through a share link, only while the link serves (not revoked, not expired
 * at `now`), in one statement; false: the link no longer serves.
 */
export async function countDownload(db: Db, shareId: string, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const result = await db.execute(sql`
    update shares set download_count = download_count + 1
    where id = ${shareId} and revoked_at is null and (expires_at is null or expires_at > ${at}::timestamptz)
    returning id`);
  return rowsOf(result).length > 0;
}

/** The branding version of a version's report's first workspace (0 without one): a PDF made under another is stale. */
export async function brandingVersionOf(db: Db, contentId: string): Promise<number> {
  const result = await db.execute(sql`
    select coalesce(w.branding_version, 0) as version
    from report_contents rc join reports r on r.id = rc.report_id left join workspaces w on w.id = r.workspace_ids[1]
    where rc.id = ${contentId}`);
  return Number(rowsOf<{ version: number | string }>(result)[0]?.version ?? 0);
}
