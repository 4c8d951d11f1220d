/**
 * Hourly rates at one level (docs/api.md "Rates"): the level's history, oldest date first, a form
 * to set a rate from a date, and a way to end the level from a date. Only workspace admins see
 * these: the API answers 404 on every rate path to anyone else, so the screens leave them out.
 */
import { useId, useMemo, useRef, useState } from 'react';
import { api, type Rate, type RateLevel } from '../../lib/api.js';
import { exampleAmount, formatMoney, parseAmount } from '../../lib/money.js';
import { useSession } from '../../lib/session.js';
import { dayOf } from '../../lib/zoned-time.js';
import { ErrorMessage, Form, InputField, Loaded, SelectField, Status, useAction, useLoad } from '../../components/ui/ui.js';

/** The dates the API takes for `effectiveFrom`: years 1000 to 9999. */
const FIRST_DAY = '1000-01-01';
const LAST_DAY = '9999-12-31';

/** How the signed-in person reads dates and instants: their locale, their profile's zone. */
function useDateFormats() {
  const { me } = useSession();
  return useMemo(
    () => ({
      // A calendar day (`YYYY-MM-DD`) is read at UTC midnight, so it prints as itself.
      day: new Intl.DateTimeFormat(me.locale, { dateStyle: 'medium', timeZone: 'UTC' }),
      instant: new Intl.DateTimeFormat(me.locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: me.timezone }),
      today: dayOf(new Date(), me.timezone),
    }),
    [me.locale, me.timezone],
  );
}

/** "Workspace rate" → "workspace rate", "Rate of Ana" → "rate of Ana", for use inside a sentence. */
const inSentence = (title: string) => title.charAt(0).toLowerCase() + title.slice(1);

/** The row in force today: the latest whose date has come (null when none has). */
function inForce(history: Rate[], today: string): Rate | null {
  let current: Rate | null = null;
  for (const row of history) if (row.effectiveFrom <= today) current = row;
  return current;
}

/**
 * One level's rates: its history and the forms that change it. `title` names the level ("Workspace
 * rate"), `empty` says what applies while it has no rate.
 */
export function RateLevelPanel({
  level,
  currency,
  title,
  empty,
  headingLevel = 3,
}: {
  level: RateLevel;
  currency: string;
  title: string;
  empty: string;
  headingLevel?: 3 | 4;
}) {
  const key = JSON.stringify(level);
  const history = useLoad(() => api.rates(level), [key]);
  const headingId = useId();
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  return (
    <section aria-labelledby={headingId} className="rate-level">
      <Heading id={headingId}>{title}</Heading>
      <Loaded state={history} what={inSentence(title)}>
        {(rows) => (
          <>
            <RateHistory title={title} rows={rows} empty={empty} />
            <SetRate
              level={level}
              currency={currency}
              title={title}
              ended={rows.length === 0 || rows[rows.length - 1]?.hourly === null}
              onChanged={history.reload}
            />
          </>
        )}
      </Loaded>
    </section>
  );
}

