/** `chronicle`: the process around the command line (run.ts), writing to stdout and stderr. */
import { runCommand } from './run.js';

process.exitCode = await runCommand(process.argv, {
  env: process.env,
  out: (line: string) => process.stdout.write(`${line}\n`),
  err: (line: string) => process.stderr.write(`${line}\n`),
  interactive: process.stderr.isTTY,
});
