import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { onlyRow } from '../db/rows.js';
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

/** Every client of the workspace, archived ones included, newest first (docs/api.md "Conventions"). */
export function listClients(db: Db, workspaceId: string): Promise<ClientRow[]> {
  return db.select().from(clients).where(eq(clients.workspaceId, workspaceId)).orderBy(desc(clients.createdAt), desc(clients.id));
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
