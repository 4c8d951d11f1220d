/** SQL of workspace branding and logos (docs/api.md "Branding"). */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import { workspaceLogos, workspaces } from '../db/schema.js';
import type { WorkspacePatch } from './workspaces.repository.js';

/** The branding fields of a workspace as its admins set them (workspaces.repository.ts `updateWorkspace`). */
export type BrandingPatch = Pick<WorkspacePatch, 'brandingDisplayName' | 'brandingAccentColor' | 'brandingFooter'>;

/**
 * Moves the workspace's branding version on (its logo was set or removed), so the next view of a
 * share page cached under the old version renders again. false: no such workspace.
 */
export async function bumpBrandingVersion(db: Db, workspaceId: string): Promise<boolean> {
  const rows = await db
    .update(workspaces)
    .set({ brandingVersion: sql`${workspaces.brandingVersion} + 1` })
    .where(eq(workspaces.id, workspaceId))
    .returning({ id: workspaces.id });
  return rows.length > 0;
}

export type LogoRow = typeof workspaceLogos.$inferSelect;

/** Sets the workspace's logo, replacing any it had. */
export async function upsertLogo(db: Db, row: typeof workspaceLogos.$inferInsert): Promise<void> {
  await db
    .insert(workspaceLogos)
    .values(row)
    .onConflictDoUpdate({
      target: workspaceLogos.workspaceId,
      set: { png: row.png, width: row.width, height: row.height, sha256: row.sha256, updatedAt: row.updatedAt },
    });
}

/** Removes the logo; false when there was none. */
export async function deleteLogo(db: Db, workspaceId: string): Promise<boolean> {
  const rows = await db
    .delete(workspaceLogos)
    .where(eq(workspaceLogos.workspaceId, workspaceId))
    .returning({ id: workspaceLogos.workspaceId });
  return rows.length > 0;
}

/** The logo's bytes and version, for the public logo URL. */
export async function findLogo(db: Db, workspaceId: string): Promise<Pick<LogoRow, 'png' | 'sha256'> | undefined> {
  const [row] = await db
    .select({ png: workspaceLogos.png, sha256: workspaceLogos.sha256 })
    .from(workspaceLogos)
    .where(eq(workspaceLogos.workspaceId, workspaceId));
  return row;
}

export interface BrandingRow {
  displayName: string | null;
  accentColor: string | null;
  footer: string;
  version: number;
  logoPng: Uint8Array | null;
  logoSha256: string | null;
  logoWidth: number | null;
  logoHeight: number | null;
}

const brandingStatement = prepared((db) =>
  db
    .select({
      displayName: workspaces.brandingDisplayName,
      accentColor: workspaces.brandingAccentColor,
      footer: workspaces.brandingFooter,
      version: workspaces.brandingVersion,
      logoPng: workspaceLogos.png,
      logoSha256: workspaceLogos.sha256,
      logoWidth: workspaceLogos.width,
      logoHeight: workspaceLogos.height,
    })
    .from(workspaces)
    .leftJoin(workspaceLogos, eq(workspaceLogos.workspaceId, workspaces.id))
    .where(eq(workspaces.id, sql.placeholder('id')))
    .prepare('branding'),
);

/**
 * A workspace's branding with its logo's bytes, in one statement; undefined: no such workspace.
 * Prepared: every mail and every file of a version reads it.
 */
export async function findBranding(db: Db, workspaceId: string): Promise<BrandingRow | undefined> {
  const [row] = await brandingStatement(db).execute({ id: workspaceId });
  return row;
}
