/**
 * A small pool of render workers. Rendering a user's Liquid template is the one CPU- and
 * memory-hungry thing Chronicle does on request, and templates can be hostile: in a worker with
 * its own heap limit and a hard deadline, a template that loops or allocates without end costs
 * one thread that is then replaced, while the event loop keeps answering everyone else.
 */
import { availableParallelism, totalmem } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorker, workerEntryUrl } from '../lib/worker-thread.js';
import type { EncodedDataset } from '../modules/exports/dataset.js';
import { createFilePool, type FileJob, type FilePoolLog } from './file-pool.js';
import { slotKeeping, threadRunner, type PoolSlot } from '../lib/pool-slots.js';
import { DIFF_TIME_LIMIT_MS } from '../modules/history/version-diff.js';
import type { FrontMatterMeta } from '../modules/history/front-matter-meta.js';
import type { RenderFrame } from './render-context.js';
import type { ReportPageInput } from './share-page.js';
import { BASE_LIMITS, TemplateError, timeLimitMessage, type RenderLimits, type SourceAnalysis } from './template-engine.js';

/** A report's Liquid sources with what the worker builds their context from. */
interface ReportRenderJob {
  sources: readonly string[];
  frame: RenderFrame;
  /** The entries as the render query returned them (a JSON array of EntryTuple); null: not read. */
  entriesJson: string | null;
  limits: RenderLimits;
  /**
   * Also build the version's dataset from the entries (dataset.ts), which `entriesJson` must then
   * hold; `contextEntries: false` keeps them out of the template's context (it never reads them).
   */
  dataset?: boolean;
  contextEntries?: boolean;
}

/** Two versions' documents to line-diff (version-diff.ts `bodyDiff`). */
export interface DiffJob {
  fromMarkdown: string;
  toMarkdown: string;
  fromVersion: number;
  toVersion: number;
}

/** What a worker is asked to do: a report, Liquid sources over a given context, a share page's HTML, or a version diff. */
export type RenderTask =
  | ({ kind: 'report' } & ReportRenderJob)
  | { kind: 'liquid'; sources: readonly string[]; context: object; limits: RenderLimits }
  | { kind: 'page'; input: ReportPageInput }
  | ({ kind: 'diff' } & DiffJob)
  /** Templates' syntax and the variables they read: one JSON `SourceAnalysis` per source. */
  | { kind: 'analyze'; sources: readonly string[] }
  /** What versions' front matters hold (front-matter-meta.ts): one JSON array of `FrontMatterMeta | null`. */
  | { kind: 'meta'; headers: readonly string[] };

export interface RenderRequestMessage {
  id: number;
  task: RenderTask;
}

/** A worker's answer, with its heap size after the job (a worker that grew large is replaced). */
export type RenderReply =
  | { id: number; heapBytes: number; ok: string[] }
  | {
      id: number;
      heapBytes: number;
      error: { message: string; kind: TemplateError['kind']; line?: number | undefined; column?: number | undefined };
    };

