/**
 * A hashing thread (hash-threads.ts): PBKDF2 and scrypt, one at a time, at the render workers'
 * lower priority. It says its thread id first, then answers each job with the key or the error.
 */
import { pbkdf2Sync, scryptSync } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import type { HashReply, HashRequest } from './hash-threads.js';
import { currentThreadId, lowerThreadPriority } from './thread-priority.js';

if (!parentPort) throw new Error('hash-worker.ts runs as a worker thread');
const port = parentPort;

lowerThreadPriority();
port.postMessage({ id: 0, tid: currentThreadId() } satisfies HashReply);

port.on('message', (request: HashRequest) => {
  try {
    const key =
      request.kind === 'pbkdf2'
        ? pbkdf2Sync(request.secret, request.salt, request.iterations, request.keyLength, 'sha256')
        : scryptSync(request.secret, request.salt, request.keyLength, request.cost);
    port.postMessage({ id: request.id, key } satisfies HashReply);
  } catch (error) {
    const { message, code } = error as NodeJS.ErrnoException;
    port.postMessage({ id: request.id, error: { message, ...(code ? { code } : {}) } } satisfies HashReply);
  }
});
