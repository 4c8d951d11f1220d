import type { Token } from 'markdown-it';
import type { Content, TableLayout } from './pdf-doc.js';
import { inlineRuns } from './pdf-inline.js';
import { MAX_PDF_TABLE_CELLS, MAX_PDF_TABLE_COLUMNS, PdfTooLargeError } from './pdf-limits.js';
import type { RowKind, TableCellInput, TableInput } from './pdf-table.js';
import { pdfTable } from './pdf-table.js';
import { BODY_SIZE, CODE_SIZE, COLORS, HEADING_SIZES } from './pdf-theme.js';
import { parseChart } from '../../../packages/document/src/index.js';

/** Turns a ```chart fence into a standalone SVG document, or null to show the fence as code. */
export type ChartSvg = (info: string, body: string) => string | null;

export interface BlockOptions {
  contentWidth: number;
  accent: string;
  chartSvg?: ChartSvg | undefined;
}

/** Lists and quotes nest visually this deep; deeper ones keep their text without more indent, so the text column never shrinks to nothing. */
const MAX_INDENT_DEPTH = 6;
/** The tallest a chart may be drawn, in points, so one chart never takes more than about half a page. */
const MAX_CHART_HEIGHT = 360;

const CODE_LAYOUT: TableLayout = {
  hLineWidth: () => 0,
  vLineWidth: () => 0,
  fillColor: () => COLORS.codeBackground,
  paddingLeft: () => 8,
  paddingRight: () => 8,
  paddingTop: () => 6,
  paddingBottom: () => 6,
};

const QUOTE_LAYOUT: TableLayout = {
  hLineWidth: () => 0,
  vLineWidth: (i) => (i === 0 ? 2 : 0),
  vLineColor: () => COLORS.quoteBar,
  paddingLeft: () => 10,
  paddingRight: () => 0,
  paddingTop: () => 1,
  paddingBottom: () => 1,
};

