import { Type, type Static, type TSchema } from 'typebox';
import { CalendarDate, Id, Instant, Nullable } from '../../http/schemas.js';
import { Filters } from '../reports/reports.schemas.js';
import { VersionSummarySchema } from '../reports/version-summary.js';

const versionFields = {
  reportContentId: Id,
  reportId: Id,
  version: Type.Integer({ minimum: 1 }),
  name: Type.String({ description: "The report's name as this version was rendered." }),
  createdAt: Instant,
  totalMinutes: Type.Integer({ minimum: 0 }),
  snapshotProjectIds: Type.Array(Type.String()),
  templateId: Nullable(Type.String({ description: "Read from the version's front matter; null only if it cannot be read." })),
  filters: Nullable(Filters),
  sent: Type.Boolean({ description: 'The version has at least one delivery (a self-copy counts).' }),
};

/** One entry of a report's version history (docs/api.md "Version history"). */
export const VersionSchema = Type.Object(versionFields, { $id: 'ReportVersion' });
export type Version = Static<typeof VersionSchema>;

/** One version with its document and its summary. */
export const ReportContentSchema = Type.Object(
  {
    ...versionFields,
    summary: Type.Union([VersionSummarySchema, Type.Null()], {
      description: 'null for versions rendered before summaries were stored (their entries may have changed since).',
    }),
    renderedMarkdown: Type.String(),
  },
  { $id: 'ReportContent' },
);
export type ReportContent = Static<typeof ReportContentSchema>;

export const DiffQuery = Type.Object(
  {
    from: Id,
    to: Id,
  },
  { additionalProperties: false },
);
export type DiffQuery = Static<typeof DiffQuery>;

export const GroupChange = Type.Object(
  {
    key: Nullable(Type.String({ description: 'Project id (null: no project), user id, tag or date.' })),
    label: Type.String({ description: 'Project or user name (as the newer version has it), tag or date.' }),
    fromMinutes: Type.Integer({ minimum: 0 }),
    toMinutes: Type.Integer({ minimum: 0 }),
    deltaMinutes: Type.Integer(),
  },
  { $id: 'GroupChange' },
);
export type GroupChange = Static<typeof GroupChange>;

const GroupDiff = Type.Union(
  [
    Type.Object({
      added: Type.Array(GroupChange, { description: 'Only in `to`.' }),
      removed: Type.Array(GroupChange, { description: 'Only in `from`.' }),
      changed: Type.Array(GroupChange, { description: 'In both, with different minutes.' }),
    }),
    Type.Null(),
  ],
  { description: 'null when either version has no stored summary.' },
);
export type GroupDiff = Static<typeof GroupDiff>;

const VersionRef = Type.Object({ reportContentId: Id, version: Type.Integer({ minimum: 1 }), createdAt: Instant });
const Period = Nullable(Type.Object({ from: CalendarDate, to: CalendarDate }));
const FilterField = Type.Union([
  Type.Literal('workspaceIds'),
  Type.Literal('projectIds'),
  Type.Literal('userIds'),
  Type.Literal('tags'),
  Type.Literal('clientIds'),
]);

export const VersionDiffSchema = Type.Object(
  {
    reportId: Id,
    from: VersionRef,
    to: VersionRef,
    totalMinutes: Type.Object({ from: Type.Integer(), to: Type.Integer(), deltaMinutes: Type.Integer() }),
    byProject: GroupDiff,
    byUser: GroupDiff,
    byTag: GroupDiff,
    byDay: GroupDiff,
    billing: Type.Union(
      [
        Type.Object({
          billableMinutes: Type.Object({ from: Type.Integer(), to: Type.Integer(), deltaMinutes: Type.Integer() }),
          amounts: Type.Union(
            [
              Type.Array(
                Type.Object({
                  currency: Type.String(),
                  fromMinor: Type.Integer({ minimum: 0 }),
                  toMinor: Type.Integer({ minimum: 0 }),
                  deltaMinor: Type.Integer(),
                }),
                { description: 'One row per currency either version has, in code order; a currency one version lacks counts as 0 there.' },
              ),
              Type.Null(),
            ],
            { description: 'null when either version shows no money.' },
          ),
        }),
        Type.Null(),
      ],
      { description: 'Billable minutes and amounts per currency, from and to; null when either version was rendered before billing.' },
    ),
    period: Type.Object({ from: Period, to: Period, changed: Type.Boolean() }),
    templateId: Type.Object({ from: Nullable(Type.String()), to: Nullable(Type.String()), changed: Type.Boolean() }),
    filters: Type.Object({
      from: Nullable(Filters),
      to: Nullable(Filters),
      changes: Type.Array(Type.Object({ field: FilterField, added: Type.Array(Type.String()), removed: Type.Array(Type.String()) }), {
        description: 'Filter lists whose members differ (compared as sets; an omitted list is empty). The period is under `period`.',
      }),
    }),
    markdownDiff: Nullable(
      Type.String({
        description:
          'Unified line diff of the two Markdown bodies (front matter excluded); empty when they are equal; null when it was left out (see `markdownDiffOmitted`).',
      }),
    ),
    markdownDiffOmitted: Type.Union([Type.Literal('too-large'), Type.Literal('too-many-edits'), Type.Null()], {
      description:
        'Why `markdownDiff` is null: `too-large` when the two documents together exceed 1 MiB (UTF-8), `too-many-edits` when the ' +
        'bodies differ in more lines than a diff may cover or it took too long; null when the line diff is there.',
    }),
  },
  { $id: 'VersionDiff' },
);
export type VersionDiff = Static<typeof VersionDiffSchema>;

/** The named schemas of this feature, in the order of `components.schemas` (src/http/components.ts). */
export const HISTORY_SCHEMAS: readonly TSchema[] = [VersionSchema, ReportContentSchema, GroupChange, VersionDiffSchema];
