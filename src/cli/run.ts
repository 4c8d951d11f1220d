/**
 * One run of the `chronicle` command, independent of the process: parses `argv`, does the work
 * through `io`, and turns every outcome into one of the exit codes of cli-errors.ts, printing one
 * line per error, never a stack trace. main.ts is the process around it; tests call it in-process.
 */
import { CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { ChronicleError } from './api-client.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, FailedError, UsageError } from './cli-errors.js';
import { buildProgram, type ProgramIo } from './program.js';

/** `argv` as Node gives it: the executable and the script first, then the arguments. */
export async function runCommand(argv: readonly string[], io: ProgramIo): Promise<number> {
  try {
    await buildProgram(io).parseAsync([...argv]);
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
