import { existsSync } from 'node:fs';
import path from 'node:path';
import pdfMake from 'pdfmake';
import type { Content, DocDefinition } from './pdf-doc.js';
import { parseDocument, parseSafeMarkdown } from '../../../packages/document/src/index.js';
import type { ChartSvg } from './pdf-blocks.js';
import { blocksToPdf } from './pdf-blocks.js';
import { inlineRuns, plainText } from './pdf-inline.js';
import { formatInstant, formatIsoDay } from '../../lib/locale.js';
import { pdfLabels } from './pdf-labels.js';
import { canDraw, ROBOTO_FILES, withFallbackFonts, type Fallback } from './pdf-fonts.js';
import { MAX_PDF_MARKDOWN_BYTES, PdfTooLargeError } from './pdf-limits.js';
import { accentOf, BODY_SIZE, COLORS, FONT_FAMILY, LOGO_BOX, PAGE_MARGINS } from './pdf-theme.js';

export { MAX_PDF_MARKDOWN_BYTES, MAX_PDF_TABLE_CELLS, MAX_PDF_TABLE_COLUMNS, PdfTooLargeError } from './pdf-limits.js';
export type { ChartSvg } from './pdf-blocks.js';

/** The workspace's look (docs/decisions.md "The PDF export"). */
export interface PdfBranding {
  displayName: string | null;
  /** `#rrggbb`; anything else is ignored. */
  accentColor: string | null;
  /** Markdown, shown as one line of plain text in every page's footer. */
  footerMarkdown: string | null;
  /** The logo as the server re-encoded it (PNG, at most 512 px wide). */
  logoPng: Uint8Array | null;
}

export interface PdfInput {
  /** The version's full Markdown (front matter and body), as stored. */
  markdown: string;
  /** The report's name. */
  title: string;
  /** YYYY-MM-DD. */
  period: { from: string; to: string };
  ownerName: string;
  version: number;
  /** The instant the version was rendered (not now): shown in the footer and set as the PDF's dates. */
  generatedAt: string;
  /** IANA zone in which the footer shows `generatedAt`, as the owner saw it. */
  timezone: string;
  /** The report's locale: dates are written in it, and `en-US` and `en-CA` print on Letter. */
  locale: string;
  branding?: PdfBranding | null;
  /** Draws a ```chart fence as SVG; without it, or when it returns null, the fence is shown as code. */
  chartSvg?: ChartSvg;
  /**
   * Fonts for the characters Roboto lacks (pdf-fonts.ts resolveFallbackFonts), such as Chinese,
   * Japanese and Korean, the first that has a character taking it; without one they print as empty boxes.
   */
  fallbackFonts?: readonly string[];
}

// The fonts pdfmake may read: Roboto, and each fallback font a PDF has named, registered as a
// family of its own the first time. The document definition is built here from data, never from
// a path or URL an author wrote; the policies make sure of it: no network at all, and of the file
// system only the fonts.
const families: Record<string, Record<'normal' | 'bold' | 'italics' | 'bolditalics', string>> = {
  [FONT_FAMILY]: { ...ROBOTO_FILES },
};
const fontFiles = new Set<string>(Object.values(ROBOTO_FILES));
const fallbackFamilies = new Map<string, string>();

/**
 * The family name of a fallback font file: its bold is the file beside it with `Bold` before the
 * extension where there is one (NanumGothicBold.ttf), else the font itself; it has no italic.
 */
function fallbackFamily(file: string): string {
  let family = fallbackFamilies.get(file);
  if (family === undefined) {
    family = `Fallback${fallbackFamilies.size + 1}`;
    fallbackFamilies.set(file, family);
    const bold = boldBeside(file) ?? file;
    families[family] = { normal: file, bold, italics: file, bolditalics: bold };
    fontFiles.add(file).add(bold);
    pdfMake.setFonts({ ...families });
  }
  return family;
}

function boldBeside(file: string): string | null {
  const { dir, name, ext } = path.parse(file);
  const bold = path.join(dir, `${name}Bold${ext}`);
  return existsSync(bold) ? bold : null;
}

