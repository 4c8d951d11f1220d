import { createHash } from 'node:crypto';
import { DOCUMENT_CSS, markdownToSafeHtml } from '../../packages/document/src/index.js';
import { formatInstant, formatIsoDay, isoDay } from '../lib/locale.js';
import { escapeHtml } from '../lib/text.js';
import { documentLabels } from './document-labels.js';

/**
 * HTML for the public viewer, `/share/<token>` (docs/api.md "Public viewer").
 * Pages are complete server-rendered documents with no JavaScript, so the CSP can
 * deny everything except the one stylesheet below, allowed by its hash.
 */

export interface ReportPageInput {
  name: string;
  period: { from: string; to: string };
  ownerName: string;
  /** ISO 8601 instant. */
  generatedAt: string;
  /** IANA zone of the owner, used to show generatedAt as the owner saw it. */
  timezone: string;
  version: number;
  bodyMarkdown: string;
  /** The branding of the report's first workspace (docs/api.md "Branding"); none: Chronicle's plain page. */
  branding?: PageBranding | null;
  /**
   * The locale the version was rendered in (a canonical BCP 47 tag): the page's language, its
   * labels and its dates, as the document's own are. Default `en`.
   */
  locale?: string;
}

/** A workspace's look on its share pages; every field may be empty on its own. */
export interface PageBranding {
  displayName: string | null;
  /** `#rrggbb`, lower case; its stylesheet is allowed by hash (`reportPageHeaders`). */
  accentColor: string | null;
  footerMarkdown: string;
  /** The logo at its same-origin, versioned path. */
  logo: { src: string; width: number; height: number } | null;
}

/**
 * The page around a document, in the web app's visual language (web/src/styles.css): ink on
 * paper, one accent, light and dark by the system's choice. It defines the custom properties the
 * document's own rules read (`--doc-*`, DOCUMENT_CSS) and styles what is not the document: the
 * brand, the report's title and provenance, the footer, the passcode form and its alert.
 * Print drops the chrome and the backgrounds and spells out where a link leads.
 */
