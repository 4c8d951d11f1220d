/**
 * The embedded database's directory is private (docs/security.md): DATA_DIR is created 0700
 * before the database opens, an existing open one is tightened with one log line, the process's
 * umask stays 077, and a DATA_DIR that cannot be used stops start-up in one line. Slow tier: each
 * case creates an embedded database on disk.
 */
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../helpers/test-app.js';

describe('DATA_DIR', () => {
  const base = mkdtempSync(join(tmpdir(), 'chronicle-datadir-'));
  afterAll(() => {
    rmSync(base, { recursive: true, force: true });
  });

  it('is created 0700 before the database opens', async () => {
    const dataDir = join(base, 'fresh', 'data');
    const app = await buildApp({ config: testConfig({ dataDir, shareKey: null }), logger: false });
    try {
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    } finally {
      await app.close();
    }
  });

  /** Every path under `dir` with its permission bits, symbolic links excluded. */
  function modes(dir: string): Map<string, number> {
    const found = new Map<string, number>();
    const walk = (path: string) => {
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) return;
      found.set(path, stat.mode & 0o7777);
      if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
    };
    walk(dir);
    return found;
  }

  it('makes an existing open directory private, logs one line with the counts, and keeps the umask at 077', async () => {
    const dataDir = mkdtempSync(join(base, 'open-'));
    mkdirSync(join(dataDir, 'old', 'deeper'), { recursive: true });
    writeFileSync(join(dataDir, 'old', 'a'), 'a');
    writeFileSync(join(dataDir, 'old', 'deeper', 'b'), 'b');
    writeFileSync(join(dataDir, 'private'), 'c');
    chmodSync(join(dataDir, 'private'), 0o600);
    chmodSync(join(dataDir, 'old', 'a'), 0o666);
    chmodSync(join(dataDir, 'old', 'deeper', 'b'), 0o644);
    chmodSync(join(dataDir, 'old', 'deeper'), 0o777);
    chmodSync(join(dataDir, 'old'), 0o755);
    chmodSync(dataDir, 0o755);
    // A link is neither followed nor changed: what it points to is not Chronicle's.
    const outside = join(base, `outside-${Date.now()}`);
    writeFileSync(outside, 'x');
    chmodSync(outside, 0o644);
    symlinkSync(outside, join(dataDir, 'link'));

    let log = '';
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        log += String(chunk);
        callback();
      },
    });
    const app = await buildApp({ config: testConfig({ dataDir, shareKey: null }), loggerInstance: pino({ level: 'info' }, stream) });
    try {
      const umask = process.umask(0o077);
      expect(umask).toBe(0o077);
      // Everything now there, the engine's own new files and the share key included, is private.
      for (const [path, mode] of modes(dataDir)) {
        expect({ path, open: mode & 0o7077 }).toEqual({ path, open: 0 });
      }
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dataDir, 'old', 'deeper')).mode & 0o777).toBe(0o700);
      expect(statSync(join(dataDir, 'old', 'a')).mode & 0o777).toBe(0o600);
      expect(statSync(outside).mode & 0o777).toBe(0o644);
      const lines = log.split('\n').filter((line) => line.includes('was open to other users'));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!).msg).toMatch(/made 3 directories 0700 and 2 files 0600/);
    } finally {
      await app.close();
    }

    // The next start finds nothing to change and says nothing.
    log = '';
    const again = await buildApp({ config: testConfig({ dataDir, shareKey: null }), loggerInstance: pino({ level: 'info' }, stream) });
    await again.close();
    expect(log).not.toContain('was open to other users');
  });

  it.runIf(process.getuid?.() === 0)('refuses, in one line, an open file that belongs to another user', async () => {
    const dataDir = mkdtempSync(join(base, 'foreign-'));
    writeFileSync(join(dataDir, 'theirs'), 'x');
    chownSync(join(dataDir, 'theirs'), 4242, 4242);
    chmodSync(join(dataDir, 'theirs'), 0o666);
    const error = await buildApp({ config: testConfig({ dataDir, shareKey: null }), logger: false }).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^DATA_DIR .*theirs belongs to another user \(uid 4242\) and is open to others \(mode 0666\)/);
    expect((error as Error).message).not.toContain('\n');
  });

  it('refuses a DATA_DIR that is a file', async () => {
    const file = join(base, `file-${Date.now()}`);
    writeFileSync(file, 'x');
    const error = await buildApp({ config: testConfig({ dataDir: file, shareKey: null }), logger: false }).catch(
      (e: unknown) => e as Error,
    );
    expect((error as Error).message).toMatch(/^DATA_DIR .* is not a directory\.$/);
  });
});
