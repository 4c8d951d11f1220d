/**
 * Images of an embedded data directory for the tests: `blank` (initialised, nothing else) and
 * `migrated` (every migration applied). Initialising PGlite takes four to five seconds of CPU;
 * starting from an image about one. The global setup makes them once and keeps them in
 * node_modules/.cache/chronicle/pglite/ under a hash of what they are made of (PGlite's version,
 * its settings, the migrations), so every later run starts at once; test processes read them by
 * the paths it provides. A server process whose test is not about initialising a data directory
 * starts on one unpacked from an image (`dataDirFromImage`).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_FOLDER } from '../../src/db/database.js';
import { PGLITE_SETTINGS, tighten } from '../../src/db/pglite-setup.js';
import { perProcess } from './per-process.js';

export type ImageKind = 'blank' | 'migrated';
export type ImagePaths = Record<ImageKind, string>;

const CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/chronicle/pglite/', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** What the images are made of: a change to any of it makes new ones. */
function recipeHash(): string {
  const hash = createHash('sha256');
  // The package exports no package.json: it is read beside the entry point (dist/).
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const pglite = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  hash.update(pglite.version).update(JSON.stringify(PGLITE_SETTINGS));
  for (const file of filesUnder(MIGRATIONS_FOLDER)) hash.update(file.slice(MIGRATIONS_FOLDER.length)).update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

async function dump(pg: PGlite): Promise<Buffer> {
  return Buffer.from(await (await pg.dumpDataDir('gzip')).arrayBuffer());
}

/** The images' paths, made first when missing (the global setup calls this once per run). */
export async function ensurePgliteImages(): Promise<ImagePaths> {
  const hash = recipeHash();
  const dir = join(CACHE_DIR, hash);
  const paths: ImagePaths = { blank: join(dir, 'blank.tar.gz'), migrated: join(dir, 'migrated.tar.gz') };
  if (existsSync(dir)) return paths;
  const staging = join(CACHE_DIR, `.staging-${process.pid}`);
  mkdirSync(staging, { recursive: true });
  const pg = await PGlite.create({ postgresqlconf: PGLITE_SETTINGS });
  try {
    writeFileSync(join(staging, 'blank.tar.gz'), await dump(pg));
    await migrate(drizzle(pg), { migrationsFolder: MIGRATIONS_FOLDER });
    writeFileSync(join(staging, 'migrated.tar.gz'), await dump(pg));
  } finally {
    await pg.close();
  }
  // Images of other migrations are of no further use.
  for (const entry of readdirSync(CACHE_DIR)) {
    if (!entry.startsWith('.') && entry !== hash) rmSync(join(CACHE_DIR, entry), { recursive: true, force: true });
  }
  try {
    renameSync(staging, dir);
  } catch (error) {
    // Another run made the same images first.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(dir)) throw error;
  }
  return paths;
}

/** An image's bytes, read once per test process. */
export function pgliteImage(kind: ImageKind): Uint8Array {
  const images = perProcess('pgliteImages', (): Partial<Record<ImageKind, Uint8Array>> => ({}));
  return (images[kind] ??= readFileSync(inject('pgliteImages')[kind]));
}

/** A PGlite of this test process's own in memory, started from an image. */
export function pgliteFromImage(kind: ImageKind): Promise<PGlite> {
  return PGlite.create({ postgresqlconf: PGLITE_SETTINGS, loadDataDir: new Blob([pgliteImage(kind)]) });
}

/**
 * A new DATA_DIR (under the system's temporary directory, its name starting with `prefix`) holding
 * the image: a server started on it opens it at once instead of initialising one (initdb, four to
 * five seconds of CPU in a child process). Its files are private, as the server's own would be,
 * so it starts without a line about tightening them.
 */
export function dataDirFromImage(kind: ImageKind, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  // The archive's names start with '/', which tar takes off (and says so on stderr, kept here).
  execFileSync('tar', ['-xzf', inject('pgliteImages')[kind], '-C', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  tighten(dir);
  return dir;
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteImages: ImagePaths;
  }
}
