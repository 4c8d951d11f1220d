/** Reports (docs/api.md "Reports"): create, preview, read, list, edit, delete. */
import type { Actor, AppContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import { badRequest, notFound, preconditionFailed } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { blankToNull } from '../../lib/text.js';
import { findTemplate } from '../../repositories/templates.repository.js';
import { projectsInWorkspaces } from '../../repositories/report-data.repository.js';
import { chargeBeforeWork, chargeWork, readAs, workUnits, type Caller } from '../auth/auth.js';
import {
  filterWorkspaceRefusals,
  hidesListedTotal,
  isActiveOwner,
  mayDeleteReport,
  readGrant,
  requireReportListAccess,
} from '../access/access.js';
import { planRender, resolveFilters, resolveOptions, type PlanTemplate, type RenderPlan, type RenderRequest } from './report-plan.js';
import { DATASET_FORMAT } from '../exports/dataset.js';
import { executeRender, type RenderedVersion } from './report-render.js';
import type { DatePreset } from '../../render/date-range.js';
import * as repo from '../../repositories/reports.repository.js';
import { bumpRevision } from '../../repositories/schedules.repository.js';
import { reportVersionCreated } from '../webhooks/webhook-events.js';
import {
  parseFilters,
  parseOptions,
  type FiltersInput,
  type ListQuery,
  type Preview,
  type Report,
  type ReportBody,
  type ReportOptions,
  type ReportSummary,
} from './reports.schemas.js';

function toReportSummary(row: Omit<repo.ReportListRow, 'readerMemberOfAll'>): ReportSummary {
  return {
    id: row.id,
    name: row.name,
    ownerUserId: row.ownerUserId,
    templateId: row.templateId,
    filters: parseFilters(row.filters),
    note: row.note,
    totalMinutes: row.totalMinutes,
    snapshotProjectIds: row.snapshotProjectIds,
    version: row.version,
    options: parseOptions(row.options),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toReport(row: repo.ReportWithContent): Report {
  return { ...toReportSummary(row), reportContentId: row.currentContentId, renderedMarkdown: row.renderedMarkdown };
}

/**
 * Admits a render request and plans it: the caller belongs to every filtered workspace, every
 * project belongs to one of them, the template exists and is enabled, the range is valid; every
 * refusal is listed in one 400. The version target says which report and version it renders.
 */
async function admit(
  ctx: AppContext,
  db: Db,
  actor: Actor,
  body: ReportBody,
  target: RenderRequest['target'],
  suggestions = false,
  unsaved?: PlanTemplate,
  storedOptions?: ReportOptions,
): Promise<RenderPlan> {
  const now = ctx.clock.now();
  const { filters, preset, errors } = resolveFilters(body.filters, actor.user.timezone, now);
  const resolved = resolveOptions(body.options, storedOptions, actor.user.locale);
  errors.push(...resolved.errors);

  const outside = await filterWorkspaceRefusals(db, actor, filters.workspaceIds);
  errors.push(...outside);
  if (filters.projectIds?.length && outside.length === 0) {
    const known = await projectsInWorkspaces(db, filters.projectIds, filters.workspaceIds);
    filters.projectIds.forEach((id, i) => {
      if (!known.has(id)) errors.push({ path: `/filters/projectIds/${i}`, message: 'is not a project of the filtered workspaces' });
    });
  }

  // An unsaved template (an instance admin's preview while editing) stands in for a stored one.
  const stored = unsaved ? null : await findTemplate(db, body.templateId);
  if (!unsaved && !stored) errors.push({ path: '/templateId', message: 'is not a known template' });
  else if (stored && !stored.enabled) errors.push({ path: '/templateId', message: 'is disabled' });
  const template = unsaved ?? stored;

  if (errors.length > 0 || !template) throw badRequest('The report cannot be rendered with these fields.', errors);
  return planRender({
    name: body.name,
    note: blankToNull(body.note),
    filters,
    preset,
    options: resolved.options,
    owner: actor.user,
    template,
    target,
    suggestions,
    now,
    ...(unsaved ? { templatePath: '/body' as const } : {}),
  });
}

/** The report fields and the new immutable content row of one rendered version. */
function versionRows(plan: RenderPlan, reportId: string, out: RenderedVersion) {
  const contentId = newId();
  const { filters, generatedAt: now } = plan;
  return {
    report: {
      id: reportId,
      templateId: plan.template.id,
      name: plan.report.name,
      note: plan.report.note,
      filters,
      options: plan.options,
      workspaceIds: filters.workspaceIds,
      periodFrom: filters.dateRange.from,
      periodTo: filters.dateRange.to,
      totalMinutes: out.totalMinutes,
      snapshotProjectIds: out.snapshotProjectIds,
      restrictsRecipients: out.restrictsRecipients,
      version: plan.report.version,
      currentContentId: contentId,
      updatedAt: now,
    },
    content: {
      id: contentId,
      reportId,
      version: plan.report.version,
      renderedMarkdown: out.renderedMarkdown,
      totalMinutes: out.totalMinutes,
      snapshotProjectIds: out.snapshotProjectIds,
      summary: out.summary,
      createdAt: now,
    },
    dataset: out.dataset && {
      contentId,
      format: DATASET_FORMAT,
      entryCount: out.dataset.entryCount,
      locale: plan.options.locale,
      data: out.dataset.data,
      createdAt: now,
    },
  };
}

/**
 * Renders a plan once the owner's and the process's render limits admit it (render-gate.ts), and
 * charges the owner's rate budget for its size (auth.ts): the entries it read before the template
 * runs, the rest once done. A render that waited for its slot while the owner's other work spent
 * the budget, or whose entries overspend it, is refused (429) before its heavy part.
 */
async function execute(ctx: AppContext, db: Db, plan: RenderPlan): Promise<RenderedVersion> {
  const owner = plan.owner.id;
  let prepaid = 0;
  const out = await ctx.renderGate.run(owner, async () => {
    await chargeBeforeWork(ctx, owner, 0);
    const settings = {
      maxEntries: ctx.config.renderMaxEntries,
      maxBytes: ctx.config.renderMaxBytes,
      baseTimeMs: ctx.config.renderTimeLimitMs,
    };
    return executeRender(db, ctx.renderer, plan, settings, async (entriesSize) => {
      if (workUnits(entriesSize) > 0) prepaid = await chargeBeforeWork(ctx, owner, entriesSize);
    });
  });
  await chargeWork(ctx, owner, out.workSize, prepaid);
  return out;
}

export async function preview(ctx: AppContext, actor: Actor, body: ReportBody, unsaved?: PlanTemplate): Promise<Preview> {
  const plan = await admit(ctx, ctx.db, actor, body, { reportId: null, version: 1 }, true, unsaved);
  const out = await execute(ctx, ctx.db, plan);
  return {
    suggestedName: out.suggestedName,
    suggestedNote: out.suggestedNote,
    renderedMarkdown: out.renderedMarkdown,
    totalMinutes: out.totalMinutes,
    snapshotProjectIds: out.snapshotProjectIds,
    filters: plan.filters,
    options: plan.options,
  };
}

export async function create(ctx: AppContext, actor: Actor, body: ReportBody): Promise<Report> {
  const id = newId();
  const plan = await admit(ctx, ctx.db, actor, body, { reportId: id, version: 1 });
  const rows = versionRows(plan, id, await execute(ctx, ctx.db, plan));
  const { row, webhooks } = await ctx.db.transaction(async (tx) => {
    const inserted = await repo.insertReport(
      tx,
      { ...rows.report, ownerUserId: actor.user.id, createdAt: rows.content.createdAt },
      rows.content,
      rows.dataset,
    );
    return { row: inserted, webhooks: await reportVersionCreated(tx, inserted, 'create', rows.content.createdAt) };
  });
  await ctx.webhooks.enqueue(webhooks);
  return toReport({ ...row, renderedMarkdown: rows.content.renderedMarkdown });
}

/** The report if the caller may read it; otherwise the same 404 whichever the reason. */
async function readable(ctx: AppContext, caller: Caller, id: string): Promise<repo.ReportWithContent> {
  const { actor, value: found } = await readAs(caller, (reader) => repo.findReportForReader(ctx.db, id, reader));
  if (!found || !readGrant(found.report, actor, found.standing)) throw notFound();
  return found.report;
}

/** The report; for a caller whose credential is still to be found, in the one statement that finds it. */
export async function get(ctx: AppContext, caller: Caller, id: string): Promise<Report> {
  return toReport(await readable(ctx, caller, id));
}

/** The entity tag of a report's current version, as `ETag` sends it and `If-Match` names it. */
export const versionTag = (version: number): string => `"${version}"`;

/** RFC 9110 If-Match: `*`, or a list of entity tags compared strongly (a weak tag never matches). */
function matchesIfMatch(header: string, version: number): boolean {
  if (header.trim() === '*') return true;
  const tag = versionTag(version);
  return header.split(',').some((candidate) => candidate.trim() === tag);
}

/** Owner only, with current membership; an If-Match naming another version is a 412. */
async function editableReport(db: Db, actor: Actor, id: string, load: typeof repo.findReport, ifMatch?: string) {
  const current = await load(db, id);
  if (!current || !(await isActiveOwner(db, actor, current))) throw notFound();
  if (ifMatch !== undefined && !matchesIfMatch(ifMatch, current.version)) {
    throw preconditionFailed(`The report is at version ${current.version}, not the one If-Match names.`);
  }
  return current;
}

/**
 * Renders version `current.version + 1` and appends it if the report is still at `current.version`;
 * the webhook deliveries of the new version go to `webhooks`, to enqueue once committed.
 */
async function tryEdit(
  ctx: AppContext,
  db: Db,
  actor: Actor,
  current: repo.ReportRow,
  body: ReportBody,
  webhooks: string[],
): Promise<Report | null> {
  const plan = await admit(
    ctx,
    db,
    actor,
    body,
    { reportId: current.id, version: current.version + 1 },
    false,
    undefined,
    parseOptions(current.options),
  );
  const rows = versionRows(plan, current.id, await execute(ctx, db, plan));
  // Inside the lock's transaction this nests as a savepoint.
  const row = await db.transaction(async (tx) => {
    const appended = await repo.appendVersion(tx, current.version, rows.report, rows.content, rows.dataset);
    // An edit skips the scheduled runs queued before it (delivery.md §1).
    if (appended) await bumpRevision(tx, current.id);
    if (appended) webhooks.push(...(await reportVersionCreated(tx, appended, 'edit', rows.content.createdAt)));
    return appended;
  });
  return row ? toReport({ ...row, renderedMarkdown: rows.content.renderedMarkdown }) : null;
}

/**
 * Owner only, membership re-checked (docs/api.md "Rendering and versions"). Every valid edit succeeds with
 * its own version, however many arrive at once: edits of one report in this process queue behind
 * each other, and each renders without a lock and commits only if the report is still at the
 * version it started from. One that loses to another process's edit takes the report's row lock
 * and renders again under it, where nothing can overtake it. Versions stay consecutive, with no
 * duplicate and no gap. `ifMatch` (the If-Match header) opts into lost-update protection.
 */
export async function update(ctx: AppContext, actor: Actor, id: string, body: ReportBody, ifMatch?: string): Promise<Report> {
  const webhooks: string[] = [];
  const report = await ctx.reportEdits.run(id, async () => {
    const current = await editableReport(ctx.db, actor, id, repo.findReport, ifMatch);
    const edited = await tryEdit(ctx, ctx.db, actor, current, body, webhooks);
    if (edited) return edited;
    return ctx.db.transaction(async (tx) => {
      const locked = await editableReport(tx, actor, id, repo.lockReportForEdit, ifMatch);
      const underLock = await tryEdit(ctx, tx, actor, locked, body, webhooks);
      if (!underLock) throw new Error('a report edit lost a race while holding the report lock');
      return underLock;
    });
  });
  await ctx.webhooks.enqueue(webhooks);
  return report;
}

/**
 * A scheduled run's new version (delivery.md §1): the report rendered as an edit of its owner
 * would be (the same admission, gates and limits), with `preset` as its date range, and appended
 * in one transaction with what `deliver` writes for it. Edits of the report in this process wait
 * their turn as for any edit; one that commits on another process first makes the run render
 * again under the report's lock. Returns what `deliver` returned.
 */
export async function renderScheduledVersion<T>(
  ctx: AppContext,
  owner: Actor,
  id: string,
  preset: DatePreset,
  deliver: (tx: Db, report: repo.ReportRow) => Promise<T>,
): Promise<T> {
  const attempt = async (db: Db, current: repo.ReportRow): Promise<{ done: T } | null> => {
    const filters: FiltersInput = { ...parseFilters(current.filters), dateRange: preset };
    const body: ReportBody = {
      name: current.name,
      templateId: current.templateId,
      note: current.note,
      filters,
      options: parseOptions(current.options),
    };
    const plan = await admit(
      ctx,
      db,
      owner,
      body,
      { reportId: current.id, version: current.version + 1 },
      false,
      undefined,
      parseOptions(current.options),
    );
    const rows = versionRows(plan, current.id, await execute(ctx, db, plan));
    return db.transaction(async (tx) => {
      const appended = await repo.appendVersion(tx, current.version, rows.report, rows.content, rows.dataset);
      if (!appended) return null;
      webhooks.push(...(await reportVersionCreated(tx, appended, 'schedule', rows.content.createdAt)));
      return { done: await deliver(tx, appended) };
    });
  };
  const webhooks: string[] = [];
  const done = await ctx.reportEdits.run(id, async () => {
    const done = await attempt(ctx.db, await editableReport(ctx.db, owner, id, repo.findReport));
    if (done) return done.done;
    return ctx.db.transaction(async (tx) => {
      const underLock = await attempt(tx, await editableReport(tx, owner, id, repo.lockReportForEdit));
      if (!underLock) throw new Error('a scheduled render lost a race while holding the report lock');
      return underLock.done;
    });
  });
  await ctx.webhooks.enqueue(webhooks);
  return done;
}

/** Owner only. Allowed even after the owner lost a workspace, so they can clean up what they made. */
export async function remove(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  const current = await repo.findReport(ctx.db, id);
  if (!current || !mayDeleteReport(current, actor)) throw notFound();
  await repo.deleteReport(ctx.db, id);
}

export async function list(ctx: AppContext, actor: Actor, query: ListQuery): Promise<{ items: ReportSummary[]; total: number }> {
  await requireReportListAccess(ctx.db, actor, query);
  const ownerUserId = query.ownerUserId ?? (query.workspaceId === undefined ? actor.user.id : undefined);
  const { rows, total } = await repo.listReports(
    ctx.db,
    {
      ownerUserId,
      singleWorkspaceId: query.workspaceId,
      templateId: query.templateId,
      projectId: query.projectId,
      from: query.from,
      to: query.to,
      limit: query.limit,
      offset: query.offset ?? 0,
    },
    actor.user.id,
  );
  const items = rows.map((r) => {
    const summary = toReportSummary(r);
    if (hidesListedTotal(r, actor, r.readerMemberOfAll)) summary.totalMinutes = null;
    return summary;
  });
  return { items, total };
}

export function templateIds(ctx: AppContext, actor: Actor): Promise<string[]> {
  return repo.listTemplateIds(ctx.db, actor.user.id);
}
