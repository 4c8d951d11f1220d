/**
 * Passcode (PBKDF2) and password (scrypt) hashing on worker threads of their own, below the event
 * loop's priority (docs/decisions.md "Hashes run at a lower priority"). Both are slow on purpose:
 * a passcode check at 600,000 iterations takes 0.2-0.4 s of CPU, a password 0.1-0.2 s. On libuv's
 * thread pool they ran at the event loop's priority, so the checks a wrong-passcode storm is
 * allowed took the cores from every reader's share page. At nice 10 (thread-priority.ts) the
 * kernel gives the event loop a core whenever it wants one and the hashes take what is left:
 * slower only while the server is busy answering others.
 *
 * The slots in front (passcode-slots.ts, password-slots.ts) bound how many hashes run at once.
 * A hash is all CPU, so more threads than cores would hash no faster: the pool has one thread per
 * core up to what the slots can fill, and jobs wait here in order when every thread is busy. Each
 * thread (a V8 isolate of about 9 MiB) starts when first needed, in about 40 ms, never keeps the
 * process alive while idle, and ends after `HASH_THREAD_IDLE_MS` without work.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { PASSCODE_SLOTS } from './passcode-slots.js';
import { PASSWORD_HASH_SLOTS } from './password-slots.js';
import { slotKeeping, threadRunner, type PoolSlot } from './pool-slots.js';
import { startWorker, workerEntryUrl } from './worker-thread.js';

/** scrypt's cost parameters, as node:crypto takes them. */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
  maxmem: number;
}

type Job =
  | { kind: 'pbkdf2'; secret: Uint8Array; salt: Uint8Array; iterations: number; keyLength: number }
  | { kind: 'scrypt'; secret: string; salt: Uint8Array; keyLength: number; cost: ScryptCost };

/** What a hashing thread is asked (hash-worker.ts). */
export type HashRequest = { id: number } & Job;

/** A thread's answer: its thread id once it runs (`id` 0), then each job's key or error. */
export type HashReply =
  { id: 0; tid: number | null } | { id: number; key: Uint8Array } | { id: number; error: { message: string; code?: string } };

export interface HashThreads {
  /** PBKDF2-HMAC-SHA256. */
  pbkdf2(secret: Uint8Array, salt: Uint8Array, iterations: number, keyLength: number): Promise<Buffer>;
  scrypt(secret: string, salt: Uint8Array, keyLength: number, cost: ScryptCost): Promise<Buffer>;
  /** The Linux thread ids of the threads running now (tests read their priority). */
  threadIds(): number[];
  /** Ends the threads, failing the jobs they ran or had waiting; jobs asked for later start new ones. */
  close(): Promise<void>;
}

/** A thread per core, up to every hash the slots let run at once. */
export function hashThreadCount(cores: number): number {
  return Math.min(PASSCODE_SLOTS + PASSWORD_HASH_SLOTS, Math.max(1, cores));
}

/** How long a thread without work is kept. */
export const HASH_THREAD_IDLE_MS = 10_000;

const WORKER_URL = await workerEntryUrl(import.meta.url, 'hash-worker');

interface Pending {
  id: number;
  job: Job;
  resolve: (key: Buffer) => void;
  reject: (error: Error) => void;
}

interface Thread extends PoolSlot<Pending> {
  worker: Worker;
  tid: number | null;
}

const closedError = () => new Error('the hashing threads were closed');

export function createHashThreads(size: number = hashThreadCount(availableParallelism()), idleMs = HASH_THREAD_IDLE_MS): HashThreads {
  const threads: Thread[] = [];
  const queue: Pending[] = [];
  let nextId = 1;
  const { finish, idle, fail } = slotKeeping<Pending, Thread>(
    threads,
    threadRunner(() => {
      dispatch();
    }, idleMs),
  );

  function start(): Thread {
    const worker = startWorker(WORKER_URL, {});
    worker.unref();
    const thread: Thread = { worker, job: null, timer: null, idleTimer: null, tid: null };
    worker.on('message', (reply: HashReply) => {
      if ('tid' in reply) {
        thread.tid = reply.tid;
        return;
      }
      const pending = thread.job;
      if (!pending || pending.id !== reply.id) return;
      finish(thread);
      idle(thread);
      if ('key' in reply) pending.resolve(Buffer.from(reply.key.buffer, reply.key.byteOffset, reply.key.byteLength));
      else pending.reject(Object.assign(new Error(reply.error.message), reply.error.code ? { code: reply.error.code } : {}));
      dispatch();
    });
    worker.on('error', (error) => {
      fail(thread, error);
    });
    worker.on('exit', (code) => {
      fail(thread, new Error(`a hashing thread stopped (exit code ${code})`));
    });
    threads.push(thread);
    return thread;
  }

  function dispatch(): void {
    for (let pending = queue[0]; pending; pending = queue[0]) {
      const thread = threads.find((candidate) => !candidate.job) ?? (threads.length < size ? start() : null);
      if (!thread) return;
      queue.shift();
      if (thread.idleTimer) clearTimeout(thread.idleTimer);
      thread.idleTimer = null;
      thread.job = pending;
      thread.worker.ref();
      thread.worker.postMessage({ id: pending.id, ...pending.job } satisfies HashRequest);
    }
  }

  function run(job: Job): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      queue.push({ id: nextId++, job, resolve, reject });
      dispatch();
    });
  }

  return {
    pbkdf2: (secret, salt, iterations, keyLength) => run({ kind: 'pbkdf2', secret, salt, iterations, keyLength }),
    scrypt: (secret, salt, keyLength, cost) => run({ kind: 'scrypt', secret, salt, keyLength, cost }),
    threadIds: () => threads.flatMap((thread) => (thread.tid === null ? [] : [thread.tid])),
    close: async () => {
      // The waiting jobs first: failing a thread dispatches what waits.
      for (const waiting of queue.splice(0)) waiting.reject(closedError());
      const workers = threads.map((thread) => thread.worker);
      for (const thread of [...threads]) fail(thread, closedError());
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}

/** The process's hashing threads (secrets.ts, passwords.ts). */
export const hashThreads = createHashThreads();
