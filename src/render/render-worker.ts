/**
 * A render worker: runs the sandboxed Liquid engine, and turns share pages' Markdown into HTML,
 * off the main thread, so a hostile template or a huge document can stall or bloat only this
 * thread (which the pool then discards), never the server.
 */
import { parentPort } from 'node:worker_threads';
import { renderReportPage } from './share-page.js';
import { renderTemplate, TemplateError } from './template-engine.js';
import type { RenderReply, RenderRequestMessage } from './render-pool.js';

const port = parentPort;
if (!port) throw new Error('render-worker runs only as a worker thread');

port.on('message', async ({ id, task }: RenderRequestMessage) => {
  let reply: RenderReply;
  try {
    const output: string[] = [];
    if (task.kind === 'page') output.push(renderReportPage(task.input));
    else for (const source of task.sources) output.push(await renderTemplate(source, task.context));
    reply = { id, ok: output };
  } catch (error) {
    reply =
      error instanceof TemplateError
        ? { id, error: { message: error.message, kind: error.kind, line: error.line, column: error.column } }
        : { id, error: { message: 'the template could not be rendered', kind: 'runtime' } };
  }
  port.postMessage(reply);
});
