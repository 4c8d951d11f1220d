/**
 * libuv's thread pool size (docs/operations.md "Resource limits"). Imported first by server.ts:
 * libuv reads UV_THREADPOOL_SIZE once, when the pool is first used, so it must be set before any
 * other module can start file, DNS or crypto work. The default of 4 threads is exactly what the
 * PBKDF2 slots (4) may hold, so a burst of passcode unlocks plus one scrypt would leave nothing
 * for static files; 8 leaves room for both. An operator's own value wins.
 */
export const DEFAULT_THREADPOOL_SIZE = 8;

process.env.UV_THREADPOOL_SIZE ??= String(DEFAULT_THREADPOOL_SIZE);
