/**
 * The part of pdfmake's document definition Chronicle builds, typed here rather than with
 * @types/pdfmake: those declarations pull the DOM library into the whole server's types.
 */

export type Alignment = 'left' | 'right' | 'center' | 'justify';
export type Margins = [number, number, number, number];
export type Size = number | 'auto' | '*';

/** Marks a node or run may carry; every value is set by the PDF module, never read from a document. */
export interface TextStyle {
  bold?: boolean;
  italics?: boolean;
  fontSize?: number;
  color?: string;
  alignment?: Alignment;
  characterSpacing?: number;
  preserveLeadingSpaces?: boolean;
}

export interface TextRun extends TextStyle {
  text: string;
  link?: string;
  decoration?: 'underline' | 'lineThrough';
  background?: string;
}

interface Node extends TextStyle {
  margin?: Margins;
  width?: Size;
  headlineLevel?: number;
}

export interface TableLayout {
  hLineWidth?: (i: number, node: { table: { body: unknown[] } }) => number;
  vLineWidth?: (i: number) => number;
  hLineColor?: (i: number) => string;
  vLineColor?: (i: number) => string;
  fillColor?: (rowIndex: number) => string | null;
  paddingLeft?: () => number;
  paddingRight?: () => number;
  paddingTop?: () => number;
  paddingBottom?: () => number;
}

export interface CanvasLine {
  type: 'line';
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  lineWidth: number;
  lineColor: string;
}

export type TableCell = Content;

/** Always a node (never a bare string, whose `bold` would be String.prototype's). */
export type Content =
  | (Node & { text: string | TextRun[] })
  | (Node & { stack: Content[]; unbreakable?: boolean })
  | (Node & { columns: Content[]; columnGap?: number })
  | (Node & { ul: Content[] })
  | (Node & { ol: Content[]; start?: number })
  | (Node & {
      table: { headerRows?: number; keepWithHeaderRows?: number; dontBreakRows?: boolean; widths: Size[]; body: TableCell[][] };
      layout?: TableLayout;
    })
  | (Node & { canvas: CanvasLine[] })
  | (Node & { image: string; fit?: [number, number] })
  | (Node & { svg: string; fit?: [number, number]; options?: Record<string, unknown> });

export interface DocDefinition {
  pageSize: 'A4' | 'LETTER';
  pageMargins: Margins;
  language: string;
  info: { title: string; author: string; subject: string; creator: string; producer: string; creationDate: Date; modDate: Date };
  images: Record<string, string>;
  defaultStyle: TextStyle & { font: string; lineHeight?: number };
  header: (currentPage: number, pageCount: number) => Content | null;
  footer: (currentPage: number, pageCount: number) => Content | null;
  content: Content[];
}
