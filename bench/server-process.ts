/** The real server (`src/server.ts`) as a child process, for the benchmark: start, watch memory, stop. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export interface Server {
  readonly url: string;
  readonly pid: number;
  /**
   * Resident memory now and at its peak (VmRSS, VmHWM), in MiB; `withFilesPeakMiB`: the peak of the
   * server and its file processes together (src/render/file-pool.ts), sampled every 50 ms.
   */
  memory(): { rssMiB: number; peakMiB: number; withFilesPeakMiB: number };
  /** SIGTERM, then SIGKILL if the process has not exited after `graceMs` (default: wait for it). */
  stop(graceMs?: number): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (typeof address === 'object' && address) resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

function statusKiB(pid: number, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) : 0;
}

/** The resident memory of `pid`'s child processes, in KiB. */
function childrenKiB(pid: number): number {
  let total = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) total += statusKiB(Number(name), 'VmRSS');
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

export async function waitForReady(url: string, child?: ChildProcess): Promise<void> {
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * The environment `npm start` gives the server: package.json's start script sets variables as
 * `NAME=${NAME:-value}` before `node` (glibc reads `MALLOC_ARENA_MAX` when the process starts, so
 * the server cannot set it for itself). A value already in the environment wins, as in the script.
 */
export function startScriptEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
  return Object.fromEntries(
    [...scripts.start.matchAll(/\b(\w+)=\$\{\1:-([^}]*)\}/g)].map(([, name, value]) => [name!, env[name!] ?? value!]),
  );
}

/** The Node options the start script gives the server (`node <options> dist/src/server.js`). */
export function startScriptNodeOptions(): string[] {
  const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
  const options = /\bnode((?: --?[\w-]+(?:=\S+)?)*) dist\/src\/server\.js$/.exec(scripts.start)?.[1];
  if (options === undefined) throw new Error(`the start script does not run node dist/src/server.js: ${scripts.start}`);
  return options.split(' ').filter(Boolean);
}

/**
 * Starts the built server (`node dist/src/server.js` with the start script's options and environment, what
 * `npm start` runs; the bench builds it first) with `env`; resolves once /readyz answers 200. The
 * API rate limit is off: the load generator sends thousands of requests a minute with one token.
 * `cpus` (taskset's list, "0") pins the server to those CPUs.
 */
export async function startServer(env: Record<string, string>, cpus?: string): Promise<Server> {
  const port = await freePort();
  // `cpus` pins the process to those CPUs (taskset replaces itself with node: the pid is the server's).
  const [command, args] = cpus
    ? ['taskset', ['-c', cpus, process.execPath, ...startScriptNodeOptions(), 'dist/src/server.js']]
    : [process.execPath, [...startScriptNodeOptions(), 'dist/src/server.js']];
  const child = spawn(command, args, {
    env: { ...process.env, ...startScriptEnv(), HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', API_RATE_LIMIT: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForReady(url, child);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${stderr}`, { cause: error });
  }
  const pid = child.pid ?? 0;
  let withFilesPeakKiB = 0;
  const sampler = setInterval(() => {
    try {
      withFilesPeakKiB = Math.max(withFilesPeakKiB, statusKiB(pid, 'VmRSS') + childrenKiB(pid));
    } catch {
      // the server has exited
    }
  }, 50);
  sampler.unref();
  child.once('exit', () => {
    clearInterval(sampler);
  });
  return {
    url,
    pid,
    memory: () => {
      const peakKiB = statusKiB(pid, 'VmHWM');
      return {
        rssMiB: Math.round(statusKiB(pid, 'VmRSS') / 1024),
        peakMiB: Math.round(peakKiB / 1024),
        withFilesPeakMiB: Math.round(Math.max(peakKiB, withFilesPeakKiB) / 1024),
      };
    },
    stop: (graceMs?: number) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) {
          resolve();
          return;
        }
        const killer = graceMs === undefined ? null : setTimeout(() => child.kill('SIGKILL'), graceMs);
        child.once('exit', () => {
          if (killer) clearTimeout(killer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
