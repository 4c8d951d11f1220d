/**
 * Source comments cite the documentation by section (`docs/api.md "Time entries"`), and the
 * documents link to each other's sections (`[…](api.md#time-entries)`): every cited section must
 * be a heading of the document it names, so a renamed heading cannot leave its citations behind.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The headings of a Markdown file, outside code fences. */
function headingsOf(file: string): string[] {
  const headings: string[] = [];
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading?.[1]) headings.push(heading[1]);
  }
  return headings;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

/**
 * `docs/<file>.md "<Section>"` citations in a source file, a comment's line breaks joined first:
 * one or more quoted sections after the file name, optionally in parentheses and separated by
 * commas or "and".
 */
function citationsIn(source: string): { doc: string; section: string }[] {
  const text = source.replace(/\n\s*(?:\*|\/\/)\s?/g, ' ');
  const found: { doc: string; section: string }[] = [];
  for (const match of text.matchAll(/docs\/([\w-]+\.md),?\s*\(?((?:"[^"\n]+"(?:\s*(?:,|and)\s*)?)+)/g)) {
    for (const section of (match[2] ?? '').matchAll(/"([^"]+)"/g)) found.push({ doc: match[1] ?? '', section: section[1] ?? '' });
  }
  return found;
}

describe('documentation citations', () => {
  it('cite only sections that exist (src/)', () => {
    const docs = join(ROOT, 'docs');
    const headings = new Map(filesUnder(docs, '.md').map((file) => [relative(docs, file), headingsOf(file)]));
    const missing: string[] = [];
    let count = 0;
    for (const file of filesUnder(join(ROOT, 'src'), '.ts')) {
      for (const { doc, section } of citationsIn(readFileSync(file, 'utf8'))) {
        count += 1;
        if (!headings.get(doc)?.includes(section)) missing.push(`${relative(ROOT, file)}: docs/${doc} "${section}"`);
      }
    }
    expect(count).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });

  it('link only to anchors that exist (README, CONTRIBUTING, docs/)', () => {
    const markdown = [join(ROOT, 'README.md'), join(ROOT, 'CONTRIBUTING.md'), ...filesUnder(join(ROOT, 'docs'), '.md')];
    const missing: string[] = [];
    let count = 0;
    for (const file of markdown) {
      for (const [, target = '', anchor = ''] of readFileSync(file, 'utf8').matchAll(/\]\(([^)\s#]*)#([^)\s]+)\)/g)) {
        if (target.includes('://') || (target !== '' && !target.endsWith('.md'))) continue;
        count += 1;
        const linked = target === '' ? file : resolve(dirname(file), target);
        const anchors = markdown.includes(linked) ? headingsOf(linked).map(anchorOf) : [];
        if (!anchors.includes(anchor)) missing.push(`${relative(ROOT, file)}: ${target}#${anchor}`);
      }
    }
    expect(count).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});
