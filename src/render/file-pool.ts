/**
 * The files of a version (PDF, CSV, XLSX; docs/exports.md) are made in child processes of their
 * own (file-process.ts), not in the render workers: a process whose every thread runs at the
 * render workers' lower priority, with V8 on that one thread (docs/decisions.md "Files are made in processes of
 * their own"). A 5,000-row PDF is seconds of CPU and a heap of a few hundred MiB; in a worker
 * thread its garbage collection and compilation ran on V8's helper threads, shared by the whole
 * process at normal priority, and the share page lost half its throughput while PDFs were made.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { workerEntryUrl } from '../lib/worker-thread.js';
import type { PdfInput } from './pdf/render-pdf.js';
import { slotKeeping, type PoolSlot } from '../lib/pool-slots.js';
import { TemplateError, timeLimitMessage } from './template-engine.js';

/**
 * A file of a version (docs/exports.md): CSV or XLSX made from its stored dataset, or its PDF made
 * from its Markdown (render-pdf.ts; the file process draws its charts).
 */
export type FileJob =
  | {
      format: 'csv' | 'xlsx';
      /** The stored dataset (schema.ts `reportDatasets.data`). */
      data: string;
      title: string;
      /** ISO instant of the version's render: the file's creation date. */
      createdAt: string;
    }
  | { format: 'pdf'; pdf: Omit<PdfInput, 'chartSvg'> };

export interface FileRequest {
  id: number;
  job: FileJob;
}

export type FileReply =
  | { id: number; heapBytes: number; binary: Uint8Array }
  | { id: number; heapBytes: number; error: { message: string; kind: TemplateError['kind'] } };

/** What a file process is started with (its one argument, as JSON). */
export interface FileProcessSettings {
  pdfFallbackFonts: string[];
}

/**
 * How long making a file may take: 15 s (a process's first file also loads its writer, and a PDF
 * its fonts), plus time per character of its input: of a CSV's or XLSX's stored (compressed)
 * dataset 10 ms per thousand, of a PDF's Markdown 50 ms per thousand (its layout is the slower
 * work). About ten times what each takes on a busy machine (docs/performance.md "Exports").
 */
export function fileTimeLimitMs(job: FileJob): number {
  const perThousand = job.format === 'pdf' ? { size: job.pdf.markdown.length, ms: 50 } : { size: job.data.length, ms: 10 };
  return Math.ceil(FILE_BASE_TIME_MS + (perThousand.size / 1000) * perThousand.ms);
}

const FILE_BASE_TIME_MS = 15_000;

/** What a process may add to a job's time limit before it is stopped: the limit is the writer's, this the backstop. */
const GRACE_MS = 2_000;

/** How long a new process may take to start before its first file's deadline starts to count. */
const STARTUP_ALLOWANCE_MS = 15_000;

/** A process whose heap grew past this after a file is stopped rather than kept idle. */
const RECYCLE_HEAP_BYTES = 96 * 1024 * 1024;

const ENTRY = fileURLToPath(await workerEntryUrl(import.meta.url, 'file-process'));

export interface FilePoolOptions {
  /** Files made at once. */
  size: number;
  /** PDFs laid out at once (PDF_CONCURRENCY): each holds its whole document in memory. */
  pdfSlots: number;
  /** Heap of one process; a file that needs more fails as over the memory limit. */
  maxHeapMb: number;
  /** A process idle this long is stopped, giving its memory back. */
  idleMs: number;
  /** Hard deadline of one file; default: its time limit plus grace. */
  deadlineMs?: number | undefined;
  /** The PDF's fonts for what Roboto lacks (pdf-fonts.ts resolveFallbackFonts). */
  pdfFallbackFonts: readonly string[];
}

export interface FilePoolStats {
  processes: number;
  busy: number;
  queued: number;
}

/** Where the pool tells operators of a process that failed its file (the app's logger). */
export interface FilePoolLog {
  warn(detail: object, message: string): void;
}

export interface FilePool {
  /** A file of a version; a failure is a TemplateError (`limit` for one past its bounds). */
  file(job: FileJob): Promise<Uint8Array>;
  /** From now on, a process that dies or overruns while making a file is logged here. */
  useLog(log: FilePoolLog): void;
  stats(): FilePoolStats;
  close(): Promise<void>;
}

interface Job {
  id: number;
  job: FileJob;
  resolve(bytes: Uint8Array): void;
  reject(error: Error): void;
}

interface Slot extends PoolSlot<Job> {
  child: ChildProcess;
  /**
   * The end of what the process wrote to stderr: a process that dies says why last (V8's or
   * Node's fatal message), after whatever it printed while it made earlier files (Node's
   * warnings: pdfmake's page writer passes Node's default of ten listeners with quotes nested
   * six deep, for one).
   */
  stderr: string;
  /** V8 said the process's heap was full (OUT_OF_MEMORY), in any part of its stderr. */
  outOfMemory: boolean;
  /** Not yet answered anything: its first file's deadline also covers the process's start. */
  fresh: boolean;
}

const isPdf = (job: FileJob): boolean => job.format === 'pdf';

/** What of the server's environment a file process gets: where things are and how text is read, never a secret. */
const FILE_PROCESS_ENV = ['PATH', 'TMPDIR', 'TZ', 'LANG', 'LC_ALL'] as const;

/**
 * The environment a file process starts with: only `FILE_PROCESS_ENV`. The server's holds its
 * secrets (SHARE_KEY, DATABASE_URL, SMTP and webhook settings); a process that lays out users'
 * documents needs none of them.
 */
function fileProcessEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(FILE_PROCESS_ENV.flatMap((name) => (env[name] === undefined ? [] : [[name, env[name]]])));
}

/** V8's words when a heap is full, before the process aborts. */
const OUT_OF_MEMORY = /heap out of memory|Reached heap limit/;

/** How much of the end of a process's stderr is kept, and logged when it fails a file. */
const STDERR_KEPT_CHARS = 4_000;

/** Enough of the text before a chunk of stderr to find OUT_OF_MEMORY's words split across two chunks. */
const OVERLAP_CHARS = 32;

export function createFilePool(options: FilePoolOptions): FilePool {
  const slots: Slot[] = [];
  let log: FilePoolLog | null = null;
  const { finish, idle, retire, fail } = slotKeeping<Job, Slot>(slots, {
    release: (slot) => {
      slot.child.unref();
      slot.child.channel?.unref();
    },
    stop: (slot) => {
      slot.child.removeAllListeners('close');
      slot.child.kill('SIGKILL');
    },
    dispatch: () => {
      dispatch();
    },
    idleMs: options.idleMs,
  });
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;
  const settings: FileProcessSettings = { pdfFallbackFonts: [...options.pdfFallbackFonts] };

  function spawn(): Slot {
    const child = fork(ENTRY, [JSON.stringify(settings)], {
      // V8 on the process's one thread (no helper threads for its collector or compiler, which
      // would run at normal priority), and the heap bound of a render worker.
      execArgv: ['--single-threaded', `--max-old-space-size=${options.maxHeapMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: fileProcessEnv(process.env),
    });
    const slot: Slot = { child, job: null, timer: null, idleTimer: null, stderr: '', outOfMemory: false, fresh: true };
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      slot.outOfMemory ||= OUT_OF_MEMORY.test(slot.stderr.slice(-OVERLAP_CHARS) + text);
      slot.stderr = (slot.stderr + text).slice(-STDERR_KEPT_CHARS);
    });
    child.on('message', (reply: FileReply) => {
      const job = slot.job;
      if (!job || job.id !== reply.id) return;
      slot.fresh = false;
      finish(slot);
      if ('binary' in reply) job.resolve(reply.binary);
      else job.reject(new TemplateError(reply.error.message, reply.error.kind));
      if (reply.heapBytes > RECYCLE_HEAP_BYTES) retire(slot);
      else idle(slot);
      dispatch();
    });
    // 'close' comes once the process has exited and its stderr is read to the end.
    child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
      const { outOfMemory } = slot;
      if (slot.job) {
        log?.warn(
          { format: slot.job.job.format, code, signal, outOfMemory, stderr: slot.stderr },
          'a file process ended while making a file',
        );
      }
      fail(
        slot,
        new TemplateError(outOfMemory ? 'memory limit exceeded' : 'the file could not be made', outOfMemory ? 'limit' : 'runtime'),
      );
    });
    child.on('error', () => {
      fail(slot, new TemplateError('the file could not be made', 'runtime'));
    });
    slots.push(slot);
    return slot;
  }

  /** The first waiting file that may start: any while PDF slots are free, else the first that is not a PDF; -1 for none. */
  function startable(): number {
    if (queue.length === 0) return -1;
    const pdfsRunning = slots.filter((s) => s.job !== null && isPdf(s.job.job)).length;
    return pdfsRunning < options.pdfSlots ? 0 : queue.findIndex((waiting) => !isPdf(waiting.job));
  }

  function dispatch(): void {
    while (!closed) {
      const index = startable();
      if (index === -1) return;
      if (slots.filter((s) => s.job !== null).length >= options.size) return;
      const slot = slots.find((s) => s.job === null) ?? spawn();
      const job = queue.splice(index, 1)[0];
      if (!job) return;
      slot.job = job;
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      slot.idleTimer = null;
      slot.child.ref();
      slot.child.channel?.ref();
      const limitMs = fileTimeLimitMs(job.job);
      slot.timer = setTimeout(
        () => {
          log?.warn({ format: job.job.format, limitMs }, 'a file process was stopped at its deadline');
          fail(slot, new TemplateError(timeLimitMessage(limitMs), 'limit'));
        },
        (options.deadlineMs ?? limitMs + GRACE_MS) + (slot.fresh ? STARTUP_ALLOWANCE_MS : 0),
      );
      slot.child.send({ id: job.id, job: job.job } satisfies FileRequest);
    }
  }

  return {
    file(job) {
      if (closed) return Promise.reject(new Error('render pool is closed'));
      return new Promise((resolve, reject) => {
        queue.push({ id: nextId++, job, resolve, reject });
        dispatch();
      });
    },
    useLog: (logger) => {
      log = logger;
    },
    stats: () => ({ processes: slots.length, busy: slots.filter((s) => s.job !== null).length, queued: queue.length }),
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('render pool is closed'));
      const stopping = slots.splice(0);
      await Promise.all(
        stopping.map(async (slot) => {
          slot.job?.reject(new Error('render pool is closed'));
          finish(slot);
          if (slot.idleTimer) clearTimeout(slot.idleTimer);
          slot.child.removeAllListeners('close');
          if (slot.child.exitCode !== null || slot.child.signalCode !== null) return;
          const exited = new Promise<void>((resolve) =>
            slot.child.once('exit', () => {
              resolve();
            }),
          );
          // Waited for: an idle process is unreferenced, and its exit must still be seen.
          slot.child.ref();
          slot.child.kill('SIGKILL');
          await exited;
        }),
      );
    },
  };
}
