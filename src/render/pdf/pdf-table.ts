import type { Alignment, Content, TableLayout, TableCell } from './pdf-doc.js';
import { COLORS, TABLE_SIZES } from './pdf-theme.js';
import { advanceEm } from './pdf-fonts.js';
import type { InlineRun } from './pdf-inline.js';
import { plainText } from './pdf-inline.js';

/** What a row of a Markdown table is (packages/document markdown.ts: the total-row convention). */
export type RowKind = 'header' | 'body' | 'total' | 'grand';

export interface TableCellInput {
  runs: InlineRun[];
  /** The alignment the Markdown asked for (`:--:`), if any. */
  align: 'left' | 'center' | 'right' | null;
}

export interface TableInput {
  rows: { kind: RowKind; cells: TableCellInput[] }[];
}

/** About the average advance of Roboto's letters, in em: a text column is never narrower than three of them. */
const AVERAGE_EM = 0.53;
const CELL_PADDING_X = 4;
const CELL_PADDING_Y = 2.5;
/** A cell's longest line and word are counted up to these widths (in em): a huge cell wraps, it does not claim the page. */
const MAX_LINE_EM = 60 * AVERAGE_EM;
const MAX_WORD_EM = 22 * AVERAGE_EM;
/** Points a cell's measured text is given beyond its width, for kerning and rounding. */
const SLACK = 1.5;

const DATE_LIKE = /^\d{4}-\d{2}-\d{2}/;
/** Currency signs, ISO codes and units that may stand next to a number ("€1,234.50", "7h 05m", "120.00 USD/h", "12.5%"). */
const NUMBER_DECORATION = /\p{Sc}|\b[A-Z]{3}\b|\/h\b|(?<![^\d\s])(?:h|m|min|hrs?)\b|%/gu;
const NUMBER_BODY = /^[\s()+\-−\d.,:'’\u00a0\u202f]*\d[\s()+\-−\d.,:'’\u00a0\u202f]*$/u;

/** Whether a cell reads as a number, an amount or a duration, which read best right-aligned. */
export function isNumericText(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === '' || DATE_LIKE.test(trimmed)) return false;
  return NUMBER_BODY.test(trimmed.replace(NUMBER_DECORATION, ''));
}

interface ColumnStats {
  numeric: boolean;
  /** Longest line, in em of the table's font size (capped). */
  line: number;
  /** Longest word, in em (capped). */
  word: number;
}

/** A cell's longest line and longest word, in em, each character at the weight its run or row is set in. */
function measureCell(runs: readonly InlineRun[], rowBold: boolean): { line: number; word: number } {
  let line = 0;
  let word = 0;
  let currentLine = 0;
  let currentWord = 0;
  for (const run of runs) {
    const bold = rowBold || run.bold === true;
    for (const char of run.text) {
      if (char === '\n') {
        line = Math.max(line, currentLine);
        currentLine = 0;
      }
      if (/\s/u.test(char)) {
        word = Math.max(word, currentWord);
        currentWord = 0;
        if (char !== '\n') currentLine += advanceEm(char.codePointAt(0) ?? 0, bold);
      } else {
        const em = advanceEm(char.codePointAt(0) ?? 0, bold);
        currentLine += em;
        currentWord += em;
      }
    }
  }
  return { line: Math.max(line, currentLine), word: Math.max(word, currentWord) };
}

/** Rows pdfTable sets bold whatever their runs say. */
const BOLD_ROWS: ReadonlySet<RowKind> = new Set(['header', 'grand']);

