import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { isoInstant, jsonTextOf, onlyRow } from '../db/rows.js';
import { clients } from '../db/schema.js';

export type ClientRow = typeof clients.$inferSelect;

/** The unique index that keeps client names unique per workspace, ignoring case. */
export const CLIENT_NAME_KEY = 'clients_workspace_name_lower_key';

/** The database refuses a name already taken in the workspace (CLIENT_NAME_KEY), however many insert at once. */
export async function insertClient(db: Db, row: typeof clients.$inferInsert): Promise<ClientRow> {
  return onlyRow(await db.insert(clients).values(row).returning());
}

export async function findClient(db: Db, id: string): Promise<ClientRow | undefined> {
  const [row] = await db.select().from(clients).where(eq(clients.id, id));
  return row;
}

/**
 * Every client of the workspace, archived ones included, newest first (docs/api.md "Conventions"),
 * as the JSON array the API answers, written by the statement: a workspace's list has no bound but
 * its data, and decoding, mapping and serialising thousands of rows would hold the event loop.
 */
export async function clientsJson(db: Db, workspaceId: string): Promise<string> {
  const result = await db.execute(sql`
    select coalesce(json_agg((select row_to_json(r) from (select c.id, c.workspace_id as "workspaceId", c.name, c.archived,
        ${isoInstant('c.created_at')} as "createdAt", ${isoInstant('c.updated_at')} as "updatedAt") r)
      order by c.created_at desc, c.id desc), '[]')::text as json
    from ${clients} c where c.workspace_id = ${workspaceId}`);
  return jsonTextOf(result);
}

export async function updateClient(
  db: Db,
  id: string,
  patch: Partial<Pick<typeof clients.$inferInsert, 'name' | 'archived' | 'updatedAt'>>,
): Promise<ClientRow | undefined> {
  const [row] = await db.update(clients).set(patch).where(eq(clients.id, id)).returning();
  return row;
}

/** Deletes the client; its projects keep going without one (the foreign key sets their client_id to null). */
export async function deleteClient(db: Db, id: string): Promise<void> {
  await db.delete(clients).where(eq(clients.id, id));
}
