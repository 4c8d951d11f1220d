/**
 * What a version's front matter holds about it, its filters not yet checked: what a render worker
 * reads for a long version list (render-pool.ts `versionMeta`). No schema module is imported here,
 * so a render worker starts as quickly as before; version-meta.ts checks the filters' shape.
 */
import { parseDocument } from '../../../packages/document/src/index.js';

/** A front matter's name, template and filters (any shape); null when it cannot be read. */
export interface FrontMatterMeta {
  name: string;
  templateId: string;
  filters: unknown;
}

/** Reads a version's name, template and filters from its front matter (the whole document or just the header). */
export function frontMatterMeta(markdown: string): FrontMatterMeta | null {
  const frontMatter = parseDocument(markdown).frontMatter;
  if (!frontMatter) return null;
  return { name: frontMatter.report.name, templateId: frontMatter.template.id, filters: frontMatter.filters };
}
