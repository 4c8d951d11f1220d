/** `npm run migrate`: applies pending migrations to the configured database and exits. */
import { ConfigError } from '../config.js';
import { runMigrations } from './run-migrations.js';

try {
  console.log(`Migrations applied (${await runMigrations()}).`);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Migration failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
