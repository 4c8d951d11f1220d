/**
 * What changed between two versions of a report (docs/api.md "Version history"), computed from
 * what each version stored: its summary, its front matter and its Markdown body. Pure, and light
 * enough to load in a render worker, which runs `bodyDiff`.
 */
import { createTwoFilesPatch } from 'diff';
import { parseDocument } from '../../../packages/document/src/index.js';
import type { VersionSummary } from '../reports/version-summary.js';
import type { Filters } from '../reports/reports.schemas.js';
import type { GroupChange, GroupDiff, VersionDiff } from './history.schemas.js';
import type { VersionMeta } from './version-meta.js';

/**
 * The most lines two bodies may differ in for a line diff, the most time it may take, and the
 * largest pair of documents it is tried on: past any of them the line diff is left out (null) and
 * the totals still answer. The diff runs in a render worker, and its cost grows with the size of
 * the documents times the lines that differ (docs/decisions.md "Version history").
 */
export const MAX_DIFF_EDITS = 1_000;
export const DIFF_TIME_LIMIT_MS = 1_000;
/** Both documents together, in UTF-8 bytes: 1 MiB, about 8,000 rows of a timesheet each. */
export const MAX_DIFF_BYTES = 1024 * 1024;

/** Why a version diff has no line diff: the documents are over MAX_DIFF_BYTES, or the diff over its edits or time. */
export type LineDiffOmission = 'too-large' | 'too-many-edits';

/** The line diff of two versions as the answer carries it. */
export interface LineDiff {
  markdownDiff: string | null;
  markdownDiffOmitted: LineDiffOmission | null;
}

interface Group {
  key: string | null;
  label: string;
  minutes: number;
}

/** Groups keyed by identity: added, removed, and changed (minutes differ), each in `to`'s order then `from`'s. */
function diffGroups(from: readonly Group[], to: readonly Group[]): NonNullable<GroupDiff> {
  const before = new Map(from.map((g) => [g.key, g]));
  const after = new Map(to.map((g) => [g.key, g]));
  const change = (key: string | null, label: string, fromMinutes: number, toMinutes: number): GroupChange => ({
    key,
    label,
    fromMinutes,
    toMinutes,
    deltaMinutes: toMinutes - fromMinutes,
  });
  const added: GroupChange[] = [];
  const changed: GroupChange[] = [];
  for (const g of to) {
    const old = before.get(g.key);
    if (!old) added.push(change(g.key, g.label, 0, g.minutes));
    else if (old.minutes !== g.minutes) changed.push(change(g.key, g.label, old.minutes, g.minutes));
  }
  const removed = from.filter((g) => !after.has(g.key)).map((g) => change(g.key, g.label, g.minutes, 0));
  return { added, removed, changed };
}

const DIMENSIONS = {
  byProject: (s: VersionSummary): Group[] => s.byProject.map((g) => ({ key: g.id, label: g.name, minutes: g.minutes })),
  byUser: (s: VersionSummary): Group[] => s.byUser.map((g) => ({ key: g.id, label: g.name, minutes: g.minutes })),
  byTag: (s: VersionSummary): Group[] => s.byTag.map((g) => ({ key: g.tag, label: g.tag, minutes: g.minutes })),
  byDay: (s: VersionSummary): Group[] => s.byDay.map((g) => ({ key: g.date, label: g.date, minutes: g.minutes })),
};

const FILTER_LISTS = ['workspaceIds', 'projectIds', 'userIds', 'tags', 'clientIds'] as const;

function filterChanges(from: Filters | null, to: Filters | null): VersionDiff['filters']['changes'] {
  if (!from || !to) return [];
  return FILTER_LISTS.flatMap((field) => {
    const before = new Set(from[field] ?? []);
    const after = new Set(to[field] ?? []);
    const added = [...after].filter((x) => !before.has(x));
    const removed = [...before].filter((x) => !after.has(x));
    return added.length || removed.length ? [{ field, added, removed }] : [];
  });
}

/** Billable minutes and amounts per currency of two summaries; null unless both were rendered with billing. */
function billingChange(from: VersionSummary | null, to: VersionSummary | null): VersionDiff['billing'] {
  if (from?.billableMinutes === undefined || to?.billableMinutes === undefined) return null;
  const billableMinutes = { from: from.billableMinutes, to: to.billableMinutes, deltaMinutes: to.billableMinutes - from.billableMinutes };
  if (!from.amounts || !to.amounts) return { billableMinutes, amounts: null };
  const before = new Map(from.amounts.map((a) => [a.currency, a.minor]));
  const after = new Map(to.amounts.map((a) => [a.currency, a.minor]));
  const currencies = [...new Set([...before.keys(), ...after.keys()])].sort();
  const amounts = currencies.map((currency) => {
    const fromMinor = before.get(currency) ?? 0;
    const toMinor = after.get(currency) ?? 0;
    return { currency, fromMinor, toMinor, deltaMinor: toMinor - fromMinor };
  });
  return { billableMinutes, amounts };
}

/** A unified diff of the bodies (front matter left out); null past MAX_DIFF_EDITS or the time limit. */
export function bodyDiff(fromMarkdown: string, toMarkdown: string, fromVersion: number, toVersion: number): string | null {
  const a = parseDocument(fromMarkdown).body;
  const b = parseDocument(toMarkdown).body;
  if (a === b) return '';
  const patch = createTwoFilesPatch(`v${fromVersion}.md`, `v${toVersion}.md`, a, b, undefined, undefined, {
    context: 3,
    maxEditLength: MAX_DIFF_EDITS,
    timeout: DIFF_TIME_LIMIT_MS,
  });
  return patch ?? null;
}

export interface DiffSide {
  reportContentId: string;
  version: number;
  createdAt: Date;
  totalMinutes: number;
  summary: VersionSummary | null;
  meta: VersionMeta | null;
}

export function diffVersions(reportId: string, from: DiffSide, to: DiffSide, lines: LineDiff): VersionDiff {
  const groups = (dimension: keyof typeof DIMENSIONS): GroupDiff =>
    from.summary && to.summary ? diffGroups(DIMENSIONS[dimension](from.summary), DIMENSIONS[dimension](to.summary)) : null;
  const period = (side: DiffSide) => side.meta?.filters?.dateRange ?? null;
  const fromPeriod = period(from);
  const toPeriod = period(to);
  const fromTemplate = from.meta?.templateId ?? null;
  const toTemplate = to.meta?.templateId ?? null;
  const ref = (side: DiffSide) => ({
    reportContentId: side.reportContentId,
    version: side.version,
    createdAt: side.createdAt.toISOString(),
  });
  return {
    reportId,
    from: ref(from),
    to: ref(to),
    totalMinutes: { from: from.totalMinutes, to: to.totalMinutes, deltaMinutes: to.totalMinutes - from.totalMinutes },
    byProject: groups('byProject'),
    byUser: groups('byUser'),
    byTag: groups('byTag'),
    byDay: groups('byDay'),
    billing: billingChange(from.summary, to.summary),
    period: {
      from: fromPeriod,
      to: toPeriod,
      changed: fromPeriod?.from !== toPeriod?.from || fromPeriod?.to !== toPeriod?.to,
    },
    templateId: { from: fromTemplate, to: toTemplate, changed: fromTemplate !== toTemplate },
    filters: {
      from: from.meta?.filters ?? null,
      to: to.meta?.filters ?? null,
      changes: filterChanges(from.meta?.filters ?? null, to.meta?.filters ?? null),
    },
    ...lines,
  };
}
