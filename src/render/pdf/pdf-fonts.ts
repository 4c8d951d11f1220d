/**
 * The PDF's fonts (docs/decisions.md "A fallback font for what Roboto lacks"): Roboto as pdfmake
 * ships it (Latin, Greek, Cyrillic), and a fallback font for the characters Roboto has no glyph
 * for (Chinese and Japanese with Droid Sans Fallback, Korean with Nanum Gothic), found on the
 * system or named by PDF_FALLBACK_FONT. Text is split into runs after the document is laid out in
 * pdfmake's terms: a run of characters Roboto lacks is set in the first fallback that has them;
 * everything else stays in Roboto.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { escapeXml } from '../../../packages/document/src/index.js';

/** Roboto as pdfmake ships it; its "bold" is Roboto Medium. */
const ROBOTO_DIR = path.join(path.dirname(createRequire(import.meta.url).resolve('pdfmake/package.json')), 'fonts', 'Roboto');
export const ROBOTO_FILES = {
  normal: path.join(ROBOTO_DIR, 'Roboto-Regular.ttf'),
  bold: path.join(ROBOTO_DIR, 'Roboto-Medium.ttf'),
  italics: path.join(ROBOTO_DIR, 'Roboto-Italic.ttf'),
  bolditalics: path.join(ROBOTO_DIR, 'Roboto-MediumItalic.ttf'),
};

/**
 * Where `auto` looks, in order: Droid Sans Fallback (Chinese, Japanese, some Korean) as Debian and
 * Ubuntu (fonts-droid-fallback) and Fedora install it, and Nanum Gothic (all of Korean) as Debian
 * and Ubuntu do (fonts-nanum). Each one installed is used.
 */
export const FALLBACK_CANDIDATES = [
  ['/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf', '/usr/share/fonts/google-droid-sans-fonts/DroidSansFallbackFull.ttf'],
  ['/usr/share/fonts/truetype/nanum/NanumGothic.ttf', '/usr/share/fonts/nanum/NanumGothic.ttf'],
] as const;

/**
 * PDF_FALLBACK_FONT as files: `none` is none, `auto` each candidate installed, and anything else a
 * comma-separated list of TrueType or OpenType files, each of which must exist and be a font, or
 * the server does not start.
 */
