/**
 * The summary stored with each content version (docs/api.md "Version history"): minutes and entry
 * counts by project, user, tag and day, taken from the aggregates the render's one data statement
 * already computes. Immutable like the document it sits next to; project and user names are
 * frozen as they were at render time.
 */
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import type { RenderAggregates } from '../../render/render-context.js';
import { Nullable } from '../../http/schemas.js';

const Amounts = { minutes: Type.Integer({ minimum: 0 }), entryCount: Type.Integer({ minimum: 0 }) };

export const VersionSummarySchema = Type.Object(
  {
    totalMinutes: Type.Integer({ minimum: 0 }),
    entryCount: Type.Integer({ minimum: 0 }),
    byProject: Type.Array(
      Type.Object({ id: Nullable(Type.String({ description: 'null: entries without a project.' })), name: Type.String(), ...Amounts }),
    ),
    byUser: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), ...Amounts })),
    byTag: Type.Array(Type.Object({ tag: Type.String(), ...Amounts })),
    byDay: Type.Array(Type.Object({ date: Type.String({ description: "YYYY-MM-DD in the owner's timezone." }), ...Amounts })),
  },
  { $id: 'VersionSummary', description: 'Minutes by project, user, tag and day when the version was rendered; names as they were then.' },
);
export type VersionSummary = Static<typeof VersionSummarySchema>;

const checkSummary = Compile(VersionSummarySchema);

const byMinutesThen =
  <T extends { minutes: number }>(label: (x: T) => string) =>
  (a: T, b: T) =>
    b.minutes - a.minutes || (label(a) < label(b) ? -1 : label(a) > label(b) ? 1 : 0);

/** The summary of a render's aggregates, groups in a fixed order (most minutes first; days by date). */
export function summaryOf(aggregates: RenderAggregates): VersionSummary {
  const amounts = (g: { minutes: number; entryCount: number }) => ({ minutes: g.minutes, entryCount: g.entryCount });
  return {
    totalMinutes: aggregates.totalMinutes,
    entryCount: aggregates.entryCount,
    byProject: aggregates.byProject
      .map((g) => ({ id: g.id, name: g.name, ...amounts(g) }))
      .sort(byMinutesThen((g) => `${g.name}\u0000${g.id ?? ''}`)),
    byUser: aggregates.byUser
      .map((g) => ({ id: g.id ?? '', name: g.name, ...amounts(g) }))
      .sort(byMinutesThen((g) => `${g.name}\u0000${g.id}`)),
    byTag: aggregates.byTag.map((g) => ({ tag: g.tag, ...amounts(g) })).sort(byMinutesThen((g) => g.tag)),
    byDay: aggregates.byDay.map((g) => ({ date: g.date, ...amounts(g) })).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)),
  };
}

/** A stored summary (jsonb) read back: checked, not trusted; null for versions stored without one. */
export function parseSummary(value: unknown): VersionSummary | null {
  if (value === null || value === undefined) return null;
  if (!checkSummary.Check(value)) throw new Error('a stored version summary has an unexpected shape');
  return value;
}