function columnStats(table: TableInput, columns: number): ColumnStats[] {
  const stats: ColumnStats[] = [];
  for (let c = 0; c < columns; c++) {
    let numericCells = 0;
    let textCells = 0;
    let line = 0;
    let word = 0;
    for (const row of table.rows) {
      const runs = row.cells[c]?.runs ?? [];
      const measured = measureCell(runs, BOLD_ROWS.has(row.kind));
      line = Math.max(line, Math.min(MAX_LINE_EM, measured.line));
      word = Math.max(word, Math.min(MAX_WORD_EM, measured.word));
      const text = plainText(runs);
      // Labels of total rows ("Total") and the header say nothing about the column's values.
      if (row.kind !== 'body' || text.trim() === '') continue;
      if (isNumericText(text)) numericCells += 1;
      else textCells += 1;
    }
    stats.push({ numeric: numericCells > 0 && textCells === 0, line, word });
  }
  return stats;
}

/**
 * Column widths that fill the text column: each column gets at least its longest word (a numeric
 * column its whole value, so amounts never wrap), and the rest of the width goes to the columns
 * with longer text. Returns null when even the smallest size cannot give every column its minimum.
 */
function fitWidths(stats: ColumnStats[], fontSize: number, available: number): number[] | null {
  const pad = 2 * CELL_PADDING_X + SLACK;
  const natural = stats.map((s) => s.line * fontSize + pad);
  const minimum = stats.map((s, i) => (s.numeric ? (natural[i] ?? 0) : Math.max(3 * AVERAGE_EM, s.word) * fontSize + pad));
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  const minSum = sum(minimum);
  if (minSum > available) return null;
  const naturalSum = sum(natural);
  if (naturalSum <= available) {
    // Everything fits on one line: the spare width goes to the text columns.
    const textNatural = sum(natural.filter((_, i) => stats[i]?.numeric !== true));
    const spare = available - naturalSum;
    return natural.map((w, i) => {
      if (textNatural === 0) return w + (spare * w) / naturalSum;
      return stats[i]?.numeric === true ? w : w + (spare * w) / textNatural;
    });
  }
  const wants = natural.map((w, i) => Math.max(0, w - (minimum[i] ?? 0)));
  const wantSum = sum(wants);
  return minimum.map((m, i) => m + ((available - minSum) * (wants[i] ?? 0)) / (wantSum || 1));
}

/**
 * The largest size at which every cell fits on one line, down to 7 pt (6 pt print reads poorly;
 * only a table of more than twelve columns gets it); failing that, a size by column count (wide
 * tables such as a nine-column timesheet read better small than wrapped), never below the size at
 * which each column still holds its longest word.
 */
function chooseSize(stats: ColumnStats[], available: number): { fontSize: number; widths: number[] | null } {
  const preferred = stats.length <= 5 ? 9 : stats.length <= 8 ? 8 : stats.length <= 12 ? 7 : 6;
  for (const size of TABLE_SIZES) {
    if (size < Math.min(7, preferred)) break;
    const natural = stats.reduce((sum, s) => sum + s.line * size + 2 * CELL_PADDING_X + SLACK, 0);
    if (natural <= available) return { fontSize: size, widths: fitWidths(stats, size, available) };
  }
  for (const size of TABLE_SIZES) {
    if (size > preferred) continue;
    const widths = fitWidths(stats, size, available);
    if (widths) return { fontSize: size, widths };
  }
  return { fontSize: TABLE_SIZES[TABLE_SIZES.length - 1] ?? 6, widths: null };
}

/**
 * pdfmake keeps an unbreakable block to its first page and drops the rest, so a row taller than
 * about half a page (a cell with pages of text) must be allowed to break: past this estimated
 * height a table gives up `dontBreakRows` rather than lose text.
 */
const MAX_UNBROKEN_ROW_HEIGHT = 300;
const LINE_HEIGHT = 1.2;

/** A generous guess of a row's height: wide glyphs, every line full. */
function rowHeight(row: TableInput['rows'][number], widths: number[], fontSize: number): number {
  let tallest = 0;
  row.cells.forEach((cell, c) => {
    const inner = Math.max(1, (widths[c] ?? 1) - 2 * CELL_PADDING_X);
    const perLine = Math.max(1, Math.floor(inner / (fontSize * 0.6)));
    const lines = plainText(cell.runs)
      .split('\n')
      .reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / perLine)), 0);
    tallest = Math.max(tallest, lines);
  });
  return tallest * fontSize * LINE_HEIGHT + 2 * CELL_PADDING_Y;
}

