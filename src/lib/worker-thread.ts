/**
 * Starting a worker thread whose entry module sits next to the module that starts it, in the
 * same language: TypeScript under tsx or Vitest (tests, `npm run dev`), JavaScript once built.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * The URL a worker thread runs for the module `name` (without extension) beside `importMetaUrl`,
 * the caller's `import.meta.url`. Built JavaScript runs as it is. A TypeScript module is bundled
 * first (`bundleEntry`), which is why this is asynchronous; callers await it once, at load.
 */
export async function workerEntryUrl(importMetaUrl: string, name: string): Promise<URL> {
  if (!importMetaUrl.endsWith('.ts')) return new URL(`./${name}.js`, importMetaUrl);
  return bundleEntry(new URL(`./${name}.ts`, importMetaUrl));
}

/**
 * The process's Node options a worker takes. A worker refuses `--input-type` for an entry that is a
 * file (a process started with `node --input-type=module -e`), and refuses, by name, options that
 * belong to the whole process: V8's (`--max-old-space-size`, `--perf-basic-prof`) and a few of
 * Node's (`--title`). V8's apply to every thread of the process already. Each refused option is
 * learnt from the first refusal and left out from then on.
 */
let workerExecArgv: readonly string[] | null = null;

/** The options named in a worker's ERR_WORKER_INVALID_EXEC_ARGV ("... invalid execArgv flags: --a, --b"). */
function refusedOptions(error: unknown): string[] {
  if (!(error instanceof Error) || (error as NodeJS.ErrnoException).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') return [];
  const list = /flags: (.*)$/.exec(error.message)?.[1] ?? '';
  return list.split(', ').filter((option) => option.startsWith('-'));
}

/**
 * A worker thread running `url`, with the process's Node options that a worker takes
 * (`workerExecArgv`): `node --max-old-space-size=512 dist/src/server.js` starts its engine's and
 * render threads like any other start.
 */
export function startWorker(url: URL, options: WorkerOptions): Worker {
  let execArgv = workerExecArgv ?? process.execArgv.filter((option) => !option.startsWith('--input-type'));
  for (;;) {
    try {
      const worker = new Worker(url, { execArgv: [...execArgv], ...options });
      workerExecArgv = execArgv;
      return worker;
    } catch (error) {
      const refused = refusedOptions(error);
      const kept = execArgv.filter((option) => !refused.includes(option));
      // Nothing named that we pass: not ours to mend.
      if (kept.length === execArgv.length) throw error;
      execArgv = kept;
    }
  }
}

/** Where bundles are kept: the project's own package cache, so that their package imports resolve from it. */
const CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/chronicle/bundles/', import.meta.url));

/** A bundle no process has started from for this long is deleted when another of its entry is written. */
const STALE_MS = 24 * 60 * 60 * 1000;

/**
 * A TypeScript entry module as JavaScript Node runs directly (a worker's here; the tests also
 * start server and command-line processes from such bundles): Chronicle's own modules bundled by
 * esbuild, with code splitting so that what the entry imports lazily still loads lazily, and the
 * packages left to Node's own loader. Each module keeps its own `import.meta.url`.
 *
 * Node 20 applies no loader hooks to a worker's entry, so the alternative is to register tsx in
 * each thread; every module, packages included, then loads through tsx's hooks thread, and a
 * render worker took about 2.5 s of CPU to start instead of a few hundred milliseconds. Tests
 * start a hundred or more workers.
 *
 * The bundle is written under a hash of its content, so processes with the same sources share
 * one, and a process never runs another's: written to a directory of its own and renamed.
 */
export async function bundleEntry(entry: URL): Promise<URL> {
  // esbuild is a development dependency: a TypeScript entry only runs where those are installed.
  const { build } = await import('esbuild');
  const name = entry.pathname.replace(/^.*\//, '').replace(/\.ts$/, '');
  // Built beside where it is kept, at the same depth, so the source map's relative paths hold.
  const outdir = join(CACHE_DIR, name);
  const result = await build({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    // Node applies it with --enable-source-maps: stack traces then name the TypeScript sources.
    sourcemap: 'linked',
    outdir,
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'module-url',
        setup(bundler) {
          bundler.onLoad({ filter: /\.ts$/ }, (args) => ({
            contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
            loader: 'ts',
          }));
        },
      },
    ],
  });
  const hash = createHash('sha256');
  for (const file of result.outputFiles) hash.update(file.path).update(file.contents);
  const dir = join(CACHE_DIR, `${name}-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(dir)) {
    const now = new Date();
    utimesSync(dir, now, now);
  } else {
    const staging = `${dir}.${process.pid}-${randomBytes(4).toString('hex')}`;
    for (const file of result.outputFiles) {
      const target = join(staging, file.path.slice(outdir.length));
      mkdirSync(join(target, '..'), { recursive: true });
      writeFileSync(target, file.contents);
    }
    try {
      renameSync(staging, dir);
    } catch (error) {
      // Another process wrote the same bundle first.
      rmSync(staging, { recursive: true, force: true });
      if (!existsSync(dir)) throw error;
    }
    pruneStale(name, dir);
  }
  return pathToFileURL(join(dir, `${name}.js`));
}

function pruneStale(name: string, current: string): void {
  const cutoff = Date.now() - STALE_MS;
  for (const entry of readdirSync(CACHE_DIR)) {
    const path = join(CACHE_DIR, entry);
    if (path === current || !entry.startsWith(`${name}-`)) continue;
    try {
      if (statSync(path).mtimeMs < cutoff) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
}