const PAGE_CSS = `
:root{color-scheme:light dark;--bg:#f7f6f3;--surface:#fff;--fg:#1d1f23;--muted:#585e68;--line:#d9d6cf;--accent:#1f5fbf;--accent-ink:#fff;--focus:#c2410c;--alert-fg:#a4262c;--alert-bg:#fbeaea;--doc-ink:var(--fg);--doc-muted:var(--muted);--doc-line:var(--line);--doc-surface:var(--surface);--doc-measure:46rem;--doc-zebra:rgba(29,31,35,.035);--doc-head:rgba(29,31,35,.06);--doc-total:rgba(31,95,191,.08);--doc-grand:rgba(31,95,191,.16);--doc-shade:rgba(29,31,35,.28);--doc-chart-1:#1f5fbf;--doc-chart-2:#6b6f78}
@media (prefers-color-scheme:dark){:root{--bg:#15171b;--surface:#1e2127;--fg:#e9e7e2;--muted:#a8aeb8;--line:#3a3f48;--accent:#8cb4ff;--accent-ink:#0f1420;--focus:#ffb27a;--alert-fg:#ff9a9f;--alert-bg:#3a1f22;--doc-zebra:rgba(233,231,226,.04);--doc-head:rgba(233,231,226,.07);--doc-total:rgba(140,180,255,.11);--doc-grand:rgba(140,180,255,.2);--doc-shade:rgba(0,0,0,.7);--doc-chart-1:#8cb4ff;--doc-chart-2:#a8aeb8}}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%;background:var(--bg)}
body{margin:0 auto;max-width:100rem;padding:0 clamp(.75rem,3vw,2rem) 2rem;background:var(--bg);color:var(--fg);font:1rem/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;overflow-wrap:break-word}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.brand{margin:0;padding:.75rem 0;font-weight:700;letter-spacing:.01em;color:var(--muted)}
.brand-named{display:flex;align-items:center;gap:.75rem;color:var(--fg);font-size:1.125rem;min-width:0;overflow-wrap:anywhere}
.brand-named img{display:block;flex:none;width:auto;height:auto;max-height:3rem;max-width:min(12rem,40vw)}
.branded{border-top:4px solid var(--brand,transparent)}
.brand-footer{margin-bottom:.75rem}
.brand-footer>:last-child{margin-bottom:0}
main{background:var(--surface);border:1px solid var(--line);border-radius:8px;padding:clamp(1rem,3vw,2rem)}
@media (max-width:40rem){body{padding:0 0 1.5rem}.brand{padding:.75rem}main{border-width:1px 0;border-radius:0}}
h1{font-size:clamp(1.5rem,1.2rem + 1.2vw,2rem);line-height:1.25;margin:0 0 .75rem;max-width:var(--doc-measure);overflow-wrap:anywhere}
h2{font-size:1.35rem}
h3{font-size:1.15rem}
h4,h5,h6{font-size:1rem}
p{margin:0 0 1em;max-width:var(--doc-measure)}
.report-head{margin-bottom:1.5rem;padding-bottom:1rem;border-bottom:1px solid var(--line)}
.provenance{display:flex;flex-wrap:wrap;gap:.35rem 2rem;margin:0;max-width:none;font-size:.925rem;color:var(--muted)}
.provenance div{display:flex;gap:.5rem;min-width:0}
.provenance dt{font-weight:600}
.provenance dd{margin:0}
.downloads{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin:.75rem 0 0;font-size:.925rem;color:var(--muted)}
.downloads a{display:inline-block;padding:.3rem .8rem;border:1px solid var(--accent);border-radius:8px;font-weight:600;text-decoration:none;line-height:1.4}
.downloads a:hover{background:var(--accent);color:var(--accent-ink)}
.site-footer{margin-top:1.25rem;font-size:.85rem;color:var(--muted)}
@media (max-width:40rem){.site-footer{padding:0 .75rem}}
.alert{padding:.75rem 1rem;margin:0 0 1rem;border-left:4px solid currentColor;background:var(--alert-bg);color:var(--alert-fg)}
form label{display:block;font-weight:600;margin-bottom:.25rem}
form input{display:block;width:100%;max-width:22rem;font:inherit;padding:.5rem .6rem;border:1px solid var(--muted);border-radius:8px;background:var(--surface);color:var(--fg)}
form button{margin-top:.75rem;font:inherit;font-weight:600;padding:.5rem 1.25rem;border:0;border-radius:8px;background:var(--accent);color:var(--accent-ink);cursor:pointer}
@media print{
@page{margin:14mm 12mm}
:root{color-scheme:light;--fg:#000;--muted:#333;--bg:#fff;--surface:#fff;--line:#999;--accent:#000}
*{background:transparent!important;box-shadow:none!important}
body{max-width:none;padding:0;font-size:10.5pt}
.site-header,.site-footer,.downloads{display:none}
main{border:0;padding:0}
h1{break-after:avoid}
.report-head{break-inside:avoid}
main a[href^="http"]::after{content:" (" attr(href) ")";font-size:.85em;overflow-wrap:anywhere}
}
`;

/**
 * The one stylesheet of every viewer page: the page's own rules, then the rules of the document
 * itself, which the web app shows with the very same text (DOCUMENT_CSS).
 */
const STYLESHEET = PAGE_CSS + DOCUMENT_CSS;

/** Computed once: the CSP names the stylesheet by hash, so it must be byte-identical on every page. */
const STYLE_HASH = createHash('sha256').update(STYLESHEET, 'utf8').digest('base64');

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');

/**
 * The policy of a viewer page: its stylesheets by hash, and images from its own origin (the
 * workspace's logo on a report page; on every page the origin's icon, which Chromium fetches for
 * the tab only where `img-src` allows it, docs/web.md "Icons").
 */
function contentSecurityPolicy(styleHashes: readonly string[]): string {
  return [
    "default-src 'none'",
    `style-src ${styleHashes.map((hash) => `'sha256-${hash}'`).join(' ')}`,
    "img-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Headers for every viewer response, the 404 included: never cached or indexed, no
 * referrer leaking the capability URL, and a CSP that allows nothing but the page's
 * own stylesheet, this origin's images and a form post back to itself.
 */
export const VIEWER_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex, nofollow',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Content-Security-Policy': contentSecurityPolicy([STYLE_HASH]),
});

