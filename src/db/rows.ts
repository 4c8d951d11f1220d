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
