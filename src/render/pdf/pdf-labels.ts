import { documentLabels, type DocumentLabels } from '../document-labels.js';

/**
 * The words a PDF prints around the document (the title block's labels and the footer), in the
 * report's locale, by its language (document-labels.ts, shared with the share page).
 * Japanese and Korean need a fallback font (pdf-fonts.ts): where the PDF has none that draws
 * them, the labels are English, as labels printed as empty boxes would be worse. The document's
 * own text is the template's.
 */
export type PdfLabels = Pick<DocumentLabels, 'period' | 'owner' | 'version' | 'generated' | 'stamp' | 'page'>;

/** Every word a set of labels prints. */
const wordsOf = (labels: PdfLabels): string =>
  [labels.period, labels.owner, labels.version, labels.generated, labels.stamp(1, ''), labels.page(1, 1)].join(' ');

/**
 * The labels for `locale`'s language, or English where there are none or where `drawable` (can
 * the PDF's fonts draw this text?) says the language's words would not print.
 */
export function pdfLabels(locale: string, drawable: (text: string) => boolean = () => true): PdfLabels {
  const labels = documentLabels(locale);
  return drawable(wordsOf(labels)) ? labels : documentLabels('en');
}
