/**
 * A report's schedule (docs/api.md "Schedules"), the owner's alone: the schedule in words with its
 * next five runs on the owner's clock, the outside addresses it mails, a form to make or change it,
 * pause and resume, a run at once, and the history of its runs, read again every 2 s while a run
 * waits or runs.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  api,
  ChronicleError,
  type DatePreset,
  type RecipientCandidate,
  type Report,
  type Schedule,
  type ScheduleBody,
  type ScheduleRun,
} from '../../lib/api.js';
import { useSession } from '../../lib/session.js';
import {
  CheckField,
  ConfirmDelete,
  ErrorMessage,
  Form,
  InputField,
  Loaded,
  RadioGroup,
  SelectField,
  Status,
  TextAreaField,
  useAction,
  useLoad,
} from '../../components/ui/ui.js';

type Frequency = Schedule['frequency'];
type Weekday = NonNullable<Schedule['weekday']>;
type RunStatus = ScheduleRun['status'];
type EmailLink = Schedule['emailLink'];

const EMAIL_LINKS: readonly (readonly [EmailLink, string])[] = [
  ['version', "This run's version"],
  ['latest', 'Always the newest version'],
];

/** The most outside addresses a schedule mails (docs/api.md "Schedules"). */
const MAX_EMAILS = 50;
/** A light check only (something@something.tld); the server decides. */
const LOOKS_LIKE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The addresses typed, one per line (commas and semicolons also part them), blanks dropped. */
export const parseEmails = (text: string) =>
  text
    .split(/[\n,;]+/)
    .map((line) => line.trim())
    .filter(Boolean);

/** What is wrong with the addresses typed, in the app's words, or nothing. */
function emailsProblem(emails: string[]): string | undefined {
  if (emails.length > MAX_EMAILS) return `Use at most ${MAX_EMAILS} addresses (now ${emails.length}).`;
  const odd = emails.filter((e) => !LOOKS_LIKE_EMAIL.test(e) || e.length > 254);
  if (odd.length === 0) return undefined;
  return `${odd.length === 1 ? 'This does' : 'These do'} not look like an e-mail address: ${odd.slice(0, 5).join(', ')}${odd.length > 5 ? ` and ${odd.length - 5} more` : ''}.`;
}

/** The server's refusals of single addresses (`/emails/2`), as "address: why". */
function emailErrors(error: unknown, emails: string[]): string | undefined {
  if (!(error instanceof ChronicleError)) return undefined;
  const lines = error.errors
    .filter((e) => e.path === '/emails' || e.path.startsWith('/emails/'))
    .map((e) => {
      const index = Number(e.path.split('/')[2]);
      const address = Number.isInteger(index) ? emails[index] : undefined;
      return address ? `${address}: ${e.message}` : `Addresses: ${e.message}`;
    });
  return lines.length ? lines.join('; ') : undefined;
}

const FREQUENCIES: readonly (readonly [Frequency, string])[] = [
  ['daily', 'Every weekday'],
  ['weekly', 'Every week'],
  ['monthly', 'Every month'],
];

const WEEKDAYS: readonly (readonly [Weekday, string])[] = [
  ['monday', 'Monday'],
  ['tuesday', 'Tuesday'],
  ['wednesday', 'Wednesday'],
  ['thursday', 'Thursday'],
  ['friday', 'Friday'],
  ['saturday', 'Saturday'],
  ['sunday', 'Sunday'],
];

const DAYS_OF_MONTH: readonly (readonly [string, string])[] = [
  ...Array.from({ length: 28 }, (_, i) => [String(i + 1), String(i + 1)] as const),
  ['last', 'Last day'],
];

/** Each preset: its name in the form, and the entries a run covers, in a sentence. */
const PRESETS: Record<DatePreset, { label: string; phrase: string }> = {
  today: { label: 'Today', phrase: "the same day's entries" },
  yesterday: { label: 'Yesterday', phrase: "the previous day's entries" },
  this_week: { label: 'This week', phrase: "this week's entries" },
  last_week: { label: 'Last week', phrase: "last week's entries" },
  last_7_days: { label: 'Last 7 days', phrase: "the last 7 days' entries" },
  this_month: { label: 'This month', phrase: "this month's entries" },
  last_month: { label: 'Last month', phrase: "last month's entries" },
  last_30_days: { label: 'Last 30 days', phrase: "the last 30 days' entries" },
};
const PRESET_OPTIONS = (Object.keys(PRESETS) as DatePreset[]).map((p) => [p, PRESETS[p].label] as const);

