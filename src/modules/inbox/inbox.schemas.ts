import { Type, type Static, type TSchema } from 'typebox';
import { Id, Instant, Nullable } from '../../http/schemas.js';

/** An inbox message (docs/api.md "Inbox"); reportName and senderName are frozen at send time. */
export const InboxMessageSchema = Type.Object(
  {
    id: Id,
    reportId: Id,
    reportContentId: Id,
    reportName: Type.String(),
    version: Type.Integer({ minimum: 1 }),
    senderUserId: Id,
    senderName: Type.String(),
    message: Nullable(Type.String()),
    sentAt: Instant,
    readAt: Nullable(Instant),
    self: Type.Boolean({ description: 'A copy the sender put in their own inbox.' }),
  },
  { $id: 'InboxMessage' },
);
export type InboxMessage = Static<typeof InboxMessageSchema>;

export const InboxMessageWithContentSchema = Type.Object(
  {
    ...InboxMessageSchema.properties,
    renderedMarkdown: Type.String({ description: 'The delivered version, unchanged by later edits.' }),
  },
  { $id: 'InboxMessageWithContent' },
);
export type InboxMessageWithContent = Static<typeof InboxMessageWithContentSchema>;

/** The named schemas of this feature, in the order of `components.schemas` (src/http/components.ts). */
export const INBOX_SCHEMAS: readonly TSchema[] = [InboxMessageSchema, InboxMessageWithContentSchema];

/** How a route on a received message answers anyone but its recipient, as route descriptions say it. */
export const RECIPIENT_ONLY = "The recipient only; anyone else's message answers 404.";
