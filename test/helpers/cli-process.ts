/**
 * Runs the `chronicle` command against a server the test started: in this process through
 * `runCommand` (src/cli/run.ts, everything but the few lines of main.ts), or as a child process
 * from the sources (src/cli/main.ts, bundled or through tsx) where the process itself is what a test
 * proves (exit codes, the package bin). Waits for the command to finish, never for the clock.
 */
import { spawn } from 'node:child_process';
import { runCommand } from '../../src/cli/run.js';
import { entryArgs } from './server-process.js';
import type { TestContext } from './test-app.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What the command sees of the environment: none of the test process's Chronicle settings. */
const cleanEnv = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
  ...process.env,
  CHRONICLE_URL: '',
  CHRONICLE_TOKEN: '',
  DATABASE_URL: '',
  ...env,
});

/** The command in this process: the same program, exit codes and output as the process. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCommand(['node', 'chronicle', ...args], {
    env: cleanEnv(env),
    out: (line) => (stdout += `${line}\n`),
    err: (line) => (stderr += `${line}\n`),
    interactive: false,
  });
  return { code, stdout, stderr };
}

/** The command as a child process: `entry` is a TypeScript source (server-process.ts `entryArgs`) or a script. */
export function runCliProcess(args: string[], env: NodeJS.ProcessEnv = {}, entry = 'src/cli/main.ts'): Promise<CliResult> {
  const child = spawn(process.execPath, entry.endsWith('.ts') ? [...entryArgs(entry), ...args] : [entry, ...args], {
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code, stdout, stderr });
    });
  });
}

/** Makes the test app listen on a free local port and returns its base URL. */
export async function listen(t: TestContext): Promise<string> {
  return t.app.listen({ port: 0, host: '127.0.0.1' });
}
