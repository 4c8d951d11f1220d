import type { Token } from 'markdown-it';
import { COLORS } from './pdf-theme.js';

/**
 * One run of inline text with its marks. The text is always a plain string from the document:
 * pdfmake reads no syntax inside strings, and every property here is set by this module, so
 * nothing an author writes becomes an instruction to the PDF.
 */
export interface InlineRun {
  text: string;
  bold?: boolean;
  italics?: boolean;
  link?: string;
  color?: string;
  decoration?: 'underline' | 'lineThrough';
  background?: string;
}

/** Schemes a reader of the PDF may follow (docs/decisions.md "The PDF export"); fragments lead nowhere in a PDF. */
const PDF_HREF = /^(?:https?:|mailto:)/i;

/** The destination of a link, or null when it is not one a reader may follow. */
export function safeHref(href: string | null | undefined): string | null {
  const value = (href ?? '').trim();
  return PDF_HREF.test(value) ? value : null;
}

/** An inline token's children as runs, merging the marks that are open around each piece of text. */
export function inlineRuns(inline: Token | undefined): InlineRun[] {
  const runs: InlineRun[] = [];
  let bold = 0;
  let italics = 0;
  let strike = 0;
  const links: (string | null)[] = [];
  const push = (text: string, extra: Partial<InlineRun> = {}): void => {
    if (text === '') return;
    const link = links.findLast((l) => l !== null) ?? null;
    const run: InlineRun = { text };
    if (bold > 0) run.bold = true;
    if (italics > 0) run.italics = true;
    if (strike > 0) run.decoration = 'lineThrough';
    if (link) {
      run.link = link;
      run.color = COLORS.link;
      run.decoration = 'underline';
    }
    runs.push({ ...run, ...extra });
  };
  for (const child of inline?.children ?? []) {
    switch (child.type) {
      case 'text':
        push(child.content);
        break;
      case 'code_inline':
        push(child.content, { background: COLORS.codeBackground });
        break;
      case 'softbreak':
        push(' ');
        break;
      case 'hardbreak':
        push('\n');
        break;
      case 'strong_open':
        bold += 1;
        break;
      case 'strong_close':
        bold -= 1;
        break;
      case 'em_open':
        italics += 1;
        break;
      case 'em_close':
        italics -= 1;
        break;
      case 's_open':
        strike += 1;
        break;
      case 's_close':
        strike -= 1;
        break;
      case 'link_open':
        links.push(safeHref(String(child.attrGet('href') ?? '')));
        break;
      case 'link_close':
        links.pop();
        break;
      case 'image':
        // As on the share page: never fetched, its alt text carries the meaning.
        italics += 1;
        push(plainText(inlineRuns(child)));
        italics -= 1;
        break;
      default:
        if (child.content !== '') push(child.content);
    }
  }
  return runs;
}

export function plainText(runs: readonly InlineRun[]): string {
  return runs.map((r) => r.text).join('');
}
