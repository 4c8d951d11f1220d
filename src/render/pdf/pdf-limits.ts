/**
 * Bounds of the PDF export (docs/decisions.md "The PDF export"). A version past
 * one of them is refused before any layout work, with an error the caller answers as a 4xx.
 */

/** The largest Markdown (front matter and body, UTF-8 bytes) made into a PDF. */
export const MAX_PDF_MARKDOWN_BYTES = 4 * 1024 * 1024;

/** The most columns a table may have: past this no page can show its cells legibly. */
export const MAX_PDF_TABLE_COLUMNS = 100;

/**
 * The most table cells a document may have. Layout is the cost of a PDF (about 2 ms of CPU per
 * cell on a busy machine; a 5,000-row timesheet is 42,000 cells), so this bounds the time too.
 */
export const MAX_PDF_TABLE_CELLS = 100_000;

/** A document the PDF export refuses to lay out; `limit` names the bound it is past. */
export class PdfTooLargeError extends Error {
  override readonly name = 'PdfTooLargeError';

  constructor(
    readonly limit: 'markdown_bytes' | 'table_columns' | 'table_cells',
    message: string,
  ) {
    super(message);
  }
}