export interface RenderPool {
  /** Renders a report's sources in order, over the context the worker builds; any failure is a TemplateError. */
  renderReport(job: ReportRenderJob): Promise<string[]>;
  /** Renders a version's sources and builds its dataset from the same entries (`dataset` is forced on). */
  renderVersion(job: ReportRenderJob): Promise<{ outputs: string[]; dataset: EncodedDataset }>;
  /**
   * A file of a version, made in a file process (file-pool.ts); a PDF past its bounds is a
   * TemplateError of kind `limit` with a message for the reader.
   */
  file(job: FileJob): Promise<Uint8Array>;
  /** Renders every source against one given context, in order; any failure is a TemplateError. */
  render(sources: readonly string[], context: object, limits?: RenderLimits): Promise<string[]>;
  /** Parses and analyses each source off the event loop (template-engine.ts analyseSource); never rejects for a syntax error. */
  analyze(sources: readonly string[]): Promise<SourceAnalysis[]>;
  /**
   * Reads each version's front matter (its document or just the header) off the event loop, in
   * order; null where it cannot be read. The filters come unchecked (version-meta.ts checks them).
   */
  versionMeta(headers: readonly string[]): Promise<(FrontMatterMeta | null)[]>;
  /** A share page's HTML: Markdown of up to millions of characters, converted off the event loop. */
  renderPage(input: ReportPageInput): Promise<string>;
  /** The unified line diff of two versions' bodies; null past its edit or time limit. */
  diff(job: DiffJob): Promise<string | null>;
  /** What the pool is doing right now (metrics, tests). */
  stats(): RenderPoolStats;
  /** From now on, a file process that dies or overruns is logged here (file-pool.ts). */
  useLog(log: FilePoolLog): void;
  /** Workers report and Liquid renders may occupy at once; one more is kept for share pages. */
  readonly reportSlots: number;
  close(): Promise<void>;
}

interface RenderPoolStats {
  /** Workers and file processes running, busy or idle. */
  workers: number;
  /** Jobs being rendered, files being made. */
  busy: number;
  /** Jobs waiting for a worker or a file process. */
  queued: number;
}

export interface RenderPoolOptions {
  size?: number;
  /** Heap of one worker or file process; a template or file that needs more is stopped as over the memory limit. */
  maxHeapMb?: number;
  /** Hard deadline of one job; default: the job's own time limit per source plus 2 s of grace. */
  deadlineMs?: number;
  /** A worker or file process idle this long is stopped, giving its heap back; default 30 s. */
  idleMs?: number;
  /** The PDF's fonts for what Roboto lacks (pdf-fonts.ts resolveFallbackFonts); none by default. */
  pdfFallbackFonts?: readonly string[];
  /**
   * PDFs laid out at once; default 1. A PDF's layout holds its whole document in its process's
   * heap (about 220 MiB for 5,000 rows) and keeps a core busy for seconds, so a second one waits
   * while other files are made beside the first. Files in all: as many as report workers.
   */
  pdfSlots?: number;
}

interface Job {
  id: number;
  task: RenderTask;
  resolve(output: { ok: string[] }): void;
  reject(error: Error): void;
}

interface Slot extends PoolSlot<Job> {
  worker: Worker;
  /** The running job is a share page (pages may use the worker reports cannot take). */
  page: boolean;
  /** Not yet answered anything: its first job's deadline also covers the worker's start-up. */
  fresh: boolean;
  /**
   * The id of the last job the worker finished, written by the worker before it posts the reply.
   * The deadline reads it: a busy main thread may not have read a finished job's reply yet, and
   * a job that is done must not be failed for that.
   */
  done: Int32Array;
}

/** Replies report the worker's heap; a worker that grew past this is replaced rather than kept idle. */
const RECYCLE_HEAP_BYTES = 96 * 1024 * 1024;

/** How long a new worker may take to load before its first job's deadline starts to count. */
const STARTUP_ALLOWANCE_MS = 15_000;

const WORKER_URL = await workerEntryUrl(import.meta.url, 'render-worker');

/** The hard deadline of a task: its own render time limit per source, plus grace. */
function deadlineOf(task: RenderTask, override: number | undefined): { ms: number; limitMs: number } {
  if (task.kind === 'page' || task.kind === 'analyze') return { ms: override ?? BASE_LIMITS.timeMs + 2_000, limitMs: BASE_LIMITS.timeMs };
  if (task.kind === 'diff') return { ms: override ?? DIFF_TIME_LIMIT_MS + 2_000, limitMs: DIFF_TIME_LIMIT_MS };
  if (task.kind === 'meta') {
    // A header takes about 0.25 ms to read: 2 ms each leaves room for a busy machine.
    const limitMs = BASE_LIMITS.timeMs + task.headers.length * 2;
    return { ms: override ?? limitMs + 2_000, limitMs };
  }
  const { limits } = task;
  return { ms: override ?? limits.timeMs * Math.max(1, task.sources.length) + 2_000, limitMs: limits.timeMs };
}

