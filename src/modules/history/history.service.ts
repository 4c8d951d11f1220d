/**
 * Version history (docs/api.md "Version history"): a report's immutable versions, one version as
 * JSON or as its Markdown document, and what changed between two versions.
 */
import contentDisposition from 'content-disposition';
import type { Actor, AppContext } from '../../context.js';
import { notFound } from '../../lib/errors.js';
import { safeFileStem } from '../../lib/file-names.js';
import * as repo from '../../repositories/history.repository.js';
import { chargeWork, readAs, type Caller } from '../auth/auth.js';
import { requireDiffReader, requireHistoryReader, requireVersionReader } from '../access/access.js';
import { parseSummary } from '../reports/version-summary.js';
import type { ReportContent, Version, VersionDiff } from './history.schemas.js';
import { diffVersions, MAX_DIFF_BYTES, type DiffSide, type LineDiff } from './version-diff.js';
import { versionMeta } from './version-meta.js';

/** The fields of a version row with what its front matter says (name, template, filters). */
function toVersion(row: Omit<repo.VersionListRow, 'header'>, document: string, reportName: string): Version {
  const meta = versionMeta(document);
  return {
    reportContentId: row.id,
    reportId: row.reportId,
    version: row.version,
    name: meta?.name ?? reportName,
    createdAt: row.createdAt.toISOString(),
    totalMinutes: row.totalMinutes,
    snapshotProjectIds: row.snapshotProjectIds,
    templateId: meta?.templateId ?? null,
    filters: meta?.filters ?? null,
    sent: row.sent,
  };
}

/** Every version of the report, newest first; the report's readers only. */
export async function listVersions(ctx: AppContext, actor: Actor, reportId: string): Promise<Version[]> {
  const found = await repo.findReportWithStanding(ctx.db, reportId, actor.user.id);
  requireHistoryReader(found, actor);
  const rows = await repo.listVersions(ctx.db, reportId);
  return rows.map(({ header, ...row }) => toVersion(row, header, found.report.name));
}

/** One version with its document and summary: the report's readers and the version's recipients. */
/** One version; for a caller whose credential is still to be found, in the one statement that finds it. */
export async function getVersion(ctx: AppContext, caller: Caller, contentId: string): Promise<ReportContent> {
  const { actor, value: found } = await readAs(caller, (reader) => repo.findVersionForReader(ctx.db, contentId, reader));
  requireVersionReader(found, actor);
  const { version, report } = found;
  return {
    ...toVersion(version, version.renderedMarkdown, report.name),
    summary: parseSummary(version.summary),
    renderedMarkdown: version.renderedMarkdown,
  };
}

/**
 * A file name for a version's download: `<name>-v<version>.md`, the name made safe by
 * `safeFileStem`. content-disposition then quotes it, with an ASCII fallback and the UTF-8 form
 * (RFC 6266).
 */
export function downloadFileName(name: string, version: number): string {
  return `${safeFileStem(name)}-v${version}.md`;
}

/** The Content-Disposition header of a version's Markdown download. */
export function downloadDisposition(content: Pick<ReportContent, 'name' | 'version'>): string {
  return contentDisposition(downloadFileName(content.name, content.version));
}

/**
 * What changed from one version to another (either order); the report's readers, and those who
 * received both versions. Both must be versions of this report.
 */
export async function diff(ctx: AppContext, actor: Actor, reportId: string, fromId: string, toId: string): Promise<VersionDiff> {
  const found = await repo.findReportWithStanding(ctx.db, reportId, actor.user.id);
  if (!found) throw notFound();
  const rows = await repo.findVersionPair(ctx.db, reportId, [fromId, toId], actor.user.id, MAX_DIFF_BYTES);
  const versions = { from: rows.find((r) => r.id === fromId), to: rows.find((r) => r.id === toId) };
  requireDiffReader(found.report, found.standing, versions, actor);
  const lines = await lineDiff(ctx, actor, versions.from, versions.to);
  return diffVersions(reportId, diffSide(versions.from), diffSide(versions.to), lines);
}

/**
 * The line diff runs in a render worker, admitted by the render gate as the caller's render, and
 * is not tried on documents over MAX_DIFF_BYTES together, which are not even read (docs/decisions.md
 * "Version history").
 */
async function lineDiff(ctx: AppContext, actor: Actor, from: repo.DiffVersionRow, to: repo.DiffVersionRow): Promise<LineDiff> {
  const fromMarkdown = from.renderedMarkdown;
  const toMarkdown = to.renderedMarkdown;
  if (fromMarkdown === null || toMarkdown === null) return { markdownDiff: null, markdownDiffOmitted: 'too-large' };
  const markdownDiff = await ctx.renderGate.run(actor.user.id, () =>
    ctx.renderer.diff({
      fromMarkdown,
      toMarkdown,
      fromVersion: from.version,
      toVersion: to.version,
    }),
  );
  await chargeWork(ctx, actor.user.id, fromMarkdown.length + toMarkdown.length);
  return { markdownDiff, markdownDiffOmitted: markdownDiff === null ? 'too-many-edits' : null };
}

function diffSide(row: repo.DiffVersionRow): DiffSide {
  return {
    reportContentId: row.id,
    version: row.version,
    createdAt: row.createdAt,
    totalMinutes: row.totalMinutes,
    summary: parseSummary(row.summary),
    meta: versionMeta(row.header),
  };
}
