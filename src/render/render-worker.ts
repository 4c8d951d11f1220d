/**
 * A render worker: runs the sandboxed Liquid engine, and turns share pages' Markdown into HTML,
 * off the main thread, so a hostile template or a huge document can stall or bloat only this
 * thread (which the pool then discards), never the server.
 */
import { getHeapStatistics } from 'node:v8';
import { lowerThreadPriority } from '../lib/thread-priority.js';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { encodeDataset } from '../modules/exports/dataset.js';
import { buildRenderContext, type EntryTuple, type RenderInput } from './render-context.js';
import type { RenderReply, RenderRequestMessage, RenderTask } from './render-pool.js';
import { analyseSource, DEFAULT_FORMAT, renderTemplate, TemplateError } from './template-engine.js';

function parent(): MessagePort {
  if (!parentPort) throw new Error('render-worker runs only as a worker thread');
  return parentPort;
}

const port = parent();
const { done } = workerData as { done: Int32Array };
lowerThreadPriority();

/**
 * What only share pages, diffs and front matters need (Markdown, YAML, charts' drawing, the diff),
 * imported by the first task that needs it: a worker starts for a report render, often after the
 * last one stopped idle, and its first render waits for every module the worker imported first
 * (docs/decisions.md "A render worker imports what a report render needs, and the rest on first
 * use"; test/unit/render-worker-imports.test.ts keeps the list).
 */
const sharePage = () => import('./share-page.js');
const versionDiff = () => import('../modules/history/version-diff.js');
const frontMatter = () => import('../modules/history/front-matter-meta.js');

async function render(task: RenderTask): Promise<string[]> {
  if (task.kind === 'page') return [(await sharePage()).renderReportPage(task.input)];
  if (task.kind === 'diff') {
    const patch = (await versionDiff()).bodyDiff(task.fromMarkdown, task.toMarkdown, task.fromVersion, task.toVersion);
    return patch === null ? [] : [patch];
  }
  if (task.kind === 'analyze') return task.sources.map((source) => JSON.stringify(analyseSource(source)));
  if (task.kind === 'meta') {
    const { frontMatterMeta } = await frontMatter();
    return [JSON.stringify(task.headers.map(frontMatterMeta))];
  }
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
    reply = { id, heapBytes: 0, ok: await render(task) };
  } catch (error) {
    reply = {
      id,
      heapBytes: 0,
      error:
        error instanceof TemplateError
          ? { message: error.message, kind: error.kind, line: error.line, column: error.column }
          : { message: 'the template could not be rendered', kind: 'runtime' },
    };
  }
  reply.heapBytes = getHeapStatistics().used_heap_size;
  // Marked done before the reply is posted: the pool's deadline then knows the job finished even
  // if its main thread is too busy to read the reply at once.
  Atomics.store(done, 0, id);
  port.postMessage(reply);
}

port.on('message', (message: RenderRequestMessage) => {
  void handle(message);
});