/**
 * A worker's young generation. Each worker's grows to this size and stays resident, so it is a
 * share of the process's peak memory. 32 MiB rather than 16: a 5,000-entry render's context
 * outlives a 16 MiB nursery, so it was copied and promoted and then marked again by the garbage
 * collector's threads; with 32 MiB the same render costs the process a fifth less CPU for about
 * 30 MiB more peak (docs/performance.md "Render workers' young generation").
 */
const YOUNG_GENERATION_MB = 32;

/** Below this much memory for the whole process, one report worker instead of one per core. */
export const SHORT_MEMORY_BYTES = 2 * 1024 ** 3;

/**
 * Report workers by default: one per core, two to four, but one where the process has less than
 * 2 GiB of memory. A worker may hold up to its heap limit (512 MiB; a 20,000-entry render takes
 * about 300 MiB, a 5,000-row PDF 220), so on a small machine a second one risks the whole process
 * for a render that could have waited (docs/operations.md "Renders").
 */
export function defaultPoolSize(cores: number, memoryBytes: number): number {
  if (memoryBytes < SHORT_MEMORY_BYTES) return 1;
  return Math.max(2, Math.min(4, cores));
}

/**
 * The memory the process may use: its cgroup's limit where it runs in one (a container), else the
 * machine's. `constrained` is `process.constrainedMemory()`: 0 or a number beyond the machine's
 * memory when there is no limit.
 */
export function memoryAvailable(constrained: number | undefined, total: number): number {
  return constrained !== undefined && constrained > 0 && constrained < total ? constrained : total;
}

