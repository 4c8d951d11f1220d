/**
 * Writes sample PDF exports to look at: a 20-person month Timesheet (~600 rows), a Summary with a
 * few tables and a chart, and an Invoice summary, each on A4 and on Letter.
 *
 *   npx tsx scripts/pdf-samples.ts [directory]      (default: the system's temporary directory)
 *
 * Nothing is written inside the repository unless a directory there is named.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { renderPdf } from '../src/render/pdf/render-pdf.js';
import { invoiceBody, pdfInput, summaryBody, timesheetBody } from '../test/helpers/pdf-documents.js';

const CHART_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="220" viewBox="0 0 600 220">
<title>Hours by day</title>
<g fill="#2b5797">${Array.from({ length: 21 }, (_, i) => `<rect x="${20 + i * 27}" y="${190 - ((i * 53) % 150)}" width="20" height="${(i * 53) % 150}"/>`).join('')}</g>
<line x1="15" y1="190" x2="590" y2="190" stroke="#333" stroke-width="1"/>
<text x="20" y="210" font-size="11" fill="#333">Hours by day (sample chart)</text>
</svg>`;

const dir = path.resolve(process.argv[2] ?? tmpdir());
mkdirSync(dir, { recursive: true });

const branding = {
  displayName: 'Acme Studio',
  accentColor: '#0f766e',
  footerMarkdown: 'Acme Studio GmbH · Hauptstraße 1, 10115 Berlin · [acme.example](https://acme.example)',
  logoPng: null,
};

const samples = [
  { name: 'timesheet', input: pdfInput(timesheetBody({ rows: 600 }), { branding }) },
  {
    name: 'summary',
    input: pdfInput(summaryBody(), { title: 'Acme November summary', chartSvg: () => CHART_SVG }),
  },
  { name: 'invoice', input: pdfInput(invoiceBody(), { title: 'Acme November invoice', branding }) },
];

for (const { name, input } of samples) {
  for (const locale of ['en-GB', 'en-US']) {
    const started = performance.now();
    const bytes = await renderPdf({ ...input, locale });
    const file = path.join(dir, `chronicle-${name}-${locale === 'en-US' ? 'letter' : 'a4'}.pdf`);
    writeFileSync(file, bytes);
    console.log(`${file}  ${(bytes.length / 1024).toFixed(0)} KiB  ${(performance.now() - started).toFixed(0)} ms`);
  }
}
