import { Type, type Static, type TLiteral, type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { CalendarDate, Id, Instant, Nullable } from '../../http/schemas.js';
import { LOCALE_MAX_LENGTH } from '../../lib/locale.js';
import { DATE_PRESETS, type DatePreset } from '../../render/date-range.js';
import { AmountSchema, VersionSummarySchema } from './version-summary.js';

const IdList = (maxItems: number, minItems = 0) => Type.Array(Id, { minItems, maxItems, uniqueItems: true });

export const DateRange = Type.Object(
  { from: CalendarDate, to: CalendarDate },
  {
    $id: 'DateRange',
    additionalProperties: false,
    description: 'Inclusive calendar dates; from <= to; at most 366 days; from in the years 1000 to 9999.',
  },
);

// The cast keeps the static type (a mapped array would make it `never`); the schema is unchanged.
export const DatePresetSchema = Type.Union(DATE_PRESETS.map((p) => Type.Literal(p)) as unknown as [TLiteral<DatePreset>], {
  $id: 'DatePreset',
  description: "Resolved in the owner's timezone at render time; weeks start on Monday.",
});

const filterFields = {
  workspaceIds: IdList(20, 1),
  projectIds: Type.Optional(IdList(50)),
  userIds: Type.Optional(IdList(50)),
  tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 20, uniqueItems: true })),
  clientIds: Type.Optional({
    ...IdList(50),
    description: 'Entries on projects of these clients; an id that names no client of the filtered workspaces matches nothing.',
  }),
};

/** Filters as sent: the date range may be a preset. */
export const FiltersInput = Type.Object(
  { ...filterFields, dateRange: Type.Union([DatePresetSchema, DateRange]) },
  { $id: 'FiltersInput', additionalProperties: false },
);
export type FiltersInput = Static<typeof FiltersInput>;

/** Filters as stored and returned: the date range is always absolute. */
export const Filters = Type.Object({ ...filterFields, dateRange: DateRange }, { $id: 'Filters' });
export type Filters = Static<typeof Filters>;

const checkFilters = Compile(Filters);

/** Whether a value (for example from a version's front matter) has the stored filters' shape. */
export const isFilters = (value: unknown): value is Filters => checkFilters.Check(value);

/** Filters read back from the database (jsonb), checked rather than trusted to have the stored shape. */
export function parseFilters(value: unknown): Filters {
  if (!checkFilters.Check(value)) throw new Error('a stored report has filters of an unexpected shape');
  return value;
}

/** The steps a billable entry's minutes may be rounded to (billing.md §3). */
export const ROUNDING_STEPS = [1, 5, 6, 10, 15, 30, 60] as const;

export const RoundingSchema = Type.Union(
  [
    Type.Object({ mode: Type.Literal('none') }, { additionalProperties: false }),
    Type.Object(
      {
        mode: Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Literal('nearest')]),
        minutes: Type.Union([
          Type.Literal(ROUNDING_STEPS[0]),
          Type.Literal(ROUNDING_STEPS[1]),
          Type.Literal(ROUNDING_STEPS[2]),
          Type.Literal(ROUNDING_STEPS[3]),
          Type.Literal(ROUNDING_STEPS[4]),
          Type.Literal(ROUNDING_STEPS[5]),
          Type.Literal(ROUNDING_STEPS[6]),
        ]),
      },
      { additionalProperties: false },
    ),
  ],
  {
    $id: 'Rounding',
    examples: [{ mode: 'up', minutes: 15 }, { mode: 'none' }],
    description:
      "How each billable entry's minutes are rounded to a multiple of `minutes` before amounts and totals (`nearest` rounds half up; `down` may give 0). Tracked minutes are never rounded.",
  },
);
export type Rounding = Static<typeof RoundingSchema>;

const optionFields = {
  rounding: RoundingSchema,
  hideAmounts: Type.Boolean({ description: 'No rate or amount in the render context.' }),
  billable: Type.Union([Type.Literal('all'), Type.Literal('billable'), Type.Literal('nonBillable')], {
    description: 'Which entries the report covers.',
  }),
  durationFormat: Type.Union([Type.Literal('hm'), Type.Literal('decimal')], {
    description: 'How the `duration` filter prints minutes: `1h 30m` or `1.50`.',
  }),
  locale: Type.String({ minLength: 1, maxLength: LOCALE_MAX_LENGTH, description: 'BCP 47 tag: how dates, numbers and money are printed.' }),
};

