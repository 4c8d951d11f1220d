/**
 * Images of an embedded data directory: `blank` (initialised, nothing else) and `migrated` (every
 * migration applied). Initialising PGlite takes four to five seconds of CPU; starting from an image
 * about one. They are made once and kept in node_modules/.cache/chronicle/pglite/ under a hash of
 * what they are made of (PGlite's version, its settings, the migrations), so every later run starts
 * at once. The tests' global setup makes them (test/helpers/pglite-image.ts reads them in test
 * processes), and so does `npm run client:check`, which runs before the tests in `npm run check`
 * and in CI and needs a migrated database only to build the app whose OpenAPI document it checks.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_FOLDER } from '../src/db/database.js';
import { PGLITE_SETTINGS } from '../src/db/pglite-setup.js';

export type ImageKind = 'blank' | 'migrated';
export type ImagePaths = Record<ImageKind, string>;

const CACHE_DIR = fileURLToPath(new URL('../node_modules/.cache/chronicle/pglite/', import.meta.url));

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

/** The images' paths, made first when missing. */
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
