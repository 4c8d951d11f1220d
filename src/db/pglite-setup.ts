/**
 * How the embedded engine is started, and kept small.
 *
 * - `shared_buffers` is 32 MB instead of PostgreSQL's 128 MB: the data files are read through the
 *   operating system's page cache anyway, and the embedded engine serves one process.
 * - A new data directory is initialised (initdb) by a short-lived child process: initdb's own
 *   WebAssembly instance takes several hundred MB, which would otherwise stay resident in the
 *   server (a worker thread's memory is not all given back either).
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export const PGLITE_SETTINGS = ['shared_buffers = 32MB'];

/**
 * A new data directory is created 0700 before anything is written into it; an existing one that
 * others may write to is refused (docs/operations.md "Embedded engine"): whoever can write there
 * can replace the database or the share key.
 */
export function prepareDataDir(dataDir: string): void {
  if (!existsSync(dataDir)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    return;
  }
  const mode = statSync(dataDir).mode & 0o777;
  if (mode & 0o022) {
    throw new Error(
      `DATA_DIR ${dataDir} is group- or world-writable (mode ${mode.toString(8).padStart(4, '0')}); run chmod 700 ${dataDir} and start again.`,
    );
  }
}

/** Creates and initialises `dataDir` if it holds no database yet, in a child process. */
export async function initialiseDataDir(dataDir: string): Promise<void> {
  prepareDataDir(dataDir);
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  const pglite = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;
  const source = `
    const { PGlite } = await import(${JSON.stringify(pglite)});
    const db = await PGlite.create(process.argv[1], { postgresqlconf: ${JSON.stringify(PGLITE_SETTINGS)} });
    await db.close();`;
  try {
    await promisify(execFile)(process.execPath, ['--input-type=module', '-e', source, dataDir], { timeout: 120_000 });
  } catch (error) {
    throw new Error(`initialising the embedded database in ${dataDir} failed: ${(error as Error).message.split('\n')[0] ?? ''}`, {
      cause: error,
    });
  }
}
