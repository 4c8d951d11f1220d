/** Schedules and their runs (delivery.md §1; docs/api.md "Schedules"). */
import { Type, type Static } from 'typebox';
import { Id, Instant, Nullable } from '../../http/schemas.js';
import { DatePresetSchema } from '../reports/reports.schemas.js';

export const MAX_SCHEDULE_RECIPIENTS = 50;
const MAX_MESSAGE_LENGTH = 1000;
export const MAX_SCHEDULE_EMAILS = 50;

const ScheduleEmail = Type.String({ format: 'email', maxLength: 254 });
const EmailLinkSchema = Type.Union([Type.Literal('version'), Type.Literal('latest')], {
  description:
    "`version`: each run mails each address a link of its own to that run's version; `latest`: one link per address that follows the newest version, reused by every run.",
});
/** How many upcoming occurrences `nextRuns` lists. */
export const NEXT_RUNS = 5;

export const FrequencySchema = Type.Union([Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('monthly')], {
  description: '`daily` runs Monday to Friday.',
});
export const WeekdaySchema = Type.Union(
  [
    Type.Literal('monday'),
    Type.Literal('tuesday'),
    Type.Literal('wednesday'),
    Type.Literal('thursday'),
    Type.Literal('friday'),
    Type.Literal('saturday'),
    Type.Literal('sunday'),
  ],
  { description: 'Weekly schedules only.' },
);
const DayOfMonthSchema = Type.Union([Type.Integer({ minimum: 1, maximum: 28 }), Type.Literal('last')], {
  description: 'Monthly schedules only: 1 to 28, or `last` for the last day of each month.',
});
const LocalTime = Type.String({
  pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
  maxLength: 5,
  description:
    "HH:MM on the owner's wall clock at each run; a time skipped by a daylight-saving change runs when the gap ends, a repeated one once, at the first.",
  examples: ['09:00'],
});

export const ScheduleBody = Type.Object(
  {
    frequency: FrequencySchema,
    weekday: Type.Optional(WeekdaySchema),
    dayOfMonth: Type.Optional(DayOfMonthSchema),
    time: LocalTime,
    // The preset each run renders; default `yesterday` (daily), `last_week` (weekly), `last_month` (monthly).
    dateRange: Type.Optional(DatePresetSchema),
    recipientUserIds: Type.Optional(
      Type.Array(Id, {
        maxItems: MAX_SCHEDULE_RECIPIENTS,
        default: [],
        description: 'Recipient candidates now; each run delivers to those still eligible and names the others.',
      }),
    ),
    sendToSelf: Type.Optional(Type.Boolean({ default: false, description: "Also put each run's version in the owner's own inbox." })),
    message: Type.Optional(
      Nullable(Type.String({ maxLength: MAX_MESSAGE_LENGTH, description: 'Note for the recipients; blank collapses to null.' })),
    ),
    emails: Type.Optional(
      Type.Array(ScheduleEmail, {
        maxItems: MAX_SCHEDULE_EMAILS,
        default: [],
        description: 'Outside addresses each run e-mails with a link of their own (never a passcode); repeats are dropped.',
      }),
    ),
    emailLink: Type.Optional({ ...EmailLinkSchema, default: 'version' }),
    attachPdf: Type.Optional(Type.Boolean({ default: false, description: "Attach the version's PDF to the outside addresses' mail." })),
    active: Type.Optional(Type.Boolean({ default: true })),
  },
  {
    $id: 'ScheduleBody',
    additionalProperties: false,
    examples: [
      {
        frequency: 'weekly',
        weekday: 'monday',
        time: '09:00',
        dateRange: 'last_week',
        recipientUserIds: ['0196b4f2-6c1e-7a3b-9d4e-2f1a8c5b7e90'],
        message: "Last week's hours, for Monday's planning.",
      },
      {
        frequency: 'monthly',
        dayOfMonth: 1,
        time: '08:00',
        dateRange: 'last_month',
        emails: ['accounts@client.example'],
        emailLink: 'version',
        attachPdf: true,
        message: 'Our hours for last month, as invoiced.',
      },
      { frequency: 'monthly', dayOfMonth: 'last', time: '17:30', dateRange: 'this_month', sendToSelf: true },
    ],
    description:
      'A report schedule. `dateRange` is the preset each run renders (default: `yesterday` daily, `last_week` weekly, `last_month` monthly).',
  },
);
export type ScheduleInput = Static<typeof ScheduleBody>;

