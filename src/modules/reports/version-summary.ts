/**
 * The summary stored with each content version (docs/api.md "Version history"): minutes and entry
 * counts by project, user, tag and day, taken from the aggregates the render's one data statement
 * already computes. Immutable like the document it sits next to; project and user names are
 * frozen as they were at render time.
 */
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import type { GroupSums, RenderAggregates } from '../../render/render-context.js';
import { Nullable } from '../../http/schemas.js';

/**
 * An amount of money as a render computes it: an integer count of the currency's minor unit. Unlike
 * a rate (`Money`) it has no upper bound but the largest integer JSON carries exactly.
 */
export const AmountSchema = Type.Object(
  {
    currency: Type.String({ pattern: '^[A-Z]{3}$', maxLength: 3, description: 'ISO 4217 code.' }),
    minor: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: "Count of the currency's minor unit." }),
  },
  { $id: 'Amount', additionalProperties: false, examples: [{ currency: 'EUR', minor: 49500 }] },
);
export type Amount = Static<typeof AmountSchema>;

/** One total per currency, in code order; null where the version shows no money. */
const AmountList = Type.Union([Type.Array(AmountSchema), Type.Null()], {
  description: 'One amount per currency (never converted); null when the version shows no money (hidden, or not visible to its owner).',
});

const Amounts = { minutes: Type.Integer({ minimum: 0 }), entryCount: Type.Integer({ minimum: 0 }) };
const Billing = {
  billableMinutes: Type.Integer({ minimum: 0, description: 'Billable minutes after rounding.' }),
  amounts: AmountList,
};

export const VersionSummarySchema = Type.Object(
  {
    totalMinutes: Type.Integer({ minimum: 0 }),
    entryCount: Type.Integer({ minimum: 0 }),
    billableMinutes: Type.Optional(Type.Integer({ minimum: 0, description: 'Billable minutes after rounding; absent before billing.' })),
    nonBillableMinutes: Type.Optional(Type.Integer({ minimum: 0, description: 'Tracked minutes of non-billable entries.' })),
    amounts: Type.Optional(AmountList),
    byClient: Type.Optional(
      Type.Array(
        Type.Object({
          id: Nullable(Type.String({ description: 'null: entries without a client.' })),
          name: Type.String(),
          ...Amounts,
          ...Billing,
        }),
      ),
    ),
    byProject: Type.Array(
      Type.Object({ id: Nullable(Type.String({ description: 'null: entries without a project.' })), name: Type.String(), ...Amounts }),
    ),
    byUser: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), ...Amounts })),
    byTag: Type.Array(Type.Object({ tag: Type.String(), ...Amounts })),
    byDay: Type.Array(Type.Object({ date: Type.String({ description: "YYYY-MM-DD in the owner's timezone." }), ...Amounts })),
  },
  {
    $id: 'VersionSummary',
    description:
      'Minutes, billable minutes and amounts by client, project, user, tag and day when the version was rendered; names as they were then. The billing fields are absent from versions rendered before them.',
  },
);
export type VersionSummary = Static<typeof VersionSummarySchema>;

const checkSummary = Compile(VersionSummarySchema);

const byMinutesThen =
  <T extends { minutes: number }>(label: (x: T) => string) =>
  (a: T, b: T) =>
    b.minutes - a.minutes || (label(a) < label(b) ? -1 : label(a) > label(b) ? 1 : 0);

/** The summary of a render's aggregates, groups in a fixed order (most minutes first; days by date). */
export function summaryOf(aggregates: RenderAggregates): VersionSummary {
  const money = aggregates.moneyVisible ?? false;
  const amounts = (g: { minutes: number; entryCount: number }) => ({ minutes: g.minutes, entryCount: g.entryCount });
  const billing = (g: GroupSums) => ({ billableMinutes: g.billableMinutes ?? 0, amounts: money ? (g.amounts ?? []) : null });
  return {
    totalMinutes: aggregates.totalMinutes,
    entryCount: aggregates.entryCount,
    billableMinutes: aggregates.billableMinutes ?? 0,
    nonBillableMinutes: aggregates.nonBillableMinutes ?? 0,
    amounts: money ? (aggregates.amounts ?? []) : null,
    byClient: (aggregates.byClient ?? [])
      .map((g) => ({ id: g.id, name: g.name, ...amounts(g), ...billing(g) }))
      .sort(byMinutesThen((g) => `${g.name}\u0000${g.id ?? ''}`)),
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
