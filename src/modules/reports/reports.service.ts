/** Reports (reports-api.md section 4.1): create, preview, read, list, edit, delete. */
import type { AppContext } from '../../http/types.js';
import { badRequest, conflict, forbidden, notFound, type FieldError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { MAX_RANGE_DAYS, rangeSpanDays } from '../../render/date-range.js';
import { isAdminRole, workspaceRole, workspaceRoles } from '../access/access.repository.js';
import type { AuthContext } from '../auth/auth.js';
import { findTemplate } from '../templates/templates.repository.js';
import { projectsInWorkspaces } from './report-data.repository.js';
import { isActiveOwner, reportReadGrant } from './report-access.js';
import { renderReport, resolveFilters, type RenderedReport } from './report-renderer.js';
import * as repo from './reports.repository.js';
import type { Filters, ListQuery, Preview, Report, ReportBody, ReportSummary } from './reports.schemas.js';

/** Edits that lose the race to a concurrent edit render again; this bounds the retries. */
const MAX_EDIT_ATTEMPTS = 5;

export function toReportSummary(row: repo.ReportRow): ReportSummary {
  return {
    id: row.id,
    name: row.name,
    ownerUserId: row.ownerUserId,
    templateId: row.templateId,
    filters: row.filters as Filters,
    note: row.note,
    totalMinutes: row.totalMinutes,
    snapshotProjectIds: row.snapshotProjectIds,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toReport(row: repo.ReportWithContent): Report {
  return { ...toReportSummary(row), reportContentId: row.currentContentId, renderedMarkdown: row.renderedMarkdown };
}

/** A blank note (empty or whitespace only) collapses to null. */
const normaliseNote = (note: string | null | undefined): string | null => (note && note.trim() !== '' ? note : null);

interface PreparedRender {
  filters: Filters;
  preset: string | null;
  template: NonNullable<Awaited<ReturnType<typeof findTemplate>>>;
  note: string | null;
}

/**
 * The gates shared by create, preview and edit: the caller belongs to every filtered workspace,
 * every project belongs to one of them, the template exists and is enabled, the range is valid.
 */
async function prepare(ctx: AppContext, actor: AuthContext, body: ReportBody): Promise<PreparedRender> {
  const errors: FieldError[] = [];
  const { filters, preset } = resolveFilters(body.filters, actor.user.timezone, ctx.clock.now());
  const { from, to } = filters.dateRange;
  if (from > to) errors.push({ path: '/filters/dateRange/to', message: 'must not be before from' });
  else if (rangeSpanDays(filters.dateRange) > MAX_RANGE_DAYS) {
    errors.push({ path: '/filters/dateRange', message: `must span at most ${MAX_RANGE_DAYS} days` });
  }

  const roles = await workspaceRoles(ctx.db, actor.user.id, filters.workspaceIds);
  filters.workspaceIds.forEach((id, i) => {
    if (!roles.has(id)) errors.push({ path: `/filters/workspaceIds/${i}`, message: 'is not a workspace you belong to' });
  });
  if (filters.projectIds?.length && roles.size === filters.workspaceIds.length) {
    const known = await projectsInWorkspaces(ctx.db, filters.projectIds, filters.workspaceIds);
    filters.projectIds.forEach((id, i) => {
      if (!known.has(id)) errors.push({ path: `/filters/projectIds/${i}`, message: 'is not a project of the filtered workspaces' });
    });
  }

  const template = await findTemplate(ctx.db, body.templateId);
  if (!template) errors.push({ path: '/templateId', message: 'is not a known template' });
  else if (!template.enabled) errors.push({ path: '/templateId', message: 'is disabled' });

  if (errors.length > 0 || !template) throw badRequest('The report cannot be rendered with these fields.', errors);
  return { filters, preset, template, note: normaliseNote(body.note) };
}

async function render(
  ctx: AppContext,
  actor: AuthContext,
  body: ReportBody,
  prepared: PreparedRender,
  target: { reportId: string | null; version: number; suggestions?: boolean },
): Promise<RenderedReport> {
  return renderReport(ctx.db, ctx.renderer, {
    owner: actor.user,
    template: prepared.template,
    name: body.name,
    note: prepared.note,
    filters: prepared.filters,
    preset: prepared.preset,
    reportId: target.reportId,
    version: target.version,
    generatedAt: ctx.clock.now(),
    suggestions: target.suggestions ?? false,
  });
}

/** The report fields and the new immutable content row of one rendered version. */
function versionRows(id: string, version: number, body: ReportBody, prepared: PreparedRender, out: RenderedReport, now: Date) {
  const contentId = newId();
  return {
    report: {
      id,
      templateId: prepared.template.id,
      name: body.name,
      note: prepared.note,
      filters: prepared.filters,
      workspaceIds: prepared.filters.workspaceIds,
      periodFrom: prepared.filters.dateRange.from,
      periodTo: prepared.filters.dateRange.to,
      totalMinutes: out.totalMinutes,
      snapshotProjectIds: out.snapshotProjectIds,
      restrictingProjectIds: out.restrictingProjectIds,
      version,
      currentContentId: contentId,
      updatedAt: now,
    },
    content: {
      id: contentId,
      reportId: id,
      version,
      renderedMarkdown: out.renderedMarkdown,
      totalMinutes: out.totalMinutes,
      snapshotProjectIds: out.snapshotProjectIds,
      createdAt: now,
    },
  };
}

export async function preview(ctx: AppContext, actor: AuthContext, body: ReportBody): Promise<Preview> {
  const prepared = await prepare(ctx, actor, body);
  const out = await render(ctx, actor, body, prepared, { reportId: null, version: 1, suggestions: true });
  return {
    suggestedName: out.suggestedName,
    suggestedNote: out.suggestedNote,
    renderedMarkdown: out.renderedMarkdown,
    totalMinutes: out.totalMinutes,
    snapshotProjectIds: out.snapshotProjectIds,
    filters: prepared.filters,
  };
}

export async function create(ctx: AppContext, actor: AuthContext, body: ReportBody): Promise<Report> {
  const prepared = await prepare(ctx, actor, body);
  const id = newId();
  const out = await render(ctx, actor, body, prepared, { reportId: id, version: 1 });
  const rows = versionRows(id, 1, body, prepared, out, ctx.clock.now());
  const row = await ctx.db.transaction((tx) =>
    repo.insertReport(tx, { ...rows.report, ownerUserId: actor.user.id, createdAt: rows.content.createdAt }, rows.content),
  );
  return toReport({ ...row, renderedMarkdown: out.renderedMarkdown });
}

/** The report if the caller may read it; otherwise the same 404 whichever the reason. */
export async function readable(ctx: AppContext, actor: AuthContext, id: string): Promise<repo.ReportWithContent> {
  const row = await repo.findReportWithContent(ctx.db, id);
  if (!row || !(await reportReadGrant(ctx.db, actor, row))) throw notFound();
  return row;
}

export async function get(ctx: AppContext, actor: AuthContext, id: string): Promise<Report> {
  return toReport(await readable(ctx, actor, id));
}

/**
 * Owner only, membership re-checked (reports-api.md 4.1 PATCH). The new version is rendered
 * outside any lock and committed only if nobody edited meanwhile; otherwise it renders again,
 * so concurrent edits get consecutive versions with no duplicate and no gap.
 */
export async function update(ctx: AppContext, actor: AuthContext, id: string, body: ReportBody): Promise<Report> {
  for (let attempt = 0; attempt < MAX_EDIT_ATTEMPTS; attempt++) {
    const current = await repo.findReport(ctx.db, id);
    if (!current || !(await isActiveOwner(ctx.db, actor, current))) throw notFound();
    const prepared = await prepare(ctx, actor, body);
    const version = current.version + 1;
    const out = await render(ctx, actor, body, prepared, { reportId: id, version });
    const rows = versionRows(id, version, body, prepared, out, ctx.clock.now());
    const row = await ctx.db.transaction((tx) => repo.appendVersion(tx, current.version, rows.report, rows.content));
    if (row) return toReport({ ...row, renderedMarkdown: out.renderedMarkdown });
  }
  throw conflict('The report is being edited concurrently; try again.');
}

/** Owner only. Allowed even after the owner lost a workspace, so they can clean up what they made. */
export async function remove(ctx: AppContext, actor: AuthContext, id: string): Promise<void> {
  const current = await repo.findReport(ctx.db, id);
  if (!current || current.ownerUserId !== actor.user.id) throw notFound();
  await repo.deleteReport(ctx.db, id);
}

export async function list(ctx: AppContext, actor: AuthContext, query: ListQuery): Promise<{ items: ReportSummary[]; total: number }> {
  if (query.ownerUserId !== undefined && query.ownerUserId !== actor.user.id && !actor.user.instanceAdmin) {
    throw forbidden('Only an instance admin may list the reports of another user.');
  }
  if (query.workspaceId !== undefined && !actor.user.instanceAdmin && !isAdminRole(await workspaceRole(ctx.db, query.workspaceId, actor.user.id))) {
    throw forbidden('Only an admin or owner of the workspace may list its reports.');
  }
  const ownerUserId = query.ownerUserId ?? (query.workspaceId === undefined ? actor.user.id : undefined);
  const { rows, total } = await repo.listReports(ctx.db, {
    ownerUserId,
    singleWorkspaceId: query.workspaceId,
    templateId: query.templateId,
    projectId: query.projectId,
    from: query.from,
    to: query.to,
    limit: query.limit,
    offset: query.offset ?? 0,
  });
  // The owner's own list hides totals of reports they can no longer fully see (reports-api.md 4.1).
  const own = rows.filter((r) => r.ownerUserId === actor.user.id);
  const memberOf = own.length ? await workspaceRoles(ctx.db, actor.user.id, [...new Set(own.flatMap((r) => r.workspaceIds))]) : new Map();
  const items = rows.map((r) => {
    const summary = toReportSummary(r);
    if (r.ownerUserId === actor.user.id && !r.workspaceIds.every((w) => memberOf.has(w))) summary.totalMinutes = null;
    return summary;
  });
  return { items, total };
}

export function templateIds(ctx: AppContext, actor: AuthContext): Promise<string[]> {
  return repo.listTemplateIds(ctx.db, actor.user.id);
}
