/**
 * What a version's front matter says about it (its name, template and filters), for version
 * history and diffs (version-diff.ts).
 */
import { isFilters, type Filters } from '../reports/reports.schemas.js';
import { frontMatterMeta, type FrontMatterMeta } from './front-matter-meta.js';

/** What a version's front matter says about it; null when it cannot be read. */
export interface VersionMeta {
  name: string;
  templateId: string;
  filters: Filters | null;
}

/** A front matter's fields, the filters kept only when they have the stored filters' shape. */
export function checkedMeta(meta: FrontMatterMeta | null): VersionMeta | null {
  if (!meta) return null;
  return { name: meta.name, templateId: meta.templateId, filters: isFilters(meta.filters) ? meta.filters : null };
}

/** Reads a version's name, template and filters from its front matter (the whole document or just the header). */
export function versionMeta(markdown: string): VersionMeta | null {
  return checkedMeta(frontMatterMeta(markdown));
}
