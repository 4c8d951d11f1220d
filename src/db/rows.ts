import { sql, type SQL } from 'drizzle-orm';

/**
 * An instant as the API writes it (`Date.prototype.toISOString`: UTC, milliseconds, `Z`), for a
 * statement that writes its answer's JSON itself. `column` is a column name of the statement, never
 * user input.
 */
export const isoInstant = (column: string): SQL => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** The JSON text of the one row and column a statement that writes its answer returns. */
export function jsonTextOf(result: unknown): string {
  const [row] = rowsOf<{ json: string }>(result);
  if (row === undefined) throw new Error('the statement returned no row');
  return row.json;
}

/** The rows of a raw `db.execute`, whichever driver ran it (node-postgres and PGlite both answer `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return (result as { rows?: T[] }).rows ?? [];
}

/** The one row a statement that always returns one (an INSERT … RETURNING) gave back. */
export function onlyRow<T>(rows: readonly T[]): T {
  const [row] = rows;
  if (row === undefined) throw new Error('the statement returned no row');
  return row;
}
