/**
 * With TEST_DATABASE_URL set, the suite runs on PostgreSQL: this creates one migrated template
 * database for the run (a name of its own, so parallel runs never meet) and drops everything the
 * run created at the end. Without it, every worker uses an in-memory PGlite started from the migrated
 * image (pglite-image.ts), which this makes when it is missing.
 * Either way, the web app is built first if it is missing or stale (scripts/web-build.ts).
 */
import type { TestProject } from 'vitest/node';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { bundleEntry } from '../../src/lib/worker-thread.js';
import { openDatabase } from '../../src/db/database.js';
import { ensureWebBuilt } from '../../scripts/web-build.js';
import { ensurePgliteImages } from './pglite-image.js';

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The TypeScript entries tests start as processes of their own (server-process.ts, cli-process.ts). */
const PROCESS_ENTRIES = ['src/server.ts', 'src/cli/main.ts', 'scripts/demo.ts'];

/**
 * Each process entry as a bundle Node runs directly (worker-thread.ts `bundleEntry`): through
 * tsx, a server process spent about 4 s of CPU loading its modules, bundled 1.7 s. Only the slow
 * tier starts such processes.
 */
async function processBundles(): Promise<Record<string, string>> {
  if (process.env.TEST_TIER && process.env.TEST_TIER !== 'slow') return {};
  const bundles: Record<string, string> = {};
  for (const entry of PROCESS_ENTRIES) {
    bundles[entry] = fileURLToPath(await bundleEntry(new URL(`../../${entry}`, import.meta.url)));
  }
  return bundles;
}

export default async function setup(project: TestProject) {
  ensureWebBuilt();
  // Embedded databases start from images whatever the run's engine: the engine's own tests use them.
  project.provide('pgliteImages', await ensurePgliteImages());
  project.provide('processBundles', await processBundles());
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) {
    project.provide('pgTemplate', null);
    return;
  }
  const runId = `chronicle_test_${Date.now().toString(36)}_${process.pid}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database "${runId}"`);
  const database = await openDatabase({ databaseUrl: withDatabase(baseUrl, runId), dataDir: null });
  await database.migrate();
  await database.close();
  project.provide('pgTemplate', { baseUrl, runId });

  return async () => {
    const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [`${runId}%`]);
    for (const { datname } of rows) {
      await admin.query(`drop database if exists "${datname}" with (force)`);
    }
    await admin.end();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate: { baseUrl: string; runId: string } | null;
    /** Bundles of the process entries, by their source path (empty outside the slow tier). */
    processBundles: Record<string, string>;
  }
}
