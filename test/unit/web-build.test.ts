/**
 * When `npm run dev` and the test suite rebuild the web app (scripts/web-build.ts): whenever a file
 * the build reads is newer than the build, or one was added or removed, and only then.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { webBuildIsCurrent } from '../../scripts/web-build.js';

const T0 = new Date('2026-11-01T00:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

describe('webBuildIsCurrent', () => {
  let root: string;
  /** Writes `path` under the root, dated `minutes` after T0, and dates its directories so too. */
  const file = (path: string, minutes: number) => {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, path);
    utimesSync(full, at(minutes), at(minutes));
  };
  /** Dates every directory of the tree at T0, as an untouched checkout's would be. */
  const settleDirectories = () => {
    for (const dir of [
      'web',
      'web/src',
      'packages',
      'packages/document',
      'packages/document/src',
      'packages/client',
      'packages/client/dist',
      'node_modules',
      'dist',
      'dist/web',
    ]) {
      utimesSync(join(root, dir), T0, T0);
    }
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'chronicle-web-build-'));
    file('web/src/main.tsx', 0);
    file('web/vite.config.ts', 0);
    file('packages/document/src/index.ts', 0);
    file('packages/client/dist/index.js', 0);
    file('package-lock.json', 0);
    file('node_modules/react/index.js', 0);
    file('dist/web/index.html', 10);
    settleDirectories();
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('is current when the build is newer than every source', () => {
    expect(webBuildIsCurrent(root)).toBe(true);
  });

  it('is stale without a build', () => {
    rmSync(join(root, 'dist/web/index.html'));
    expect(webBuildIsCurrent(root)).toBe(false);
  });

  it.each(['web/src/main.tsx', 'web/vite.config.ts', 'packages/document/src/index.ts', 'package-lock.json'])(
    'is stale when %s changed after it',
    (path) => {
      file(path, 20);
      expect(webBuildIsCurrent(root)).toBe(false);
    },
  );

  it('is stale when a source was added or removed after it', () => {
    file('web/src/screen.tsx', 0);
    utimesSync(join(root, 'web/src'), at(20), at(20));
    expect(webBuildIsCurrent(root)).toBe(false);
  });

  it("ignores what the build never reads: installed packages and the packages' own builds", () => {
    file('node_modules/react/index.js', 20);
    file('packages/client/dist/index.js', 20);
    settleDirectories();
    expect(webBuildIsCurrent(root)).toBe(true);
  });
});
