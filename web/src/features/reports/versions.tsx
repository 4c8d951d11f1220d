/** A report's version history: every version, any one of them shown, and what changed between two. */
import { useEffect, useRef, useState } from 'react';
import { api, type GroupChange, type Report, type Version, type VersionDiff } from '../../lib/api.js';
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

export function VersionHistory({ report }: { report: Report }) {
  const versions = useLoad(() => api.versions(report.id), [report.id, report.version]);
  const [shownId, setShownId] = useState<string | null>(null);
  return (
    <section aria-labelledby="versions-heading">
      <h2 id="versions-heading">Versions</h2>
      <Loaded state={versions} what="the versions">
        {(list) => (
          <>
            <VersionTable versions={list} shownId={shownId} onShow={setShownId} />
            {shownId ? (
              <ShownVersion
                contentId={shownId}
                onClose={() => {
                  setShownId(null);
                }}
              />
            ) : null}
            {list.length > 1 ? <Compare reportId={report.id} versions={list} /> : null}
          </>
        )}
      </Loaded>
    </section>
  );
}

function VersionTable({ versions, shownId, onShow }: { versions: Version[]; shownId: string | null; onShow: (id: string) => void }) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label="Version list">
      <table>
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
              <td className="num">{v.version}</td>
              <td>
                <Time instant={v.createdAt} />
              </td>
              <td>{v.filters ? `${formatDate(v.filters.dateRange.from)} – ${formatDate(v.filters.dateRange.to)}` : '—'}</td>
              <td className="num">{formatMinutes(v.totalMinutes)}</td>
              <td>{v.sent ? 'Sent' : '—'}</td>
              <td>
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

/** Moves focus to a heading once it appears, so keyboard and screen-reader users land on what they asked for. */
function useFocusOnShow<T extends HTMLElement>(key: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [key]);
  return ref;
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
  const [diff, setDiff] = useState<VersionDiff | null>(null);
  const load = useAction(() => api.diff(reportId, fromId, toId));
  const options = versions.map((v) => [v.reportContentId, `Version ${v.version}`] as const);
  const submit = async () => {
    const result = await load.run();
    if (result) setDiff(result);
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
      {diff ? <DiffView diff={diff} versions={versions} /> : null}
    </>
  );
}

function signed(minutes: number): string {
  if (minutes === 0) return '±0:00';
  return `${minutes > 0 ? '+' : '−'}${formatMinutes(Math.abs(minutes))}`;
}

const FILTER_NAMES = { workspaceIds: 'workspaces', projectIds: 'projects', userIds: 'people', tags: 'tags' } as const;

function DiffView({ diff, versions }: { diff: VersionDiff; versions: Version[] }) {
  const heading = useFocusOnShow<HTMLHeadingElement>(diff);
  const facts: string[] = [];
  const nameOf = (id: string) => versions.find((v) => v.reportContentId === id)?.name;
  const [fromName, toName] = [nameOf(diff.from.reportContentId), nameOf(diff.to.reportContentId)];
  if (fromName !== undefined && toName !== undefined && fromName !== toName) facts.push(`Name: “${fromName}” became “${toName}”`);
  if (diff.period.changed && diff.period.from && diff.period.to) {
    facts.push(
      `Period: ${formatDate(diff.period.from.from)} – ${formatDate(diff.period.from.to)} became ${formatDate(diff.period.to.from)} – ${formatDate(diff.period.to.to)}`,
    );
  }
  if (diff.templateId.changed) facts.push('The template changed');
  for (const change of diff.filters.changes) {
    const name = FILTER_NAMES[change.field];
    const parts = [];
    if (change.added.length) parts.push(change.field === 'tags' ? `added ${change.added.join(', ')}` : `${change.added.length} added`);
    if (change.removed.length)
      parts.push(change.field === 'tags' ? `removed ${change.removed.join(', ')}` : `${change.removed.length} removed`);
    facts.push(`Filter on ${name}: ${parts.join(', ')}`);
  }
  return (
    <div className="version-panel" aria-labelledby="diff-heading" role="region">
      <h3 id="diff-heading" ref={heading} tabIndex={-1}>
        Changes from version {diff.from.version} to version {diff.to.version}
      </h3>
      <ul>
        <li>
          Total: {formatMinutes(diff.totalMinutes.from)} → {formatMinutes(diff.totalMinutes.to)} ({signed(diff.totalMinutes.deltaMinutes)})
        </li>
        {facts.map((fact) => (
          <li key={fact}>{fact}</li>
        ))}
      </ul>
      <GroupChanges title="By project" groups={diff.byProject} />
      <GroupChanges title="By person" groups={diff.byUser} />
      <GroupChanges title="By tag" groups={diff.byTag} />
      <GroupChanges title="By day" groups={diff.byDay} />
      <h4>Document</h4>
      {diff.markdownDiff === null ? (
        <p>The documents differ in too many lines to show line by line.</p>
      ) : diff.markdownDiff === '' ? (
        <p>The documents are the same.</p>
      ) : (
        <LineDiff text={diff.markdownDiff} />
      )}
    </div>
  );
}

function GroupChanges({ title, groups }: { title: string; groups: VersionDiff['byProject'] }) {
  if (!groups) return null;
  const rows: [string, GroupChange][] = [
    ...groups.added.map((g) => ['added', g] as [string, GroupChange]),
    ...groups.removed.map((g) => ['removed', g] as [string, GroupChange]),
    ...groups.changed.map((g) => ['changed', g] as [string, GroupChange]),
  ];
  if (rows.length === 0) return null;
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={`Changes ${title.toLowerCase()}`}>
      <table>
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Change</th>
            <th scope="col" className="num">
              Before
            </th>
            <th scope="col" className="num">
              After
            </th>
            <th scope="col" className="num">
              Difference
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([kind, g]) => (
            <tr key={`${kind}:${g.key ?? ''}`}>
              <td>{g.label}</td>
              <td>{kind}</td>
              <td className="num">{formatMinutes(g.fromMinutes)}</td>
              <td className="num">{formatMinutes(g.toMinutes)}</td>
              <td className="num">{signed(g.deltaMinutes)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A unified diff, each line marked as added, removed or unchanged, in words too (not by colour alone). */
function LineDiff({ text }: { text: string }) {
  const lines = text.replace(/\n$/, '').split('\n');
  // The lines before the first hunk are the patch's own header (`===`, `--- v1.md`, `+++ v2.md`).
  const firstHunk = lines.findIndex((line) => line.startsWith('@@'));
  const kindOf = (line: string, i: number) => {
    if (i < firstHunk) return 'file';
    if (line.startsWith('@@')) return 'hunk';
    if (line.startsWith('+')) return 'add';
    if (line.startsWith('-')) return 'del';
    return 'same';
  };
  return (
    <pre className="diff" tabIndex={0} aria-label="Line changes in the document">
      {lines.map((line, i) => {
        const kind = kindOf(line, i);
        const Tag = kind === 'add' ? 'ins' : kind === 'del' ? 'del' : 'span';
        return (
          <Tag key={i} className={`line ${kind}`}>
            {line}
            {'\n'}
          </Tag>
        );
      })}
    </pre>
  );
}
