/** A mail message's state in words, on a badge whose colour only repeats the word (docs/api.md "E-mail"). */
import type { MailState, MailStatus } from '../../lib/api.js';

export const MAIL_STATUS_TEXT: Record<MailStatus, string> = {
  held: 'Held for a digest',
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  kept: 'Kept in the outbox',
  failed: 'Failed',
  digested: 'Sent in a digest',
};

/** The badge's tone: done, waiting or given up. */
const TONE: Record<MailStatus, 'ok' | 'pending' | 'bad'> = {
  held: 'pending',
  queued: 'pending',
  sending: 'pending',
  sent: 'ok',
  kept: 'ok',
  failed: 'bad',
  digested: 'ok',
};

export function StatusBadge({ status }: { status: MailStatus }) {
  return <span className={`state ${TONE[status]}`}>{MAIL_STATUS_TEXT[status]}</span>;
}

/** "Sent", "Queued", "Failed: the reason" or "No mail" (the recipient's preference wrote none). */
export function MailStateText({ mail }: { mail: MailState | null | undefined }) {
  if (!mail) return <span className="state none">No mail</span>;
  return (
    <>
      <StatusBadge status={mail.status} />
      {mail.status === 'failed' && mail.error ? (
        <>
          {' '}
          <span className="mail-error">
            <span className="sr-only">because </span>
            {mail.error}
          </span>
        </>
      ) : null}
    </>
  );
}
