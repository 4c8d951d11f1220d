/**
 * Step two of a render: executes a plan (report-plan.ts). One statement loads the data, the
 * render worker builds the context and renders the template, and the document gets its
 * system-generated front matter (docs/api.md "Reports", docs/templates.md).
 */
import type { Db } from '../../db/database.js';
import { badRequest } from '../../lib/errors.js';
import { buildDocument } from '../../../packages/document/src/index.js';
import type { RenderAggregates } from '../../render/render-context.js';
import { rendersMoney } from '../access/access.js';
import type { RenderPool } from '../../render/render-pool.js';
import { limitsFor, TemplateError } from '../../render/template-engine.js';
import { loadRenderData, type RateTable, type RenderAggregatesRow } from '../../repositories/report-data.repository.js';
import { ratesForRender } from '../../repositories/rates.repository.js';
import { rateTable } from '../rates/rate-table.js';
import type { EncodedDataset } from '../exports/dataset.js';
import type { RenderPlan } from './report-plan.js';
import { summaryOf, type VersionSummary } from './version-summary.js';

export interface RenderedVersion {
  renderedMarkdown: string;
  totalMinutes: number;
  snapshotProjectIds: string[];
  /** Stored next to the document (version-summary.ts). */
  summary: VersionSummary;
  /** Stored on the report for the recipient rule; never part of an API response. */
  restrictsRecipients: boolean;
  suggestedName: string;
  suggestedNote: string;
  /** The rows the version was rendered from, encoded; null for a preview, which keeps nothing. */
  dataset: EncodedDataset | null;
  /** What the render handled, in characters: the entries it read and the document it made (charged by `chargeWork`). */
  workSize: number;
}

export interface RenderSettings {
  /** Most entries one render may take; more is a 400 naming the limit. */
  maxEntries: number;
  /** Most bytes of descriptions and tags one render may read; more is a 400 naming the limit. */
  maxBytes: number;
  /** The base of a render's time limit, before the allowance per entry. */
  baseTimeMs: number;
}

const NO_PROJECT = 'No project';
const NO_CLIENT = 'No client';

/** The aggregates as the render context takes them; money shows only where access.ts `rendersMoney` says. */
function frameAggregates(row: RenderAggregatesRow, moneyVisible: boolean): RenderAggregates {
  return {
    totalMinutes: row.totalMinutes,
    entryCount: row.entryCount,
    billableMinutes: row.billableMinutes,
    nonBillableMinutes: row.nonBillableMinutes,
    amounts: row.amounts,
    moneyVisible,
    byClient: row.byClient.map((g) => ({ ...g, name: g.id === null ? NO_CLIENT : (g.name ?? '') })),
    byProject: row.byProject.map((g) => ({ ...g, name: g.id === null ? NO_PROJECT : (g.name ?? '') })),
    byUser: row.byUser,
    byTag: row.byTag,
    byDay: row.byDay,
    lines: row.lines.map((l) => ({
      projectId: l.projectId,
      userId: l.userId,
      billable: l.billable,
      rate: l.currency !== null && l.rateMinor !== null ? { currency: l.currency, minor: l.rateMinor } : null,
      minutes: l.minutes,
      billableMinutes: l.billableMinutes,
      entryCount: l.entryCount,
      amount: l.currency !== null && l.amount !== null ? { currency: l.currency, minor: l.amount } : null,
    })),
  };
}

