/**
 * Tests of the web app need it built (dist/web). CI runs `npm run build` first; locally the
 * global setup builds it here when it is missing or older than any source under web/.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { webAppDir } from '../../src/http/web-app.js';

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export function ensureWebBuilt(): void {
  const index = join(webAppDir(), 'index.html');
  if (existsSync(index) && statSync(index).mtimeMs >= Math.max(newestSource('web'), newestSource('src/render'))) return;
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
    stdio: 'inherit',
  });
}
