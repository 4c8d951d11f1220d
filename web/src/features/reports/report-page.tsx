/**
 * One report: its current version, edit and delete, sending with its history, links, discussion,
 * each a section the page's own navigation leads to.
 */
import { useMemo, useState } from 'react';
import { api, type Report, type SendHistoryEntry } from '../../lib/api.js';
import { useSession, useTitle } from '../../lib/session.js';
import { Link, navigate } from '../../lib/router.js';
import {
  CheckField,
  ConfirmDelete,
  ErrorMessage,
  InputField,
  Loaded,
  Loading,
  ReportDocument,
  Status,
  TextAreaField,
  Time,
  formatDate,
  formatMinutes,
  useAction,
  useLoad,
  Form,
} from '../../components/ui/ui.js';
import { DiscussionPanel } from '../discussion/discussion.js';
import { SharePanel } from '../shares/links.js';
import { describeOptions } from './report-options.js';
import { VersionHistory } from './versions.js';
import { ExportLinks } from './export-links.js';
import { SchedulePanel } from './schedule-panel.js';
import { MailStateText } from '../mail/mail-state.js';

export function ReportPage({ id }: { id: string }) {
  const { me } = useSession();
  const loaded = useLoad(() => api.report(id), [id]);
  const report = loaded.data;
  useTitle(report?.name ?? 'Report');
  const remove = useAction(async () => {
    await api.deleteReport(id);
    return true;
  });
  if (!report) return loaded.error ? <ErrorMessage error={loaded.error} /> : <Loading what="the report" />;
  const owner = report.ownerUserId === me.id;
  const options = describeOptions(report.options, me.locale);
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
            <ConfirmDelete
              busy={remove.busy}
              confirmLabel="Really delete, with all versions"
              onConfirm={() =>
                void remove.run().then((done) => {
                  if (done) navigate('/reports');
                })
              }
            />
          </div>
        )}
      </div>
      <ErrorMessage error={remove.error} />
      <p className="meta">
        {formatDate(report.filters.dateRange.from)} – {formatDate(report.filters.dateRange.to)} · total {formatMinutes(report.totalMinutes)}{' '}
        · updated <Time instant={report.updatedAt} />
      </p>
      {options ? <p className="meta">{options}</p> : null}
      <ReportSections report={report} owner={owner} onNewVersion={loaded.reload} />
    </>
  );
}

/** The page's sections, in order: [anchor, name]; the send, schedule and links sections are the owner's alone. */
function sectionsFor(owner: boolean): [string, string][] {
  return [
    ['document', 'Document'],
    ...(owner
      ? ([
          ['send', 'Send'],
          ['schedule', 'Schedule'],
        ] as [string, string][])
      : []),
    ['sent', 'Sent'],
    ['versions', 'Versions'],
    ...(owner ? ([['links', 'Public links']] as [string, string][]) : []),
    ['discussion', 'Discussion'],
  ];
}

function ReportSections({ report, owner, onNewVersion }: { report: Report; owner: boolean; onNewVersion: () => void }) {
  // Each send bumps this, and every section a send changes (its history, which versions were
  // sent, the discussion it opens) reads the server again.
  const [sends, setSends] = useState(0);
  const onSent = () => {
    setSends((n) => n + 1);
  };
  // The version shown in full under Versions; a scheduled run's version link opens it there.
  const [shownVersion, setShownVersion] = useState<string | null>(null);
  // A scheduled run made a new version and sent it: the page reads the report again, and what a send changes.
  const onRun = () => {
    onSent();
    onNewVersion();
  };
  return (
    <>
      <nav className="page-nav" aria-label="On this page">
        <ul>
          {sectionsFor(owner).map(([anchor, name]) => (
            <li key={anchor}>
              <a href={`#${anchor}`}>{name}</a>
            </li>
          ))}
        </ul>
      </nav>
      <section id="document" className="page-section" aria-labelledby="document-heading">
        <h2 id="document-heading" className="sr-only">
          Document
        </h2>
        <ExportLinks contentId={report.reportContentId} version={report.version} />
        <ReportDocument markdown={report.renderedMarkdown} />
      </section>
      {owner && (
        <div id="send" className="page-section">
          <SendPanel report={report} onSent={onSent} />
        </div>
      )}
      {owner && (
        <div id="schedule" className="page-section">
          <SchedulePanel report={report} onRun={onRun} onShowVersion={setShownVersion} />
        </div>
      )}
      <div id="sent" className="page-section">
        <SendHistory reportId={report.id} refresh={sends} />
      </div>
      <div id="versions" className="page-section">
        <VersionHistory report={report} refresh={sends} shownId={shownVersion} onShow={setShownVersion} />
      </div>
      {owner && (
        <div id="links" className="page-section">
          <SharePanel kind="report" id={report.id} />
        </div>
      )}
      <div id="discussion" className="page-section">
        <DiscussionPanel contentId={report.reportContentId} refresh={sends} />
      </div>
    </>
  );
}

