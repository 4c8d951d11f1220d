/**
 * Step one of a render: everything about it that follows from the request, the owner and the
 * template alone, decided without touching the database. Step two (report-render.ts) executes it.
 */
import type { FieldError } from '../../lib/errors.js';
import { canonicalLocale } from '../../lib/locale.js';
import { MAX_RANGE_DAYS, periodBounds, rangeSpanDays, resolvePreset, type DatePreset } from '../../render/date-range.js';
import { readsEntries } from '../../render/render-context.js';
import { variablePaths } from '../../render/template-engine.js';
import type { EntrySelection } from '../../repositories/report-data.repository.js';
import { DEFAULT_OPTIONS, type Filters, type FiltersInput, type ReportOptions, type ReportOptionsInput } from './reports.schemas.js';
import { FIRST_ENTRY_START, LAST_ENTRY_START } from '../time-entries/time-entries.schemas.js';

interface PlanOwner {
  id: string;
  name: string;
  email: string;
  timezone: string;
}

export interface PlanTemplate {
  id: string;
  name: string;
  body: string;
  nameTemplate: string;
  noteTemplate: string;
}

/** Filters as the request sent them, resolved: a preset becomes absolute dates in the owner's zone. */
export interface ResolvedFilters {
  filters: Filters;
  preset: DatePreset | null;
  /** What is wrong with the range (from after to, more than 366 days); empty when it is fine. */
  errors: FieldError[];
}

const FIRST_DATE = new Date(FIRST_ENTRY_START).toISOString().slice(0, 10);

export function resolveFilters(input: FiltersInput, timezone: string, now: Date): ResolvedFilters {
  const { dateRange, ...rest } = input;
  const range = typeof dateRange === 'string' ? resolvePreset(dateRange, timezone, now) : dateRange;
  const errors: FieldError[] = [];
  // No entry starts before the year 1000 (docs/api.md "Time entries"), and the database has no year 0.
  if (range.from < FIRST_DATE)
    errors.push({ path: '/filters/dateRange/from', message: 'must be in the years 1000 to 9999, as entries are' });
  else if (range.from > range.to) errors.push({ path: '/filters/dateRange/to', message: 'must not be before from' });
  else if (rangeSpanDays(range) > MAX_RANGE_DAYS)
    errors.push({ path: '/filters/dateRange', message: `must span at most ${MAX_RANGE_DAYS} days` });
  return {
    filters: { ...rest, dateRange: { from: range.from, to: range.to } },
    preset: typeof dateRange === 'string' ? dateRange : null,
    errors,
  };
}

/**
 * A report's options from a request (billing.md §3): omitted, the stored ones stay (an edit) or the
 * defaults apply (a new report); sent, each field it leaves out takes its default, the locale the
 * owner's. A locale the runtime cannot print in is an error naming `/options/locale`.
 */
export function resolveOptions(
  input: ReportOptionsInput | undefined,
  stored: ReportOptions | undefined,
  ownerLocale: string,
): { options: ReportOptions; errors: FieldError[] } {
  if (input === undefined) return { options: stored ?? { ...DEFAULT_OPTIONS, locale: ownerLocale }, errors: [] };
  const locale = input.locale === undefined ? ownerLocale : canonicalLocale(input.locale);
  const options: ReportOptions = {
    rounding: input.rounding ?? DEFAULT_OPTIONS.rounding,
    hideAmounts: input.hideAmounts ?? DEFAULT_OPTIONS.hideAmounts,
    billable: input.billable ?? DEFAULT_OPTIONS.billable,
    durationFormat: input.durationFormat ?? DEFAULT_OPTIONS.durationFormat,
    locale: locale ?? ownerLocale,
  };
  const errors =
    locale === undefined
      ? [{ path: '/options/locale', message: 'is not a locale Chronicle can print in (a BCP 47 tag such as en-US or de)' }]
      : [];
  return { options, errors };
}

export interface RenderRequest {
  name: string;
  note: string | null;
  /** Resolved, and admitted by the caller (memberships, projects, an enabled template, a valid range). */
  filters: Filters;
  preset: DatePreset | null;
  /** Resolved: every field, the locale canonical. */
  options: ReportOptions;
  owner: PlanOwner;
  template: PlanTemplate;
  /** The report the version belongs to (null in a preview) and the version it will be. */
  target: { reportId: string | null; version: number };
  /** Also render the template's name and note templates (a preview's suggestions). */
  suggestions: boolean;
  now: Date;
  /** Where a template error is reported: the stored template's id, or an unsaved body. */
  templatePath?: '/templateId' | '/body';
}

export interface RenderPlan {
  report: { id: string | null; name: string; note: string | null; version: number };
  owner: PlanOwner;
  template: { id: string; name: string };
  /** The filters as stored: the date range resolved to absolute dates. */
  filters: Filters;
  /** The preset the range came from; null for an absolute range. */
  preset: DatePreset | null;
  options: ReportOptions;
  selection: EntrySelection;
  /** Body first, then (for suggestions) the name and note templates. */
  sources: string[];
  /** False when no source can read entries: the template's context then has none. */
  readsEntries: boolean;
  /** A stored version (not a preview) keeps the rows it was rendered from (docs/exports.md), so its entries are always read. */
  keepsDataset: boolean;
  generatedAt: Date;
  /** Where a template error is reported (RenderRequest `templatePath`). */
  templatePath: '/templateId' | '/body';
}

/**
 * A period reaching past the instants entries may start at (one ending on 9999-12-31 anywhere but
 * east of Greenwich, one starting on 1000-01-01 west of it) selects what it holds within them, so
 * its bounds stay instants the database reads.
 */
const withinEntryStarts = (instant: Date) => new Date(Math.min(Math.max(instant.getTime(), FIRST_ENTRY_START), LAST_ENTRY_START + 1));

/** The plan of one render, from an admitted request. */
export function planRender(request: RenderRequest): RenderPlan {
  const { owner, template, filters } = request;
  const period = periodBounds(filters.dateRange, owner.timezone);
  const [start, end] = [withinEntryStarts(period.start), withinEntryStarts(period.end)];
  const sources = request.suggestions ? [template.body, template.nameTemplate, template.noteTemplate] : [template.body];
  return {
    report: { id: request.target.reportId, name: request.name, note: request.note, version: request.target.version },
    owner,
    template: { id: template.id, name: template.name },
    filters,
    preset: request.preset,
    options: request.options,
    selection: {
      ownerUserId: owner.id,
      workspaceIds: filters.workspaceIds,
      projectIds: filters.projectIds,
      userIds: filters.userIds,
      tags: filters.tags,
      clientIds: filters.clientIds,
      billable: request.options.billable,
      start,
      end,
      timezone: owner.timezone,
    },
    sources,
    readsEntries: sources.some(mayReadEntries),
    keepsDataset: request.target.reportId !== null,
    generatedAt: request.now,
    templatePath: request.templatePath ?? '/templateId',
  };
}

/** A source that does not parse reads nothing, but the render must still run to report the error. */
function mayReadEntries(source: string): boolean {
  try {
    return readsEntries(variablePaths(source));
  } catch {
    return true;
  }
}
