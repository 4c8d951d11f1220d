import { createHash } from 'node:crypto';
import { markdownToSafeHtml } from './markdown.js';

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
}

/**
 * The one stylesheet of every viewer page. On narrow screens a table takes its
 * natural width, each cell capped, and scrolls inside `.table-wrap`; squeezing it
 * to the screen instead leaves one word per line. Print drops backgrounds and
 * scrolling, since paper can do neither.
 */
const STYLESHEET = `
:root{color-scheme:light dark;--fg:#1d2125;--muted:#59616b;--bg:#fff;--line:#d3d8de;--zebra:#f4f6f8;--accent:#0b5cad;--alert-fg:#8c1d13;--alert-bg:#fdeceb}
@media (prefers-color-scheme:dark){:root{--fg:#e4e7eb;--muted:#a2aab4;--bg:#16181b;--line:#3b4148;--zebra:#1f2226;--accent:#82bcff;--alert-fg:#ffb8ad;--alert-bg:#3a1a17}}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0 auto;max-width:50rem;padding:1.25rem 1rem 2rem;background:var(--bg);color:var(--fg);font:1rem/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;overflow-wrap:break-word}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,.table-wrap:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
h1,h2,h3,h4,h5,h6{line-height:1.25;margin:1.6em 0 .5em}
h1{font-size:1.75rem;margin-top:0}
h2{font-size:1.4rem}
h3{font-size:1.2rem}
h4,h5,h6{font-size:1rem}
p,ul,ol,blockquote,pre{margin:0 0 1em}
blockquote{margin-left:0;padding-left:1rem;border-left:4px solid var(--line);color:var(--muted)}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
pre{overflow-x:auto;padding:.75rem;border:1px solid var(--line);border-radius:4px;background:var(--zebra)}
hr{border:0;border-top:1px solid var(--line);margin:2rem 0}
.site-header{padding-bottom:1rem;margin-bottom:1.5rem;border-bottom:1px solid var(--line)}
.brand{margin:0;font-weight:600;color:var(--muted)}
.provenance{margin:0;font-size:.9rem;color:var(--muted)}
.provenance div{display:grid;grid-template-columns:6.5rem 1fr;gap:.75rem}
.provenance dt{font-weight:600}
.provenance dd{margin:0}
.table-wrap{overflow-x:auto;margin:0 0 1em}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{border:1px solid var(--line);padding:.4rem .6rem;text-align:left;vertical-align:top}
thead th{background:var(--zebra)}
tbody tr:nth-child(even){background:var(--zebra)}
@media screen and (max-width:40rem){table{width:max-content;min-width:100%}th,td{max-width:15rem}}
.align-left{text-align:left}
.align-center{text-align:center}
.align-right{text-align:right}
.image-alt{font-style:italic;color:var(--muted)}
.image-alt::before{content:"[image: "}
.image-alt::after{content:"]"}
.site-footer{margin-top:2.5rem;padding-top:1rem;border-top:1px solid var(--line);font-size:.85rem;color:var(--muted)}
.alert{padding:.75rem 1rem;margin:0 0 1rem;border-left:4px solid currentColor;background:var(--alert-bg);color:var(--alert-fg)}
form label{display:block;font-weight:600;margin-bottom:.25rem}
form input{display:block;width:100%;max-width:22rem;font:inherit;padding:.5rem .6rem;border:1px solid var(--muted);border-radius:4px;background:var(--bg);color:var(--fg)}
form button{margin-top:.75rem;font:inherit;padding:.5rem 1.25rem;border:0;border-radius:4px;background:var(--accent);color:var(--bg);cursor:pointer}
@media print{
:root{color-scheme:light;--fg:#000;--muted:#333;--bg:#fff;--line:#888;--zebra:transparent;--accent:#000}
*{background:transparent!important;box-shadow:none!important}
body{max-width:none;padding:0;font-size:11pt}
.table-wrap{overflow:visible}
thead{display:table-header-group}
pre{white-space:pre-wrap;overflow:visible}
tr,pre,blockquote{break-inside:avoid}
h1,h2,h3,h4,h5,h6{break-after:avoid}
main a[href^="http"]::after{content:" (" attr(href) ")";font-size:.85em;overflow-wrap:anywhere}
}
`;

