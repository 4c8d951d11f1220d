/**
 * Importing time from other trackers' detailed-report exports (Toggl Track, Clockify): reading
 * the CSV (read-export.ts, formats.ts), matching it to a workspace and sending it in batches
 * (plan.ts), and comparing its rates and amounts with Chronicle's (rate-book.ts, rate-check.ts).
 * Pure TypeScript over Chronicle's typed client: the CLI and the web app both import it.
 */
export * from './formats.js';
export * from './plan.js';
export * from './read-export.js';
export * from './rate-book.js';
export * from './rate-check.js';