function inFilterOrder(workspaces: RenderAggregatesRow['workspaces'], ids: readonly string[]): { id: string; name: string }[] {
  const byId = new Map(workspaces.map((w) => [w.id, w]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The most rate rows one render may price with. */
export const MAX_RENDER_RATES = 5_000;

/**
 * Whether the render shows money (access.ts `rendersMoney`) and, when it does, the table of the
 * rates that can apply to its period for the users whose entries it reads (rate-table.ts). Past
 * the bounds the render is a 400: its workspaces have more rates than one report prices.
 */
async function pricing(db: Db, plan: RenderPlan): Promise<{ moneyVisible: boolean; rates: RateTable | null }> {
  if (plan.options.hideAmounts) return { moneyVisible: false, rates: null };
  const { selection } = plan;
  const book = await ratesForRender(db, {
    workspaceIds: selection.workspaceIds,
    userIds: selection.userIds?.length ? selection.userIds : [selection.ownerUserId],
    ownerUserId: selection.ownerUserId,
    from: plan.filters.dateRange.from,
    to: plan.filters.dateRange.to,
    limit: MAX_RENDER_RATES,
  });
  const moneyVisible = rendersMoney(plan.options, book.seesRates);
  if (!moneyVisible || book.rates.length === 0) return { moneyVisible, rates: null };
  const table = book.rates.length > MAX_RENDER_RATES ? null : rateTable(book.rates, selection.workspaceIds, book.zones);
  if (!table) {
    throw badRequest(
      'The workspaces have more rates in this period than one report may price; narrow the period, the people or the workspaces, or hide amounts.',
      [{ path: '/filters', message: 'covers more rates than one report may price' }],
    );
  }
  return { moneyVisible, rates: table };
}

/**
 * Reads the plan's data and renders it. `beforeTemplate` runs between the two with the size of the
 * entries read, in characters; it may refuse (throw) before the template's work starts.
 */
export async function executeRender(
  db: Db,
  renderer: RenderPool,
  plan: RenderPlan,
  settings: RenderSettings,
  beforeTemplate?: (entriesSize: number) => Promise<void>,
): Promise<RenderedVersion> {
  const { moneyVisible, rates } = await pricing(db, plan);
  const data = await loadRenderData(db, plan.selection, {
    withEntries: plan.readsEntries || plan.keepsDataset,
    maxEntries: settings.maxEntries,
    maxBytes: settings.maxBytes,
    money: { rounding: plan.options.rounding, rates },
  });
  if (data.kind === 'too-many') {
    throw badRequest(
      `The filters match more than ${data.limit.toLocaleString('en-US')} entries, the most one report may render (RENDER_MAX_ENTRIES); narrow them.`,
      [{ path: '/filters', message: `matches more than ${data.limit} entries` }],
    );
  }
  if (data.kind === 'too-large') {
    throw badRequest(
      `The entries the filters match have more than ${data.limit.toLocaleString('en-US')} bytes of descriptions and tags, the most one report may render (RENDER_MAX_BYTES); narrow them.`,
      [{ path: '/filters', message: `matches more than ${data.limit} bytes of descriptions and tags` }],
    );
  }
  await beforeTemplate?.(data.entriesJson?.length ?? 0);
  const { aggregates } = data;
  const framed = frameAggregates(aggregates, moneyVisible);
  const generatedAt = plan.generatedAt.toISOString();
  const period = { from: plan.filters.dateRange.from, to: plan.filters.dateRange.to };
  let outputs: string[];
  let dataset: EncodedDataset | null = null;
  try {
    const job = {
      sources: plan.sources,
      frame: {
        report: plan.report,
        period: { ...period, preset: plan.preset },
        timezone: plan.owner.timezone,
        generatedAt,
        owner: { id: plan.owner.id, name: plan.owner.name, email: plan.owner.email },
        workspaces: inFilterOrder(aggregates.workspaces, plan.filters.workspaceIds),
        template: plan.template,
        options: plan.options,
        aggregates: framed,
      },
      entriesJson: data.entriesJson,
      contextEntries: plan.readsEntries,
      limits: limitsFor(aggregates.entryCount, settings.baseTimeMs),
    };
    if (plan.keepsDataset) ({ outputs, dataset } = await renderer.renderVersion(job));
    else outputs = await renderer.renderReport(job);
  } catch (error) {
    if (error instanceof TemplateError) {
      throw badRequest(`The template could not be rendered: ${error.message}`, [{ path: plan.templatePath, message: error.message }]);
    }
    throw error;
  }
  const [body = '', suggestedName = '', suggestedNote = ''] = outputs;
  const renderedMarkdown = buildDocument(
    {
      report: { id: plan.report.id, name: plan.report.name, version: plan.report.version },
      owner: { id: plan.owner.id, name: plan.owner.name },
      period,
      timezone: plan.owner.timezone,
      generatedAt,
      template: plan.template,
      filters: plan.filters,
      totalMinutes: aggregates.totalMinutes,
    },
    body,
  );
  return {
    renderedMarkdown,
    totalMinutes: aggregates.totalMinutes,
    snapshotProjectIds: aggregates.byProject.flatMap((g) => (g.id === null ? [] : [g.id])).sort(),
    summary: summaryOf(framed),
    restrictsRecipients: aggregates.restrictsRecipients,
    suggestedName,
    suggestedNote,
    dataset,
    workSize: (data.entriesJson?.length ?? 0) + renderedMarkdown.length,
  };
}
