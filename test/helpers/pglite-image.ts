/**
 * The embedded data directory's images (scripts/pglite-images.ts) in test processes: the global
 * setup makes them once per run and provides their paths; a test process reads an image's bytes
 * once. A server process whose test is not about initialising a data directory starts on one
 * unpacked from an image (`dataDirFromImage`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_SETTINGS, tighten } from '../../src/db/pglite-setup.js';
import type { ImageKind, ImagePaths } from '../../scripts/pglite-images.js';
import { perProcess } from './per-process.js';

export { ensurePgliteImages, type ImageKind } from '../../scripts/pglite-images.js';

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
