import { execFile as execFileCb } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PDF_MARKDOWN_BYTES, MAX_PDF_TABLE_CELLS, PdfTooLargeError, renderPdf } from '../../src/render/pdf/render-pdf.js';
import type { PdfInput } from '../../src/render/pdf/render-pdf.js';
import { FALLBACK_CANDIDATES, resolveFallbackFonts } from '../../src/render/pdf/pdf-fonts.js';
import { isNumericText } from '../../src/render/pdf/pdf-table.js';
import { invoiceBody, pdfInput, summaryBody, timesheetBody } from '../helpers/pdf-documents.js';

const execFile = promisify(execFileCb);

async function hasPoppler(): Promise<boolean> {
  try {
    await execFile('pdfinfo', ['-v']);
    await execFile('pdftotext', ['-v']);
    return true;
  } catch {
    return false;
  }
}
const poppler = await hasPoppler();
if (!poppler) console.warn('pdf.test.ts: poppler-utils (pdftotext, pdfinfo) missing, the tests reading PDFs are skipped');
/** The system's fallback fonts (`auto`, docs/exports.md); CI installs them (fonts-droid-fallback, fonts-nanum). */
const cjkFonts = resolveFallbackFonts('auto');
if (cjkFonts.length < 2) console.warn('pdf.test.ts: fonts-droid-fallback or fonts-nanum missing, the CJK test is skipped');
const NO_BRANDING = { displayName: null, accentColor: null, footerMarkdown: null, logoPng: null };

let dir = '';
let fileCount = 0;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'chronicle-pdf-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function render(input: PdfInput): Promise<{ bytes: Uint8Array; file: string }> {
  const bytes = await renderPdf(input);
  fileCount += 1;
  const file = path.join(dir, `doc-${fileCount}.pdf`);
  writeFileSync(file, bytes);
  return { bytes, file };
}

async function info(file: string): Promise<{ pages: number; pageSize: string; raw: string }> {
  const { stdout } = await execFile('pdfinfo', [file]);
  return {
    pages: Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1]),
    pageSize: /^Page size:\s+(.*)$/m.exec(stdout)?.[1] ?? '',
    raw: stdout,
  };
}

