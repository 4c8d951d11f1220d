/**
 * `chronicle`: the process around the command line. Turns every outcome into one of the exit codes
 * of cli-errors.ts and prints one line per error, never a stack trace.
 */
import { CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { ChronicleError } from './api-client.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, FailedError, UsageError } from './cli-errors.js';
import { buildProgram } from './program.js';

const io = {
  env: process.env,
  out: (line: string) => process.stdout.write(`${line}\n`),
  err: (line: string) => process.stderr.write(`${line}\n`),
  interactive: process.stderr.isTTY,
};

async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram(io).parseAsync(argv);
    return EXIT_OK;
  } catch (error) {
    // Commander has already printed its own message (or the help).
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    if (error instanceof UsageError || error instanceof ConfigError) {
      io.err(`chronicle: ${error.message}`);
      return EXIT_USAGE;
    }
    if (error instanceof ChronicleError) {
      io.err(`chronicle: ${error.message}`);
      for (const e of error.errors) io.err(`  ${e.path}: ${e.message}`);
      return EXIT_FAILED;
    }
    if (error instanceof FailedError) {
      if (error.message) io.err(`chronicle: ${error.message}`);
      return EXIT_FAILED;
    }
    io.err(`chronicle: ${(error as Error).message}`);
    return EXIT_FAILED;
  }
}

process.exitCode = await main(process.argv);
