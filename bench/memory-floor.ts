/**
 * The floor under the server's peak memory: a process that opens the engine as the server opens
 * it (PGlite on its thread, or a node-postgres pool) and makes the bench's largest render with
 * nothing else, the same entries read by one plain query and rendered with the same Timesheet
 * (render-baseline.ts). bench/run.ts starts it as a process of its own, bundled, as the built
 * server runs without a TypeScript loader (which alone takes about 50 MiB); it prints its peak
 * resident size (VmHWM) as one line of JSON.
 *
 * FLOOR_DATABASE_URL (PostgreSQL) or FLOOR_DATA_DIR (PGlite), FLOOR_USER (the render user),
 * FLOOR_RUNS (how many renders, as the bench's server makes of that size).
 */
import { readFileSync } from 'node:fs';
import { openDatabase } from '../src/db/database.js';
import { baselineRender } from './render-baseline.js';

const databaseUrl = process.env.FLOOR_DATABASE_URL || null;
const dataDir = process.env.FLOOR_DATA_DIR || null;
const userId = process.env.FLOOR_USER;
if (!userId || (!databaseUrl && !dataDir)) throw new Error('memory-floor.ts needs FLOOR_USER and FLOOR_DATABASE_URL or FLOOR_DATA_DIR');

const database = await openDatabase({ databaseUrl, dataDir: databaseUrl ? null : dataDir });
// As many renders as the bench's server makes of that size: a heap that grows from one render to the
// next shows here as it does there.
const { entries } = await baselineRender(database, userId, Number(process.env.FLOOR_RUNS) || 1);
await database.close();
const peak = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
process.stdout.write(`${JSON.stringify({ peakMiB: Math.round(Number(peak) / 1024), entries })}\n`);