const FILL: Record<RowKind, string | null> = { header: null, body: null, total: COLORS.total, grand: COLORS.grandTotal };

/**
 * A Markdown table as a pdfmake table: the header row repeated on every page, no row split across
 * pages, alignment from the Markdown or right for numeric columns, totals bold and shaded (the
 * grand total darker, under a heavier rule), subtle zebra rows, and a font size and column widths
 * that fit the page width.
 */
export function pdfTable(table: TableInput, contentWidth: number, accent: string): Content {
  const columns = Math.max(0, ...table.rows.map((r) => r.cells.length));
  const stats = columnStats(table, columns);
  const chosen = chooseSize(stats, contentWidth);
  const fontSize = chosen.fontSize;
  let widths = chosen.widths;
  // Too many columns for any size: equal shares, and the text wraps inside them.
  widths ??= stats.map(() => contentWidth / Math.max(1, columns));
  // pdfmake adds the cell padding to a fixed width; the widths above include it.
  const innerWidths = widths.map((w) => Math.max(1, w - 2 * CELL_PADDING_X));

  const kinds = table.rows.map((r) => r.kind);
  const tallRows = table.rows.map((row) => rowHeight(row, widths, fontSize) > MAX_UNBROKEN_ROW_HEIGHT);
  const keepRows = !tallRows.includes(true);
  const headerRows = kinds[0] === 'header' && tallRows[0] !== true ? 1 : 0;
  const fills: (string | null)[] = [];
  let stripe = 0;
  for (const kind of kinds) {
    if (kind === 'body') {
      fills.push(stripe % 2 === 1 ? COLORS.zebra : null);
      stripe += 1;
    } else {
      fills.push(FILL[kind]);
      stripe = 0;
    }
  }

  const body: TableCell[][] = table.rows.map((row) => {
    const cells: TableCell[] = [];
    for (let c = 0; c < columns; c++) {
      const cell = row.cells[c];
      const align: Alignment = cell?.align ?? (stats[c]?.numeric === true ? 'right' : 'left');
      const runs = cell?.runs ?? [];
      // A lone unmarked run is passed as a string: pdfmake lays those out markedly faster.
      const only = runs.length === 1 ? runs[0] : undefined;
      const plain = only !== undefined && Object.keys(only).length === 1;
      cells.push({
        text: runs.length === 0 ? '' : plain ? only.text : runs,
        alignment: align,
        ...(row.kind === 'header' ? { bold: true, color: COLORS.text } : {}),
        ...(row.kind === 'grand' ? { bold: true } : {}),
      });
    }
    return cells;
  });

  const layout: TableLayout = {
    hLineWidth: (i, node) => {
      const rows = node.table.body.length;
      if (i === 0) return 0;
      if (i === 1 && kinds[0] === 'header') return 1;
      const below = kinds[i];
      if (below === 'grand') return 1;
      if (below === 'total') return 0.5;
      if (i === rows) return kinds[rows - 1] === 'grand' ? 1 : 0.5;
      return 0;
    },
    vLineWidth: () => 0,
    hLineColor: (i) => (i === 1 && kinds[0] === 'header' ? accent : kinds[i] === 'grand' ? COLORS.text : COLORS.rule),
    fillColor: (rowIndex) => fills[rowIndex] ?? null,
    paddingLeft: () => CELL_PADDING_X,
    paddingRight: () => CELL_PADDING_X,
    paddingTop: () => CELL_PADDING_Y,
    paddingBottom: () => CELL_PADDING_Y,
  };

  const node: Content = {
    table: {
      headerRows,
      keepWithHeaderRows: keepRows ? headerRows : 0,
      dontBreakRows: keepRows,
      widths: innerWidths,
      body,
    },
    layout,
    fontSize,
    margin: [0, 2, 0, 10],
  };
  return node;
}
