import { useEffect } from 'react';
import { api } from '../../lib/api.js';
import { useSession, useTitle } from '../../lib/session.js';
import { Link } from '../../lib/router.js';
import { ErrorMessage, Loading, ReportDocument, Time, useLoad } from '../../components/ui/ui.js';
import { DiscussionPanel } from '../discussion/discussion.js';
import { SharePanel } from '../shares/links.js';
import { OnboardingChecklist } from '../onboarding/checklist.js';
import { ExportLinks } from '../reports/export-links.js';

export function Inbox() {
  useTitle('Inbox');
  const { unread } = useSession();
  const loaded = useLoad(() => api.inbox(), [unread]);
  return (
    <>
      <h1>Inbox</h1>
      <OnboardingChecklist />
      {loaded.error ? <ErrorMessage error={loaded.error} /> : null}
      {!loaded.data ? (
        loaded.error ? null : (
          <Loading what="the inbox" />
        )
      ) : loaded.data.length === 0 ? (
        <p>Nothing here yet. Reports your teammates send you arrive here.</p>
      ) : (
        <ul className="list">
          {loaded.data.map((m) => (
            <li key={m.id} className={m.readAt ? 'item' : 'item unread'}>
              <Link to={`/inbox/${m.id}`}>
                {m.reportName} <span className="muted">v{m.version}</span>
                {m.readAt ? null : <span className="sr-only"> (unread)</span>}
              </Link>
              <p className="meta">
                {m.self ? 'Your copy' : `From ${m.senderName}`} · <Time instant={m.sentAt} />
              </p>
              {m.message ? <p className="message">{m.message}</p> : null}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function InboxMessageScreen({ id }: { id: string }) {
  const { refreshUnread } = useSession();
  const loaded = useLoad(() => api.inboxMessage(id), [id]);
  const message = loaded.data;
  useTitle(message ? message.reportName : 'Message');
  useEffect(() => {
    if (message && message.readAt === null) {
      api.markRead(message.id).then(refreshUnread, () => undefined);
    }
  }, [message, refreshUnread]);
  if (!message) return loaded.error ? <ErrorMessage error={loaded.error} /> : <Loading what="the message" />;
  return (
    <>
      <p>
        <Link to="/inbox">← Inbox</Link>
      </p>
      <h1>
        {message.reportName} <span className="muted">v{message.version}</span>
      </h1>
      <p className="meta">
        {message.self ? 'Your copy' : `From ${message.senderName}`} · <Time instant={message.sentAt} />
      </p>
      {message.message ? <blockquote className="message">{message.message}</blockquote> : null}
      <ExportLinks contentId={message.reportContentId} version={message.version} />
      <ReportDocument markdown={message.renderedMarkdown} />
      <DiscussionPanel contentId={message.reportContentId} />
      <SharePanel kind="inbox" id={message.id} />
    </>
  );
}
