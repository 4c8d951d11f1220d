/**
 * What changed between two versions, for people: the totals and what the server's comparison
 * says (name, period, template, filters, minutes by group), then the later document rendered with
 * its added, removed and changed paragraphs and table rows marked, and the line diff as a file.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { GroupChange, ReportContent, VersionDiff } from '../../lib/api.js';
import { Markdown, formatDate, formatMinutes } from '../../components/ui/ui.js';
import { markdownToSafeHtml, parseDocument } from '../../../../packages/document/src/index.js';
import { compareDocuments, type Change, type Piece } from './document-changes.js';
import { useFocusOnShow } from './focus.js';

/** The server's comparison and the two versions it compares. */
export interface Comparison {
  diff: VersionDiff;
  from: ReportContent;
  to: ReportContent;
}

function signed(minutes: number): string {
  if (minutes === 0) return '±0:00';
  return `${minutes > 0 ? '+' : '−'}${formatMinutes(Math.abs(minutes))}`;
}

const FILTER_NAMES = { workspaceIds: 'workspaces', projectIds: 'projects', userIds: 'people', tags: 'tags', clientIds: 'clients' } as const;

/** The facts beyond the total, in words: name, period, template and filter changes. */
function factsOf({ diff, from, to }: Comparison): string[] {
  const facts: string[] = [];
  if (from.name !== to.name) facts.push(`Name: “${from.name}” became “${to.name}”`);
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
  return facts;
}

export function VersionChanges({ comparison }: { comparison: Comparison }) {
  const { diff } = comparison;
  const heading = useFocusOnShow<HTMLHeadingElement>(comparison);
  return (
    <div className="version-panel" aria-labelledby="diff-heading" role="region">
      <h3 id="diff-heading" ref={heading} tabIndex={-1}>
        Changes from version {diff.from.version} to version {diff.to.version}
      </h3>
      <ul>
        <li>
          Total: {formatMinutes(diff.totalMinutes.from)} → {formatMinutes(diff.totalMinutes.to)} ({signed(diff.totalMinutes.deltaMinutes)})
        </li>
        {factsOf(comparison).map((fact) => (
          <li key={fact}>{fact}</li>
        ))}
      </ul>
      <GroupChanges title="By project" groups={diff.byProject} />
      <GroupChanges title="By person" groups={diff.byUser} />
      <GroupChanges title="By tag" groups={diff.byTag} />
      <GroupChanges title="By day" groups={diff.byDay} />
      <h4>Document</h4>
      <DocumentChanges comparison={comparison} />
      <LineDiffDownload comparison={comparison} />
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

/** Each change's mark, shown, and its words, read out: never colour alone. */
const MARKS: Record<Exclude<Change, 'same'>, { sign: string; words: string }> = {
  added: { sign: '+', words: 'Added: ' },
  removed: { sign: '−', words: 'Removed: ' },
  before: { sign: '−', words: 'Changed, before: ' },
  after: { sign: '+', words: 'Changed, now: ' },
};

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The later document with what changed since the earlier one marked, block by block and row by row. */
function DocumentChanges({ comparison }: { comparison: Comparison }) {
  const { from, to } = comparison;
  const changes = useMemo(
    () => compareDocuments(parseDocument(from.renderedMarkdown).body, parseDocument(to.renderedMarkdown).body),
    [from.renderedMarkdown, to.renderedMarkdown],
  );
  if (!changes) return <p>The documents differ in too many places to mark here; the line changes below have every one.</p>;
  const { added, removed, changed } = changes.counts;
  if (added + removed + changed === 0) return <p>The documents are the same.</p>;
  return (
    <>
      <p className="change-summary">
        {plural(added, 'paragraph or row', 'paragraphs or rows')} added, {removed} removed, {changed} changed. Added text is marked + and
        shaded; removed text is marked − and struck through; a changed one shows its earlier text struck through above the new.
      </p>
      <article className="document compared">
        <div className="markdown">
          {changes.pieces.map((piece, i) => (
            <ChangedPiece key={i} piece={piece} omitTitle={to.name} />
          ))}
        </div>
      </article>
    </>
  );
}

function Mark({ change }: { change: Exclude<Change, 'same'> }) {
  return (
    <span className="change-mark">
      <span aria-hidden="true">{MARKS[change].sign}</span>
      <span className="sr-only">{MARKS[change].words}</span>
    </span>
  );
}

function ChangedPiece({ piece, omitTitle }: { piece: Piece; omitTitle: string }) {
  if (piece.kind === 'table') return <ChangedTable head={piece.head} rows={piece.rows} />;
  if (piece.change === 'same') return <Markdown source={piece.markdown} headingOffset={1} omitTitle={omitTitle} />;
  const Tag = piece.change === 'added' || piece.change === 'after' ? 'ins' : 'del';
  return (
    <Tag className={`change ${piece.change}`}>
      <Mark change={piece.change} />
      <Markdown source={piece.markdown} headingOffset={1} />
    </Tag>
  );
}

/**
 * One table rendered by the safe renderer, its body rows then marked in place: a class for the
 * shading and, in the first cell, the change's sign and words (text nodes, so still inert).
 */
function ChangedTable({ head, rows }: { head: string; rows: { markdown: string; change: Change }[] }) {
  const ref = useRef<HTMLDivElement>(null);
  const html = useMemo(() => markdownToSafeHtml(`${head}\n${rows.map((r) => r.markdown).join('\n')}\n`), [head, rows]);
  useLayoutEffect(() => {
    const body = ref.current?.querySelectorAll('tbody > tr');
    // The renderer makes one body row per row line; if it ever did not, nothing is marked wrongly.
    if (!body || body.length !== rows.length) return;
    body.forEach((tr, i) => {
      const change = rows[i]?.change;
      const cell = tr.firstElementChild;
      // The effect may run again over the same markup (the rows re-made with equal text): mark once.
      if (!change || change === 'same' || !cell || cell.querySelector(':scope > .change-mark')) return;
      tr.classList.add('change', change);
      const mark = document.createElement('span');
      mark.className = 'change-mark';
      const sign = document.createElement('span');
      sign.setAttribute('aria-hidden', 'true');
      sign.textContent = MARKS[change].sign;
      const words = document.createElement('span');
      words.className = 'sr-only';
      words.textContent = MARKS[change].words;
      mark.append(sign, words);
      cell.prepend(mark);
    });
  }, [html, rows]);
  // markdownToSafeHtml escapes every raw HTML tag and attribute value; the result is inert.
  return <div ref={ref} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** The server's unified line diff of the two bodies, offered as a file to download. */
function LineDiffDownload({ comparison }: { comparison: Comparison }) {
  const { diff } = comparison;
  const text = diff.markdownDiff;
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!text) return;
    const made = URL.createObjectURL(new Blob([text], { type: 'text/x-diff;charset=utf-8' }));
    setUrl(made);
    return () => {
      URL.revokeObjectURL(made);
      setUrl(null);
    };
  }, [text]);
  if (text === null) {
    return (
      <p className="meta">
        {diff.markdownDiffOmitted === 'too-large'
          ? 'The documents are too large for a line-by-line comparison file.'
          : 'The documents differ in too many lines for a line-by-line comparison file.'}
      </p>
    );
  }
  if (text === '' || !url) return null;
  return (
    <p>
      <a href={url} download={`changes-v${diff.from.version}-v${diff.to.version}.diff`}>
        Download the line changes (unified diff)
      </a>
    </p>
  );
}