/** The preset a schedule renders when none is chosen, as the server picks it. */
const DEFAULT_RANGE: Record<Frequency, DatePreset> = { daily: 'yesterday', weekly: 'last_week', monthly: 'last_month' };

const STATUS_TEXT: Record<RunStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Succeeded',
  partial: 'Partly sent',
  failed: 'Failed',
  skipped: 'Skipped',
};

/** What a run waiting or running is doing, in the history. */
const PROGRESS: Partial<Record<RunStatus, string>> = { queued: 'waiting to run…', running: 'rendering and sending…' };

const isActive = (run: ScheduleRun) => run.status === 'queued' || run.status === 'running';

/** A run's outcome in a word; one that made its version but reached no one (every recipient skipped, no address) is not "partly" sent. */
const statusText = (run: ScheduleRun) =>
  run.status === 'partial' && run.delivered === 0 && run.emailed === 0 ? 'Not sent' : STATUS_TEXT[run.status];

/** How often the history is read again while a run waits or runs. */
const POLL_MS = 2_000;
/** The runs the history shows: the newest. */
const RUNS_SHOWN = 20;

const ordinal = (n: number) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
};

/** "Ana", "Ana and Bo", "Ana, Bo and Cy". */
const listOf = (names: string[]) => (names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`);

/** When a schedule runs, in words: "Every Monday at 09:00 (Europe/Berlin)". */
function whenInWords(schedule: Schedule): string {
  const at = `at ${schedule.time} (${schedule.timezone})`;
  if (schedule.frequency === 'daily') return `Every weekday, Monday to Friday, ${at}`;
  if (schedule.frequency === 'weekly') {
    const day = WEEKDAYS.find(([w]) => w === schedule.weekday)?.[1] ?? 'week';
    return `Every ${day} ${at}`;
  }
  const day = schedule.dayOfMonth === 'last' || schedule.dayOfMonth === null ? 'last day' : ordinal(schedule.dayOfMonth);
  return `On the ${day} of every month ${at}`;
}

/** Whom a schedule sends to, in words: "to Ana Souza and you", or that it only makes versions. */
function recipientsInWords(schedule: Schedule, candidates: RecipientCandidate[]): string {
  const names = schedule.recipientUserIds.map((id) => candidates.find((c) => c.id === id)?.name ?? 'someone who can no longer receive it');
  if (schedule.sendToSelf) names.push('you');
  return names.length ? `to ${listOf(names)}` : 'sent to nobody: each run only makes a new version';
}

/** The schedule in words: "Every Monday at 09:00 (Europe/Berlin), last week's entries, to Ana Souza." */
export function scheduleInWords(schedule: Schedule, candidates: RecipientCandidate[]): string {
  return `${whenInWords(schedule)}, ${PRESETS[schedule.dateRange].phrase}, ${recipientsInWords(schedule, candidates)}.`;
}

/** Instants on the owner's clock, in the reader's language: a run to come in full, a past one shorter. */
function zoneFormats(locale: string, zone: string) {
  const time = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: zone } as const;
  return {
    next: new Intl.DateTimeFormat(locale, {
      ...time,
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZoneName: 'short',
    }),
    past: new Intl.DateTimeFormat(locale, { ...time, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }),
  };
}
type Formats = ReturnType<typeof zoneFormats>;

/** The body that replaces `schedule` with itself, `changes` applied. */
function bodyOf(schedule: Schedule, changes: Partial<ScheduleBody> = {}): ScheduleBody {
  return {
    frequency: schedule.frequency,
    ...(schedule.frequency === 'weekly' && schedule.weekday ? { weekday: schedule.weekday } : {}),
    ...(schedule.frequency === 'monthly' && schedule.dayOfMonth !== null ? { dayOfMonth: schedule.dayOfMonth } : {}),
    time: schedule.time,
    dateRange: schedule.dateRange,
    recipientUserIds: schedule.recipientUserIds,
    sendToSelf: schedule.sendToSelf,
    message: schedule.message,
    emails: schedule.emails,
    emailLink: schedule.emailLink,
    attachPdf: schedule.attachPdf,
    active: schedule.active,
    ...changes,
  };
}

export function SchedulePanel({
  report,
  onRun,
  onShowVersion,
}: {
  report: Report;
  /** A run finished with a new version: the page reads the report and what a send changes again. */
  onRun: () => void;
  /** Opens a version under Versions. */
  onShowVersion: (contentId: string) => void;
}) {
  const { me } = useSession();
  const schedule = useLoad(() => api.schedule(report.id), [report.id]);
  const candidates = useLoad(() => api.recipients(report.id), [report.id, report.version]);
  // Bumped to read the history again: after an action, by the Refresh button, and every POLL_MS while a run is pending.
  const [reads, setReads] = useState(0);
  const runs = useLoad(() => api.scheduleRuns(report.id, { limit: RUNS_SHOWN }), [report.id, reads]);
  const readRuns = () => {
    setReads((n) => n + 1);
  };
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const zone = schedule.data?.timezone ?? me.timezone;
  const formats = useMemo(() => zoneFormats(me.locale, zone), [me.locale, zone]);

  const pending = runs.data?.items.some(isActive) ?? false;
  useEffect(() => {
    if (!pending) return;
    const timer = window.setInterval(() => {
      setReads((n) => n + 1);
    }, POLL_MS);
    return () => {
      window.clearInterval(timer);
    };
  }, [pending]);

  // A run seen waiting or running that has now finished: say how it ended, and when it made a
  // version, let the page show it.
  const watched = useRef(new Set<string>());
  const onRunRef = useRef(onRun);
  onRunRef.current = onRun;
  useEffect(() => {
    const items = runs.data?.items;
    if (!items) return;
    const done = items.filter((r) => watched.current.has(r.id) && !isActive(r));
    // Runs still pending, and runs queued here that a read begun earlier did not list yet.
    const unlisted = [...watched.current].filter((id) => !items.some((r) => r.id === id));
    watched.current = new Set([...items.filter(isActive).map((r) => r.id), ...unlisted]);
    const latest = done[0];
    if (!latest) return;
    setNotice(
      `The run finished: ${STATUS_TEXT[latest.status].toLowerCase()}${latest.version !== null ? `, version ${latest.version}` : ''}.`,
    );
    if (done.some((r) => r.version !== null)) onRunRef.current();
  }, [runs.data]);

  const toggle = useAction((current: Schedule) => api.putSchedule(report.id, bodyOf(current, { active: !current.active })));
  const runNow = useAction(() => api.runScheduleNow(report.id));
  const remove = useAction(async () => {
    await api.deleteSchedule(report.id);
    return true;
  });
  const clearActions = () => {
    toggle.clear();
    runNow.clear();
    remove.clear();
    setNotice(null);
  };

  const saved = (next: Schedule, words: string) => {
    schedule.set(next);
    setEditing(false);
    setNotice(words);
    // A change skips the runs already queued.
    readRuns();
  };

  return (
    <section aria-labelledby="schedule-heading" className="schedule">
      <h2 id="schedule-heading">Schedule</h2>
      <Loaded state={schedule} what="the schedule">
        {(current) => (
          <Loaded state={candidates} what="recipients">
            {(people) =>
              current === null || editing ? (
                <>
                  {current === null ? <p>Send a new version of this report on its own, every day, week or month.</p> : null}
                  <ScheduleForm
                    key={current?.updatedAt ?? 'new'}
                    reportId={report.id}
                    schedule={current}
                    candidates={people}
                    zone={zone}
                    onSaved={(next) => {
                      saved(next, current ? 'Schedule saved.' : 'Schedule created.');
                    }}
                    onCancel={
                      current
                        ? () => {
                            setEditing(false);
                          }
                        : undefined
                    }
                  />
                </>
              ) : (
                <>
                  <p className="schedule-summary">{scheduleInWords(current, people)}</p>
                  {current.emails.length > 0 ? <ScheduleEmails schedule={current} /> : null}
                  {current.message ? <p className="message">{current.message}</p> : null}
                  <h3>Next runs</h3>
                  {current.active ? (
                    <ol className="plain next-runs">
                      {current.nextRuns.map((instant) => (
                        <li key={instant}>
                          <time dateTime={instant}>{formats.next.format(new Date(instant))}</time>
                        </li>
                      ))}
                    </ol>
                  ) : (
                    <p>
                      <span className="tag">Paused</span> No runs until it is resumed.
                    </p>
                  )}
                  <div className="row schedule-actions">
                    <button
                      type="button"
                      className="secondary"
                      onClick={() => {
                        clearActions();
                        setEditing(true);
                      }}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="secondary"
                      disabled={toggle.busy}
                      onClick={() => {
                        clearActions();
                        void toggle.run(current).then((next) => {
                          if (next) saved(next, next.active ? 'Schedule resumed.' : 'Schedule paused.');
                        });
                      }}
                    >
                      {current.active ? 'Pause' : 'Resume'}
                    </button>
                    <button
                      type="button"
                      disabled={runNow.busy}
                      onClick={() => {
                        clearActions();
                        void runNow.run().then((run) => {
                          if (!run) return;
                          watched.current.add(run.id);
                          setNotice('Run queued: the history below shows when it is done.');
                          readRuns();
                        });
                      }}
                    >
                      {runNow.busy ? 'Queuing…' : 'Run now'}
                    </button>
                    <ConfirmDelete
                      busy={remove.busy}
                      label="Delete schedule"
                      confirmLabel="Really delete the schedule"
                      onConfirm={() => {
                        void remove.run().then((done) => {
                          if (!done) return;
                          schedule.set(null);
                          setNotice('Schedule deleted; its runs stay in the history.');
                          readRuns();
                        });
                      }}
                    />
                  </div>
                  <ErrorMessage error={toggle.error ?? runNow.error ?? remove.error} />
                </>
              )
            }
          </Loaded>
        )}
      </Loaded>
      {notice ? <Status>{notice}</Status> : null}
      <RunHistory
        runs={runs}
        formats={formats}
        zone={zone}
        hasSchedule={Boolean(schedule.data)}
        onRefresh={readRuns}
        onShowVersion={onShowVersion}
      />
    </section>
  );
}

function ScheduleForm({
  reportId,
  schedule,
  candidates,
  zone,
  onSaved,
  onCancel,
}: {
  reportId: string;
  schedule: Schedule | null;
  candidates: RecipientCandidate[];
  zone: string;
  onSaved: (schedule: Schedule) => void;
  onCancel: (() => void) | undefined;
}) {
  const [frequency, setFrequency] = useState<Frequency>(schedule?.frequency ?? 'weekly');
  const [weekday, setWeekday] = useState<Weekday>(schedule?.weekday ?? 'monday');
  const [dayOfMonth, setDayOfMonth] = useState(String(schedule?.dayOfMonth ?? 1));
  const [time, setTime] = useState(schedule?.time ?? '09:00');
  // Null: the frequency's own default, which follows a change of frequency until a preset is chosen.
  const [chosenRange, setChosenRange] = useState<DatePreset | null>(
    schedule && schedule.dateRange !== DEFAULT_RANGE[schedule.frequency] ? schedule.dateRange : null,
  );
  const dateRange = chosenRange ?? DEFAULT_RANGE[frequency];
  const [chosen, setChosen] = useState<string[]>(schedule?.recipientUserIds ?? []);
  const [toSelf, setToSelf] = useState(schedule?.sendToSelf ?? false);
  const [message, setMessage] = useState(schedule?.message ?? '');
  const [active, setActive] = useState(schedule?.active ?? true);
  const [emailsText, setEmailsText] = useState((schedule?.emails ?? []).join('\n'));
  const [emailLink, setEmailLink] = useState<EmailLink>(schedule?.emailLink ?? 'version');
  const [attachPdf, setAttachPdf] = useState(schedule?.attachPdf ?? false);
  const emails = parseEmails(emailsText);
  // A recipient of the saved schedule who is no longer a candidate stays listed (ticked) until unticked.
  const people = useMemo(
    () => [
      ...candidates.map((c) => ({ id: c.id, name: c.name, email: c.email })),
      ...(schedule?.recipientUserIds ?? [])
        .filter((id) => !candidates.some((c) => c.id === id))
        .map((id) => ({ id, name: 'Someone who can no longer receive this report', email: '' })),
    ],
    [candidates, schedule],
  );
  const save = useAction(() =>
    api.putSchedule(reportId, {
      frequency,
      ...(frequency === 'weekly' ? { weekday } : {}),
      ...(frequency === 'monthly' ? { dayOfMonth: dayOfMonth === 'last' ? 'last' : Number(dayOfMonth) } : {}),
      time,
      dateRange,
      recipientUserIds: chosen,
      sendToSelf: toSelf,
      message: message.trim() ? message : null,
      emails,
      emailLink,
      attachPdf,
      active,
    }),
  );

  const submit = async () => {
    const result = await save.run();
    if (result) onSaved(result);
  };
  return (
    <Form onSubmit={submit} className="stack schedule-form" aria-label={schedule ? 'Edit the schedule' : 'New schedule'}>
      <div className="field-pair">
        <SelectField
          label="Frequency"
          value={frequency}
          onChange={(value) => {
            setFrequency(FREQUENCIES.find(([f]) => f === value)?.[0] ?? 'weekly');
          }}
          options={FREQUENCIES}
        />
        {frequency === 'weekly' ? (
          <SelectField
            label="Day"
            value={weekday}
            onChange={(value) => {
              setWeekday(WEEKDAYS.find(([w]) => w === value)?.[0] ?? 'monday');
            }}
            options={WEEKDAYS}
          />
        ) : null}
        {frequency === 'monthly' ? (
          <SelectField label="Day of the month" value={dayOfMonth} onChange={setDayOfMonth} options={DAYS_OF_MONTH} />
        ) : null}
        <InputField label="Time" type="time" required value={time} onChange={setTime} hint={`On your clock (${zone})`} />
        <SelectField
          label="Entries from"
          value={dateRange}
          onChange={(value) => {
            setChosenRange(PRESET_OPTIONS.find(([p]) => p === value)?.[0] ?? null);
          }}
          options={PRESET_OPTIONS}
        />
      </div>
      {people.length === 0 ? (
        <p>Nobody can receive this report now (only teammates who may read every project in it); runs still make new versions.</p>
      ) : (
        <fieldset>
          <legend>Recipients</legend>
          <ul className="plain">
            {people.map((c) => (
              <li key={c.id}>
                <CheckField
                  checked={chosen.includes(c.id)}
                  onChange={(checked) => {
                    setChosen(checked ? [...chosen, c.id] : chosen.filter((x) => x !== c.id));
                  }}
                >
                  {c.name} {c.email ? <span className="muted">{c.email}</span> : null}
                </CheckField>
              </li>
            ))}
          </ul>
        </fieldset>
      )}
      <CheckField checked={toSelf} onChange={setToSelf}>
        Also send to me
      </CheckField>
      <TextAreaField label="Message (optional)" rows={2} maxLength={1000} value={message} onChange={setMessage} />
      <fieldset className="stack outside-mail">
        <legend>E-mail outside Chronicle</legend>
        <TextAreaField
          label="Outside addresses (optional)"
          hint={`One address per line, up to ${MAX_EMAILS}. Each run mails each address a link of its own, never a passcode.`}
          rows={3}
          autoComplete="off"
          spellCheck={false}
          value={emailsText}
          onChange={(value) => {
            setEmailsText(value);
            save.clear();
          }}
          invalidMessage={emailsProblem(emails)}
          // A change of the addresses clears the save's error, so these are the addresses it sent.
          error={emailErrors(save.error, emails)}
        />
        <RadioGroup legend="Each mail links to" name="email-link" value={emailLink} onChange={setEmailLink} options={EMAIL_LINKS} />
        <CheckField checked={attachPdf} onChange={setAttachPdf}>
          Attach the PDF
        </CheckField>
      </fieldset>
      <CheckField checked={active} onChange={setActive} hint="A paused schedule keeps its settings and does not run.">
        Active
      </CheckField>
      <ErrorMessage error={save.error} />
      <div className="row">
        <button type="submit" disabled={save.busy}>
          {save.busy ? 'Saving…' : schedule ? 'Save schedule' : 'Create schedule'}
        </button>
        {onCancel ? (
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </Form>
  );
}

/** The outside addresses a schedule mails, and how. */
function ScheduleEmails({ schedule }: { schedule: Schedule }) {
  const how = [
    schedule.emailLink === 'latest' ? 'a link that always shows the newest version' : "a link to each run's version",
    schedule.attachPdf ? 'the PDF attached' : null,
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <div className="schedule-emails">
      <p>Also e-mailed, with {how}, to:</p>
      <ul className="plain" aria-label="Outside addresses">
        {schedule.emails.map((address) => (
          <li key={address} className="address">
            {address}
          </li>
        ))}
      </ul>
    </div>
  );
}

function RunHistory({
  runs,
  formats,
  zone,
  hasSchedule,
  onRefresh,
  onShowVersion,
}: {
  runs: { data: { items: ScheduleRun[]; total: number } | undefined; error: unknown };
  formats: Formats;
  zone: string;
  hasSchedule: boolean;
  onRefresh: () => void;
  onShowVersion: (contentId: string) => void;
}) {
  // Without a schedule and without runs (none was ever made) there is no history to show.
  if (!hasSchedule && runs.data?.total === 0) return null;
  return (
    <>
      <div className="title-row">
        <h3 id="runs-heading">Run history</h3>
        <button type="button" className="secondary" onClick={onRefresh}>
          Refresh<span className="sr-only"> the run history</span>
        </button>
      </div>
      <Loaded state={runs} what="the runs">
        {({ items, total }) =>
          items.length === 0 ? (
            <p>No runs yet.</p>
          ) : (
            <>
              <p className="meta">
                Times in {zone}, newest first{total > items.length ? `; the latest ${items.length} of ${total}` : ''}.
              </p>
              <ul className="list runs" aria-labelledby="runs-heading">
                {items.map((run) => (
                  <RunItem key={run.id} run={run} formats={formats} onShowVersion={onShowVersion} />
                ))}
              </ul>
            </>
          )
        }
      </Loaded>
    </>
  );
}

function RunItem({ run, formats, onShowVersion }: { run: ScheduleRun; formats: Formats; onShowVersion: (contentId: string) => void }) {
  const contentId = run.reportContentId;
  return (
    <li className="item run">
      <p className="run-head">
        <span className={`run-status ${run.status}`}>{statusText(run)}</span>{' '}
        <time dateTime={run.scheduledFor}>{formats.past.format(new Date(run.scheduledFor))}</time>
      </p>
      <p className="meta">
        {run.trigger === 'manual' ? 'Run now' : 'Scheduled'}
        {' · '}
        {isActive(run) ? (
          PROGRESS[run.status]
        ) : (
          <>
            {run.version !== null && contentId ? (
              <a
                href="#versions"
                onClick={() => {
                  onShowVersion(contentId);
                }}
              >
                Version {run.version}
              </a>
            ) : (
              'no version'
            )}
            {' · '}delivered to {run.delivered === 0 ? 'no teammate' : `${run.delivered} ${run.delivered === 1 ? 'teammate' : 'teammates'}`}
            {run.emailed ? ` · e-mailed to ${run.emailed} ${run.emailed === 1 ? 'address' : 'addresses'}` : ''}
          </>
        )}
      </p>
      {run.skipped.length > 0 ? (
        <>
          <p>Not sent to:</p>
          <ul className="skipped">
            {run.skipped.map((s) => (
              <li key={s.userId}>
                {s.name} {s.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {run.error ? <p className="run-error">{run.error}</p> : null}
    </li>
  );
}
