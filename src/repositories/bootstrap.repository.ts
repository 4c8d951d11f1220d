import { eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { apiTokens, instanceState, templates } from '../db/schema.js';

/** Claims a one-off task; true for exactly one caller, even across processes. */
export async function claimOnce(db: Db, key: string, now: Date): Promise<boolean> {
  const rows = await db
    .insert(instanceState)
    .values({ key, value: true, updatedAt: now })
    .onConflictDoNothing()
    .returning({ key: instanceState.key });
  return rows.length > 0;
}

export async function insertTemplates(db: Db, rows: (typeof templates.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await db.insert(templates).values(rows).onConflictDoNothing();
}

export interface BuiltInTemplateText {
  id: string;
  builtInKey: string | null;
  body: string;
  nameTemplate: string;
}

/** The templates seeded as built-ins that still exist, with the text an upgrade may replace. */
export async function listBuiltInTemplates(db: Db): Promise<BuiltInTemplateText[]> {
  return db
    .select({ id: templates.id, builtInKey: templates.builtInKey, body: templates.body, nameTemplate: templates.nameTemplate })
    .from(templates)
    .where(isNotNull(templates.builtInKey));
}

export async function updateTemplateText(db: Db, id: string, text: { body?: string; nameTemplate?: string }, now: Date): Promise<void> {
  await db
    .update(templates)
    .set({ ...text, updatedAt: now })
    .where(eq(templates.id, id));
}

/**
 * Revokes every live bootstrap token except the one with `keepHash` (none: all of them), with the
 * tokens each of them created, to any depth (docs/api.md "Configuration and start-up").
 */
export async function revokeBootstrapTokens(db: Db, now: Date, keepHash: string | null): Promise<void> {
  await db.execute(sql`
    with recursive tree(id) as (
      select id from api_tokens
      where bootstrap and revoked_at is null ${keepHash === null ? sql`` : sql`and token_hash <> ${keepHash}`}
      union
      select t.id from api_tokens t join tree on t.created_by_token_id = tree.id
    )
    update api_tokens set revoked_at = ${now.toISOString()}::timestamptz
    where id in (select id from tree) and revoked_at is null`);
}

/** Makes `tokenHash` a live read+write bootstrap token of `userId`, revoking any earlier one. */
export async function upsertBootstrapToken(db: Db, userId: string, tokenHash: string, id: string, now: Date): Promise<void> {
  await revokeBootstrapTokens(db, now, tokenHash);
  await db
    .insert(apiTokens)
    .values({ id, userId, name: 'bootstrap', tokenHash, scopes: ['read', 'write'], bootstrap: true, createdAt: now })
    .onConflictDoUpdate({
      target: apiTokens.tokenHash,
      set: { userId, scopes: ['read', 'write'], bootstrap: true, revokedAt: null, expiresAt: null },
    });
}
