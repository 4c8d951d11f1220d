/**
 * The look of every mail (delivery.md §3; docs/email.md): one column up to 600 px in tables (what
 * mail clients lay out alike), the workspace's name, logo and accent, light and dark schemes, and
 * a plain-text part that says the same with the same links. Nothing remote: the logo is attached
 * inline (`cid:`). Every part here is trusted HTML; callers escape what they interpolate, and
 * user-written text arrives as Markdown through the one safe renderer.
 */
import { isReadableAccent } from '../../../packages/document/src/index.js';
import { escapeHtml } from '../../lib/text.js';

/** The Content-ID of the inline logo. */
export const LOGO_CID = 'logo@chronicle';

export interface MailBrand {
  displayName: string | null;
  accentColor: string | null;
  /** Whether the logo is attached (as LOGO_CID). */
  logo: { width: number; height: number } | null;
}

export interface MailParts {
  /** The line clients show beside the subject; plain text. */
  preheader: string;
  /** The heading; plain text. */
  heading: string;
  /** The body, trusted HTML. */
  bodyHtml: string;
  /** The body as plain text. */
  bodyText: string;
  /** The one thing to do, if any. */
  action: { href: string; label: string } | null;
  /** Why the reader gets this mail; plain text. */
  reason: string;
  unsubscribeUrl: string | null;
  brand: MailBrand;
  /** The mail's language (`lang`) and the layout's own words in it; English when absent. */
  language?: { lang: string; unsubscribe: string; orOpen: (href: string) => string };
}

const ENGLISH: NonNullable<MailParts['language']> = { lang: 'en', unsubscribe: 'Unsubscribe', orOpen: (href) => `Or open ${href}` };

const DEFAULT_ACCENT = '#1f5fbf';
/** The logo's box in the header: wide logos are common, tall ones are kept small. */
const LOGO_MAX_WIDTH = 160;
const LOGO_MAX_HEIGHT = 40;

/*
 * Light is written inline (clients that drop <style> still show it); the <style> adds the dark
 * scheme and the phone padding. In the dark block `.button` outranks `a`, so the button keeps its
 * white text on the accent (which isReadableAccent guarantees readable in both schemes).
 */
const STYLE = `
:root { color-scheme: light dark; supported-color-schemes: light dark; }
body { margin: 0; padding: 0; background: #f3f4f6; color: #1f2328; -webkit-text-size-adjust: 100%; }
.page { width: 100%; background: #f3f4f6; }
.card { background: #ffffff; border-radius: 8px; }
.muted { color: #59636e; }
.message { border-left: 3px solid #d0d7de; padding: 2px 0 2px 12px; margin: 12px 0 16px; }
.message p { margin: 0 0 8px; }
.message ul, .message ol { margin: 0 0 8px; padding-left: 20px; }
a { color: #0b57d0; }
@media (prefers-color-scheme: dark) {
  body, .page { background: #111418 !important; color: #e6e8eb !important; }
  .card { background: #1b1f24 !important; }
  .ink { color: #e6e8eb !important; }
  .muted { color: #a3acb6 !important; }
  .rule { border-color: #30363d !important; }
  .message { border-left-color: #3b434c !important; }
  a { color: #8ab4f8 !important; }
  a.button { color: #ffffff !important; }
  .logo { background: #f3f4f6 !important; border-radius: 4px; padding: 4px !important; }
}
@media (max-width: 480px) { .pad { padding-left: 16px !important; padding-right: 16px !important; } }
`;

const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const INK = '#1f2328';
const MUTED = '#59636e';

/** The logo's width and height in the header: its own, scaled down to fit the box. */
function logoBox(logo: { width: number; height: number }): { width: number; height: number } {
  const scale = Math.min(1, LOGO_MAX_WIDTH / Math.max(1, logo.width), LOGO_MAX_HEIGHT / Math.max(1, logo.height));
  return { width: Math.max(1, Math.round(logo.width * scale)), height: Math.max(1, Math.round(logo.height * scale)) };
}

