import { Type, type Static, type TSchema } from 'typebox';
import { Id, Instant, Nullable } from '../../http/schemas.js';
import { MailStateSchema } from '../mail/mail.schemas.js';

const MAX_RECIPIENTS = 50;
const MAX_MESSAGE_LENGTH = 1000;

/** A recipient candidate (docs/api.md "Recipients and sending"). */
export const RecipientCandidateSchema = Type.Object(
  {
    id: Id,
    name: Type.String(),
    email: Type.String(),
    imageUrl: Nullable(Type.String()),
  },
  { $id: 'RecipientCandidate' },
);
export type RecipientCandidate = Static<typeof RecipientCandidateSchema>;

export const SendBody = Type.Object(
  {
    // Duplicates are accepted and delivered once: a client merging lists should not have to dedupe.
    recipientUserIds: Type.Optional(
      Type.Array(Id, { maxItems: MAX_RECIPIENTS, default: [], description: 'Recipient candidates; a repeated id is delivered once.' }),
    ),
    sendToSelf: Type.Optional(Type.Boolean({ default: false, description: "Also put a copy in the sender's own inbox." })),
    message: Type.Optional(
      Nullable(Type.String({ maxLength: MAX_MESSAGE_LENGTH, description: 'Note for the recipients; blank collapses to null.' })),
    ),
  },
  { $id: 'SendBody', additionalProperties: false },
);
export type SendInput = Static<typeof SendBody>;

/** The answer to a send (docs/api.md "Recipients and sending"). */
export const SendResultSchema = Type.Object(
  {
    id: Id,
    delivered: Type.Integer({ minimum: 0, description: 'Teammate deliveries; a self-copy is not counted.' }),
    reportContentId: Id,
    version: Type.Integer({ minimum: 1 }),
    sentAt: Instant,
  },
  { $id: 'SendResult' },
);
export type SendResult = Static<typeof SendResultSchema>;

export const SendHistoryEntrySchema = Type.Object(
  {
    id: Id,
    sentAt: Instant,
    reportContentId: Id,
    version: Type.Integer({ minimum: 1 }),
    recipients: Type.Array(
      Type.Object({
        userId: Id,
        name: Type.String(),
        mail: Type.Optional(
          Type.Union([MailStateSchema, Type.Null()], {
            description:
              "The e-mail this delivery caused: null when none was written (the teammate's preference is off); absent for anyone but the report's owner.",
          }),
        ),
      }),
      { description: 'Teammates only, not the self-copy.' },
    ),
    sendToSelf: Type.Boolean(),
    message: Nullable(Type.String()),
    readCount: Type.Integer({ minimum: 0, description: "Teammate recipients who have read it; 0 for anyone but the report's owner." }),
    emails: Type.Optional(
      Type.Array(
        Type.Object({
          address: Type.String(),
          mail: MailStateSchema,
          viewCount: Type.Integer({ minimum: 0, description: 'Views of the link mailed to this address.' }),
        }),
        {
          description:
            "Outside addresses a scheduled run mailed, with each mail's state and its link's views; the report's owner only, on a send that mailed any.",
        },
      ),
    ),
  },
  { $id: 'SendHistoryEntry' },
);
export type SendHistoryEntry = Static<typeof SendHistoryEntrySchema>;

/** The named schemas of this feature, in the order of `components.schemas` (src/http/components.ts). */
export const SENDING_SCHEMAS: readonly TSchema[] = [RecipientCandidateSchema, SendBody, SendResultSchema, SendHistoryEntrySchema];
