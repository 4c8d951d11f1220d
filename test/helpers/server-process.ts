/**
 * The real server as a child process (src/server.ts, bundled or through tsx), for tests of what only
 * a process shows: the environment, the log on stdout, signals. Waiting is on output, never on
 * the clock: a test that hangs is stopped by its own timeout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { inject, onTestFinished } from 'vitest';

export interface ServerProcess {
  readonly child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves once the output contains `text` (or matches it); rejects if the process exits first. */
  waitFor(text: string | RegExp): Promise<void>;
  /** The exit code. */
  readonly exited: Promise<number | null>;
}

/**
 * How Node runs a TypeScript entry: its bundle where the global setup made one (global-setup.ts
 * `processBundles`), else through tsx.
 */
export function entryArgs(script: string): string[] {
  const bundle = inject('processBundles')[script];
  return bundle ? [bundle] : ['--import', 'tsx', script];
}

/**
 * Starts `script` (default: the server); `args` follow the script, `nodeArgs` (Node's own options)
 * precede it. Called in a test: the process is killed when the test ends, if it is still running.
 */
export function startServerProcess(
  env: NodeJS.ProcessEnv,
  script = 'src/server.ts',
  args: readonly string[] = [],
  nodeArgs: readonly string[] = [],
): ServerProcess {
  const child = spawn(process.execPath, [...nodeArgs, ...entryArgs(script), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A test that fails before it stops its process does not leave it running (with its engine and
  // data directory) after the run: it ends with the test, whatever the test's outcome.
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let out = '';
  const waiters = new Set<() => void>();
  const append = (chunk: Buffer) => {
    out += chunk.toString();
    for (const waiter of waiters) waiter();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  let exitedFlag = false;
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      exitedFlag = true;
      for (const waiter of waiters) waiter();
      resolve(code);
    });
  });
  const has = (text: string | RegExp) => (typeof text === 'string' ? out.includes(text) : text.test(out));
  return {
    child,
    output: () => out,
    exited,
    waitFor: (text) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (has(text)) {
            waiters.delete(check);
            resolve();
          } else if (exitedFlag) {
            waiters.delete(check);
            reject(new Error(`the server exited before printing ${String(text)}:\n${out.slice(-2000)}`));
          }
        };
        waiters.add(check);
        check();
      }),
  };
}

/** A TCP port nobody listens on right now. */
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
