import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { onlyRow } from '../db/rows.js';
import { templates } from '../db/schema.js';

export type TemplateRow = typeof templates.$inferSelect;

export async function findTemplate(db: Db, id: string): Promise<TemplateRow | undefined> {
  const [row] = await db.select().from(templates).where(eq(templates.id, id));
  return row;
}

/** Newest first, the id breaking ties (docs/api.md "Conventions"). */
export function listTemplates(db: Db, includeDisabled: boolean): Promise<TemplateRow[]> {
  return db
    .select()
    .from(templates)
    .where(includeDisabled ? undefined : eq(templates.enabled, true))
    .orderBy(desc(templates.createdAt), desc(templates.id));
}

export async function insertTemplate(db: Db, row: typeof templates.$inferInsert): Promise<TemplateRow> {
  return onlyRow(await db.insert(templates).values(row).returning());
}

export async function updateTemplate(db: Db, id: string, patch: Partial<typeof templates.$inferInsert>): Promise<TemplateRow | undefined> {
  const [row] = await db.update(templates).set(patch).where(eq(templates.id, id)).returning();
  return row;
}

/** False when there was no such template. */
export async function deleteTemplate(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(templates).where(eq(templates.id, id)).returning({ id: templates.id });
  return rows.length > 0;
}
