import { Type, type Static, type TSchema } from 'typebox';
import { DATE_TEXT_MAX, Id, Instant, Nullable } from '../../http/schemas.js';

/** The first and the last instant an entry may start at: years 1000 to 9999 in UTC (docs/api.md "Time entries"). */
export const FIRST_ENTRY_START = Date.parse('1000-01-01T00:00:00.000Z');
export const LAST_ENTRY_START = Date.parse('9999-12-31T23:59:59.999Z');

/** Most entries a list returns when `limit` is omitted, and the most it may ask for. */
export const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

export const TimeEntrySchema = Type.Object(
  {
    id: Id,
    workspaceId: Id,
    projectId: Nullable(Id),
    userId: Id,
    start: Instant,
    minutes: Type.Integer(),
    description: Type.String(),
    tags: Type.Array(Type.String()),
    billable: Type.Boolean(),
    createdAt: Instant,
    updatedAt: Instant,
  },
  {
    $id: 'TimeEntry',
    examples: [
      {
        id: '01a1f3c2-8c20-7d00-9e00-3a4b5c6d7e8f',
        workspaceId: '01a1f3c2-6f00-7a00-8b00-1a2b3c4d5e6f',
        projectId: '01a1f3c2-7b10-7c00-8d00-2a3b4c5d6e7f',
        userId: '01a1f3c2-5e00-7b00-8c00-0a1b2c3d4e5f',
        start: '2026-11-03T08:00:00.000Z',
        minutes: 95,
        description: 'Homepage wireframes',
        tags: ['design'],
        billable: true,
        createdAt: '2026-11-03T09:40:00.000Z',
        updatedAt: '2026-11-03T09:40:00.000Z',
      },
    ],
  },
);
export type TimeEntry = Static<typeof TimeEntrySchema>;

const instant = (description: string) => Type.String({ format: 'date-time', maxLength: DATE_TEXT_MAX, description });
const Start = instant('ISO 8601 instant with an explicit offset or Z, e.g. 2026-03-02T09:00:00+01:00; stored in UTC.');
const Minutes = Type.Integer({ minimum: 1, maximum: 1440 });
const Description = Type.String({ maxLength: 2000 });
const Tags = Type.Array(Type.String({ minLength: 1, maxLength: 50 }), {
  maxItems: 20,
  uniqueItems: true,
  description: 'Up to 20 distinct tags (case-sensitive), each 1-50 characters.',
});
const ProjectId = Nullable(Id);
const id = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });

export const CreateTimeEntryBody = Type.Object(
  {
    workspaceId: Id,
    projectId: Type.Optional(Type.Union([Id, Type.Null()], { description: 'null or absent: unassigned.' })),
    start: Start,
    minutes: Minutes,
    description: Type.Optional(Description),
    tags: Type.Optional(Tags),
    billable: Type.Optional(
      Type.Boolean({ description: "Default: the project's billableByDefault, as it is when the entry is stored (false when unassigned)." }),
    ),
    userId: Type.Optional(id('Whose time this is (default: the caller); another member only for workspace admins/owners.')),
  },
  { $id: 'CreateTimeEntryBody', additionalProperties: false },
);
export type CreateTimeEntryInput = Static<typeof CreateTimeEntryBody>;

/** Most entries one batch may hold (docs/api.md "Time entries"). */
export const MAX_BATCH = 1000;
/** A full batch of long descriptions and tags fits in 8 MiB; other routes keep the 1 MiB limit. */
export const BATCH_BODY_LIMIT = 8 * 1024 * 1024;

export const CreateTimeEntriesBatchBody = Type.Object(
  {
    entries: Type.Array(CreateTimeEntryBody, {
      minItems: 1,
      maxItems: MAX_BATCH,
      description: `1 to ${MAX_BATCH} entries, each as the body of POST /time-entries.`,
    }),
  },
  { additionalProperties: false },
);
export type CreateTimeEntriesBatchInput = Static<typeof CreateTimeEntriesBatchBody>;

export const TimeEntriesBatchSchema = Type.Object(
  {
    entries: Type.Array(TimeEntrySchema, { description: 'The entries created, in the order of the request.' }),
  },
  { $id: 'TimeEntriesBatch' },
);
export type TimeEntriesBatch = Static<typeof TimeEntriesBatchSchema>;

/** The workspace and the user of an entry are fixed; everything else may change. */
export const PatchTimeEntryBody = Type.Object(
  {
    projectId: Type.Optional(ProjectId),
    start: Type.Optional(Start),
    minutes: Type.Optional(Minutes),
    description: Type.Optional(Description),
    tags: Type.Optional(Tags),
    billable: Type.Optional(Type.Boolean({ description: 'Left out: unchanged, even when the patch moves the entry to another project.' })),
  },
  { $id: 'PatchTimeEntryBody', additionalProperties: false },
);
export type PatchTimeEntryInput = Static<typeof PatchTimeEntryBody>;

export const ListTimeEntriesQuery = Type.Object(
  {
    workspaceId: Type.Optional(Id),
    userId: Type.Optional(Id),
    projectId: Type.Optional(Id),
    tag: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'Keeps entries carrying this tag (exact match).' })),
    from: Type.Optional(instant('Keeps entries starting at or after this instant.')),
    to: Type.Optional(instant('Keeps entries starting before this instant (exclusive).')),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export type ListTimeEntriesInput = Static<typeof ListTimeEntriesQuery>;

/** The named schemas of this feature, in the order of `components.schemas` (src/http/components.ts). */
export const TIME_ENTRY_SCHEMAS: readonly TSchema[] = [TimeEntrySchema, CreateTimeEntryBody, PatchTimeEntryBody, TimeEntriesBatchSchema];