/** The header: the logo and the workspace's name side by side (only the logo, named by its alt, when there is no name). */
function headerHtml(brand: MailBrand): string {
  const cells: string[] = [];
  if (brand.logo) {
    const { width, height } = logoBox(brand.logo);
    const alt = brand.displayName === null ? 'Logo' : '';
    cells.push(
      `<td style="padding:0 12px 0 0;vertical-align:middle"><img class="logo" src="cid:${LOGO_CID}" alt="${alt}" width="${width}" height="${height}" style="display:block;border:0;width:${width}px;height:${height}px"></td>`,
    );
  }
  if (!brand.logo || brand.displayName !== null) {
    cells.push(
      `<td class="ink" style="vertical-align:middle;color:${INK};font:600 16px/1.3 ${FONT}">${escapeHtml(brand.displayName ?? 'Chronicle')}</td>`,
    );
  }
  return `<tr><td class="pad rule" style="padding:20px 32px 16px;border-bottom:1px solid #e5e7eb"><table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr>${cells.join('')}</tr></table></td></tr>`;
}

/** The one thing to do: a button in the accent, and the address written out for clients that show no button. */
function actionHtml(action: NonNullable<MailParts['action']>, accent: string, words: NonNullable<MailParts['language']>): string {
  const href = escapeHtml(action.href);
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:24px 0 12px"><tr><td style="background:${accent};border-radius:6px"><a class="button" href="${href}" style="display:inline-block;background:${accent};color:#ffffff;text-decoration:none;font:600 15px/20px ${FONT};padding:12px 22px;border-radius:6px">${escapeHtml(action.label)}</a></td></tr></table>
<p class="muted" style="margin:0;color:${MUTED};font:13px/1.5 ${FONT};word-break:break-all">${escapeHtml(words.orOpen(action.href))}</p>`;
}

export function mailHtml(parts: MailParts): string {
  const { brand } = parts;
  const accent = brand.accentColor && isReadableAccent(brand.accentColor) ? brand.accentColor : DEFAULT_ACCENT;
  const words = parts.language ?? ENGLISH;
  const unsubscribe = parts.unsubscribeUrl ? ` <a href="${escapeHtml(parts.unsubscribeUrl)}">${escapeHtml(words.unsubscribe)}</a>` : '';
  return `<!doctype html>
<html lang="${escapeHtml(words.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<title>${escapeHtml(parts.heading)}</title>
<style>${STYLE}</style>
</head>
<body style="margin:0;padding:0;background:#f3f4f6">
<div style="display:none;max-height:0;overflow:hidden;opacity:0;mso-hide:all">${escapeHtml(parts.preheader)}</div>
<table role="presentation" class="page" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f3f4f6"><tr><td align="center" style="padding:24px 8px">
<table role="presentation" class="card" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background:#ffffff;border-radius:8px;border-top:4px solid ${accent};text-align:left">
${headerHtml(brand)}
<tr><td class="pad ink" style="padding:24px 32px 28px;color:${INK};font:15px/1.6 ${FONT};overflow-wrap:anywhere">
<h1 style="margin:0 0 16px;font:600 22px/1.3 ${FONT}">${escapeHtml(parts.heading)}</h1>
${parts.bodyHtml}
${parts.action ? actionHtml(parts.action, accent, words) : ''}
</td></tr>
</table>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px"><tr><td class="pad muted" align="center" style="padding:16px 32px 0;color:${MUTED};font:12px/1.6 ${FONT};text-align:center;overflow-wrap:anywhere">${escapeHtml(parts.reason)}${unsubscribe}</td></tr></table>
</td></tr></table>
</body>
</html>
`;
}

export function mailText(parts: MailParts): string {
  const lines = [parts.heading, '', parts.bodyText.trim()];
  if (parts.action) lines.push('', `${parts.action.label}: ${parts.action.href}`);
  lines.push('', '-- ', parts.reason);
  if (parts.unsubscribeUrl) lines.push(`${(parts.language ?? ENGLISH).unsubscribe}: ${parts.unsubscribeUrl}`);
  return `${lines.join('\n')}\n`;
}

/** A paragraph of plain text as HTML. */
export function para(text: string, muted = false): string {
  return muted
    ? `<p class="muted" style="margin:0 0 12px;color:${MUTED}">${escapeHtml(text)}</p>`
    : `<p style="margin:0 0 12px">${escapeHtml(text)}</p>`;
}