export function resolveFallbackFonts(setting: string, exists: (file: string) => boolean = existsSync): string[] {
  if (setting === 'none') return [];
  if (setting === 'auto') return FALLBACK_CANDIDATES.flatMap((places) => places.find((file) => exists(file)) ?? []);
  return setting.split(',').map((part) => {
    const file = part.trim();
    if (!exists(file)) throw new Error(`PDF_FALLBACK_FONT names ${file}, which does not exist.`);
    try {
      glyphsOf(file);
    } catch (error) {
      throw new Error(`PDF_FALLBACK_FONT names ${file}, which is not a TrueType or OpenType font: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return file;
  });
}

interface Glyphs {
  has(codePoint: number): boolean;
}

type Fontkit = typeof import('fontkit');
let loadedFontkit: Fontkit | null = null;

/**
 * fontkit, loaded on first use (the render workers' PDFs, or a font file PDF_FALLBACK_FONT names):
 * the server's own thread only looks for the fallback files, and fontkit with its decompressors
 * took about a tenth of a second of every start. The same build pdfkit loads.
 */
function fontkit(): Fontkit {
  loadedFontkit ??= createRequire(import.meta.url)('fontkit') as Fontkit;
  return loadedFontkit;
}

const glyphSets = new Map<string, Glyphs>();

/** Which characters a font file has glyphs for, read once per file. */
function glyphsOf(file: string): Glyphs {
  const kept = glyphSets.get(file);
  if (kept) return kept;
  const opened = fontkit().openSync(file);
  if (!('hasGlyphForCodePoint' in opened)) throw new Error('a font collection, not one font');
  const known = new Map<number, boolean>();
  const glyphs: Glyphs = {
    has(codePoint) {
      let found = known.get(codePoint);
      if (found === undefined) {
        found = opened.hasGlyphForCodePoint(codePoint);
        known.set(codePoint, found);
      }
      return found;
    },
  };
  glyphSets.set(file, glyphs);
  return glyphs;
}

const advanceTables = new Map<string, (codePoint: number) => number>();

/** A font file's advance width per character, in em, read once per file and character. */
function advancesOf(file: string): (codePoint: number) => number {
  const kept = advanceTables.get(file);
  if (kept) return kept;
  const opened = fontkit().openSync(file);
  if (!('glyphForCodePoint' in opened)) throw new Error('a font collection, not one font');
  const known = new Map<number, number>();
  const advance = (codePoint: number): number => {
    let em = known.get(codePoint);
    if (em === undefined) {
      // A character Roboto lacks is set by a fallback, whose glyphs (Chinese, Japanese, Korean) are a full em wide.
      em = opened.hasGlyphForCodePoint(codePoint) ? opened.glyphForCodePoint(codePoint).advanceWidth / opened.unitsPerEm : 1;
      known.set(codePoint, em);
    }
    return em;
  };
  advanceTables.set(file, advance);
  return advance;
}

/**
 * How wide a character is set in the PDF's text, in em: Roboto's advance (Roboto Medium's when
 * bold), a full em for what a fallback sets. A text's width is the sum of its characters' advances
 * but for kerning, which moves a pair by a small fraction of an em; measurers leave a little slack.
 */
export function advanceEm(codePoint: number, bold: boolean): number {
  return advancesOf(bold ? ROBOTO_FILES.bold : ROBOTO_FILES.normal)(codePoint);
}

/** Text Roboto draws whole, known without a look-up: spaces, and Latin with its extensions. */
const COMMON = /^[\s\u0020-\u024f]*$/u;

/** A run of text: in Roboto, or in a fallback's family. */
type Run = string | { text: string; font: string };

/** A fallback font as the runs use it. */
export interface Fallback {
  file: string;
  /** The family pdfmake knows it by. */
  family: string;
}

interface FallbackGlyphs {
  family: string;
  glyphs: Glyphs;
  /** Has every Hangul syllable: Korean goes to such a font first, so a word is never set in two. */
  allHangul: boolean;
}

const isHangul = (codePoint: number) =>
  (codePoint >= 0xac00 && codePoint <= 0xd7a3) ||
  (codePoint >= 0x1100 && codePoint <= 0x11ff) ||
  (codePoint >= 0x3130 && codePoint <= 0x318f);

/** The family to set a character in: null for Roboto (it has it, or no fallback does). */
function familyFor(codePoint: number, main: Glyphs, fallbacks: readonly FallbackGlyphs[]): string | null {
  if (main.has(codePoint)) return null;
  if (isHangul(codePoint)) {
    const whole = fallbacks.find((f) => f.allHangul && f.glyphs.has(codePoint));
    if (whole) return whole.family;
  }
  return fallbacks.find((f) => f.glyphs.has(codePoint))?.family ?? null;
}

/** A text's runs: strings in Roboto, `{ text, font }` objects in a fallback; the text itself when no character needs one. */
function runsOf(text: string, main: Glyphs, fallbacks: readonly FallbackGlyphs[]): string | Run[] {
  if (COMMON.test(text)) return text;
  const runs: Run[] = [];
  let current = '';
  let family: string | null = null;
  for (const char of text) {
    // Spaces stay in the run they are in.
    if (!/\s/u.test(char)) {
      const wanted = familyFor(char.codePointAt(0) ?? 0, main, fallbacks);
      if (wanted !== family && current !== '') {
        runs.push(family === null ? current : { text: current, font: family });
        current = '';
      }
      family = wanted;
    }
    current += char;
  }
  if (current !== '') runs.push(family === null ? current : { text: current, font: family });
  return runs.length === 1 && typeof runs[0] === 'string' ? runs[0] : runs;
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decodeXml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|apos|#(\d+)|#x([0-9a-f]+));/gi, (entity, name: string, dec?: string, hex?: string) =>
    dec ? String.fromCodePoint(Number(dec)) : hex ? String.fromCodePoint(parseInt(hex, 16)) : (XML_ENTITIES[name.toLowerCase()] ?? entity),
  );

/**
 * A drawing's labels with every run Roboto lacks in a `<tspan>` of a fallback's family (pdfmake
 * gives an SVG's text the registered font its `font-family` names, else Roboto). Only `<text>`
 * elements holding plain text are looked at: the charts' labels are nothing else.
 */
function svgRuns(svg: string, main: Glyphs, fallbacks: readonly FallbackGlyphs[]): string {
  return svg.replace(/(<text\b[^>]*>)([^<]*)(<\/text>)/g, (element, open: string, body: string, close: string) => {
    const runs = runsOf(decodeXml(body), main, fallbacks);
    if (typeof runs === 'string') return element;
    const inner = runs.map((run) =>
      typeof run === 'string' ? escapeXml(run) : `<tspan font-family="${run.font}">${escapeXml(run.text)}</tspan>`,
    );
    return open + inner.join('') + close;
  });
}

/** Whether every character of `text` but spaces has a glyph in Roboto or in one of the fallback font files. */
export function canDraw(text: string, fallbackFiles: readonly string[]): boolean {
  if (COMMON.test(text)) return true;
  const fonts = [glyphsOf(ROBOTO_FILES.normal), ...fallbackFiles.map(glyphsOf)];
  for (const char of text) {
    if (/\s/u.test(char)) continue;
    const codePoint = char.codePointAt(0) ?? 0;
    if (!fonts.some((font) => font.has(codePoint))) return false;
  }
  return true;
}

/** Keys whose values are not text to set: pictures, metadata, and the layout's own words. */
const NOT_TEXT = new Set(['svg', 'image', 'images', 'info', 'canvas', 'style', 'font', 'color', 'alignment', 'widths', 'heights']);

/**
 * The content with every text run Roboto lacks set in a fallback's family: strings in content
 * positions and `text` values, however deep, and the labels of drawings. Nothing changes for text
 * Roboto draws whole.
 */
export function withFallbackFonts<T>(content: T, fallbacks: readonly Fallback[]): T {
  const main = glyphsOf(ROBOTO_FILES.normal);
  const fonts = fallbacks.map(({ file, family }) => {
    const glyphs = glyphsOf(file);
    return { family, glyphs, allHangul: glyphs.has(0xac00) && glyphs.has(0xae40) && glyphs.has(0xd7a3) };
  });
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') {
      const runs = runsOf(node, main, fonts);
      return typeof runs === 'string' ? runs : { text: runs };
    }
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'svg' && typeof value === 'string') out[key] = svgRuns(value, main, fonts);
      else if (NOT_TEXT.has(key)) out[key] = value;
      else if (key === 'text' && typeof value === 'string') out[key] = runsOf(value, main, fonts);
      else out[key] = walk(value);
    }
    return out;
  };
  return walk(content) as T;
}