/** Computed once: the CSP names the stylesheet by hash, so it must be byte-identical on every page. */
const STYLE_HASH = createHash('sha256').update(STYLESHEET, 'utf8').digest('base64');

/**
 * Headers for every viewer response, the 404 included: never cached or indexed, no
 * referrer leaking the capability URL, and a CSP that allows nothing but the page's
 * own stylesheet and a form post back to itself.
 */
export const VIEWER_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex, nofollow',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Content-Security-Policy': [
    "default-src 'none'",
    `style-src 'sha256-${STYLE_HASH}'`,
    "img-src 'none'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
});

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for use in HTML content and in quoted attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

interface LayoutParts {
  title: string;
  header: string;
  main: string;
  footer: string;
}

/** Every part except `title` is trusted HTML; callers escape what they interpolate. */
function layout({ title, header, main, footer }: LayoutParts): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLESHEET}</style>
</head>
<body>
<header class="site-header">
${header}
</header>
<main>
${main}
</main>
<footer class="site-footer">
${footer}
</footer>
</body>
</html>
`;
}

const BRAND = '<p class="brand">Chronicle</p>';
const PLAIN_FOOTER = '<p>Shared with Chronicle.</p>';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** `2025-03-01` -> `1 Mar 2025`, wrapped in `<time>`; anything else is shown as given. */
function formatDay(day: string): string {
  const date = ISO_DATE.test(day) ? new Date(`${day}T00:00:00Z`) : null;
  if (!date || Number.isNaN(date.getTime())) return escapeHtml(day);
  const text = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
  return `<time datetime="${escapeHtml(day)}">${escapeHtml(text)}</time>`;
}

/** The generation instant in the owner's zone, which is the zone the report's dates were resolved in. */
function formatGeneratedAt(iso: string, timezone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return escapeHtml(iso);
  let zone = timezone;
  let text: string;
  try {
    text = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: zone }).format(date);
  } catch {
    // An unknown zone name must not take the page down; UTC is still a truthful reading.
    zone = 'UTC';
    text = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: zone }).format(date);
  }
  return `<time datetime="${escapeHtml(date.toISOString())}">${escapeHtml(text)}</time> (${escapeHtml(zone)})`;
}

/**
 * The shared report: a provenance block (name, period, owner, generation time,
 * version) taken from the front matter, then the body. The page owns the `<h1>`,
 * so body headings are shifted down one level.
 */
export function renderReportPage(input: ReportPageInput): string {
  const version = escapeHtml(String(input.version));
  const header = `<h1>${escapeHtml(input.name)}</h1>
<dl class="provenance">
<div><dt>Period</dt><dd>${formatDay(input.period.from)} – ${formatDay(input.period.to)}</dd></div>
<div><dt>Owner</dt><dd>${escapeHtml(input.ownerName)}</dd></div>
<div><dt>Generated</dt><dd>${formatGeneratedAt(input.generatedAt, input.timezone)}</dd></div>
<div><dt>Version</dt><dd>${version}</dd></div>
</dl>`;
  return layout({
    title: `${input.name} – Chronicle`,
    header,
    main: markdownToSafeHtml(input.bodyMarkdown, { headingOffset: 1 }),
    footer: `<p>Shared with Chronicle. This page is a frozen copy of version ${version}.</p>`,
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
  return layout({ title: 'Passcode required – Chronicle', header: BRAND, main, footer: PLAIN_FOOTER });
}

/**
 * One page for malformed, unknown, revoked and expired links alike (docs/api.md
 * "Public viewer"): identical bytes every time, so a response reveals nothing
 * about which case applied.
 */
export const NOT_FOUND_PAGE: string = layout({
  title: 'Link not available – Chronicle',
  header: BRAND,
  main: `<h1>This link is not available</h1>
<p>The address may be mistyped, or the link may have been revoked or have expired. Ask the person who shared it for a new link.</p>`,
  footer: PLAIN_FOOTER,
});
