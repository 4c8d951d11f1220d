/**
 * libuv's thread pool size (docs/operations.md "Resource limits"). Imported first by server.ts:
 * libuv reads UV_THREADPOOL_SIZE once, when the pool is first used, so it must be set before any
 * other module can start file, DNS or crypto work. It serves file reads (static files, stored
 * share pages), DNS lookups and image decoding; passcode and password hashes, which once filled
 * the default 4 threads, run on hashing threads of their own (hash-threads.ts). 8 keeps a burst of
 * logo uploads from making file reads wait. An operator's own value wins.
 */
export const DEFAULT_THREADPOOL_SIZE = 8;

process.env.UV_THREADPOOL_SIZE ??= String(DEFAULT_THREADPOOL_SIZE);
