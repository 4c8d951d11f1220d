/**
 * `npm start` runs the built server with one malloc arena (docs/decisions.md "One malloc arena for
 * the process"), unless the environment says otherwise, and with V8's heaps grown by a fifth at a
 * time (docs/decisions.md "Heaps grown by a fifth at a time"); the bench reads the same script so
 * that it measures what `npm start` runs.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startScriptEnv, startScriptNodeOptions } from '../../bench/server-process.js';

const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };

/**
 * The start script as `sh` runs it (npm runs scripts with `sh -c`), with `node` printing the
 * variable from its environment instead of starting the server.
 */
function arenaSeenByNode(env: NodeJS.ProcessEnv): string {
  const command = scripts.start.replace(
    /\bnode((?: \S+)*) dist\/src\/server\.js$/,
    `"${process.execPath}"$1 -e "process.stdout.write(process.env.MALLOC_ARENA_MAX ?? 'unset')"`,
  );
  return execFileSync('sh', ['-c', command], { env, encoding: 'utf8' });
}

describe('the start script', () => {
  it('starts the built server', () => {
    expect(scripts.start).toMatch(/(^| )node( --[\w-]+=\S+)* dist\/src\/server\.js$/);
  });

  it("grows V8's heaps by a fifth at a time, an option this Node takes", () => {
    expect(startScriptNodeOptions()).toEqual(['--heap-growing-percent=20']);
    // Node refuses an option it does not know before running anything.
    const out = execFileSync(process.execPath, [...startScriptNodeOptions(), '-e', 'process.stdout.write("ran")'], { encoding: 'utf8' });
    expect(out).toBe('ran');
  });

  it('gives the server one malloc arena, or the one the environment names', () => {
    const { MALLOC_ARENA_MAX: _inherited, ...env } = process.env;
    expect(arenaSeenByNode(env)).toBe('1');
    expect(arenaSeenByNode({ ...env, MALLOC_ARENA_MAX: '4' })).toBe('4');
  });

  it('is what the bench starts the server and its memory floor with', () => {
    expect(startScriptEnv({})).toEqual({ MALLOC_ARENA_MAX: '1' });
    expect(startScriptEnv({ MALLOC_ARENA_MAX: '2' })).toEqual({ MALLOC_ARENA_MAX: '2' });
  });
});
