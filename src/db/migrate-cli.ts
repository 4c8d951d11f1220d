/** `npm run migrate`: applies pending migrations to the configured database and exits. */
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from './database.js';

try {
  const config = loadConfig(process.env, 'migrate');
  const database = await openDatabase(config);
  try {
    await database.migrate();
    console.log(`Migrations applied (${database.kind}).`);
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Migration failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
