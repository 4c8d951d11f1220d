/**
 * The file processes (file-pool.ts, file-process.ts): a version's files are made in child
 * processes at the lowest priority with V8 on one thread; a process that overruns, runs out of
 * memory or dies fails its file alone, and the next file gets a fresh one.
 */
import { fork } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { workerEntryUrl } from '../../src/lib/worker-thread.js';
import { createFilePool, type FileJob, type FilePool } from '../../src/render/file-pool.js';
import { FILE_NICE } from '../../src/lib/thread-priority.js';
import { pdfInput, timesheetBody } from '../helpers/pdf-documents.js';
import { failure, waitUntil } from '../helpers/render-pools.js';

let pool: FilePool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

/** Tests that find the pool's processes, or read their threads, in /proc (Linux). */
const withProc = existsSync('/proc/self/task');

const OPTIONS = { size: 2, pdfSlots: 1, maxHeapMb: 512, idleMs: 30_000, pdfFallbackFonts: [] };

function pdf(rows: number): FileJob {
  const { chartSvg: _chartSvg, ...input } = pdfInput(timesheetBody({ rows }));
  return { format: 'pdf', pdf: input };
}

/** A CSV of a dataset (format 2) of one entry. */
const CSV: FileJob = {
  format: 'csv',
  title: 'T',
  createdAt: '2026-12-01T00:00:00.000Z',
  data: gzipSync(
    JSON.stringify({
      format: 2,
      timezone: 'UTC',
      locale: 'en',
      moneyVisible: false,
      names: { workspaces: [{ id: 'w', name: 'W' }], clients: [], projects: [], users: [{ id: 'u', name: 'Ann' }] },
      entries: [['e1', '2026-11-01T08:00:00.000Z', '2026-11-01', '08:00', 30, 'Only', [], null, 'u', 'w', false, 0, null, null, null]],
    }),
  ).toString('base64'),
};

/** A log that keeps what the pool warns of. */
function collectingLog() {
  const warnings: { detail: object; message: string }[] = [];
  return { warnings, warn: (detail: object, message: string) => warnings.push({ detail, message }) };
}

/** This process's children that are file processes (other tests' pools in this process included). */
function fileProcesses(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return parent === process.pid && command.includes('file-process') ? [Number(pid)] : [];
      } catch {
        return [];
      }
    });
}

/** The file processes started since `before` was read: this test's own. */
const startedSince = (before: readonly number[]): number[] => fileProcesses().filter((pid) => !before.includes(pid));

