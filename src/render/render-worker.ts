/**
 * A render worker: runs the sandboxed Liquid engine, and turns share pages' Markdown into HTML,
 * off the main thread, so a hostile template or a huge document can stall or bloat only this
 * thread (which the pool then discards), never the server.
 */
import { getHeapStatistics } from 'node:v8';
import { lowerThreadPriority } from './thread-priority.js';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { bodyDiff } from '../modules/history/version-diff.js';
import { chartSvgForPrint } from '../../packages/document/src/index.js';
import { decodeDataset, encodeDataset } from '../modules/exports/dataset.js';
import { buildRenderContext, type EntryTuple, type RenderInput } from './render-context.js';
import type { RenderReply, RenderRequestMessage, RenderTask } from './render-pool.js';
import { renderReportPage } from './share-page.js';
import { analyseSource, DEFAULT_FORMAT, renderTemplate, TemplateError } from './template-engine.js';

function parent(): MessagePort {
  if (!parentPort) throw new Error('render-worker runs only as a worker thread');
  return parentPort;
}

const port = parent();
const { done, pdfFallbackFonts } = workerData as { done: Int32Array; pdfFallbackFonts: string[] };
lowerThreadPriority();

interface Output {
  ok: string[];
  binary?: Uint8Array;
}

async function perform(task: RenderTask): Promise<Output> {
  if (task.kind === 'file') {
    // File writers load on a worker's first file: most workers only ever render.
    if (task.format === 'pdf') {
      const { renderPdf } = await import('./pdf/render-pdf.js');
      return { ok: [], binary: await renderPdf({ ...task.pdf, chartSvg: chartSvgForPrint, fallbackFonts: pdfFallbackFonts }) };
    }
    const dataset = decodeDataset(task.data);
    if (task.format === 'csv') return { ok: [], binary: (await import('../modules/exports/csv.js')).datasetCsv(dataset) };
    const { datasetXlsx } = await import('../modules/exports/xlsx.js');
    return { ok: [], binary: await datasetXlsx(dataset, { title: task.title, createdAt: new Date(task.createdAt) }) };
  }
  return { ok: await render(task) };
}

async function render(task: Exclude<RenderTask, { kind: 'file' }>): Promise<string[]> {
  if (task.kind === 'page') return [renderReportPage(task.input)];
  if (task.kind === 'diff') {
    const patch = bodyDiff(task.fromMarkdown, task.toMarkdown, task.fromVersion, task.toVersion);
    return patch === null ? [] : [patch];
  }
  if (task.kind === 'analyze') return task.sources.map((source) => JSON.stringify(analyseSource(source)));
  // A template that never reads the entries gets none (they were loaded for the dataset alone).
  const entries =
    task.kind === 'report' && task.contextEntries !== false && task.entriesJson !== null
      ? (JSON.parse(task.entriesJson) as EntryTuple[])
      : null;
  const input: RenderInput | null = task.kind === 'report' ? { ...task.frame, entries } : null;
  const context = task.kind === 'liquid' ? task.context : buildRenderContext(input ?? { ...task.frame, entries });
  // A report renders in its own locale and duration format; a bare Liquid task in the defaults.
  const options = task.kind === 'report' ? task.frame.options : undefined;
  const format = options ? { locale: options.locale, durationFormat: options.durationFormat } : DEFAULT_FORMAT;
  const output: string[] = [];
  for (const source of task.sources) output.push(await renderTemplate(source, context, task.limits, format));
  if (task.kind === 'report' && task.dataset) {
    // The dataset is the tuples the context was built from, as the statement wrote them.
    const frame = { timezone: task.frame.timezone, locale: format.locale, naming: task.frame };
    const encoded = encodeDataset(task.entriesJson ?? '[]', frame, entries?.length ?? task.frame.aggregates.entryCount);
    output.push(encoded.data, String(encoded.entryCount));
  }
  return output;
}

async function handle({ id, task }: RenderRequestMessage): Promise<void> {
  let reply: RenderReply;
  try {
    const output = await perform(task);
    reply = { id, heapBytes: 0, ok: output.ok, ...(output.binary ? { binary: output.binary } : {}) };
  } catch (error) {
    reply = {
      id,
      heapBytes: 0,
      error:
        error instanceof TemplateError
          ? { message: error.message, kind: error.kind, line: error.line, column: error.column }
          : error instanceof Error && error.name === 'PdfTooLargeError'
            ? { message: error.message, kind: 'limit' }
            : { message: 'the template could not be rendered', kind: 'runtime' },
    };
  }
  reply.heapBytes = getHeapStatistics().used_heap_size;
  // Marked done before the reply is posted: the pool's deadline then knows the job finished even
  // if its main thread is too busy to read the reply at once.
  Atomics.store(done, 0, id);
  port.postMessage(reply, transferable(reply));
}

/** A file's own buffer moves to the main thread instead of being copied; a view into a shared one cannot. */
function transferable(reply: RenderReply): ArrayBuffer[] {
  const binary = 'binary' in reply ? reply.binary : undefined;
  if (!binary || binary.byteOffset !== 0 || binary.byteLength !== binary.buffer.byteLength) return [];
  return binary.buffer instanceof ArrayBuffer ? [binary.buffer] : [];
}

port.on('message', (message: RenderRequestMessage) => {
  void handle(message);
});
