/** A version's files to download: the PDF a client is sent, its rows as CSV and Excel, and its Markdown. */
import { api, type ExportFormat } from '../../lib/api.js';

const FILES: readonly { format: ExportFormat; label: string; hint: string }[] = [
  { format: 'pdf', label: 'PDF', hint: 'the document, paginated' },
  { format: 'xlsx', label: 'Excel', hint: 'the entries and totals as a workbook' },
  { format: 'csv', label: 'CSV', hint: 'the entries, one row each' },
  { format: 'md', label: 'Markdown', hint: 'the document as text' },
];

export function ExportLinks({ contentId, version }: { contentId: string; version: number }) {
  return (
    <nav className="export-links" aria-label={`Download version ${version}`}>
      <span className="muted">Download</span>
      {FILES.map(({ format, label, hint }) => (
        <a key={format} className="button secondary" href={api.exportHref(contentId, format)} download title={hint}>
          {label}
          <span className="sr-only">
            {' '}
            of version {version}: {hint}
          </span>
        </a>
      ))}
    </nav>
  );
}