export const ScheduleSchema = Type.Object(
  {
    reportId: Id,
    frequency: FrequencySchema,
    weekday: Nullable(WeekdaySchema),
    dayOfMonth: Nullable(DayOfMonthSchema),
    time: LocalTime,
    timezone: Type.String({ description: "The owner's time zone, in which `time` is read (it follows the owner's profile)." }),
    dateRange: DatePresetSchema,
    recipientUserIds: Type.Array(Id),
    sendToSelf: Type.Boolean(),
    message: Nullable(Type.String()),
    emails: Type.Array(Type.String()),
    emailLink: EmailLinkSchema,
    attachPdf: Type.Boolean(),
    active: Type.Boolean(),
    nextRuns: Type.Array(Type.String({ description: "ISO 8601 with the owner's UTC offset, e.g. 2026-12-07T09:00:00.000+01:00." }), {
      maxItems: NEXT_RUNS,
      description: 'The next five occurrences; empty while inactive.',
    }),
    createdAt: Instant,
    updatedAt: Instant,
  },
  {
    $id: 'Schedule',
    examples: [
      {
        reportId: '0196b4f1-2d3c-7e4f-8a9b-0c1d2e3f4a5b',
        frequency: 'weekly',
        weekday: 'monday',
        dayOfMonth: null,
        time: '09:00',
        timezone: 'Europe/Berlin',
        dateRange: 'last_week',
        recipientUserIds: ['0196b4f2-6c1e-7a3b-9d4e-2f1a8c5b7e90'],
        sendToSelf: false,
        message: "Last week's hours, for Monday's planning.",
        emails: [],
        emailLink: 'version',
        attachPdf: false,
        active: true,
        nextRuns: [
          '2026-12-07T09:00:00.000+01:00',
          '2026-12-14T09:00:00.000+01:00',
          '2026-12-21T09:00:00.000+01:00',
          '2026-12-28T09:00:00.000+01:00',
          '2027-01-04T09:00:00.000+01:00',
        ],
        createdAt: '2026-12-02T10:00:00.000Z',
        updatedAt: '2026-12-02T10:00:00.000Z',
      },
    ],
  },
);
export type Schedule = Static<typeof ScheduleSchema>;

export const RunStatusSchema = Type.Union(
  [
    Type.Literal('queued'),
    Type.Literal('running'),
    Type.Literal('succeeded'),
    Type.Literal('partial'),
    Type.Literal('failed'),
    Type.Literal('skipped'),
  ],
  {
    description:
      '`partial`: delivered, with some recipients skipped; `failed`: nothing sent (see `error`); `skipped`: the occurrence did not run (see `error`).',
  },
);

export const SkippedRecipientSchema = Type.Object(
  {
    userId: Id,
    name: Type.String(),
    reason: Type.String({
      description: 'Why, in words that follow the name and name no ids, as the owner reads them in the app and in a mail.',
      examples: ['is no longer a member of \u201cStudio\u201d'],
    }),
  },
  { $id: 'SkippedRecipient' },
);

export const ScheduleRunSchema = Type.Object(
  {
    id: Id,
    trigger: Type.Union([Type.Literal('schedule'), Type.Literal('manual')], { description: '`manual`: a run-now.' }),
    scheduledFor: Instant,
    startedAt: Nullable(Instant),
    finishedAt: Nullable(Instant),
    status: RunStatusSchema,
    version: Nullable(Type.Integer({ minimum: 1, description: 'The version the run rendered.' })),
    reportContentId: Nullable(Id),
    delivered: Type.Integer({ minimum: 0, description: 'Teammate inbox deliveries.' }),
    skipped: Type.Array(SkippedRecipientSchema, { description: 'Recipients who were no longer candidates, with the reason.' }),
    emailed: Type.Integer({ minimum: 0, description: 'Outside addresses e-mailed.' }),
    error: Nullable(Type.String()),
  },
  { $id: 'ScheduleRun' },
);
export type ScheduleRun = Static<typeof ScheduleRunSchema>;

export const SCHEDULE_SCHEMAS = [ScheduleBody, ScheduleSchema, SkippedRecipientSchema, ScheduleRunSchema];