/** Field 19 of a thread's stat is its nice value; the fields after the name's ")" hold no spaces. */
const niceOf = (pid: number, tid: number) => Number(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ')[16]);

describe('file processes', () => {
  it('make a PDF and a CSV', async () => {
    pool = createFilePool(OPTIONS);
    const [made, csv] = await Promise.all([pool.file(pdf(20)), pool.file(CSV)]);
    expect(Buffer.from(made).subarray(0, 5).toString()).toBe('%PDF-');
    expect(Buffer.from(csv).toString('utf8')).toContain('Only');
    expect(pool.stats()).toEqual({ processes: 2, busy: 0, queued: 0 });
  });

  it.runIf(withProc)(`run at nice ${FILE_NICE} with V8 on one thread, the server's threads untouched`, async () => {
    const before = fileProcesses();
    pool = createFilePool(OPTIONS);
    await pool.file(CSV);
    const [child] = startedSince(before);
    expect(child).toBeDefined();
    const pid = child ?? 0;
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain('--single-threaded');
    // The thread that runs the process's JavaScript (its id is the process's) is at the lowest priority,
    // the one thread that does its work: V8's collector and compiler have no helper threads here.
    expect(niceOf(pid, pid)).toBe(FILE_NICE);
    expect(niceOf(process.pid, process.pid)).toBe(0);
  });

  it.runIf(withProc)('start without the server’s secrets in their environment', async () => {
    const secret = 'file-process-must-not-see-this';
    vi.stubEnv('SHARE_KEY', secret);
    vi.stubEnv('DATABASE_URL', `postgres://user:${secret}@127.0.0.1/db`);
    try {
      const before = fileProcesses();
      pool = createFilePool(OPTIONS);
      await pool.file(CSV);
      const [child] = startedSince(before);
      const environ = readFileSync(`/proc/${child ?? 0}/environ`, 'utf8').split('\0');
      expect(environ.join('\n')).not.toContain(secret);
      // Beside what it is given, Node's own: the IPC channel's descriptor and serialisation.
      const names = environ.map((line) => line.split('=')[0] ?? '').filter((name) => name !== '' && !name.startsWith('NODE_CHANNEL_'));
      expect(names.filter((name) => !['PATH', 'TMPDIR', 'TZ', 'LANG', 'LC_ALL'].includes(name))).toEqual([]);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it.runIf(withProc)('stop a file at its deadline, and the next file gets a fresh process', async () => {
    const before = fileProcesses();
    pool = createFilePool({ ...OPTIONS, size: 1, deadlineMs: 300 });
    const log = collectingLog();
    pool.useLog(log);
    // A fresh process's first file may also spend the start-up allowance; this one is the warm-up.
    await pool.file(CSV);
    const [first] = startedSince(before);
    expect(first).toBeDefined();
    // A process that makes no progress at all: stopped by the kernel before the file is sent (a
    // small CSV sent first could be made before the signal lands), until the deadline ends it.
    process.kill(first ?? 0, 'SIGSTOP');
    const stalled = pool.file(CSV);
    const error = await failure(stalled);
    expect(error.kind).toBe('limit');
    expect(error.message).toMatch(/time limit exceeded/);
    expect(log.warnings).toEqual([
      { detail: expect.objectContaining({ format: 'csv' }) as object, message: 'a file process was stopped at its deadline' },
    ]);
    await waitUntil(() => !fileProcesses().includes(first ?? 0));
    expect(Buffer.from(await pool.file(CSV)).toString('utf8')).toContain('Only');
    expect(fileProcesses()).not.toContain(first);
  });

  it('fail a file whose process runs out of heap as over the memory limit, and go on', async () => {
    pool = createFilePool({ ...OPTIONS, size: 1, maxHeapMb: 48 });
    const log = collectingLog();
    pool.useLog(log);
    const error = await failure(pool.file(pdf(5_000)));
    expect(error).toMatchObject({ kind: 'limit', message: 'memory limit exceeded' });
    expect(log.warnings).toEqual([
      {
        detail: expect.objectContaining({ format: 'pdf', outOfMemory: true, stderr: expect.stringMatching(/heap/) as unknown }) as object,
        message: 'a file process ended while making a file',
      },
    ]);
    expect(Buffer.from(await pool.file(CSV)).toString('utf8')).toContain('Only');
  });

  it('know a process ran out of heap however much it wrote to stderr before', async () => {
    pool = createFilePool({ ...OPTIONS, size: 1, maxHeapMb: 48 });
    const log = collectingLog();
    pool.useLog(log);
    // Quotes nested six deep lay out as six nested tables, and pdfmake then has more listeners on
    // its page writer than Node's default allows: each such PDF makes the process print a warning.
    const quoted = pdfInput(`${'> '.repeat(7)}deep\n`);
    const { chartSvg: _chartSvg, ...deep } = quoted;
    for (let i = 0; i < 12; i++) await pool.file({ format: 'pdf', pdf: deep });
    const error = await failure(pool.file(pdf(5_000)));
    expect(error).toMatchObject({ kind: 'limit', message: 'memory limit exceeded' });
    const [warning] = log.warnings;
    expect(warning?.detail).toMatchObject({ outOfMemory: true, stderr: expect.stringMatching(/heap out of memory/) as unknown });
    // Its earlier warnings are there too, as much as fits before its last words.
    expect((warning?.detail as { stderr: string }).stderr).toMatch(/MaxListenersExceededWarning/);
  });

  it.runIf(withProc)('fail the file of a process that dies, and go on', async () => {
    const before = fileProcesses();
    pool = createFilePool({ ...OPTIONS, size: 1 });
    const log = collectingLog();
    pool.useLog(log);
    await pool.file(CSV);
    const [first] = startedSince(before);
    expect(first).toBeDefined();
    const lost = pool.file(pdf(2_000));
    await waitUntil(() => pool?.stats().busy === 1);
    process.kill(first ?? 0, 'SIGKILL');
    expect(await failure(lost)).toMatchObject({ kind: 'runtime', message: 'the file could not be made' });
    expect(log.warnings).toEqual([
      {
        detail: expect.objectContaining({ format: 'pdf', signal: 'SIGKILL', outOfMemory: false }) as object,
        message: 'a file process ended while making a file',
      },
    ]);
    expect(Buffer.from(await pool.file(CSV)).toString('utf8')).toContain('Only');
  });

  it.runIf(withProc)('exit cleanly when their server goes (its IPC channel closes), also in the middle of a file', async () => {
    const entry = fileURLToPath(await workerEntryUrl(new URL('../../src/render/file-pool.ts', import.meta.url).href, 'file-process'));
    const child = fork(entry, ['{}'], {
      execArgv: ['--single-threaded'],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => {
        resolve(code);
      }),
    );
    let answers = 0;
    child.on('message', () => (answers += 1));
    child.send({ id: 1, job: pdf(1_500) });
    // Busy with it: a fifth of a second of CPU spent (fields 14 and 15 of its stat), no answer yet.
    const cpuTicks = () => {
      const fields =
        readFileSync(`/proc/${child.pid ?? 0}/stat`, 'utf8')
          .split(') ')[1]
          ?.split(' ') ?? [];
      return Number(fields[11]) + Number(fields[12]);
    };
    while (cpuTicks() < 20) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(answers).toBe(0);
    // What the kernel does when a server dies: the other end of the channel closes.
    child.disconnect();
    expect(await exited).toBe(0);
  });

  it.runIf(withProc)('are stopped when the pool closes, and it refuses files from then on', async () => {
    const before = fileProcesses();
    pool = createFilePool(OPTIONS);
    await pool.file(CSV);
    expect(startedSince(before)).toHaveLength(1);
    await pool.close();
    expect(startedSince(before)).toHaveLength(0);
    await expect(pool.file(CSV)).rejects.toThrow(/closed/);
  });
});