pdfMake.setFonts({ ...families });
pdfMake.setUrlAccessPolicy(() => false);
pdfMake.setLocalAccessPolicy((file) => fontFiles.has(file));

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A4, or Letter where the report's locale is English of the United States or Canada (docs/decisions.md "The PDF export"). */
export function pageSizeFor(locale: string): 'A4' | 'LETTER' {
  try {
    const tag = new Intl.Locale(locale);
    return tag.language === 'en' && (tag.region === 'US' || tag.region === 'CA') ? 'LETTER' : 'A4';
  } catch {
    return 'A4';
  }
}

const PAGE_WIDTH = { A4: 595.28, LETTER: 612 } as const;

/** The render instant as the owner saw it, with the zone named (locale.ts `formatInstant`). */
function formatGeneratedAt(date: Date, timezone: string, locale: string): string {
  const { text, zone } = formatInstant(date, timezone, locale, 'medium');
  return `${text} (${zone})`;
}

/** The branding footer's Markdown as one line of text (links and marks dropped: a footer is small print). */
function footerText(markdown: string | null | undefined): string {
  if (!markdown) return '';
  const lines = parseSafeMarkdown(markdown.slice(0, 2000))
    .filter((t) => t.type === 'inline')
    .map((t) => plainText(inlineRuns(t)).replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '');
  return lines.join(' · ');
}

function isPng(bytes: Uint8Array | null | undefined): bytes is Uint8Array {
  return !!bytes && bytes.length > PNG_SIGNATURE.length && PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}

function titleBlock(input: PdfInput, accent: string, contentWidth: number, hasLogo: boolean): Content[] {
  const blocks: Content[] = [];
  const displayName = input.branding?.displayName?.trim() ?? '';
  if (hasLogo || displayName !== '') {
    blocks.push({
      columns: [
        hasLogo ? { image: 'logo', fit: LOGO_BOX, width: LOGO_BOX[0] } : { text: '', width: 0 },
        { text: displayName, alignment: hasLogo ? 'right' : 'left', color: accent, bold: true, fontSize: 11, width: '*' },
      ],
      margin: [0, 0, 0, 14],
    });
  }
  blocks.push({ text: input.title, fontSize: 20, bold: true, color: COLORS.text, margin: [0, 0, 0, 8] });
  const fact = (label: string, value: string): Content => ({
    stack: [
      { text: label.toUpperCase(), fontSize: 7, color: COLORS.muted, characterSpacing: 0.5 },
      { text: value, fontSize: 9.5, color: COLORS.text, margin: [0, 1, 0, 0] },
    ],
    width: 'auto',
  });
  const generatedAt = new Date(input.generatedAt);
  const labels = labelsFor(input);
  blocks.push({
    columns: [
      fact(labels.period, `${formatIsoDay(input.period.from, input.locale)} – ${formatIsoDay(input.period.to, input.locale)}`),
      fact(labels.owner, input.ownerName),
      fact(labels.version, String(input.version)),
      fact(labels.generated, formatGeneratedAt(generatedAt, input.timezone, input.locale)),
    ],
    columnGap: 22,
  });
  blocks.push({
    canvas: [{ type: 'line', x1: 0, y1: 0, x2: contentWidth, y2: 0, lineWidth: 1.5, lineColor: accent }],
    margin: [0, 10, 0, 14],
  });
  return blocks;
}

/**
 * The PDF of a report version (docs/decisions.md "The PDF export"): the title block, the body as the share page
 * shows it (the same parser and conventions, packages/document), A4 or Letter by locale, a footer
 * with "Page N of M", the version and the generation time on every page, the workspace's branding.
 * Pure and deterministic: the same input gives the same bytes, so it can run in a worker and be
 * cached. Throws PdfTooLargeError for documents past the bounds in pdf-limits.ts.
 */