/**
 * The second, small stylesheet of a branded page: the accent colour, on screen in the light scheme
 * (it is dark enough for white text, too dark for the dark scheme's links), and as the header's
 * band in both. Its text depends on the colour alone, so its hash can be computed from the colour
 * wherever the page is served.
 */
export function accentStylesheet(color: string): string {
  if (!/^#[0-9a-f]{6}$/.test(color)) throw new Error(`not an accent colour: ${color}`);
  return `:root{--brand:${color}}@media screen and (prefers-color-scheme:light){:root{--accent:${color}}}`;
}

const reportHeaders = new Map<string, Readonly<Record<string, string>>>();

/**
 * The headers of a report page: the viewer's, with images from this origin only (the workspace
 * logo, docs/api.md "Branding") and, for a page with an accent colour, its stylesheet's hash beside
 * the main one. Never 'unsafe-inline'. Kept per colour: there are few.
 */
export function reportPageHeaders(accentColor: string | null): Readonly<Record<string, string>> {
  const key = accentColor ?? '';
  let headers = reportHeaders.get(key);
  if (!headers) {
    const hashes = accentColor === null ? [STYLE_HASH] : [STYLE_HASH, sha256(accentStylesheet(accentColor))];
    // A report page may be sent compressed (viewer.routes.ts): it varies with Accept-Encoding.
    headers = Object.freeze({
      ...VIEWER_HEADERS,
      'Content-Security-Policy': contentSecurityPolicy(hashes),
      Vary: 'Accept-Encoding',
    });
    if (reportHeaders.size < 10_000) reportHeaders.set(key, headers);
  }
  return headers;
}

interface LayoutParts {
  title: string;
  /** The page's language (`<html lang>`); default `en`. */
  lang?: string;
  /** Opens `main`: the report's title and provenance. */
  header?: string;
  main: string;
  footer: string;
  /** The report's workspace branding; the other pages have none. */
  branding?: PageBranding | null;
}

/** The site header: Chronicle's plain line, or the workspace's name and logo. */
function siteHeader(branding: PageBranding | null | undefined): string {
  const band = branding?.accentColor ? ' branded' : '';
  if (!branding || (branding.displayName === null && branding.logo === null)) {
    return `<header class="site-header${band}"><p class="brand">Chronicle</p></header>`;
  }
  const { logo, displayName } = branding;
  // The logo is the name when there is one; with no name it needs its own text alternative.
  const alt = displayName === null ? 'Logo' : '';
  const image = logo ? `<img src="${escapeHtml(logo.src)}" alt="${alt}" width="${logo.width}" height="${logo.height}">` : '';
  const name = displayName === null ? '' : `<span>${escapeHtml(displayName)}</span>`;
  return `<header class="site-header${band}"><p class="brand brand-named">${image}${name}</p></header>`;
}

/** Every part except `title` is trusted HTML; callers escape what they interpolate. */
function layout({ title, lang = 'en', header, main, footer, branding }: LayoutParts): string {
  const head = header ? `<header class="report-head">\n${header}\n</header>\n` : '';
  const accent = branding?.accentColor ? `\n<style>${accentStylesheet(branding.accentColor)}</style>` : '';
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLESHEET}</style>${accent}
</head>
<body>
${siteHeader(branding)}
<main>
${head}${main}
</main>
<footer class="site-footer">
${footer}
</footer>
</body>
</html>
`;
}

const PLAIN_FOOTER = '<p>Shared with Chronicle.</p>';

/** `2025-03-01` -> `1 Mar 2025` (in `locale`, locale.ts `formatIsoDay`), wrapped in `<time>`; anything else is shown as given. */
function formatDay(day: string, locale: string): string {
  if (!isoDay(day)) return escapeHtml(day);
  return `<time datetime="${escapeHtml(day)}">${escapeHtml(formatIsoDay(day, locale))}</time>`;
}

/** The generation instant in the owner's zone, which is the zone the report's dates were resolved in. */
function formatGeneratedAt(iso: string, timezone: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return escapeHtml(iso);
  const { text, zone } = formatInstant(date, timezone, locale, 'long');
  return `<time datetime="${escapeHtml(date.toISOString())}">${escapeHtml(text)}</time> (${escapeHtml(zone)})`;
}

/**
 * Where a report page's download links go. A page is rendered once per version and served for
 * every link to it, while the links name the link (and, after a passcode, a grant): the viewer
 * puts them in place of this comment as it serves the page (`downloadLinks`). The comment ends
 * with the page's locale, which the links are written in: `<!--chronicle:downloads de-->`.
 */
export const DOWNLOADS_MARKER = '<!--chronicle:downloads';
const MARKER_END = '-->';
/** A locale as a marker carries it: a canonical tag's characters, no more than a tag may have. */
const MARKER_LOCALE = /^[A-Za-z0-9-]{1,35}$/;

const downloadsMarker = (locale: string): string => `${DOWNLOADS_MARKER} ${MARKER_LOCALE.test(locale) ? locale : 'en'}${MARKER_END}`;

/**
 * The marker's place in a page and the locale it names (`en` for a page written before markers
 * named one); null when the page has none.
 */
export function findDownloadsMarker(page: Buffer): { start: number; end: number; locale: string } | null {
  const start = page.indexOf(DOWNLOADS_MARKER);
  if (start === -1) return null;
  const close = page.indexOf(MARKER_END, start + DOWNLOADS_MARKER.length);
  if (close === -1 || close - start > DOWNLOADS_MARKER.length + 40) return null;
  const locale = page.toString('latin1', start + DOWNLOADS_MARKER.length, close).trim();
  return { start, end: close + MARKER_END.length, locale: MARKER_LOCALE.test(locale) ? locale : 'en' };
}

/** The download links of a report page in its locale (hrefs are built by the viewer from the token, and escaped here). */
export function downloadLinks(hrefs: { pdf: string; csv: string }, locale = 'en'): string {
  const { download } = documentLabels(locale);
  return `<p class="downloads">${escapeHtml(download)} <a href="${escapeHtml(hrefs.pdf)}" download="">PDF</a> <a href="${escapeHtml(hrefs.csv)}" download="">CSV</a></p>`;
}

/**
 * The note on a page served through a link that follows the newest version (delivery.md §2):
 * that it does, and when the report's schedule makes the next one, on the owner's clock, in the
 * page's locale.
 */
export function followsNote(next: { at: Date; timezone: string } | null, locale = 'en'): string {
  const labels = documentLabels(locale);
  return `<p class="follows">${labels.follows(next ? formatGeneratedAt(next.at.toISOString(), next.timezone, locale) : null)}</p>`;
}

/**
 * The shared report: a provenance block (name, period, owner, generation time,
 * version) taken from the front matter, then the body. The page owns the `<h1>`,
 * so body headings are shifted down one level, and a body opening with the report's
 * name as its own `# ` title is shown without it.
 */
export function renderReportPage(input: ReportPageInput): string {
  const version = escapeHtml(String(input.version));
  const locale = input.locale ?? 'en';
  const labels = documentLabels(locale);
  const header = `<h1>${escapeHtml(input.name)}</h1>
<dl class="provenance">
<div><dt>${escapeHtml(labels.period)}</dt><dd>${formatDay(input.period.from, locale)} – ${formatDay(input.period.to, locale)}</dd></div>
<div><dt>${escapeHtml(labels.owner)}</dt><dd>${escapeHtml(input.ownerName)}</dd></div>
<div><dt>${escapeHtml(labels.generated)}</dt><dd>${formatGeneratedAt(input.generatedAt, input.timezone, locale)}</dd></div>
<div><dt>${escapeHtml(labels.version)}</dt><dd>${version}</dd></div>
</dl>
${downloadsMarker(locale)}`;
  const footerMarkdown = input.branding?.footerMarkdown ?? '';
  // The workspace's footer is Markdown from its admins: rendered by the one safe renderer, as a report is.
  const brandFooter =
    footerMarkdown.trim() === '' ? '' : `<div class="brand-footer">\n${markdownToSafeHtml(footerMarkdown, { headingOffset: 2 })}</div>\n`;
  return layout({
    title: `${input.name} – ${input.branding?.displayName ?? 'Chronicle'}`,
    lang: locale,
    header,
    main: `<div class="document">\n${markdownToSafeHtml(input.bodyMarkdown, { headingOffset: 1, omitTitle: input.name })}</div>`,
    footer: `${brandFooter}<p>${escapeHtml(labels.frozenCopy)}</p>`,
    branding: input.branding,
  });
}

function retryMessage(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `Too many attempts, try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}

/**
 * The prompt for a passcode-protected share. It posts back to the same URL, so
 * it works without JavaScript; it says nothing about the report behind it.
 */
export function renderPasscodePage(opts: { invalid: boolean; retryAfterSeconds?: number }): string {
  const { invalid, retryAfterSeconds } = opts;
  const rateLimited = retryAfterSeconds !== undefined;
  let error: string | null = null;
  if (rateLimited) error = retryMessage(retryAfterSeconds);
  else if (invalid) error = 'That passcode is not right.';
  const alert = error ? `<p class="alert" role="alert" id="passcode-error">${escapeHtml(error)}</p>\n` : '';
  let inputState = error ? ' aria-describedby="passcode-error"' : '';
  if (invalid && !rateLimited) inputState += ' aria-invalid="true"';
  const main = `<h1>This report is protected</h1>
<p>Enter the passcode you were given to view it.</p>
${alert}<form method="post">
<label for="passcode">Passcode</label>
<input type="password" id="passcode" name="passcode" required minlength="4" maxlength="128" autocomplete="off" autofocus${inputState}>
<button type="submit">View report</button>
</form>`;
  return layout({ title: 'Passcode required – Chronicle', main, footer: PLAIN_FOOTER });
}

/** A short page that explains why a download is not there, with a way back to the report. */
export function renderNoticePage(heading: string, text: string, backHref: string): string {
  const main = `<h1>${escapeHtml(heading)}</h1>
<p>${escapeHtml(text)}</p>
<p><a href="${escapeHtml(backHref)}">Back to the report</a></p>`;
  return layout({ title: `${heading} – Chronicle`, main, footer: PLAIN_FOOTER });
}

/**
 * A mail's unsubscribe page (delivery.md §3): a button that posts back to the link (a GET never
 * changes anything, so a mail scanner opening links turns nothing off), then the confirmation.
 */
export function renderUnsubscribePage(what: string, done: boolean): string {
  const main = done
    ? `<h1>You are unsubscribed</h1>
<p>${escapeHtml(`Chronicle will not send you mail about ${what} any more.`)}</p>`
    : `<h1>Unsubscribe</h1>
<p>${escapeHtml(`Stop mail from Chronicle about ${what}?`)}</p>
<form method="post">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Unsubscribe</button>
</form>`;
  return layout({ title: `${done ? 'Unsubscribed' : 'Unsubscribe'} – Chronicle`, main, footer: PLAIN_FOOTER });
}

/** A browser's page for an address nothing serves (http/not-found.ts): it leads to the app. */
export const NO_SUCH_PAGE: string = layout({
  title: 'Page not found – Chronicle',
  main: `<h1>There is no page here</h1>
<p>The address may be mistyped, or the page may have moved.</p>
<p><a href="/app/">Open Chronicle</a></p>`,
  footer: '<p>Chronicle · <a href="/docs">API reference</a></p>',
});

/**
 * One page for malformed, unknown, revoked and expired links alike (docs/api.md
 * "Public viewer"): identical bytes every time, so a response reveals nothing
 * about which case applied.
 */
export const NOT_FOUND_PAGE: string = layout({
  title: 'Link not available – Chronicle',
  main: `<h1>This link is not available</h1>
<p>The address may be mistyped, or the link may have been revoked or have expired. Ask the person who shared it for a new link.</p>`,
  footer: PLAIN_FOOTER,
});
