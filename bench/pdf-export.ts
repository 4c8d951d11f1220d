/**
 * The PDF export of a 5,000-row Timesheet (docs/decisions.md "The PDF export"): wall time, CPU time
 * and peak memory of one render after a warm-up, in this process.
 *
 *   npx tsx bench/pdf-export.ts [rows]
 */
import { renderPdf } from '../src/render/pdf/render-pdf.js';
import { pdfInput, timesheetBody } from '../test/helpers/pdf-documents.js';

const rows = Number(process.argv[2] ?? 5000);
const input = pdfInput(timesheetBody({ rows }));
await renderPdf(pdfInput(timesheetBody({ rows: 50 })));

const baseline = process.memoryUsage().rss;
let peak = baseline;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 5);
const cpu = process.cpuUsage();
const started = performance.now();
const bytes = await renderPdf(input);
const wall = performance.now() - started;
const used = process.cpuUsage(cpu);
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);

const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(0)} MiB`;
console.log(
  `${rows} rows (${(Buffer.byteLength(input.markdown) / 1024).toFixed(0)} KiB of Markdown) -> ${mib(bytes.length)} PDF: ` +
    `wall ${(wall / 1000).toFixed(2)} s, cpu ${((used.user + used.system) / 1e6).toFixed(2)} s, ` +
    `peak RSS ${mib(peak)} (before: ${mib(baseline)})`,
);
