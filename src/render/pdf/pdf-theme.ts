/** Colours and sizes of the PDF export, in one place so the pages read as one design. */
export const COLORS = {
  text: '#1f2933',
  muted: '#616e7c',
  rule: '#cbd2d9',
  faintRule: '#e4e7eb',
  zebra: '#f7f8fa',
  total: '#eceff3',
  grandTotal: '#dde2e8',
  codeBackground: '#f3f4f6',
  quoteBar: '#9aa5b1',
  link: '#1d4ed8',
} as const;

export const DEFAULT_ACCENT = '#2b5797';

/** Body text size; tables start a point smaller and shrink further when they are wide. */
export const BODY_SIZE = 10;
export const TABLE_SIZES = [9, 8, 7, 6] as const;
export const CODE_SIZE = 8.5;

/** Body headings (the title block owns the report's name, so `#` reads as the first level below it). */
export const HEADING_SIZES: Record<number, number> = { 1: 15, 2: 13, 3: 11.5, 4: 10.5, 5: 10, 6: 10 };

export const LOGO_BOX: [number, number] = [150, 40];

/** Left, top, right, bottom, in points: about 17 mm at the sides, room for the running header and footer. */
export const PAGE_MARGINS: [number, number, number, number] = [48, 58, 48, 58];

export const FONT_FAMILY = 'Roboto';

/** A "#rrggbb" accent, or the default when the value is missing or malformed. */
export function accentOf(color: string | null | undefined): string {
  return typeof color === 'string' && /^#[0-9a-f]{6}$/i.test(color) ? color.toLowerCase() : DEFAULT_ACCENT;
}
