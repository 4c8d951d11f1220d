/**
 * Version history (docs/api.md "Version history"): a report's immutable versions, one version as
 * JSON or as its Markdown document, and what changed between two versions.
 */
import contentDisposition from 'content-disposition';
import { LRUCache } from 'lru-cache';
import type { Actor, AppContext } from '../../context.js';
import { notFound } from '../../lib/errors.js';
import type { Page, Paged } from '../../lib/paging.js';
import { safeFileStem } from '../../lib/file-names.js';
import * as repo from '../../repositories/history.repository.js';
import { chargeWork, readAs, type Caller } from '../auth/auth.js';
import { requireDiffReader, requireHistoryReader, requireVersionReader } from '../access/access.js';
import { parseSummary } from '../reports/version-summary.js';
import type { ReportContent, Version, VersionDiff } from './history.schemas.js';
import { diffVersions, MAX_DIFF_BYTES, type DiffSide, type LineDiff } from './version-diff.js';
import { checkedMeta, versionMeta, type VersionMeta } from './version-meta.js';

/**
 * What each version's front matter says, by the version's id: a version never changes, and reading
 * a front matter's YAML costs about a quarter of a millisecond, which a report with a year of
 * daily versions paid some 260 times on every read of its list. Bounded by count (an entry is a
 * few hundred bytes).
 */
const metaById = new LRUCache<string, { meta: VersionMeta | null }>({ max: 20_000 });

/** Front matters read on the event loop at most; a list with more unread goes to a render worker. */
const INLINE_FRONT_MATTERS = 8;

/** One version's front matter, from the whole document or its header, remembered by its id. */
function metaOf(id: string, document: string): VersionMeta | null {
  const known = metaById.get(id);
  if (known) return known.meta;
  const meta = versionMeta(document);
  metaById.set(id, { meta });
  return meta;
}

/**
 * The front matters of a list of versions, in order: those read before from memory, a few more on
 * this thread, and many more in a render worker, admitted by the render gate as the caller's
 * render and charged to the caller by their size.
 */
async function metasOf(ctx: AppContext, actor: Actor, rows: readonly { id: string; header: string }[]): Promise<(VersionMeta | null)[]> {
  const known = rows.map((row) => metaById.get(row.id)?.meta);
  const unread = rows.filter((_row, i) => known[i] === undefined);
  if (unread.length <= INLINE_FRONT_MATTERS) return rows.map((row, i) => known[i] ?? metaOf(row.id, row.header));
  const read = await ctx.renderGate.run(actor.user.id, () => ctx.renderer.versionMeta(unread.map((row) => row.header)));
  await chargeWork(
    ctx,
    actor.user.id,
    unread.reduce((bytes, row) => bytes + row.header.length, 0),
  );
  const fresh = new Map(unread.map((row, i) => [row.id, checkedMeta(read[i] ?? null)]));
  for (const [id, meta] of fresh) metaById.set(id, { meta });
  return rows.map((row, i) => known[i] ?? fresh.get(row.id) ?? null);
}

/** The fields of a version row with what its front matter says (name, template, filters). */
function toVersion(row: Omit<repo.VersionListRow, 'header'>, meta: VersionMeta | null, reportName: string): Version {
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

/** One page of the report's versions, newest first, and how many it has; the report's readers only. */
export async function listVersions(ctx: AppContext, actor: Actor, reportId: string, page: Page): Promise<Paged<Version>> {
  const found = await repo.findReportWithStanding(ctx.db, reportId, actor.user.id);
  requireHistoryReader(found, actor);
  const { items: rows, total } = await repo.listVersions(ctx.db, reportId, page);
  const metas = await metasOf(ctx, actor, rows);
  return { items: rows.map(({ header: _header, ...row }, i) => toVersion(row, metas[i] ?? null, found.report.name)), total };
}

/** One version with its document and summary: the report's readers and the version's recipients. */
/** One version; for a caller whose credential is still to be found, in the one statement that finds it. */
export async function getVersion(ctx: AppContext, caller: Caller, contentId: string): Promise<ReportContent> {
  const { actor, value: found } = await readAs(caller, (reader) => repo.findVersionForReader(ctx.db, contentId, reader));
  requireVersionReader(found, actor);
  const { version, report } = found;
  return {
    ...toVersion(version, metaOf(version.id, version.renderedMarkdown), report.name),
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
    meta: metaOf(row.id, row.header),
  };
}