/** The text of one page (or all), laid out as printed. */
async function pageText(file: string, page?: number): Promise<string> {
  const range = page === undefined ? [] : ['-f', String(page), '-l', String(page)];
  const { stdout } = await execFile('pdftotext', ['-layout', ...range, file, '-'], { maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** The text of every page, laid out as printed, in page order: one pdftotext run, split at its form feeds. */
async function pagesText(file: string): Promise<string[]> {
  return (await pageText(file)).split('\f').slice(0, -1);
}

/** The text in drawing order without any whitespace, so a cell's wrapped lines read as one string. */
async function squashedText(file: string): Promise<string> {
  const { stdout } = await execFile('pdftotext', ['-raw', file, '-'], { maxBuffer: 64 * 1024 * 1024 });
  return stdout.replace(/\s+/g, '');
}

const squash = (s: string): string => s.replace(/\s+/g, '');

describe.skipIf(!poppler)('renderPdf, read back with poppler', () => {
  it('lays out a long timesheet over pages: every entry and total, the header row and the footer on each page', async () => {
    const body = timesheetBody({ rows: 400 });
    const { file } = await render(pdfInput(body));
    const { pages } = await info(file);
    expect(pages).toBeGreaterThan(5);

    const text = await squashedText(file);
    for (let i = 1; i <= 400; i++) expect(text).toContain(squash(`(entry ${i})`));
    const totals = [...body.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1] ?? '');
    expect(totals.length).toBeGreaterThan(30);
    for (const total of totals) expect(text).toContain(squash(total));

    const texts = await pagesText(file);
    expect(texts).toHaveLength(pages);
    for (const [index, onPage] of texts.entries()) {
      const page = index + 1;
      expect(onPage, `header row on page ${page}`).toMatch(/Date\s+Start\s+Person\s+Project\s+Description\s+Duration\s+Billable\s+Amount/);
      expect(onPage, `footer on page ${page}`).toMatch(
        // Plain `en` writes the day first, as the share page and the mail do (locale.ts `documentDateLocale`).
        new RegExp(`v3 · Generated 1 Dec 2026, 10:30 \\(Europe/Berlin\\) · Page ${page} of ${pages}\\b`),
      );
    }
  });

  it("labels the title block and the footer in the report's language (English where it has none)", async () => {
    const cases = [
      ['de', /ZEITRAUM[\s\S]*VERANTWORTLICH[\s\S]*ERSTELLT/, /v3 · Erstellt .* · Seite 1 von 1\b/],
      ['fr-FR', /PÉRIODE[\s\S]*RESPONSABLE[\s\S]*GÉNÉRÉ/, /v3 · Généré le .* · Page 1 sur 1\b/],
      ['es', /PERIODO[\s\S]*RESPONSABLE[\s\S]*GENERADO/, /v3 · Generado el .* · Página 1 de 1\b/],
      // Without a font that draws Japanese, its labels would be boxes: English instead.
      ['ja', /PERIOD[\s\S]*OWNER[\s\S]*GENERATED/, /v3 · Generated .* · Page 1 of 1\b/],
      ['not a locale', /PERIOD[\s\S]*OWNER[\s\S]*GENERATED/, /v3 · Generated .* · Page 1 of 1\b/],
    ] as const;
    for (const [locale, title, footer] of cases) {
      const { file } = await render(pdfInput(summaryBody(), { locale }));
      const text = await pageText(file, 1);
      expect(text, locale).toMatch(title);
      expect(text, locale).toMatch(footer);
    }
  });

  it.skipIf(cjkFonts.length < 2)('labels a Japanese or Korean report in its language where a fallback font draws it', async () => {
    const cases = [
      ['ja-JP', /期間[\s\S]*担当者[\s\S]*バージョン[\s\S]*作成日時/, /v3 · 2026\/12\/01 10:30 \(Europe\/Berlin\) 作成 · 1 \/ 1 ページ/],
      ['ko', /기간[\s\S]*담당자[\s\S]*버전[\s\S]*생성 일시/, /v3 · .*10:30.* 생성 · 1 \/ 1 페이지/],
    ] as const;
    for (const [locale, title, footer] of cases) {
      const { file } = await render(pdfInput(summaryBody(), { locale, fallbackFonts: cjkFonts }));
      const text = await pageText(file, 1);
      expect(text, locale).toMatch(title);
      expect(text, locale).toMatch(footer);
    }
    // Without a font that draws Korean, English (the Japanese case of the test above).
    const { file } = await render(pdfInput(summaryBody(), { locale: 'ko', fallbackFonts: [] }));
    expect(await pageText(file, 1)).toMatch(/PERIOD[\s\S]*OWNER[\s\S]*v3 · Generated .* · Page 1 of 1/);
  });

  it('prints on A4, and on Letter for en-US and en-CA', async () => {
    const a4 = await render(pdfInput(invoiceBody(), { locale: 'de' }));
    expect((await info(a4.file)).pageSize).toContain('(A4)');
    for (const locale of ['en-US', 'en-CA']) {
      const letter = await render(pdfInput(invoiceBody(), { locale }));
      expect((await info(letter.file)).pageSize).toMatch(/^612 x 792 pts/);
    }
    const gb = await render(pdfInput(invoiceBody(), { locale: 'en-GB' }));
    expect((await info(gb.file)).pageSize).toContain('(A4)');
  });

  it('embeds fonts that carry Greek and Cyrillic as real text', async () => {
    const { file } = await render(pdfInput(summaryBody()));
    const text = await pageText(file);
    expect(text).toContain('Ελληνικά');
    expect(text).toContain('Кириллица');
    const { stdout } = await execFile('pdffonts', [file]);
    expect(stdout).toMatch(/Roboto/);
    // Every font line says "emb yes".
    const fontLines = stdout
      .split('\n')
      .slice(2)
      .filter((l) => l.trim() !== '');
    for (const line of fontLines) expect(line).toMatch(/\byes\s+yes\s+(?:yes|no)\s+\d+\s+\d+\s*$/);
  });

  it('shows the title block, the branding, and the generation time in the owner zone and locale', async () => {
    const { file } = await render(
      pdfInput(invoiceBody(), {
        locale: 'en-US',
        timezone: 'America/New_York',
        branding: {
          displayName: 'Acme Studio',
          accentColor: '#0f766e',
          footerMarkdown: 'Acme **GmbH** · [site](https://acme.example)',
          logoPng: null,
        },
      }),
    );
    const first = await pageText(file, 1);
    expect(first).toContain('Acme Studio');
    expect(first).toContain('Acme November timesheet');
    expect(first).toContain('Nov 1, 2026 – Nov 30, 2026');
    expect(first).toMatch(/Dec 1, 2026, 4:30\s?AM \(America\/New_York\)/);
    expect(first).toContain('Acme GmbH · site');
    const meta = await info(file);
    expect(meta.raw).toMatch(/^Title:\s+Acme November timesheet$/m);
    expect(meta.raw).toMatch(/^Author:\s+Ana Souza$/m);
    expect(meta.raw).toMatch(/^CreationDate:\s+Tue Dec\s+1 09:30:00 2026 UTC$/m);
  });

  it('skips a leading title equal to the report name, as the share page does', async () => {
    const { file } = await render(pdfInput(`# Acme November timesheet\n\nBody text.\n`));
    const text = await pageText(file);
    expect(text.match(/Acme November timesheet/g)?.length).toBe(1);
    expect(text).toContain('Body text.');
  });

  it('draws a chart fence with the injected chartSvg as vectors, and shows it as code without one', async () => {
    const body = 'Before.\n\n```chart\nhours_by_day\n```\n\nAfter.\n';
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect x="0" y="0" width="50" height="80" fill="#336699"/><text x="10" y="95" font-size="10">ChartLegendMark</text></svg>';
    const calls: [string, string][] = [];
    const withChart = await render(
      pdfInput(body, {
        chartSvg: (info, source) => {
          calls.push([info, source]);
          return svg;
        },
      }),
    );
    expect(calls).toEqual([['chart', 'hours_by_day']]);
    const chartText = await pageText(withChart.file);
    expect(chartText).toContain('ChartLegendMark');
    expect(chartText).not.toContain('hours_by_day');

    const without = await render(pdfInput(body));
    const nullChart = await render(pdfInput(body, { chartSvg: () => null }));
    for (const { file } of [without, nullChart]) {
      const text = await pageText(file);
      expect(text).toContain('hours_by_day');
      expect(text).not.toContain('ChartLegendMark');
    }
  });

  it('keeps hostile text as text: no scheme but http, https and mailto becomes a link', async () => {
    const body = [
      '| Name | Note |',
      '|---|---|',
      '| {"text":"x","link":"file:///etc/passwd"} | [bad](javascript:alert(1)) [file](file:///etc/passwd) [ok](https://ok.example/x) [mail](mailto:a@b.example) |',
      '',
    ].join('\n');
    const { bytes, file } = await render(pdfInput(body));
    const raw = Buffer.from(bytes).toString('latin1');
    expect(raw).toContain('/URI (https://ok.example/x)');
    expect(raw).toContain('/URI (mailto:a@b.example)');
    expect(raw).not.toMatch(/\/URI \((?:javascript|file)/);
    expect(await squashedText(file)).toContain('{"text":"x","link":"file:///etc/passwd"}');
  });

  it('lays out a cell longer than a page and a very long word without losing text', async () => {
    const words = Array.from({ length: 3000 }, (_, i) => `w${i}`).join(' ');
    const body = `| A | B |\n|---|---|\n| short | ${words} |\n| ${'x'.repeat(3000)} | end |\n\nAfter the table.\n`;
    const { file } = await render(pdfInput(body));
    expect((await info(file)).pages).toBeGreaterThan(1);
    const { stdout } = await execFile('pdftotext', ['-raw', file, '-'], { maxBuffer: 64 * 1024 * 1024 });
    const found = new Set(stdout.split(/\s+/));
    expect(words.split(' ').filter((w) => !found.has(w))).toEqual([]);
    expect(stdout.replace(/[^x]/g, '').length).toBeGreaterThanOrEqual(3000);
    expect(stdout).toContain('After the table.');
  });

  it('keeps durations and amounts on one line, bold four-digit totals too', async () => {
    const rows = Array.from(
      { length: 12 },
      (_, i) =>
        `| 2026-11-${String(i + 1).padStart(2, '0')} | 09:00 | Eleni Papadopoulou | Website relaunch | Code review of the checkout flow and the invoice layout | ${i + 1}h 05m | ${i + 1}h 05m | €1,${i}04.50 |`,
    );
    const body = [
      '| Date | Start | Person | Project | Description | Duration | Billable | Amount |',
      '|---|---|---|---|---|---:|---:|---:|',
      ...rows,
      '| **Total** | | | | **600 entries** | **1333h 00m** | **1333h 00m** | **€126,635.00** |',
      '',
    ].join('\n');
    const { file } = await render(pdfInput(body));
    const lines = (await pageText(file, 1)).split('\n');
    expect(lines.find((line) => line.includes('600 entries'))).toMatch(/600 entries\s+1333h 00m\s+1333h 00m\s+€126,635\.00/);
    for (let i = 1; i <= 12; i++) expect(lines.some((line) => line.includes(`${i}h 05m`))).toBe(true);
  });

  it('reads durations, amounts, rates and percentages as numbers, and dates and words as text', () => {
    for (const text of ['1h 19m', '1333h 00m', '3 h', '45 min', '€1,204.50', '1.234,50 €', '120.00 USD/h', '12.5%', '0:45', '(12.00)'])
      expect([text, isNumericText(text)]).toEqual([text, true]);
    for (const text of ['2026-11-30', 'Total', 'hm 5', 'ham 5', '5 hm', 'Day total', ''])
      expect([text, isNumericText(text)]).toEqual([text, false]);
  });

  it('bounds the indent of deeply nested lists and quotes and keeps their text', async () => {
    // markdown-it stops at 100 levels of nesting (as on the share page); 30 lists and 30 quotes stay below it.
    const nested = Array.from({ length: 30 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n');
    const quotes = `${'> '.repeat(30)}deep quote`;
    const { file } = await render(pdfInput(`${nested}\n\n${quotes}\n`));
    expect((await info(file)).pages).toBe(1);
    const text = await squashedText(file);
    for (let i = 0; i < 30; i++) expect(text).toContain(`level${i}`);
    expect(text).toContain('deepquote');
    // Past the sixth level the text stops moving right: level 29 starts where level 6 does.
    const layout = await pageText(file);
    const column = (label: string): number =>
      layout
        .split('\n')
        .find((l) => l.includes(label))
        ?.indexOf(label) ?? -1;
    expect(column('level 29')).toBeLessThanOrEqual(column('level 6') + 1);
  });

  it('renders Japanese text without a fallback font rather than failing (its characters have no glyph then)', async () => {
    const { file } = await render(
      pdfInput('| 名前 | 時間 |\n|---|---:|\n| 山田太郎 | 1h 00m |\n', { locale: 'ja', ownerName: '山田太郎', fallbackFonts: [] }),
    );
    expect((await info(file)).pages).toBe(1);
    expect(await pageText(file)).toContain('1h 00m');
    expect((await execFile('pdffonts', [file])).stdout).not.toMatch(/DroidSansFallback/);
  });

  it.skipIf(cjkFonts.length < 2)(
    'sets Chinese, Japanese and Korean text in the fallback font, searchable, beside Roboto in one line',
    async () => {
      const body = [
        '# 月次レポート',
        '',
        'Kickoff with 山田さん (Tokyo) and 김민수 — 进度 80%.',
        '',
        '| 名前 | Project | 時間 |',
        '|---|---|---:|',
        '| 山田太郎 | Website 改修 | 1h 00m |',
        '| Ελένη | Кириллица | 2h 30m |',
        '| **합계** | | **3h 30m** |',
        '',
      ].join('\n');
      const { file } = await render(
        pdfInput(body, {
          title: '東京 monthly',
          locale: 'ja',
          ownerName: '山田太郎',
          fallbackFonts: cjkFonts,
          branding: { ...NO_BRANDING, footerMarkdown: '株式会社 Example' },
        }),
      );
      const text = await pageText(file);
      for (const words of [
        '月次レポート',
        '山田さん',
        '김민수',
        '进度 80%',
        '山田太郎',
        'Website 改修',
        'Ελένη',
        'Кириллица',
        '합계',
        '東京 monthly',
        '株式会社 Example',
      ]) {
        expect(text).toContain(words);
      }
      const { stdout } = await execFile('pdffonts', [file]);
      expect(stdout).toMatch(/DroidSansFallback/);
      expect(stdout).toMatch(/NanumGothic /);
      // Bold Korean takes the bold face installed beside the font.
      expect(stdout).toMatch(/NanumGothicBold/);
      expect(stdout).toMatch(/Roboto/);
    },
  );

  it.skipIf(cjkFonts.length < 2)("sets a drawing's Chinese, Japanese and Korean labels in the fallback fonts, searchable", async () => {
    const svg = [
      '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100" font-family="Helvetica, Arial, sans-serif">',
      '<text x="290" y="20" text-anchor="end" font-size="10">株式会社テスト &amp; Co</text>',
      '<text x="150" y="50" text-anchor="middle" font-size="10">김민수 디자인</text>',
      '<text x="10" y="80" font-size="10">Plain label</text>',
      '</svg>',
    ].join('');
    const { file } = await render(pdfInput('```chart\namount_by_client\n```\n', { chartSvg: () => svg, fallbackFonts: cjkFonts }));
    const text = await pageText(file);
    for (const words of ['株式会社テスト & Co', '김민수 디자인', 'Plain label']) expect(text).toContain(words);
    const { stdout } = await execFile('pdffonts', [file]);
    expect(stdout).toMatch(/DroidSansFallback/);
    expect(stdout).toMatch(/NanumGothic /);
  });
});

describe('renderPdf', () => {
  it('gives the same bytes for the same input', async () => {
    const input = pdfInput(summaryBody(), {
      chartSvg: () => '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="5" height="5"/></svg>',
    });
    const [a, b] = await Promise.all([renderPdf(input), renderPdf(input)]);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const later = await renderPdf({ ...input, generatedAt: '2026-12-02T09:30:00.000Z' });
    expect(Buffer.from(later).equals(Buffer.from(a))).toBe(false);
  });

  it('refuses Markdown over the size bound and tables with too many columns', async () => {
    const wide = `|${' c |'.repeat(1000)}\n|${'---|'.repeat(1000)}\n|${' 1 |'.repeat(1000)}\n`;
    await expect(renderPdf(pdfInput(wide))).rejects.toMatchObject({ name: 'PdfTooLargeError', limit: 'table_columns' });
    const huge = pdfInput('x'.repeat(MAX_PDF_MARKDOWN_BYTES + 1));
    const refusal = renderPdf(huge);
    await expect(refusal).rejects.toBeInstanceOf(PdfTooLargeError);
    await expect(refusal).rejects.toMatchObject({ limit: 'markdown_bytes' });
    const cells = `| a | b | c | d |\n|---|---|---|---|\n${'| 1 | 2 | 3 | 4 |\n'.repeat(MAX_PDF_TABLE_CELLS / 4)}`;
    await expect(renderPdf(pdfInput(cells))).rejects.toMatchObject({ name: 'PdfTooLargeError', limit: 'table_cells' });
  });
});

describe('PDF_FALLBACK_FONT', () => {
  it('takes none for none, each installed candidate for auto, and files that exist and are fonts', () => {
    expect(resolveFallbackFonts('none')).toEqual([]);
    expect(resolveFallbackFonts('auto', () => false)).toEqual([]);
    const [droid, nanum] = FALLBACK_CANDIDATES;
    expect(resolveFallbackFonts('auto', (file) => file === droid[1] || file === nanum[0])).toEqual([droid[1], nanum[0]]);
    expect(() => resolveFallbackFonts('/nonexistent/font.ttf')).toThrow(/does not exist/);
    const notAFont = path.join(dir, 'not-a-font.ttf');
    writeFileSync(notAFont, 'plain text, not a font');
    expect(() => resolveFallbackFonts(notAFont)).toThrow(/not a TrueType or OpenType font/);
    if (cjkFonts.length > 0) expect(resolveFallbackFonts(` ${cjkFonts.join(' , ')} `)).toEqual(cjkFonts);
  });
});