function RateHistory({ title, rows, empty }: { title: string; rows: Rate[]; empty: string }) {
  const { me } = useSession();
  const formats = useDateFormats();
  if (rows.length === 0) return <p className="empty">{empty}</p>;
  const current = inForce(rows, formats.today);
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={`History of the ${inSentence(title)}`}>
      <table className="rates stacked">
        <thead>
          <tr>
            <th scope="col">From</th>
            <th scope="col" className="num">
              Hourly rate
            </th>
            <th scope="col">Set on</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.effectiveFrom} aria-current={row === current || undefined}>
              <td>
                <time dateTime={row.effectiveFrom}>{formats.day.format(new Date(`${row.effectiveFrom}T00:00:00Z`))}</time>{' '}
                {row === current ? <span className="tag">In force</span> : null}
                {row.effectiveFrom > formats.today ? <span className="tag">Planned</span> : null}
              </td>
              <td className="num">{row.hourly ? formatMoney(row.hourly, me.locale) : 'No rate'}</td>
              <td data-label="Set on">
                <time dateTime={row.createdAt}>{formats.instant.format(new Date(row.createdAt))}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SetRate({
  level,
  currency,
  title,
  ended,
  onChanged,
}: {
  level: RateLevel;
  currency: string;
  title: string;
  /** Whether the level has no rate left to end (none yet, or the last row already ends it). */
  ended: boolean;
  onChanged: () => void;
}) {
  const { me } = useSession();
  const formats = useDateFormats();
  const [amount, setAmount] = useState('');
  const [from, setFrom] = useState(formats.today);
  const [done, setDone] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  const parsed = parseAmount(amount, currency, me.locale);
  const put = useAction((hourly: { currency: string; minor: number } | null) => api.putRate(level, { hourly, effectiveFrom: from }));
  const day = (date: string) => formats.day.format(new Date(`${date}T00:00:00Z`));

  const set = async () => {
    setDone('');
    if (parsed.minor === undefined) return;
    const row = await put.run({ currency, minor: parsed.minor });
    if (!row) return;
    setDone(`Set ${row.hourly ? formatMoney(row.hourly, me.locale) : ''} an hour from ${day(row.effectiveFrom)}.`);
    setAmount('');
    onChanged();
  };
  const end = async () => {
    setDone('');
    // Only the date matters here: the amount may be left empty.
    const date = formRef.current?.querySelector<HTMLInputElement>('input[type="date"]');
    if (date && !date.checkValidity()) {
      date.focus();
      return;
    }
    const row = await put.run(null);
    if (!row) return;
    setDone(`No ${inSentence(title)} applies from ${day(row.effectiveFrom)} on.`);
    onChanged();
  };

  return (
    <Form onSubmit={set} ref={formRef} className="rate-form" aria-label={`Set the ${inSentence(title)}`}>
      <div className="inline-form">
        <InputField
          label={`Hourly rate (${currency})`}
          hint={`Like ${exampleAmount(currency, me.locale)}, in ${currency}.`}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          invalidMessage={parsed.problem}
          onChange={(value) => {
            setAmount(value);
            setDone('');
          }}
        />
        <InputField
          label="From"
          hint="The first day it applies, in each person's time zone."
          type="date"
          required
          min={FIRST_DAY}
          max={LAST_DAY}
          value={from}
          onChange={(value) => {
            setFrom(value);
            setDone('');
          }}
        />
      </div>
      <div className="row">
        <button type="submit" disabled={put.busy}>
          {put.busy ? 'Saving…' : 'Set rate'}
        </button>
        {ended ? null : (
          <button type="button" className="secondary" disabled={put.busy} onClick={() => void end()}>
            End the rate from this day
          </button>
        )}
      </div>
      <ErrorMessage error={put.error} />
      {done ? <Status>{done}</Status> : null}
    </Form>
  );
}

/**
 * The rates of one person at a level (a workspace member's, or a project member's): choose the
 * person, then their level's history and forms.
 */
export function MemberRates({
  people,
  levelOf,
  currency,
  empty,
}: {
  people: readonly { userId: string; name: string }[];
  levelOf: (userId: string) => RateLevel;
  currency: string;
  empty: (name: string) => string;
}) {
  const { me } = useSession();
  const [userId, setUserId] = useState('');
  const chosen = people.find((p) => p.userId === userId);
  return (
    <>
      <div className="inline-form short-fields">
        <SelectField
          label="Member"
          value={userId}
          onChange={setUserId}
          options={[['', 'Choose a member'], ...people.map((p) => [p.userId, p.userId === me.id ? `${p.name} (you)` : p.name] as const)]}
        />
      </div>
      {chosen ? (
        <RateLevelPanel
          key={chosen.userId}
          level={levelOf(chosen.userId)}
          currency={currency}
          title={`Rate of ${chosen.name}`}
          empty={empty(chosen.name)}
          headingLevel={4}
        />
      ) : (
        <p className="empty">Choose a member to see their rate history and set their own rate.</p>
      )}
    </>
  );
}
