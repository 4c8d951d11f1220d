/** Applies pending migrations to the database the environment names (DATABASE_URL or DATA_DIR), without a server. */
import { loadConfig } from '../config.js';
import { openDatabase } from './database.js';

/** Returns the engine migrated; throws ConfigError for a bad setting. */
export async function runMigrations(env: NodeJS.ProcessEnv = process.env): Promise<'pglite' | 'postgres'> {
  const config = loadConfig(env, 'migrate');
  const database = await openDatabase(config);
  for (const notice of database.notices) console.error(notice);
  try {
    await database.migrate();
    return database.kind;
  } finally {
    await database.close();
  }
}
