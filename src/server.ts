/** Process entry: configuration, the app, listen, and a graceful close on SIGTERM/SIGINT. */
// First: sets libuv's pool size before anything can start the pool.
import './lib/thread-pool.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError, loadConfig, startupWarnings, type Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { connectionFailureReason } from './db/errors.js';
import type { App } from './http/types.js';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

/** Set by a signal; read where start-up may have been waiting. */
const state = { stopping: false };
let app: App | null = null;

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (state.stopping) return;
    state.stopping = true;
    if (!app) process.exit(0);
    app.log.info({ signal }, 'shutting down');
    // close() stops accepting, lets in-flight requests finish, then runs onClose (database).
    const timer = setTimeout(() => process.exit(1), 15_000);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app?.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

for (const warning of startupWarnings(config)) console.error(`Warning: ${warning}`);
if (!config.databaseUrl && config.dataDir && !existsSync(join(config.dataDir, 'PG_VERSION'))) {
  console.error(`First start: creating the embedded database in ${config.dataDir} (this takes a few seconds).`);
}

/**
 * The database opens while the rest of Chronicle loads: the embedded engine starts in a thread of
 * its own (its WebAssembly and data directory take about a second), PostgreSQL's pool connects,
 * and this thread meanwhile loads the application's modules (about a second more). A failure is
 * the first attempt's, handled in `start`.
 */
const opening: Promise<Database> = openDatabase(config);
// Awaited in `start`; until then its failure must not count as unhandled.
void opening.catch(() => undefined);
const { buildApp } = await import('./app.js');

/**
 * Starts the app, waiting for the database when it cannot be reached yet (a server starting
 * together with its database is normal); any other start-up failure ends the process. The first
 * attempt takes the database already opening; each retry opens it again.
 */
async function start(): Promise<App> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await buildApp({ config, jobs: true, opening: attempt === 1 ? opening : openDatabase(config) });
    } catch (error) {
      // A server may start before its database (or before the database is created, or while its
      // credentials are being provisioned): it says why on each retry.
      const reason = config.databaseUrl ? connectionFailureReason(error) : null;
      if (!reason) {
        console.error(`Start-up failed: ${(error as Error).message.split('\n')[0]}`);
        process.exit(1);
      }
      const delay = Math.min(30, 2 ** Math.min(attempt - 1, 5));
      console.error(`Cannot reach the database (${reason}); retrying in ${delay} s (attempt ${attempt}).`);
      await sleep(delay * 1000);
      if (state.stopping) process.exit(0);
    }
  }
}

app = await start();
if (state.stopping) {
  await app.close();
  process.exit(0);
}
if (app.generatedAdminToken) {
  // Printed exactly once: the database now has a user, so later starts never generate another.
  process.stdout.write(
    `\nFirst start: created the instance admin (admin@localhost).\nIts API token, shown only this once:\n\n  ${app.generatedAdminToken}\n\nUse it as: Authorization: Bearer <token>\n` +
      (app.adminPasswordLink
        ? `\nTo sign in to the web app, open this one-time link and choose a password (valid until ${app.adminPasswordLink.expiresAt}):\n\n  ${app.adminPasswordLink.url}\n\n`
        : '\n'),
  );
}

try {
  await app.listen({ host: config.host, port: config.port });
} catch (error) {
  app.log.error({ err: error }, 'could not listen');
  await app.close();
  process.exit(1);
}
