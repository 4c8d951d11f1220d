/**
 * The web app's build (dist/web), made only when it is missing or older than what it is built
 * from: `npm run dev` runs this before it starts the server, and the test suite's global setup
 * calls `ensureWebBuilt`. `npm run build:web` (and `npm run build`) always build.
 *
 *   tsx scripts/web-build.ts    build when stale, else say it is up to date
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository: the sources below and dist/web, where the server looks for the app when run from source. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What the build reads: the app (its config included) and the packages it imports; the lock file for Vite itself. */
const SOURCES = ['web', 'packages', 'package-lock.json'];
/** Output and installed code inside those, never a source. */
const SKIPPED = new Set(['node_modules', 'dist']);

/** The latest change under `path`: any file's, or a directory's (a file added, renamed or removed). */
function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (!SKIPPED.has(entry.name)) newest = Math.max(newest, newestChange(join(path, entry.name)));
  }
  return newest;
}

/** Whether `root`'s dist/web is there and newer than every source under `root`. */
export function webBuildIsCurrent(root = ROOT): boolean {
  const index = join(root, 'dist', 'web', 'index.html');
  return existsSync(index) && statSync(index).mtimeMs >= Math.max(...SOURCES.map((source) => newestChange(join(root, source))));
}

/** Builds the web app unless it is current; true when it built. */
export function ensureWebBuilt(): boolean {
  if (webBuildIsCurrent()) return false;
  // NODE_ENV as `npm run build:web` has it, whoever calls: Vite builds for the NODE_ENV it finds, and
  // under Vitest (NODE_ENV=test) it built React's development bundle, 434 KB instead of 234, with
  // its checks and twice-run effects, which the browser tests then exercised and `npm run dev` served.
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!ensureWebBuilt()) process.stdout.write('The web app (dist/web) is up to date with web/ and packages/.\n');
}
