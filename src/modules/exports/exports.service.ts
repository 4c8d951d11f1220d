/**
 * Exports of a version (docs/exports.md): its Markdown and JSON as the version read answers them,
 * and files made from what the version stored (its dataset), never from live entries. Files are
 * made in a render worker, admitted by the render gate as one of the caller's renders and charged
 * by their size, so nobody's export holds the process or anyone else's work.
 */
import contentDisposition from 'content-disposition';
import type { Actor, AppContext } from '../../context.js';
import { AppError, conflict } from '../../lib/errors.js';
import type { FileJob } from '../../render/file-pool.js';
import type { PdfBranding } from '../../render/pdf/render-pdf.js';
import { brandingOf } from '../branding/branding.service.js';
import { TemplateError } from '../../render/template-engine.js';
import { safeFileStem } from '../../lib/file-names.js';
import { findDataset, findDatasetLocale } from '../../repositories/exports.repository.js';
import { findVersionForReader } from '../../repositories/history.repository.js';
import { requireVersionReader } from '../access/access.js';
import { chargeWork } from '../auth/auth.js';
import { getVersion } from '../history/history.service.js';
import { parseDocument } from '../../../packages/document/src/index.js';
import { readsDatasetFormat } from './dataset.js';

export const EXPORT_FORMATS = ['pdf', 'csv', 'xlsx', 'md', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const CONTENT_TYPES: Record<ExportFormat, string> = {
  pdf: 'application/pdf',
  csv: 'text/csv; charset=utf-8; header=present',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  md: 'text/markdown; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

export interface ExportFile {
  body: Uint8Array | string;
  contentType: string;
  /** The Content-Disposition header: an attachment named by `exportFileName`. */
  disposition: string;
}

/** What a version is called as a file: its name when rendered, its period and its version. */
export interface FileIdentity {
  name: string;
  period: { from: string; to: string };
  version: number;
}

/**
 * `Acme November timesheet 2026-11-01–2026-11-30 v3.pdf`: the report's name as the version
 * recorded it, its period and its version, safe as a file name on every system (file-names.ts).
 */
export function exportFileName(file: FileIdentity, extension: string): string {
  const stem = safeFileStem(file.name);
  return `${stem} ${file.period.from}\u2013${file.period.to} v${file.version}.${extension}`;
}

export const exportDisposition = (file: FileIdentity, extension: string): string => contentDisposition(exportFileName(file, extension));

/** A version's name and period as its front matter records them. */
interface RecordedIdentity {
  name: string;
  period: { from: string; to: string };
}

/**
 * What versions' front matters name them, by content id. A version never changes, so its front
 * matter is read (YAML, about a millisecond) once per process rather than for every mail that
 * names it: a send to many teammates, or a link's mail to many addresses, is one version
 * (docs/performance.md "Mail that read its version for every message (3 December 2026)"). At most
 * `MAX_RECORDED` are kept; the oldest go first.
 */
const recorded = new Map<string, RecordedIdentity>();
const MAX_RECORDED = 1_000;

function recordedIdentity(markdown: string, contentId: string): RecordedIdentity | null {
  const kept = recorded.get(contentId);
  if (kept) return kept;
  const meta = parseDocument(markdown).frontMatter;
  const found = meta ? { name: meta.report.name, period: { from: meta.period.from, to: meta.period.to } } : null;
  // Only what was read: a document whose head a mail read may hold its whole front matter later.
  if (found) {
    if (recorded.size >= MAX_RECORDED) recorded.delete(recorded.keys().next().value ?? '');
    recorded.set(contentId, found);
  }
  return found;
}

/**
 * A version's name and period from its front matter, else from its report (read each time: the
 * report's name may change). `contentId`: the version whose document `markdown` is (or begins
 * with), so that its front matter is read once per process.
 */
export function fileIdentity(
  markdown: string,
  report: { name: string; periodFrom: string; periodTo: string },
  version: number,
  contentId: string,
): FileIdentity {
  const found = recordedIdentity(markdown, contentId);
  return {
    name: found?.name ?? report.name,
    period: found ? { ...found.period } : { from: report.periodFrom, to: report.periodTo },
    version,
  };
}

/**
 * A version as a file: the same readers as the version itself (`requireVersionReader`; 404 for
 * everyone else). CSV and XLSX need the version's dataset: a version rendered before datasets
 * were kept is a 409 saying so.
 */
export async function exportVersion(ctx: AppContext, actor: Actor, contentId: string, format: ExportFormat): Promise<ExportFile> {
  const { value: found } = await findVersionForReader(ctx.db, contentId, actor.user.id);
  requireVersionReader(found, actor);
  const { version, report } = found;
  const identity = fileIdentity(version.renderedMarkdown, report, version.version, contentId);
  const disposition = exportDisposition(identity, format);
  if (format === 'md') return { body: version.renderedMarkdown, contentType: CONTENT_TYPES.md, disposition };
  if (format === 'json') {
    const json = JSON.stringify(await getVersion(ctx, actor, contentId));
    return { body: json, contentType: CONTENT_TYPES.json, disposition };
  }
  const body =
    format === 'pdf'
      ? await pdfFile(ctx, actor.user.id, { markdown: version.renderedMarkdown, report, identity, contentId })
      : await datasetFile(ctx, actor.user.id, contentId, format, identity, version.createdAt);
  return { body, contentType: CONTENT_TYPES[format], disposition };
}

/** What a PDF is made of: the version's document, and its report for what the document does not record. */
export interface PdfSource {
  markdown: string;
  report: { name: string; periodFrom: string; periodTo: string; options: unknown; workspaceIds: string[] };
  identity: FileIdentity;
  contentId: string;
  /** The version's locale when the caller has read it already (`versionLocale`). */
  locale?: string;
}

/**
 * The version's PDF, made from its Markdown alone (so versions from before datasets have one too),
 * on the paper of the locale it was rendered in (its dataset records it; an older version takes
 * its report's), in a worker behind the render gate of `gateKey`.
 */
export async function pdfFile(ctx: AppContext, gateKey: string, source: PdfSource, chargeTo: string | null = gateKey): Promise<Uint8Array> {
  const meta = parseDocument(source.markdown).frontMatter;
  const locale = source.locale ?? (await versionLocale(ctx, source.contentId, source.report));
  const pdf = {
    markdown: source.markdown,
    title: source.identity.name,
    period: source.identity.period,
    ownerName: meta?.owner.name ?? '',
    version: source.identity.version,
    generatedAt: meta?.generatedAt ?? new Date(0).toISOString(),
    timezone: meta?.timezone ?? 'UTC',
    locale,
    // The workspace's look as it is now, like the share page's: a PDF is the version in today's letterhead.
    branding: await pdfBranding(ctx, source.report.workspaceIds[0]),
  };
  const file = await makeFile(ctx, gateKey, { format: 'pdf', pdf });
  if (chargeTo) await chargeWork(ctx, chargeTo, source.markdown.length * 8 + file.byteLength);
  return file;
}

/** The branding of a report's first workspace, or null when it has none. */
async function pdfBranding(ctx: AppContext, workspaceId: string | undefined): Promise<PdfBranding | null> {
  if (!workspaceId) return null;
  const branding = await brandingOf(ctx.db, workspaceId);
  const empty = !branding.displayName && !branding.accentColor && !branding.footerMarkdown && !branding.logoPng;
  return empty ? null : branding;
}

/** The locale a version was rendered in: its dataset records it; an older version takes its report's. */
export async function versionLocale(ctx: AppContext, contentId: string, report: { options: unknown }): Promise<string> {
  const recorded = await findDatasetLocale(ctx.db, contentId);
  if (recorded) return recorded;
  const locale = (report.options as { locale?: unknown } | null)?.locale;
  return typeof locale === 'string' ? locale : 'en';
}

/**
 * A file made in a file process (file-pool.ts) behind the render gate. A file past its bounds is a 409 that says which
 * (a PDF of more table cells than one may have); past its time or memory, a 503 to retry later.
 */
async function makeFile(ctx: AppContext, gateKey: string, job: FileJob): Promise<Uint8Array> {
  try {
    return await ctx.renderGate.run(gateKey, () => ctx.renderer.file(job));
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    // The worker's own bounds say "... limit exceeded ..."; a file's bounds say what they are.
    if (error.kind === 'limit' && !/limit exceeded/.test(error.message)) {
      throw conflict(`${error.message} The version's CSV and XLSX have every row.`);
    }
    throw new AppError(
      'unavailable',
      `The ${job.format.toUpperCase()} could not be made within its time and memory; try again shortly.`,
      undefined,
      {
        'Retry-After': '10',
      },
    );
  }
}

/** The CSV or XLSX of a stored dataset, made in a file process behind the render gate of `gateKey` and charged to `chargeTo`. */
export async function datasetFile(
  ctx: AppContext,
  gateKey: string,
  contentId: string,
  format: 'csv' | 'xlsx',
  identity: FileIdentity,
  createdAt: Date,
  chargeTo: string | null = gateKey,
): Promise<Uint8Array> {
  const stored = await findDataset(ctx.db, contentId);
  if (!stored) {
    throw conflict(
      `Version ${identity.version} was rendered before Chronicle kept the rows each version shows, so it has no ${format.toUpperCase()}; its PDF and Markdown are available, and a new version of the report has every format.`,
    );
  }
  if (!readsDatasetFormat(stored.format)) {
    throw conflict(`Version ${identity.version} keeps its rows in a format this release cannot read.`);
  }
  const title = `${identity.name} ${identity.period.from}\u2013${identity.period.to} v${identity.version}`;
  const file = await makeFile(ctx, gateKey, { format, data: stored.data, title, createdAt: createdAt.toISOString() });
  if (chargeTo) await chargeWork(ctx, chargeTo, stored.data.length + file.byteLength);
  return file;
}