export function createRenderPool(options: RenderPoolOptions = {}): RenderPool {
  const size = options.size ?? defaultPoolSize(availableParallelism(), memoryAvailable(process.constrainedMemory(), totalmem()));
  const maxHeapMb = options.maxHeapMb ?? 512;
  const idleMs = options.idleMs ?? 30_000;
  const files = createFilePool({
    size,
    pdfSlots: options.pdfSlots ?? 1,
    maxHeapMb,
    idleMs,
    deadlineMs: options.deadlineMs,
    pdfFallbackFonts: options.pdfFallbackFonts ?? [],
  });
  const slots: Slot[] = [];
  const { finish, idle, retire, fail } = slotKeeping<Job, Slot>(
    slots,
    threadRunner(() => {
      dispatch();
    }, idleMs),
  );
  // Share pages first: a reader waits for them, and they are quick next to a report render.
  const pages: Job[] = [];
  const reports: Job[] = [];
  let nextId = 1;
  let closed = false;

  function spawn(): Slot {
    const done = new Int32Array(new SharedArrayBuffer(4));
    const worker = startWorker(WORKER_URL, {
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      workerData: { done },
    });
    // Idle workers must not keep the process alive.
    worker.unref();
    const slot: Slot = { worker, job: null, page: false, timer: null, idleTimer: null, fresh: true, done };
    worker.on('message', (reply: RenderReply) => {
      const job = slot.job;
      if (!job || job.id !== reply.id) return;
      slot.fresh = false;
      finish(slot);
      if ('ok' in reply) job.resolve(reply);
      else job.reject(new TemplateError(reply.error.message, reply.error.kind, reply.error.line, reply.error.column));
      if (reply.heapBytes > RECYCLE_HEAP_BYTES) retire(slot);
      else idle(slot);
      dispatch();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      fail(
        slot,
        new TemplateError(outOfMemory ? 'memory limit exceeded' : 'the template could not be rendered', outOfMemory ? 'limit' : 'runtime'),
      );
    });
    worker.on('exit', () => {
      fail(slot, new TemplateError('the template could not be rendered', 'runtime'));
    });
    slots.push(slot);
    return slot;
  }

  function arm(slot: Slot, job: Job, ms: number, limitMs: number): void {
    slot.timer = setTimeout(() => {
      // Finished, its reply not read yet: look again shortly instead of failing a good render.
      if (Atomics.load(slot.done, 0) === job.id) arm(slot, job, 1_000, limitMs);
      else fail(slot, new TemplateError(timeLimitMessage(limitMs), 'limit'));
    }, ms);
  }

  /**
   * Share pages first, and on up to `size + 1` workers, while report renders take at most `size`:
   * however many renders are running, one worker is always there for a reader's page.
   */
  function dispatch(): void {
    while (!closed) {
      const page = pages.length > 0;
      if (!page && reports.length === 0) return;
      if (!page && slots.filter((s) => s.job !== null && !s.page).length >= size) return;
      const slot = slots.find((s) => s.job === null) ?? (slots.length < size + 1 ? spawn() : null);
      if (!slot) return;
      const job = page ? pages.shift() : reports.shift();
      if (!job) return;
      slot.job = job;
      slot.page = page;
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      slot.idleTimer = null;
      slot.worker.ref();
      // The engine stops each source at its own time limit; this is the backstop if it cannot.
      const deadline = deadlineOf(job.task, options.deadlineMs);
      arm(slot, job, deadline.ms + (slot.fresh ? STARTUP_ALLOWANCE_MS : 0), deadline.limitMs);
      slot.worker.postMessage({ id: job.id, task: job.task } satisfies RenderRequestMessage);
    }
  }

  function job(task: RenderTask): Promise<{ ok: string[] }> {
    if (closed) return Promise.reject(new Error('render pool is closed'));
    return new Promise((resolve, reject) => {
      (task.kind === 'page' ? pages : reports).push({ id: nextId++, task, resolve, reject });
      dispatch();
    });
  }

  const run = async (task: RenderTask): Promise<string[]> => (await job(task)).ok;

  return {
    renderReport: (report) => run({ kind: 'report', ...report }),
    renderVersion: async (report) => {
      const ok = await run({ kind: 'report', ...report, dataset: true });
      const [data, count] = ok.splice(-2);
      if (data === undefined || count === undefined) throw new Error('the render worker returned no dataset');
      return { outputs: ok, dataset: { data, entryCount: Number(count) } };
    },
    file: (file) => files.file(file),
    useLog: (log) => {
      files.useLog(log);
    },
    render: (sources, context, limits = BASE_LIMITS) => run({ kind: 'liquid', sources, context, limits }),
    renderPage: async (input) => (await run({ kind: 'page', input }))[0] ?? '',
    // The worker answers [] for "no line diff", [patch] otherwise.
    diff: async (job) => (await run({ kind: 'diff', ...job }))[0] ?? null,
    analyze: async (sources) => (await run({ kind: 'analyze', sources })).map((json) => JSON.parse(json) as SourceAnalysis),
    versionMeta: async (headers) =>
      headers.length === 0 ? [] : (JSON.parse((await run({ kind: 'meta', headers }))[0] ?? '[]') as (FrontMatterMeta | null)[]),
    reportSlots: size,
    stats: () => {
      const made = files.stats();
      return {
        workers: slots.length + made.processes,
        busy: slots.filter((s) => s.job !== null).length + made.busy,
        queued: pages.length + reports.length + made.queued,
      };
    },
    async close() {
      closed = true;
      for (const job of [...pages.splice(0), ...reports.splice(0)]) job.reject(new Error('render pool is closed'));
      const stopping = slots.splice(0);
      for (const slot of stopping) {
        slot.job?.reject(new Error('render pool is closed'));
        finish(slot);
        if (slot.idleTimer) clearTimeout(slot.idleTimer);
      }
      await Promise.all([...stopping.map((slot) => slot.worker.terminate()), files.close()]);
    },
  };
}
