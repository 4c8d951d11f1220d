/**
 * The PDF export of a 5,000-row Timesheet (docs/decisions.md "The PDF export"): wall time, CPU time
 * and peak memory of one render after a warm-up, in this process.
 *
 *   npx tsx bench/pdf-export.ts [rows]
 */
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { renderPdf } from '../src/render/pdf/render-pdf.js';
import { pdfInput, timesheetBody } from '../test/helpers/pdf-documents.js';

// The heap still in use when pdfmake starts drawing, after a full collection: what the layout
// holds, and whatever the caller keeps alive beside it. Read in a render of its own after the
// timed one, since the collection takes time.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const renderer = (
  createRequire(import.meta.url)('pdfmake/js/Renderer.js') as {
    default: { prototype: { renderPages: (this: unknown, pages: unknown[]) => unknown } };
  }
).default.prototype;
const renderPages = renderer.renderPages;
let liveAtDrawing = 0;
let readHeap = false;
renderer.renderPages = function (this: unknown, pages: unknown[]) {
  if (readHeap) {
    collect();
    liveAtDrawing = process.memoryUsage().heapUsed;
  }
  return renderPages.call(this, pages);
};

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

// What the timed render's stream still has queued holds its document until the next turn.
await new Promise((resolve) => setImmediate(resolve));
readHeap = true;
await renderPdf(input);
const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(0)} MiB`;
console.log(
  `${rows} rows (${(Buffer.byteLength(input.markdown) / 1024).toFixed(0)} KiB of Markdown) -> ${mib(bytes.length)} PDF: ` +
    `wall ${(wall / 1000).toFixed(2)} s, cpu ${((used.user + used.system) / 1e6).toFixed(2)} s, ` +
    `peak RSS ${mib(peak)} (before: ${mib(baseline)}), heap in use when drawing starts ${mib(liveAtDrawing)}`,
);
