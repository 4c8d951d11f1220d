/**
 * Runs the `chronicle` command as a child process from the sources (`node --import tsx
 * src/cli/main.ts`), against a server the test started. Waits for the process to exit, never for
 * the clock.
 */
import { spawn } from 'node:child_process';
import type { TestContext } from './test-app.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, entry = 'src/cli/main.ts'): Promise<CliResult> {
  const child = spawn(process.execPath, entry.endsWith('.ts') ? ['--import', 'tsx', entry, ...args] : [entry, ...args], {
    env: { ...process.env, CHRONICLE_URL: '', CHRONICLE_TOKEN: '', DATABASE_URL: '', ...env },
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
