/**
 * The rendering pipeline (reports-api.md sections 1 and 2.2): resolve the filters in the owner's
 * timezone, select and aggregate the entries in SQL, render the Liquid body, and prepend the
 * system-generated YAML front matter.
 */
import type { Db } from '../../db/database.js';
import type { users, templates } from '../../db/schema.js';
import { buildDocument } from '../../render/document.js';
import { buildRenderContext } from '../../render/render-context.js';
import { periodBounds, resolvePreset, type DateRange } from '../../render/date-range.js';
import type { RenderPool } from '../../render/render-pool.js';
import { TemplateError } from '../../render/template-engine.js';
import { badRequest } from '../../lib/errors.js';
import { aggregateEntries, listWorkspaceNames, selectEntries } from './report-data.repository.js';
import type { Filters, FiltersInput } from './reports.schemas.js';

export interface RenderRequest {
  owner: typeof users.$inferSelect;
  template: typeof templates.$inferSelect;
  name: string;
  note: string | null;
  filters: Filters;
  /** The preset the range came from, for the render context; null for an absolute range. */
  preset: string | null;
  reportId: string | null;
  version: number;
  generatedAt: Date;
  /** Also render the template's nameTemplate / noteTemplate (preview). */
  suggestions?: boolean;
}

export interface RenderedReport {
  renderedMarkdown: string;
  totalMinutes: number;
  snapshotProjectIds: string[];
  /** Stored on the report for the recipient rule; never part of an API response. */
  restrictingProjectIds: string[];
  suggestedName: string;
  suggestedNote: string;
}

/** Resolves a preset to an absolute range in `timezone` at `now`; keeps every other filter as sent. */
export function resolveFilters(input: FiltersInput, timezone: string, now: Date): { filters: Filters; preset: string | null } {
  const { dateRange, ...rest } = input;
  const range: DateRange = typeof dateRange === 'string' ? resolvePreset(dateRange, timezone, now) : dateRange;
  return { filters: { ...rest, dateRange: { from: range.from, to: range.to } }, preset: typeof dateRange === 'string' ? dateRange : null };
}

/** Renders the body (and, for a preview, the name and note templates) in one worker round trip. */
async function renderParts(renderer: RenderPool, sources: string[], context: object): Promise<string[]> {
  try {
    return await renderer.render(sources, context);
  } catch (error) {
    if (error instanceof TemplateError) {
      throw badRequest(`The template could not be rendered: ${error.message}`, [{ path: '/templateId', message: error.message }]);
    }
    throw error;
  }
}

export async function renderReport(db: Db, renderer: RenderPool, req: RenderRequest): Promise<RenderedReport> {
  const { owner, filters } = req;
  const timezone = owner.timezone;
  const { start, end } = periodBounds(filters.dateRange, timezone);
  const selection = {
    ownerUserId: owner.id,
    workspaceIds: filters.workspaceIds,
    projectIds: filters.projectIds,
    userIds: filters.userIds,
    tags: filters.tags,
    start,
    end,
    timezone,
  };
  const [entries, aggregates, workspaces] = await Promise.all([
    selectEntries(db, selection),
    aggregateEntries(db, selection),
    listWorkspaceNames(db, filters.workspaceIds),
  ]);
  const { projectIds, restrictingProjectIds, ...totals } = aggregates;
  const context = buildRenderContext({
    report: { id: req.reportId, name: req.name, note: req.note, version: req.version },
    period: { from: filters.dateRange.from, to: filters.dateRange.to, preset: req.preset },
    timezone,
    generatedAt: req.generatedAt,
    owner: { id: owner.id, name: owner.name, email: owner.email },
    workspaces,
    template: { id: req.template.id, name: req.template.name },
    entries,
    aggregates: totals,
  });

  const { body: source, nameTemplate, noteTemplate } = req.template;
  const [body = '', suggestedName = '', suggestedNote = ''] = await renderParts(
    renderer,
    req.suggestions ? [source, nameTemplate, noteTemplate] : [source],
    context,
  );
  const renderedMarkdown = buildDocument(
    {
      report: { id: req.reportId, name: req.name, version: req.version },
      owner: { id: owner.id, name: owner.name },
      period: { from: filters.dateRange.from, to: filters.dateRange.to },
      timezone,
      generatedAt: req.generatedAt.toISOString(),
      template: { id: req.template.id, name: req.template.name },
      filters: filters as unknown as Record<string, unknown>,
      totalMinutes: totals.totalMinutes,
    },
    body,
  );
  return {
    renderedMarkdown,
    totalMinutes: totals.totalMinutes,
    snapshotProjectIds: projectIds,
    restrictingProjectIds,
    suggestedName,
    suggestedNote,
  };
}
