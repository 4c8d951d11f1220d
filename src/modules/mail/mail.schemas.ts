/** E-mail preferences and the outbox (delivery.md §3; docs/api.md "E-mail"). */
import { Type, type Static } from 'typebox';
import { Id, Instant, Nullable } from '../../http/schemas.js';
import { PageQuery } from '../../http/paging.js';

const MailEventsSchema = Type.Object(
  {
    inbox: Type.Boolean({ description: 'A report arrives in your inbox (a send or a scheduled run).' }),
    discussion: Type.Boolean({
      description: 'New comments and reactions in a discussion you take part in, at most one mail per discussion every 10 minutes.',
    }),
    scheduleProblems: Type.Boolean({ description: 'A scheduled run of your report failed or skipped recipients.' }),
  },
  { additionalProperties: false },
);

const DigestSchema = Type.Union([Type.Literal('immediate'), Type.Literal('daily')], {
  description: '`immediate`: each mail as it happens; `daily`: inbox and discussion mail gathered into one at 08:00 in your time zone.',
});

export const NotificationPreferencesSchema = Type.Object(
  {
    events: MailEventsSchema,
    attachPdf: Type.Boolean({ description: 'Attach the PDF of each version that arrives in your inbox.' }),
    digest: DigestSchema,
  },
  {
    $id: 'NotificationPreferences',
    additionalProperties: false,
    examples: [{ events: { inbox: true, discussion: true, scheduleProblems: true }, attachPdf: false, digest: 'immediate' }],
  },
);
export type NotificationPreferences = Static<typeof NotificationPreferencesSchema>;

export const NotificationPreferencesPatchSchema = Type.Object(
  {
    events: Type.Optional(Type.Partial(MailEventsSchema, { additionalProperties: false })),
    attachPdf: Type.Optional(Type.Boolean()),
    digest: Type.Optional(DigestSchema),
  },
  {
    $id: 'NotificationPreferencesPatch',
    additionalProperties: false,
    minProperties: 1,
    examples: [{ events: { discussion: false }, attachPdf: true }],
  },
);
export type NotificationPreferencesPatch = Static<typeof NotificationPreferencesPatchSchema>;

export const MAIL_KINDS = ['delivery', 'address', 'discussion', 'run_problem', 'password_link', 'digest'] as const;
export const MAIL_STATUSES = ['held', 'queued', 'sending', 'sent', 'kept', 'failed', 'digested'] as const;

const MailStatusSchema = Type.Union(
  MAIL_STATUSES.map((s) => Type.Literal(s)),
  {
    description:
      '`held`: waiting for its batch or digest; `queued`: to be sent (again, after a temporary failure); `sending`: an attempt is under way; ' +
      '`sent`: the SMTP server accepted it; `kept`: no SMTP is configured, so it stays here; `failed`: given up (see `error`); ' +
      '`digested`: went out in a daily digest.',
  },
);

export const OutboxMessageSchema = Type.Object(
  {
    id: Id,
    kind: Type.Union(
      MAIL_KINDS.map((k) => Type.Literal(k)),
      { description: 'What caused it (docs/api.md "E-mail").' },
    ),
    to: Type.String(),
    status: MailStatusSchema,
    subject: Nullable(Type.String({ description: 'Set once the message was composed (sent, kept or failed).' })),
    text: Nullable(Type.String({ description: 'The plain-text part as sent or kept.' })),
    html: Nullable(Type.String({ description: 'The HTML part as sent or kept.' })),
    attachments: Type.Array(Type.String(), { description: 'File names of the attachments.' }),
    attempts: Type.Integer({ minimum: 0 }),
    error: Nullable(Type.String()),
    createdAt: Instant,
    sentAt: Nullable(Instant),
  },
  { $id: 'OutboxMessage', additionalProperties: false },
);
export type OutboxMessage = Static<typeof OutboxMessageSchema>;

export const OutboxQuery = Type.Object(
  { ...PageQuery.properties, status: Type.Optional(MailStatusSchema) },
  { additionalProperties: false },
);

/** The delivery state of one mail of a send, as its history shows it. */
export const MailStateSchema = Type.Object(
  {
    status: MailStatusSchema,
    error: Nullable(Type.String()),
  },
  { $id: 'MailState', additionalProperties: false },
);
export type MailState = Static<typeof MailStateSchema>;

export const MAIL_SCHEMAS = [NotificationPreferencesSchema, NotificationPreferencesPatchSchema, OutboxMessageSchema, MailStateSchema];
