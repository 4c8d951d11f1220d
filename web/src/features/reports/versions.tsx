/** A report's version history: its versions, newest first, any one of them shown, and what changed between two. */
import { useEffect, useState } from 'react';
import { api, type Report, type Version } from '../../lib/api.js';
import {
  ErrorMessage,
  Loaded,
  ReportDocument,
  SelectField,
  Time,
  formatDate,
  formatMinutes,
  useAction,
  useLoad,
  Form,
} from '../../components/ui/ui.js';
import { VersionChanges, type Comparison } from './version-changes.js';
import { useFocusOnShow } from './focus.js';
import { ExportLinks } from './export-links.js';

/**
 * The versions of `report`; a change of `refresh` reads them again (a send changes what was sent).
 * Which version is shown in full is the page's (`shownId`), so other sections can open one.
 */
export function VersionHistory({
  report,
  refresh,
  shownId,
  onShow,
}: {
  report: Report;
  refresh: number;
  shownId: string | null;
  onShow: (contentId: string | null) => void;
}) {
  const first = useLoad(() => api.versions(report.id, { limit: VERSIONS_PAGE }), [report.id, report.version, refresh]);
  // Older pages, read on request; a new first page (an edit, a send) starts the list again.
  const [older, setOlder] = useState<Version[]>([]);
  useEffect(() => {
    setOlder([]);
  }, [first.data]);
  const more = useAction(async (offset: number) => {
    const next = await api.versions(report.id, { limit: VERSIONS_PAGE, offset });
    setOlder((shown) => [...shown, ...next.items]);
  });
  return (
    <section aria-labelledby="versions-heading">
      <h2 id="versions-heading">Versions</h2>
      <Loaded state={first} what="the versions">
        {({ items, total }) => {
          // Each version once, should a page overlap the ones before it.
          const list = [...new Map([...items, ...older].map((v) => [v.reportContentId, v])).values()];
          return (
            <>
              <VersionTable versions={list} shownId={shownId} onShow={onShow} />
              {list.length < total ? (
                <p className="more">
                  <button
                    type="button"
                    className="secondary"
                    disabled={more.busy}
                    onClick={() => {
                      void more.run(list.length);
                    }}
                  >
                    {more.busy ? 'Loading older versions…' : `Show older versions (${total - list.length} more)`}
                  </button>
                </p>
              ) : null}
              <ErrorMessage error={more.error} />
              {shownId ? (
                <ShownVersion
                  contentId={shownId}
                  onClose={() => {
                    onShow(null);
                  }}
                />
              ) : null}
              {list.length > 1 ? <Compare reportId={report.id} versions={list} /> : null}
            </>
          );
        }}
      </Loaded>
    </section>
  );
}

/** Versions read at a time: a year of weekly runs shows at once, a longer history a page at a time. */
const VERSIONS_PAGE = 60;

function VersionTable({ versions, shownId, onShow }: { versions: Version[]; shownId: string | null; onShow: (id: string) => void }) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label="Version list">
      <table className="versions stacked">
        <thead>
          <tr>
            <th scope="col" className="num">
              Version
            </th>
            <th scope="col">Rendered</th>
            <th scope="col">Period</th>
            <th scope="col" className="num">
              Total
            </th>
            <th scope="col">Sent</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => (
            <tr key={v.reportContentId} aria-current={v.reportContentId === shownId ? 'true' : undefined}>
              <td className="num version">{v.version}</td>
              <td data-label="Rendered">
                <Time instant={v.createdAt} />
              </td>
              <td data-label="Period">
                {v.filters ? `${formatDate(v.filters.dateRange.from)} – ${formatDate(v.filters.dateRange.to)}` : '—'}
              </td>
              <td className="num" data-label="Total">
                {formatMinutes(v.totalMinutes)}
              </td>
              <td className={v.sent ? 'sent' : 'narrow-hidden'}>{v.sent ? 'Sent' : '—'}</td>
              <td className="actions">
                <button
                  type="button"
                  className="secondary"
                  aria-expanded={v.reportContentId === shownId}
                  aria-controls="shown-version"
                  onClick={() => {
                    onShow(v.reportContentId);
                  }}
                >
                  Show<span className="sr-only"> version {v.version}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ShownVersion({ contentId, onClose }: { contentId: string; onClose: () => void }) {
  const content = useLoad(() => api.reportContent(contentId), [contentId]);
  const heading = useFocusOnShow<HTMLHeadingElement>(content.data?.reportContentId);
  return (
    <div id="shown-version" className="version-panel">
      <Loaded state={content} what="the version">
        {(v) => (
          <>
            <div className="title-row">
              <h3 ref={heading} tabIndex={-1}>
                Version {v.version}: {v.name}
              </h3>
              <button type="button" className="secondary" onClick={onClose}>
                Close<span className="sr-only"> version {v.version}</span>
              </button>
            </div>
            <p className="meta">
              Rendered <Time instant={v.createdAt} /> · total {formatMinutes(v.totalMinutes)}
            </p>
            <ExportLinks contentId={v.reportContentId} version={v.version} />
            <ReportDocument markdown={v.renderedMarkdown} />
          </>
        )}
      </Loaded>
    </div>
  );
}

function Compare({ reportId, versions }: { reportId: string; versions: Version[] }) {
  // Newest first: by default, what the latest edit changed.
  const [fromId, setFromId] = useState(versions[1]?.reportContentId ?? '');
  const [toId, setToId] = useState(versions[0]?.reportContentId ?? '');
  const [comparison, setComparison] = useState<Comparison | null>(null);
  // The server's answer (totals, filters, groups, the line diff) and both documents, compared here by block.
  const load = useAction(async (): Promise<Comparison> => {
    const [diff, from, to] = await Promise.all([api.diff(reportId, fromId, toId), api.reportContent(fromId), api.reportContent(toId)]);
    return { diff, from, to };
  });
  const options = versions.map((v) => [v.reportContentId, `Version ${v.version}`] as const);
  const submit = async () => {
    const result = await load.run();
    if (result) setComparison(result);
  };
  return (
    <>
      <Form className="filters" onSubmit={submit} aria-labelledby="compare-heading">
        <h3 id="compare-heading" className="sr-only">
          Compare two versions
        </h3>
        <SelectField label="Compare" value={fromId} onChange={setFromId} options={options} />
        <SelectField label="with" value={toId} onChange={setToId} options={options} />
        <div>
          <button type="submit" disabled={load.busy || fromId === toId}>
            {load.busy ? 'Comparing…' : 'Show changes'}
          </button>
        </div>
      </Form>
      <ErrorMessage error={load.error} />
      {comparison ? <VersionChanges comparison={comparison} /> : null}
    </>
  );
}