export async function renderPdf(input: PdfInput): Promise<Uint8Array> {
  // The definition is built before the first await: the Markdown's tokens (170,000 objects for
  // 5,000 table rows, about 30 MiB) and the content before its fallback fonts are then garbage
  // while pdfmake lays out and draws, instead of living in this function's frame until the end.
  const buffer = await pdfMake.createPdf(pdfDefinition(input)).getBuffer();
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/** What pdfmake makes the PDF of: renderPdf's document, its fallback fonts applied. */
function pdfDefinition(input: PdfInput): DocDefinition {
  const bytes = Buffer.byteLength(input.markdown, 'utf8');
  if (bytes > MAX_PDF_MARKDOWN_BYTES) {
    throw new PdfTooLargeError(
      'markdown_bytes',
      `The document is ${bytes} bytes; a PDF is made of documents up to ${MAX_PDF_MARKDOWN_BYTES} bytes.`,
    );
  }
  const generatedAt = new Date(input.generatedAt);
  if (Number.isNaN(generatedAt.getTime())) throw new TypeError(`generatedAt is not an instant: ${input.generatedAt}`);

  const pageSize = pageSizeFor(input.locale);
  const contentWidth = PAGE_WIDTH[pageSize] - PAGE_MARGINS[0] - PAGE_MARGINS[2];
  const accent = accentOf(input.branding?.accentColor);
  const logo = input.branding?.logoPng;
  const hasLogo = isPng(logo);

  const { body } = parseDocument(input.markdown);
  const tokens = parseSafeMarkdown(body, { omitTitle: input.title });
  const content = [
    ...titleBlock(input, accent, contentWidth, hasLogo),
    ...blocksToPdf(tokens, { contentWidth, accent, chartSvg: input.chartSvg }),
  ];

  const periodText = `${formatIsoDay(input.period.from, input.locale)} – ${formatIsoDay(input.period.to, input.locale)}`;
  const footnote = footerText(input.branding?.footerMarkdown);
  const labels = labelsFor(input);
  const stamp = labels.stamp(input.version, formatGeneratedAt(generatedAt, input.timezone, input.locale));
  const docDefinition: DocDefinition = {
    pageSize,
    pageMargins: PAGE_MARGINS,
    language: input.locale,
    info: {
      title: input.title,
      author: input.ownerName,
      subject: `${input.title}, ${input.period.from} – ${input.period.to}, version ${input.version}`,
      creator: 'Chronicle',
      producer: 'Chronicle',
      creationDate: generatedAt,
      modDate: generatedAt,
    },
    images: hasLogo ? { logo: `data:image/png;base64,${Buffer.from(logo).toString('base64')}` } : {},
    defaultStyle: { font: FONT_FAMILY, fontSize: BODY_SIZE, lineHeight: 1.2, color: COLORS.text },
    header: (currentPage) =>
      currentPage === 1
        ? null
        : {
            columns: [
              { text: input.title, width: '*' },
              { text: periodText, width: 'auto' },
            ],
            fontSize: 7.5,
            color: COLORS.muted,
            margin: [PAGE_MARGINS[0], 26, PAGE_MARGINS[2], 0],
          },
    footer: (currentPage, pageCount) => ({
      stack: [
        { canvas: [{ type: 'line', x1: 0, y1: 0, x2: contentWidth, y2: 0, lineWidth: 0.5, lineColor: COLORS.faintRule }] },
        {
          columns: [
            { text: footnote, width: '*' },
            { text: `${stamp} · ${labels.page(currentPage, pageCount)}`, width: 'auto', alignment: 'right' },
          ],
          columnGap: 12,
          margin: [0, 5, 0, 0],
        },
      ],
      fontSize: 7.5,
      color: COLORS.muted,
      margin: [PAGE_MARGINS[0], 22, PAGE_MARGINS[2], 0],
    }),
    content,
  };
  const fallbacks = (input.fallbackFonts ?? []).map((file) => ({ file, family: fallbackFamily(file) }));
  return fallbacks.length > 0 ? withFallback(docDefinition, fallbacks) : docDefinition;
}

/** The labels in the report's language where the PDF's fonts can draw them (pdf-labels.ts). */
function labelsFor(input: PdfInput) {
  return pdfLabels(input.locale, (text) => canDraw(text, input.fallbackFonts ?? []));
}

/** The document with its text, the page header's and the footer's too, set in a fallback font where Roboto lacks a glyph. */
function withFallback(doc: DocDefinition, fallbacks: readonly Fallback[]): DocDefinition {
  const { header, footer } = doc;
  return {
    ...doc,
    content: withFallbackFonts(doc.content, fallbacks),
    header: (page, count) => withFallbackFonts(header(page, count), fallbacks),
    footer: (page, count) => withFallbackFonts(footer(page, count), fallbacks),
  };
}
