/**
 * A workspace's branding rules, shared by the server (which enforces them) and the web app (which
 * shows them while one types): the limits of each field and the accent colour's contrast with
 * white, by WCAG 2's relative luminance (docs/api.md "Branding").
 */

export const BRANDING_LIMITS = { displayName: 100, footer: 500 } as const;

/** The least contrast an accent colour must have with white: WCAG AA for normal text. */
export const MIN_ACCENT_CONTRAST = 4.5;

/** `#rrggbb`, either case. */
export const ACCENT_COLOR_PATTERN = '^#[0-9A-Fa-f]{6}$';

/** A colour channel (0-255) as WCAG linearises it. */
function linear(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** The relative luminance of `#rrggbb` (0 for black, 1 for white); NaN for anything else. */
export function relativeLuminance(hex: string): number {
  if (!new RegExp(ACCENT_COLOR_PATTERN).test(hex)) return Number.NaN;
  const [r, g, b] = [1, 3, 5].map((i) => linear(Number.parseInt(hex.slice(i, i + 2), 16))) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of `#rrggbb` with white, from 1 (white itself) to 21 (black). */
export function contrastWithWhite(hex: string): number {
  return 1.05 / (relativeLuminance(hex) + 0.05);
}

/** Whether white text on the colour, and the colour on white, are readable (at least 4.5:1). */
export function isReadableAccent(hex: string): boolean {
  return contrastWithWhite(hex) >= MIN_ACCENT_CONTRAST;
}