function SendPanel({ report, onSent }: { report: Report; onSent: () => void }) {
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
  const submit = async () => {
    setSent(null);
    const result = await send.run();
    if (result) {
      setSent(
        `Sent version ${result.version} to ${result.delivered} ${result.delivered === 1 ? 'teammate' : 'teammates'}${toSelf ? ' and yourself' : ''}.`,
      );
      setChosen([]);
      setMessage('');
      onSent();
    }
  };
  return (
    <section aria-labelledby="send-heading">
      <h2 id="send-heading">Send version {report.version}</h2>
      <Loaded state={candidates} what="recipients">
        {(list) => (
          <Form onSubmit={submit} className="stack">
            {list.length === 0 ? (
              <p>Nobody can receive this version (only teammates who may read every project in it).</p>
            ) : (
              <fieldset>
                <legend>Recipients</legend>
                <InputField label="Search people" type="search" value={search} onChange={setSearch} />
                <CheckField
                  checked={allVisibleChosen}
                  onChange={(checked) => {
                    const ids = visible.map((c) => c.id);
                    setChosen(checked ? [...new Set([...chosen, ...ids])] : chosen.filter((x) => !ids.includes(x)));
                  }}
                >
                  Select all{search ? ' shown' : ''} ({visible.length})
                </CheckField>
                <ul className="plain">
                  {visible.map((c) => (
                    <li key={c.id}>
                      <CheckField
                        checked={chosen.includes(c.id)}
                        onChange={(checked) => {
                          setChosen(checked ? [...chosen, c.id] : chosen.filter((x) => x !== c.id));
                        }}
                      >
                        {c.name} <span className="muted">{c.email}</span>
                      </CheckField>
                    </li>
                  ))}
                </ul>
              </fieldset>
            )}
            <TextAreaField label="Message (optional)" rows={2} maxLength={1000} value={message} onChange={setMessage} />
            <CheckField checked={toSelf} onChange={setToSelf}>
              Put a copy in my inbox
            </CheckField>
            <ErrorMessage error={send.error} />
            {sent ? <Status>{sent}</Status> : null}
            <div>
              <button type="submit" disabled={send.busy || (chosen.length === 0 && !toSelf)}>
                {send.busy ? 'Sending…' : `Send${chosen.length ? ` to ${chosen.length}` : ''}`}
              </button>
            </div>
          </Form>
        )}
      </Loaded>
    </section>
  );
}

function SendHistory({ reportId, refresh }: { reportId: string; refresh: number }) {
  const history = useLoad(() => api.sends(reportId), [reportId, refresh]);
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">Sent</h2>
      <Loaded state={history} what="the sends">
        {(list) =>
          list.length === 0 ? (
            <p>Not sent yet.</p>
          ) : (
            <ul className="list sends">
              {list.map((s) => (
                <SendItem key={s.id} send={s} />
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}

/** One send; for the report's owner, each recipient's mail and each outside address with its link's views. */
function SendItem({ send: s }: { send: SendHistoryEntry }) {
  // Only the owner's answer carries mail states (`mail` present, even when null).
  const mailed = s.recipients.some((r) => r.mail !== undefined);
  const emails = s.emails ?? [];
  return (
    <li className="item">
      <p>
        Version {s.version} · <Time instant={s.sentAt} /> · to {s.recipients.map((r) => r.name).join(', ') || 'nobody else'}
        {s.sendToSelf ? ' (and a copy to self)' : ''}
      </p>
      <p className="meta">
        Read by {s.readCount} of {s.recipients.length}
      </p>
      {s.message ? <p className="message">{s.message}</p> : null}
      {mailed && s.recipients.length > 0 ? (
        <ul className="mail-states" aria-label={`E-mail to teammates, version ${s.version}`}>
          {s.recipients.map((r) => (
            <li key={r.userId}>
              {r.name}: <MailStateText mail={r.mail} />
            </li>
          ))}
        </ul>
      ) : null}
      {emails.length > 0 ? (
        <ul className="mail-states" aria-label={`E-mail to outside addresses, version ${s.version}`}>
          {emails.map((e) => (
            <li key={e.address}>
              <span className="address">{e.address}</span>: <MailStateText mail={e.mail} /> ·{' '}
              {e.viewCount === 0 ? 'link not opened yet' : e.viewCount === 1 ? 'link opened once' : `link opened ${e.viewCount} times`}
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}
