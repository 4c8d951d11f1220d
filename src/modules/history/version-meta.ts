/**
 * What a version's front matter says about it (its name, template and filters), for version
 * history and diffs (version-diff.ts).
 */
import { parseDocument } from '../../../packages/document/src/index.js';
import { isFilters, type Filters } from '../reports/reports.schemas.js';

/** What a version's front matter says about it; null when it cannot be read. */
export interface VersionMeta {
  name: string;
  templateId: string;
  filters: Filters | null;
}

/** Reads a version's name, template and filters from its front matter (the whole document or just the header). */
export function versionMeta(markdown: string): VersionMeta | null {
  const frontMatter = parseDocument(markdown).frontMatter;
  if (!frontMatter) return null;
  return {
    name: frontMatter.report.name,
    templateId: frontMatter.template.id,
    filters: isFilters(frontMatter.filters) ? frontMatter.filters : null,
  };
}
