import { Type, type Static, type TSchema } from 'typebox';
import { REACTION_KEYS } from '../../db/schema.js';
import { Id, Instant, Nullable } from '../../http/schemas.js';

export const ReactionKeySchema = Type.Enum(REACTION_KEYS, {
  $id: 'ReactionKey',
  description: 'A reaction key: +1, -1, laugh, hooray, confused, heart, rocket, eyes.',
});

export const ReactionSummarySchema = Type.Object(
  {
    emoji: ReactionKeySchema,
    count: Type.Integer({ minimum: 1 }),
    reactedByMe: Type.Boolean(),
    userNames: Type.Array(Type.String(), { description: 'Display names of the reacting users, earliest reaction first.' }),
  },
  { $id: 'ReactionSummary', description: 'Only keys with at least one reaction are listed, in the fixed key order.' },
);
export type ReactionSummary = Static<typeof ReactionSummarySchema>;

const Summaries = Type.Array(ReactionSummarySchema);

export const CommentSchema = Type.Object(
  {
    id: Id,
    reportContentId: Id,
    authorUserId: Nullable(Id),
    authorName: Type.String({ description: 'Frozen at write time.' }),
    authorImageUrl: Nullable(Type.String({ description: "The author's live avatar; null once the account is deleted." })),
    body: Type.String(),
    createdAt: Instant,
    updatedAt: Instant,
    editable: Type.Boolean({ description: 'True when the caller wrote it.' }),
    reactions: Summaries,
  },
  { $id: 'Comment' },
);
export type Comment = Static<typeof CommentSchema>;

export const DiscussionSchema = Type.Object(
  {
    reportContentId: Id,
    shared: Type.Boolean({ description: 'False for a version never sent: read-only and empty.' }),
    reactions: Type.Array(ReactionSummarySchema, { description: 'Reactions on the version body.' }),
    comments: Type.Array(CommentSchema, { description: 'Oldest first.' }),
  },
  { $id: 'Discussion' },
);

export const ReactionSummariesSchema = Summaries;

export const CommentParams = Type.Object({ id: Id, commentId: Id });

export const CommentBody = Type.Object(
  { body: Type.String({ minLength: 1, maxLength: 10_000, description: 'Markdown, 1-10000 characters, not blank.' }) },
  { $id: 'CommentBody', additionalProperties: false },
);
export type CommentInput = Static<typeof CommentBody>;

export const ReactionBody = Type.Object({ emoji: ReactionKeySchema }, { $id: 'ReactionBody', additionalProperties: false });
export type ReactionInput = Static<typeof ReactionBody>;

/** The named schemas of this feature, in the order of `components.schemas` (src/http/components.ts). */
export const DISCUSSION_SCHEMAS: readonly TSchema[] = [
  ReactionKeySchema,
  ReactionSummarySchema,
  CommentSchema,
  CommentBody,
  ReactionBody,
  DiscussionSchema,
];