/** Options as sent: each omitted field takes its default (the locale: the owner's). */
export const ReportOptionsInput = Type.Object(
  {
    rounding: Type.Optional(optionFields.rounding),
    hideAmounts: Type.Optional(optionFields.hideAmounts),
    billable: Type.Optional(optionFields.billable),
    durationFormat: Type.Optional(optionFields.durationFormat),
    locale: Type.Optional(optionFields.locale),
  },
  {
    $id: 'ReportOptionsInput',
    additionalProperties: false,
    examples: [{ rounding: { mode: 'up', minutes: 15 }, billable: 'billable', locale: 'de' }],
    description:
      "A report's rounding, amounts, billable filter, duration format and locale; each field left out takes its default. Left out of an edit, the stored options stay.",
  },
);
export type ReportOptionsInput = Static<typeof ReportOptionsInput>;

/** Options as stored and returned: every field, the locale in its canonical form. */
export const ReportOptionsSchema = Type.Object(optionFields, {
  $id: 'ReportOptions',
  additionalProperties: false,
  examples: [{ rounding: { mode: 'up', minutes: 15 }, hideAmounts: false, billable: 'billable', durationFormat: 'hm', locale: 'de' }],
});
export type ReportOptions = Static<typeof ReportOptionsSchema>;

/** The options of a report that names none, but the locale (the owner's). */
export const DEFAULT_OPTIONS: Omit<ReportOptions, 'locale'> = Object.freeze({
  rounding: Object.freeze({ mode: 'none' as const }),
  hideAmounts: false,
  billable: 'all' as const,
  durationFormat: 'hm' as const,
});

const checkOptions = Compile(ReportOptionsSchema);

/** Options read back from the database (jsonb), checked rather than trusted. */
export function parseOptions(value: unknown): ReportOptions {
  if (!checkOptions.Check(value)) throw new Error('a stored report has options of an unexpected shape');
  return value;
}

export const ReportBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    templateId: Id,
    filters: FiltersInput,
    note: Type.Optional(Nullable(Type.String({ maxLength: 20000, description: 'Markdown; blank collapses to null.' }))),
    /** Omitted on an edit: the stored options stay. */
    options: Type.Optional(ReportOptionsInput),
  },
  { $id: 'ReportBody', additionalProperties: false },
);
export type ReportBody = Static<typeof ReportBody>;

const reportFields = {
  id: Id,
  name: Type.String(),
  ownerUserId: Id,
  templateId: Type.String(),
  filters: Filters,
  note: Nullable(Type.String()),
  totalMinutes: Nullable(Type.Integer()),
  snapshotProjectIds: Nullable(Type.Array(Type.String())),
  version: Type.Integer({ minimum: 1 }),
  options: ReportOptionsSchema,
  createdAt: Instant,
  updatedAt: Instant,
};

export const ReportSummarySchema = Type.Object(reportFields, { $id: 'ReportSummary' });
export type ReportSummary = Static<typeof ReportSummarySchema>;

export const ReportSchema = Type.Object(
  {
    ...reportFields,
    reportContentId: Id,
    renderedMarkdown: Type.String(),
  },
  { $id: 'Report' },
);
export type Report = Static<typeof ReportSchema>;

export const PreviewSchema = Type.Object(
  {
    suggestedName: Type.String(),
    suggestedNote: Type.String(),
    renderedMarkdown: Type.String(),
    totalMinutes: Type.Integer(),
    snapshotProjectIds: Type.Array(Type.String()),
    filters: Filters,
    options: ReportOptionsSchema,
  },
  { $id: 'ReportPreview' },
);
export type Preview = Static<typeof PreviewSchema>;

export const ListQuery = Type.Object(
  {
    ownerUserId: Type.Optional(Id),
    workspaceId: Type.Optional(Id),
    templateId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    projectId: Type.Optional(Id),
    from: Type.Optional(CalendarDate),
    to: Type.Optional(CalendarDate),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export type ListQuery = Static<typeof ListQuery>;

/** Optional lost-update protection on PATCH: the ETag (version) the client last saw. */
export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(Type.String({ maxLength: 1000, description: 'An ETag from GET /reports/:id, e.g. "3", or *.' })),
});

/** The named schemas of this feature, in the order of `components.schemas` (src/http/components.ts). */
export const REPORT_SCHEMAS: readonly TSchema[] = [
  DatePresetSchema,
  DateRange,
  Filters,
  FiltersInput,
  RoundingSchema,
  ReportOptionsInput,
  ReportOptionsSchema,
  ReportBody,
  ReportSummarySchema,
  ReportSchema,
  PreviewSchema,
  AmountSchema,
  VersionSummarySchema,
];

/** How a report route answers someone who may not read the report, as route descriptions say it. */
export const REPORT_404 = 'A report the caller may not read answers 404, as if it did not exist.';
/** Who may change a report or act for it (edit, send, share), as route descriptions say it. */
export const OWNER_ONLY =
  'Owner only (still a member of every filtered workspace); anyone else gets 404 when they cannot read the report, 403 when they can.';
