/**
 * A small pool of render workers. Rendering a user's Liquid template is the one CPU- and
 * memory-hungry thing Chronicle does on request, and templates can be hostile: in a worker with
 * its own heap limit and a hard deadline, a template that loops or allocates without end costs
 * one thread that is then replaced, while the event loop keeps answering everyone else.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ReportPageInput } from './share-page.js';
import { RENDER_TIME_LIMIT_MS, TemplateError } from './template-engine.js';

/** What a worker is asked to do: Liquid sources over one context, or a share page's HTML. */
export type RenderTask = { kind: 'liquid'; sources: readonly string[]; context: object } | { kind: 'page'; input: ReportPageInput };

export interface RenderRequestMessage {
  id: number;
  task: RenderTask;
}

export type RenderReply =
  | { id: number; ok: string[] }
  | { id: number; error: { message: string; kind: TemplateError['kind']; line?: number | undefined; column?: number | undefined } };

export interface RenderPool {
  /** Renders every source against one context, in order; any failure is a TemplateError. */
  render(sources: readonly string[], context: object): Promise<string[]>;
  /** A share page's HTML: Markdown of up to millions of characters, converted off the event loop. */
  renderPage(input: ReportPageInput): Promise<string>;
  close(): Promise<void>;
}

export interface RenderPoolOptions {
  size?: number;
  /** Heap of one worker; a template that needs more is stopped as over the memory limit. */
  maxHeapMb?: number;
  /** Hard deadline of one job; default: the engine's time limit per source plus 2 s of grace. */
  deadlineMs?: number;
}

interface Job {
  id: number;
  task: RenderTask;
  resolve(output: string[]): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
  /** Not yet answered anything: its first job's deadline also covers the worker's start-up. */
  fresh: boolean;
}

/** How long a new worker may take to load before its first job's deadline starts to count. */
const STARTUP_ALLOWANCE_MS = 15_000;

// Under tsx or Vitest this module is TypeScript and so is its worker; built, both are JavaScript.
const IS_TYPESCRIPT = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(`./render-worker.${IS_TYPESCRIPT ? 'ts' : 'js'}`, import.meta.url);

/**
 * A worker running TypeScript (tests, `npm run dev`) registers tsx's loader in its own thread
 * first: Node 20 does not apply `--import` hooks to a worker's entry module.
 */
function newWorker(options: ConstructorParameters<typeof Worker>[1]): Worker {
  if (!IS_TYPESCRIPT) return new Worker(WORKER_URL, options);
  const require = createRequire(import.meta.url);
  const tsxApi = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs'));
  const bootstrap = `import { register } from ${JSON.stringify(tsxApi.href)}; register(); await import(${JSON.stringify(WORKER_URL.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`), options);
}

export function createRenderPool(options: RenderPoolOptions = {}): RenderPool {
  const size = options.size ?? Math.max(1, Math.min(2, availableParallelism() - 1));
  const maxHeapMb = options.maxHeapMb ?? 512;
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  function spawn(): Slot {
    const worker = newWorker({
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 64 },
    });
    // Idle workers must not keep the process alive.
    worker.unref();
    const slot: Slot = { worker, job: null, timer: null, fresh: true };
    worker.on('message', (reply: RenderReply) => {
      const job = slot.job;
      if (!job || job.id !== reply.id) return;
      slot.fresh = false;
      finish(slot);
      if ('ok' in reply) job.resolve(reply.ok);
      else job.reject(new TemplateError(reply.error.message, reply.error.kind, reply.error.line, reply.error.column));
      dispatch();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      fail(slot, new TemplateError(outOfMemory ? 'memory limit exceeded' : 'the template could not be rendered', outOfMemory ? 'limit' : 'runtime'));
    });
    worker.on('exit', () => fail(slot, new TemplateError('the template could not be rendered', 'runtime')));
    slots.push(slot);
    return slot;
  }

  function finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    slot.worker.unref();
  }

  /** Drops a worker that died or overran, failing its job; a fresh one takes its place on demand. */
  function fail(slot: Slot, error: Error): void {
    const index = slots.indexOf(slot);
    if (index === -1) return;
    slots.splice(index, 1);
    const job = slot.job;
    finish(slot);
    void slot.worker.terminate();
    job?.reject(error);
    dispatch();
  }

  function dispatch(): void {
    while (!closed && queue.length > 0) {
      const slot = slots.find((s) => s.job === null) ?? (slots.length < size ? spawn() : null);
      if (!slot) return;
      const job = queue.shift()!;
      slot.job = job;
      slot.worker.ref();
      // The engine stops each source at its own time limit; this is the backstop if it cannot.
      const steps = job.task.kind === 'liquid' ? job.task.sources.length : 1;
      const deadline = (options.deadlineMs ?? RENDER_TIME_LIMIT_MS * steps + 2_000) + (slot.fresh ? STARTUP_ALLOWANCE_MS : 0);
      slot.timer = setTimeout(() => fail(slot, new TemplateError(`render time limit exceeded (${RENDER_TIME_LIMIT_MS} ms)`, 'limit')), deadline);
      slot.worker.postMessage({ id: job.id, task: job.task } satisfies RenderRequestMessage);
    }
  }

  function run(task: RenderTask): Promise<string[]> {
    if (closed) return Promise.reject(new Error('render pool is closed'));
    return new Promise((resolve, reject) => {
      queue.push({ id: nextId++, task, resolve, reject });
      dispatch();
    });
  }

  return {
    render: (sources, context) => run({ kind: 'liquid', sources, context }),
    renderPage: async (input) => (await run({ kind: 'page', input }))[0] ?? '',
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('render pool is closed'));
      const stopping = slots.splice(0);
      for (const slot of stopping) {
        slot.job?.reject(new Error('render pool is closed'));
        finish(slot);
      }
      await Promise.all(stopping.map((slot) => slot.worker.terminate()));
    },
  };
}