/** A cursor over markdown-it's flat token stream, read as nested blocks. */
class Blocks {
  private i = 0;
  private depth = 0;
  private cells = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly options: BlockOptions,
  ) {}

  /** Blocks until the token of type `close` (consumed) or the end. */
  read(close: string | null): Content[] {
    const out: Content[] = [];
    while (this.i < this.tokens.length) {
      const token = this.tokens[this.i];
      if (!token) break;
      if (close !== null && token.type === close) {
        this.i += 1;
        return out;
      }
      const block = this.block(token);
      if (block !== null) out.push(block);
    }
    return out;
  }

  private block(token: Token): Content | null {
    switch (token.type) {
      case 'heading_open':
        return this.heading(token);
      case 'paragraph_open': {
        const inline = this.tokens[this.i + 1];
        this.i += 3;
        // A tight list's paragraphs are hidden in HTML: no space between its items.
        return { text: inlineRuns(inline), margin: [0, 0, 0, token.hidden ? 1 : 6] };
      }
      case 'bullet_list_open':
      case 'ordered_list_open':
        return this.list(token);
      case 'blockquote_open':
        return this.quote();
      case 'fence':
      case 'code_block':
        this.i += 1;
        return this.code(token);
      case 'hr':
        this.i += 1;
        return {
          canvas: [{ type: 'line', x1: 0, y1: 0, x2: this.options.contentWidth, y2: 0, lineWidth: 0.5, lineColor: COLORS.rule }],
          margin: [0, 6, 0, 10],
        };
      case 'table_open':
        return this.table();
      default:
        // html_block never appears (raw HTML is off); anything unknown is skipped, not guessed at.
        this.i += 1;
        return null;
    }
  }

  private heading(token: Token): Content {
    const inline = this.tokens[this.i + 1];
    this.i += 3;
    const level = Math.min(6, Math.max(1, Number(token.tag.slice(1)) || 1));
    return {
      text: inlineRuns(inline),
      fontSize: HEADING_SIZES[level] ?? 10,
      bold: true,
      color: level === 1 ? this.options.accent : COLORS.text,
      margin: [0, level <= 2 ? 10 : 6, 0, 4],
      headlineLevel: level,
    };
  }

  private list(open: Token): Content {
    const ordered = open.type === 'ordered_list_open';
    const close = ordered ? 'ordered_list_close' : 'bullet_list_close';
    const start = Number(open.attrGet('start') ?? 1);
    this.i += 1;
    this.depth += 1;
    const items: Content[] = [];
    while (this.i < this.tokens.length && this.tokens[this.i]?.type !== close) {
      if (this.tokens[this.i]?.type !== 'list_item_open') {
        this.i += 1;
        continue;
      }
      this.i += 1;
      const blocks = this.read('list_item_close');
      items.push(blocks.length === 1 && blocks[0] !== undefined ? blocks[0] : { stack: blocks });
    }
    this.i += 1;
    this.depth -= 1;
    if (this.depth >= MAX_INDENT_DEPTH) return { stack: items };
    const margin: [number, number, number, number] = [0, 0, 0, this.depth === 0 ? 6 : 0];
    return ordered ? { ol: items, start: Number.isSafeInteger(start) ? start : 1, margin } : { ul: items, margin };
  }

  private quote(): Content {
    this.i += 1;
    this.depth += 1;
    const inner = this.read('blockquote_close');
    this.depth -= 1;
    if (this.depth >= MAX_INDENT_DEPTH) return { stack: inner };
    return {
      table: { widths: ['*'], body: [[{ stack: inner, color: COLORS.muted, italics: true }]] },
      layout: QUOTE_LAYOUT,
      margin: [0, 0, 0, 6],
    };
  }

  private code(token: Token): Content {
    const info = token.info.trim();
    const body = token.content.replace(/\n$/, '');
    if (token.type === 'fence' && /^chart(?:\s|$)/.test(info) && this.options.chartSvg) {
      const svg = this.options.chartSvg(info, body);
      if (svg !== null && /^\s*(?:<\?xml[^>]*>\s*)?<svg[\s>]/.test(svg)) {
        const drawing: Content = {
          svg,
          fit: [this.options.contentWidth, MAX_CHART_HEIGHT],
          margin: [0, 4, 0, 10],
          // An <image> inside the SVG would be read from a path or URL; charts have none, so none is opened.
          options: { imageCallback: () => '', warningCallback: () => undefined },
        };
        // The chart's title as text, as the share page's caption: searchable, and kept with its drawing.
        const title = parseChart(body)?.title;
        if (!title) return drawing;
        return {
          stack: [{ text: title, bold: true, fontSize: BODY_SIZE, color: COLORS.text, margin: [0, 6, 0, 0] }, drawing],
          unbreakable: true,
        };
      }
    }
    return {
      table: {
        widths: ['*'],
        body: [[{ text: body === '' ? ' ' : body, fontSize: CODE_SIZE, preserveLeadingSpaces: true, color: COLORS.text }]],
      },
      layout: CODE_LAYOUT,
      margin: [0, 0, 0, 8],
    };
  }

  private table(): Content {
    const rows: TableInput['rows'] = [];
    let current: { kind: RowKind; cells: TableCellInput[] } | null = null;
    let inHead = false;
    for (this.i += 1; this.i < this.tokens.length; this.i += 1) {
      const token = this.tokens[this.i];
      if (!token || token.type === 'table_close') break;
      switch (token.type) {
        case 'thead_open':
          inHead = true;
          break;
        case 'thead_close':
          inHead = false;
          break;
        case 'tr_open': {
          const cls = String(token.attrGet('class') ?? '');
          const kind: RowKind = inHead ? 'header' : cls.includes('grand-total') ? 'grand' : cls.includes('total') ? 'total' : 'body';
          current = { kind, cells: [] };
          rows.push(current);
          break;
        }
        case 'th_open':
        case 'td_open': {
          if (current && current.cells.length >= MAX_PDF_TABLE_COLUMNS) {
            throw new PdfTooLargeError(
              'table_columns',
              `A table has more than ${MAX_PDF_TABLE_COLUMNS} columns, too many to lay out on a page.`,
            );
          }
          this.cells += 1;
          if (this.cells > MAX_PDF_TABLE_CELLS) {
            throw new PdfTooLargeError(
              'table_cells',
              `The document's tables have more than ${MAX_PDF_TABLE_CELLS} cells, too many for one PDF.`,
            );
          }
          const align = /text-align:(left|center|right)/.exec(String(token.attrGet('style') ?? ''))?.[1];
          current?.cells.push({ runs: inlineRuns(this.tokens[this.i + 1]), align: (align as TableCellInput['align']) ?? null });
          break;
        }
        default:
          break;
      }
    }
    this.i += 1;
    return pdfTable({ rows }, this.options.contentWidth, this.options.accent);
  }
}

/** The body of a document (markdown-it tokens) as pdfmake content. */
export function blocksToPdf(tokens: Token[], options: BlockOptions): Content[] {
  return new Blocks(tokens, options).read(null);
}
