/**
 * How the embedded engine is started, and kept small.
 *
 * - `shared_buffers` is 32 MB instead of PostgreSQL's 128 MB: the data files are read through the
 *   operating system's page cache anyway, and the embedded engine serves one process. Smaller
 *   costs reads: at 8 MB the server held 25-30 MiB less and the tag-filtered entry list served a
 *   third of its pages (docs/performance.md
 *   "The suite, the engine's buffers and money's statement, measured again (3 December 2026)").
 * - A new data directory is initialised (initdb) by a short-lived child process: initdb's own
 *   WebAssembly instance takes several hundred MB, which would otherwise stay resident in the
 *   server (a worker thread's memory is not all given back either).
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export const PGLITE_SETTINGS = ['shared_buffers = 32MB'];

/** What start-up changed to make an existing data directory private. */
export interface DataDirTightening {
  directories: number;
  files: number;
}

/**
 * A new data directory is created 0700 before anything is written into it. An existing one is
 * made private: it and every directory inside 0700, every file 0600 (docs/operations.md "The
 * embedded engine"); whoever can read there can read the database, and whoever can write there can replace
 * it or the share key. Only what cannot be fixed stops start-up: a directory or file owned by
 * another user (chmod is refused), or a DATA_DIR that is not a directory. Symbolic links are
 * neither followed nor changed. Returns what was changed, or null when nothing was.
 */
export function prepareDataDir(dataDir: string): DataDirTightening | null {
  if (!existsSync(dataDir)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    return null;
  }
  if (!lstatSync(dataDir).isDirectory()) throw new Error(`DATA_DIR ${dataDir} is not a directory.`);
  return tighten(dataDir);
}

/**
 * Makes every directory under `dataDir` 0700 and every file 0600 where others had access. Also
 * run once the engine has opened: it writes its relation cache files (`pg_internal.init`) 0644
 * whatever the umask. Files it writes later are still private: nobody else can enter DATA_DIR.
 */
export function tighten(dataDir: string): DataDirTightening | null {
  const uid = process.getuid?.();
  const changed: DataDirTightening = { directories: 0, files: 0 };
  // Depth-first with an explicit stack: a deep tree cannot overflow the call stack.
  const stack = [dataDir];
  for (let path = stack.pop(); path !== undefined; path = stack.pop()) {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) continue;
    const directory = stat.isDirectory();
    const wanted = directory ? 0o700 : 0o600;
    const mode = stat.mode & 0o7777;
    // Anything open to group or others (or set-id, sticky) becomes 0700 or 0600; private modes stay.
    if ((mode & 0o7077) !== 0) {
      if (uid !== undefined && stat.uid !== uid) {
        throw new Error(
          `DATA_DIR ${dataDir}: ${path} belongs to another user (uid ${stat.uid}) and is open to others (mode ${mode.toString(8).padStart(4, '0')}); fix its owner or mode and start again.`,
        );
      }
      chmodSync(path, wanted);
      if (directory) changed.directories += 1;
      else changed.files += 1;
    }
    if (directory) for (const name of readdirSync(path)) stack.push(join(path, name));
  }
  return changed.directories + changed.files > 0 ? changed : null;
}

/**
 * Files the embedded engine creates are the owner's alone, whatever the umask the process was
 * started with (a service manager's 022 would make every new table file world-readable). The
 * umask is per process, so initdb's child inherits it too. Worker threads cannot set it; the
 * server's main thread always can.
 */
function privateUmask(): void {
  if (isMainThread) process.umask(0o077);
}

/**
 * Makes `dataDir` private (see prepareDataDir) and initialises it if it holds no database yet, in
 * a child process. Returns what was tightened, or null.
 */
export async function initialiseDataDir(dataDir: string): Promise<DataDirTightening | null> {
  privateUmask();
  const tightened = prepareDataDir(dataDir);
  if (existsSync(join(dataDir, 'PG_VERSION'))) return tightened;
  const pglite = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;
  const source = `
    const { PGlite } = await import(${JSON.stringify(pglite)});
    const db = await PGlite.create(process.argv[1], { postgresqlconf: ${JSON.stringify(PGLITE_SETTINGS)} });
    await db.close();`;
  try {
    await promisify(execFile)(process.execPath, ['--input-type=module', '-e', source, dataDir], { timeout: 120_000 });
    // initdb writes most of its files 0666 whatever the umask: they are made private before the
    // database opens (a new directory, so there is nothing to tell the operator).
    tighten(dataDir);
  } catch (error) {
    throw new Error(`initialising the embedded database in ${dataDir} failed: ${(error as Error).message.split('\n')[0] ?? ''}`, {
      cause: error,
    });
  }
  return tightened;
}
