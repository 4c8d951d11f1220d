import type { Db } from './database.js';

/**
 * A statement prepared once per database handle and reused: Drizzle builds its SQL once, and on
 * PostgreSQL the server parses and plans it once per connection (a named prepared statement).
 * `build` must give the same SQL text every time; values go in through `sql.placeholder`.
 */
export function prepared<T>(build: (db: Db) => T): (db: Db) => T {
  const statements = new WeakMap<Db, T>();
  return (db) => {
    let statement = statements.get(db);
    if (statement === undefined) {
      statement = build(db);
      statements.set(db, statement);
    }
    return statement;
  };
}
