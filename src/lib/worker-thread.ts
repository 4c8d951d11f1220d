/**
 * Starting a worker thread whose entry module sits next to the module that starts it, in the
 * same language: TypeScript under tsx or Vitest (tests, `npm run dev`), JavaScript once built.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * The URL of the worker module `name` (without extension) beside `importMetaUrl`, the caller's
 * `import.meta.url`.
 */
export function workerModuleUrl(importMetaUrl: string, name: string): URL {
  return new URL(`./${name}.${importMetaUrl.endsWith('.ts') ? 'ts' : 'js'}`, importMetaUrl);
}

/**
 * A worker running `url`. A TypeScript worker registers tsx's loader in its own thread first:
 * Node 20 does not apply `--import` hooks to a worker's entry module.
 */
export function startWorker(url: URL, options: WorkerOptions): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, options);
  const require = createRequire(import.meta.url);
  const tsxApi = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs'));
  const bootstrap = `import { register } from ${JSON.stringify(tsxApi.href)}; register(); await import(${JSON.stringify(url.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`), options);
}
