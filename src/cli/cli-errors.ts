/**
 * What the CLI's exit codes mean (docs/cli.md "Exit codes"): 0 done; 1 the work failed (the server
 * refused, rows were invalid, the server could not be reached); 2 the command was used wrongly
 * (unknown option, missing argument or setting, unreadable file).
 */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** A mistake in how the command was called; exits with 2. */
export class UsageError extends Error {}

/** The work could not be done, already explained on stderr; exits with 1. */
export class FailedError extends Error {}
