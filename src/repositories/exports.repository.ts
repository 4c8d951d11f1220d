/** SQL of exports: a version's stored dataset (docs/exports.md). */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { reportDatasets } from '../db/schema.js';

export interface StoredDataset {
  format: number;
  entryCount: number;
  data: string;
}

/** The dataset stored with a content version; undefined for a version rendered before datasets were kept. */
export async function findDataset(db: Db, contentId: string): Promise<StoredDataset | undefined> {
  const [row] = await db
    .select({ format: reportDatasets.format, entryCount: reportDatasets.entryCount, data: reportDatasets.data })
    .from(reportDatasets)
    .where(eq(reportDatasets.contentId, contentId));
  return row;
}

/** The locale a version was rendered in, as its dataset records it; undefined without a dataset. */
export async function findDatasetLocale(db: Db, contentId: string): Promise<string | undefined> {
  const [row] = await db.select({ locale: reportDatasets.locale }).from(reportDatasets).where(eq(reportDatasets.contentId, contentId));
  return row?.locale;
}
