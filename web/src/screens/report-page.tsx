/** One report: its current version, edit and delete, sending with its history, links, discussion. */
import { useEffect, useMemo, useState, type SyntheticEvent } from 'react';
import { api, type Report } from '../api.js';
import { useSession, useTitle } from '../app.js';
import { Link, navigate } from '../router.js';
import { ErrorMessage, Field, Loading, ReportDocument, Status, Time, formatDate, formatMinutes, useAction, useLoad } from '../ui.js';
import { DiscussionPanel } from './discussion.js';
import { SharePanel } from './links.js';

export function ReportPage({ id }: { id: string }) {
  const { me } = useSession();
  const loaded = useLoad(() => api.report(id), [id]);
  const report = loaded.data;
  useTitle(report?.name ?? 'Report');
  const [confirming, setConfirming] = useState(false);
  const remove = useAction(async () => {
    await api.deleteReport(id);
    return true;
  });
  if (!report) return loaded.error ? <ErrorMessage error={loaded.error} /> : <Loading what="the report" />;
  const owner = report.ownerUserId === me.id;
  return (
    <>
      <p>
        <Link to="/reports">← Reports</Link>
      </p>
      <div className="title-row">
        <h1>
          {report.name} <span className="muted">v{report.version}</span>
        </h1>
        {owner && (
          <div className="row">
            <Link to={`/reports/${report.id}/edit`} className="button secondary">
              Edit
            </Link>
            {confirming ? (
              <>
                <button
                  type="button"
                  className="danger"
                  disabled={remove.busy}
                  onClick={() =>
                    void remove.run().then((done) => {
                      if (done) navigate('/reports');
                    })
                  }
                >
                  {remove.busy ? 'Deleting…' : 'Really delete, with all versions'}
                </button>
                <button
                  type="button"
                  className="secondary"
                  onClick={() => {
                    setConfirming(false);
                  }}
                >
                  Keep it
                </button>
              </>
            ) : (
              <button
                type="button"
                className="secondary"
                onClick={() => {
                  setConfirming(true);
                }}
              >
                Delete
              </button>
            )}
          </div>
        )}
      </div>
      <ErrorMessage error={remove.error} />
      <p className="meta">
        {formatDate(report.filters.dateRange.from)} – {formatDate(report.filters.dateRange.to)} · total {formatMinutes(report.totalMinutes)}{' '}
        · updated <Time instant={report.updatedAt} />
      </p>
      <ReportDocument markdown={report.renderedMarkdown} />
      {owner && <SendPanel report={report} />}
      <SendHistory reportId={report.id} />
      {owner && <SharePanel kind="report" id={report.id} />}
      <DiscussionPanel contentId={report.reportContentId} />
    </>
  );
}

function SendPanel({ report }: { report: Report }) {
  const candidates = useLoad(() => api.recipients(report.id), [report.id, report.version]);
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [message, setMessage] = useState('');
  const [toSelf, setToSelf] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const visible = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (candidates.data ?? []).filter((c) => !q || c.name.toLowerCase().includes(q) || c.email.toLowerCase().includes(q));
  }, [candidates.data, search]);
  const allVisibleChosen = visible.length > 0 && visible.every((c) => chosen.includes(c.id));
  const send = useAction(() =>
    api.sendReport(report.id, { recipientUserIds: chosen, sendToSelf: toSelf, message: message.trim() ? message : null }),
  );
  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    setSent(null);
    const result = await send.run();
    if (result) {
      setSent(
        `Sent version ${result.version} to ${result.delivered} ${result.delivered === 1 ? 'teammate' : 'teammates'}${toSelf ? ' and yourself' : ''}.`,
      );
      setChosen([]);
      setMessage('');
      window.dispatchEvent(new Event('chronicle:sent'));
    }
  };
  return (
    <section aria-labelledby="send-heading">
      <h2 id="send-heading">Send version {report.version}</h2>
      {candidates.error ? <ErrorMessage error={candidates.error} /> : null}
      {!candidates.data ? (
        candidates.error ? null : (
          <Loading what="recipients" />
        )
      ) : (
        <form onSubmit={(e) => void submit(e)} className="stack">
          {candidates.data.length === 0 ? (
            <p>Nobody can receive this version (only teammates who may read every project in it).</p>
          ) : (
            <fieldset>
              <legend>Recipients</legend>
              <Field label="Search people">
                {(fid) => (
                  <input
                    id={fid}
                    type="search"
                    value={search}
                    onChange={(e) => {
                      setSearch(e.target.value);
                    }}
                  />
                )}
              </Field>
              <label className="check">
                <input
                  type="checkbox"
                  checked={allVisibleChosen}
                  onChange={(e) => {
                    const ids = visible.map((c) => c.id);
                    setChosen(e.target.checked ? [...new Set([...chosen, ...ids])] : chosen.filter((x) => !ids.includes(x)));
                  }}
                />
                Select all{search ? ' shown' : ''} ({visible.length})
              </label>
              <ul className="plain">
                {visible.map((c) => (
                  <li key={c.id}>
                    <label className="check">
                      <input
                        type="checkbox"
                        checked={chosen.includes(c.id)}
                        onChange={(e) => {
                          setChosen(e.target.checked ? [...chosen, c.id] : chosen.filter((x) => x !== c.id));
                        }}
                      />
                      {c.name} <span className="muted">{c.email}</span>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          )}
          <Field label="Message (optional)">
            {(fid) => (
              <textarea
                id={fid}
                rows={2}
                maxLength={1000}
                value={message}
                onChange={(e) => {
                  setMessage(e.target.value);
                }}
              />
            )}
          </Field>
          <label className="check">
            <input
              type="checkbox"
              checked={toSelf}
              onChange={(e) => {
                setToSelf(e.target.checked);
              }}
            />
            Put a copy in my inbox
          </label>
          <ErrorMessage error={send.error} />
          {sent ? <Status>{sent}</Status> : null}
          <div>
            <button type="submit" disabled={send.busy || (chosen.length === 0 && !toSelf)}>
              {send.busy ? 'Sending…' : `Send${chosen.length ? ` to ${chosen.length}` : ''}`}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

function SendHistory({ reportId }: { reportId: string }) {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const bump = () => {
      setTick((n) => n + 1);
    };
    window.addEventListener('chronicle:sent', bump);
    return () => {
      window.removeEventListener('chronicle:sent', bump);
    };
  }, []);
  const history = useLoad(() => api.sends(reportId), [reportId, tick]);
  if (!history.data) return history.error ? <ErrorMessage error={history.error} /> : null;
  if (history.data.length === 0) return null;
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">Sent</h2>
      <ul className="list">
        {history.data.map((s) => (
          <li key={s.id} className="item">
            <p>
              Version {s.version} · <Time instant={s.sentAt} /> · to {s.recipients.map((r) => r.name).join(', ') || 'nobody else'}
              {s.sendToSelf ? ' (and a copy to self)' : ''}
            </p>
            <p className="meta">
              Read by {s.readCount} of {s.recipients.length}
            </p>
            {s.message ? <p className="message">{s.message}</p> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
