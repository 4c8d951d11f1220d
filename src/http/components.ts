/**
 * The named schemas of the API (`components.schemas` in the OpenAPI document). Each is declared
 * once, with its `$id`, next to the feature that owns it; route tables use the TypeBox values as
 * they are (so handlers keep their static types), and at registration every copy of a named
 * schema in a route's body or response becomes a `$ref` to it (app.ts). Fastify's serialisers
 * and both request validators (validation.ts) resolve those references from this one list.
 */
import type { TSchema } from 'typebox';
import { ProblemSchema } from './schemas.js';
import { PasswordLinkSchema, SessionSchema, SignedInSchema } from '../modules/auth/auth.schemas.js';
import {
  CommentBody,
  CommentSchema,
  DiscussionSchema,
  ReactionBody,
  ReactionKeySchema,
  ReactionSummarySchema,
} from '../modules/discussion/discussion.schemas.js';
import { GroupChange, ReportContentSchema, VersionDiffSchema, VersionSchema } from '../modules/history/history.schemas.js';
import { InboxMessageSchema, InboxMessageWithContentSchema } from '../modules/inbox/inbox.schemas.js';
import { ProjectListItemSchema, ProjectMemberSchema, ProjectSchema } from '../modules/projects/projects.schemas.js';
import {
  DatePresetSchema,
  DateRange,
  Filters,
  FiltersInput,
  PreviewSchema,
  ReportBody,
  ReportSchema,
  ReportSummarySchema,
} from '../modules/reports/reports.schemas.js';
import { VersionSummarySchema } from '../modules/reports/version-summary.js';
import { RecipientCandidateSchema, SendBody, SendHistoryEntrySchema, SendResultSchema } from '../modules/sending/sending.schemas.js';
import { MintShareBody, ShareSchema } from '../modules/shares/shares.schemas.js';
import { TemplateSchema } from '../modules/templates/templates.schemas.js';
import {
  CreateTimeEntryBody,
  PatchTimeEntryBody,
  TimeEntriesBatchSchema,
  TimeEntrySchema,
} from '../modules/time-entries/time-entries.schemas.js';
import { CreatedTokenSchema, CreateTokenBody, TokenSchema, UserSchema } from '../modules/users/users.schemas.js';
import { MemberSchema, RoleSchema, WorkspaceSchema } from '../modules/workspaces/workspaces.schemas.js';

const NAMED: readonly TSchema[] = [
  ProblemSchema,
  UserSchema,
  TokenSchema,
  CreatedTokenSchema,
  CreateTokenBody,
  SessionSchema,
  SignedInSchema,
  PasswordLinkSchema,
  WorkspaceSchema,
  RoleSchema,
  MemberSchema,
  ProjectSchema,
  ProjectListItemSchema,
  ProjectMemberSchema,
  TimeEntrySchema,
  CreateTimeEntryBody,
  PatchTimeEntryBody,
  TimeEntriesBatchSchema,
  TemplateSchema,
  DatePresetSchema,
  DateRange,
  Filters,
  FiltersInput,
  ReportBody,
  ReportSummarySchema,
  ReportSchema,
  PreviewSchema,
  VersionSummarySchema,
  VersionSchema,
  ReportContentSchema,
  GroupChange,
  VersionDiffSchema,
  RecipientCandidateSchema,
  SendBody,
  SendResultSchema,
  SendHistoryEntrySchema,
  InboxMessageSchema,
  InboxMessageWithContentSchema,
  ShareSchema,
  MintShareBody,
  ReactionKeySchema,
  ReactionSummarySchema,
  CommentSchema,
  CommentBody,
  ReactionBody,
  DiscussionSchema,
];

const byId = new Map<string, TSchema>();
for (const schema of NAMED) {
  const id = (schema as { $id?: unknown }).$id;
  if (typeof id !== 'string' || byId.has(id)) throw new Error(`A named schema needs a unique $id (${String(id)}).`);
  byId.set(id, schema);
}

/** Fields TypeBox adds to a schema that wraps another (Optional, Readonly); not part of the shape. */
const isMarker = (key: string) => key.startsWith('~');

function sameShape(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a).filter((k) => !isMarker(k));
  const keysB = Object.keys(b).filter((k) => !isMarker(k));
  if (keysA.length !== keysB.length) return false;
  return keysA.every((k) => sameShape((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * A copy of `schema` in which every named schema below the top is `{ $ref: '<Name>#' }`. A schema
 * whose `$id` is not in the list, or that differs from the named one (TypeBox's Partial or Pick
 * keep the `$id` of what they derive from), stops start-up rather than publish a wrong reference.
 */
export function withRefs(schema: unknown, top = true): unknown {
  if (Array.isArray(schema)) return schema.map((item) => withRefs(item, false));
  if (typeof schema !== 'object' || schema === null) return schema;
  const record = schema as Record<string, unknown>;
  const id = record.$id;
  if (typeof id === 'string') {
    const named = byId.get(id);
    if (!named || !sameShape(named, record))
      throw new Error(`The schema ${id} is not the named schema of that $id (src/http/components.ts).`);
    if (!top) return { $ref: `${id}#` };
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (isMarker(key)) continue;
    // `properties` maps names to schemas; `enum`, `const`, `required` and examples hold data, not schemas.
    out[key] =
      key === 'enum' || key === 'const' || key === 'required' || key === 'examples' || key === 'default' ? value : withRefs(value, false);
  }
  return out;
}

/** The named schemas as they are registered: each one's own named parts are references too. */
export const COMPONENT_SCHEMAS: readonly Record<string, unknown>[] = NAMED.map((schema) => withRefs(schema) as Record<string, unknown>);
