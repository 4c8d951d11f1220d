/**
 * The outbox, for instance admins (docs/api.md "E-mail"): every mail message newest first with its
 * status, kind, address, subject, time and error, filtered by status and paged; a message opens on
 * its plain-text part. The HTML part is never put into the app's page: the app's CSP would refuse
 * its inline styles in a frame too, and the text part says the same.
 */
import { useState } from 'react';
import { api, type MailStatus, type OutboxMessage } from '../../lib/api.js';
import { useTitle } from '../../lib/session.js';
import { FilterForm, Loaded, Pager, SelectField, Time, useLoad } from '../../components/ui/ui.js';
import { MAIL_STATUS_TEXT, StatusBadge } from './mail-state.js';

const PAGE_SIZE = 20;

const KIND_TEXT: Record<OutboxMessage['kind'], string> = {
  delivery: 'Inbox delivery',
  address: 'Outside address',
  discussion: 'Discussion',
  run_problem: 'Run problem',
  password_link: 'Set-password link',
  digest: 'Daily digest',
};

const STATUS_OPTIONS: readonly (readonly [MailStatus | '', string])[] = [
  ['', 'Any status'],
  ...(Object.keys(MAIL_STATUS_TEXT) as MailStatus[]).map((s) => [s, MAIL_STATUS_TEXT[s]] as const),
];

export function Outbox() {
  useTitle('Outbox');
  const [status, setStatus] = useState<MailStatus | ''>('');
  const [offset, setOffset] = useState(0);
  const messages = useLoad(() => api.outbox({ limit: PAGE_SIZE, offset, ...(status ? { status } : {}) }), [status, offset]);
  return (
    <>
      <h1>Outbox</h1>
      <p className="lead">
        Every e-mail Chronicle writes, newest first. Without <code>SMTP_URL</code> (the embedded default) nothing is sent: each message is
        kept here instead, as “Kept in the outbox”. With SMTP, this is where a failed message says why.
      </p>
      <p className="hint">Messages may hold set-password and share links: treat what you open here as a secret.</p>
      <FilterForm label="Filter the outbox">
        <SelectField
          label="Status"
          value={status}
          onChange={(value) => {
            setStatus(STATUS_OPTIONS.find(([s]) => s === value)?.[0] ?? '');
            setOffset(0);
          }}
          options={STATUS_OPTIONS}
        />
      </FilterForm>
      <Loaded state={messages} what="the outbox">
        {({ items, total }) =>
          items.length === 0 ? (
            <p className="empty">{status ? 'No message has this status.' : 'No mail yet.'}</p>
          ) : (
            <>
              <ul className="list outbox" aria-label="Messages">
                {items.map((m) => (
                  <OutboxItem key={m.id} message={m} />
                ))}
              </ul>
              {total > PAGE_SIZE ? <Pager offset={offset} total={total} pageSize={PAGE_SIZE} onChange={setOffset} /> : null}
            </>
          )
        }
      </Loaded>
    </>
  );
}

function OutboxItem({ message: m }: { message: OutboxMessage }) {
  const subject = m.subject ?? 'Not composed yet';
  return (
    <li className="item">
      <h2 className="mail-subject">{subject}</h2>
      <p className="mail-head">
        <StatusBadge status={m.status} /> {KIND_TEXT[m.kind]} · to <span className="address">{m.to}</span>
      </p>
      <p className="meta">
        Written <Time instant={m.createdAt} />
        {m.sentAt ? (
          <>
            {' '}
            · sent <Time instant={m.sentAt} />
          </>
        ) : null}
        {m.attempts > 0 ? ` · ${m.attempts} ${m.attempts === 1 ? 'attempt' : 'attempts'}` : ''}
        {m.attachments.length > 0 ? ` · attached: ${m.attachments.join(', ')}` : ''}
      </p>
      {m.error ? <p className="run-error">{m.error}</p> : null}
      {m.text !== null ? (
        <details className="mail-text">
          <summary>
            Open the message<span className="sr-only"> {subject}</span>
          </summary>
          <pre>{m.text}</pre>
        </details>
      ) : null}
    </li>
  );
}
