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
}

const DEFAULT_ACCENT = '#1f5fbf';

const STYLE = `
:root { color-scheme: light dark; supported-color-schemes: light dark; }
body { margin: 0; padding: 0; background: #f3f4f6; color: #1f2328; }
.page { width: 100%; background: #f3f4f6; }
.card { background: #ffffff; border-radius: 8px; }
.muted { color: #59636e; }
.message { border-left: 3px solid #d0d7de; padding: 2px 0 2px 12px; margin: 16px 0; }
.message p { margin: 0 0 8px; }
a { color: #0b57d0; }
@media (prefers-color-scheme: dark) {
  body, .page { background: #111418 !important; color: #e6e8eb !important; }
  .card { background: #1b1f24 !important; }
  .muted { color: #a3acb6 !important; }
  .message { border-left-color: #3b434c !important; }
  a { color: #8ab4f8 !important; }
}
@media (max-width: 480px) { .pad { padding: 20px 16px !important; } }
`;

const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

export function mailHtml(parts: MailParts): string {
  const { brand } = parts;
  const accent = brand.accentColor && isReadableAccent(brand.accentColor) ? brand.accentColor : DEFAULT_ACCENT;
  const name = brand.displayName ?? 'Chronicle';
  const logo = brand.logo
    ? `<img src="cid:${LOGO_CID}" alt="${brand.displayName === null ? 'Logo' : ''}" width="${Math.min(brand.logo.width, 160)}" style="display:block;max-height:48px;width:auto;height:auto;border:0" height="${Math.round(Math.min(brand.logo.height, 48))}">`
    : '';
  const header = `<tr><td class="pad" style="padding:24px 32px 8px;font:600 15px/1.4 ${FONT}">${logo}${
    brand.logo && brand.displayName === null
      ? ''
      : `<span style="display:inline-block;${brand.logo ? 'margin-top:8px' : ''}">${escapeHtml(name)}</span>`
  }</td></tr>`;
  const button = parts.action
    ? `<p style="margin:24px 0 8px"><a href="${escapeHtml(parts.action.href)}" style="display:inline-block;background:${accent};color:#ffffff;text-decoration:none;font:600 15px/1 ${FONT};padding:12px 20px;border-radius:6px">${escapeHtml(parts.action.label)}</a></p>
<p class="muted" style="margin:0;font:13px/1.5 ${FONT};word-break:break-all">Or open ${escapeHtml(parts.action.href)}</p>`
    : '';
  const unsubscribe = parts.unsubscribeUrl ? ` <a href="${escapeHtml(parts.unsubscribeUrl)}">Unsubscribe</a>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<title>${escapeHtml(parts.heading)}</title>
<style>${STYLE}</style>
</head>
<body>
<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(parts.preheader)}</div>
<table role="presentation" class="page" width="100%" cellpadding="0" cellspacing="0" border="0"><tr><td align="center" style="padding:24px 8px">
<table role="presentation" class="card" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;border-top:4px solid ${accent}">
${header}
<tr><td class="pad" style="padding:8px 32px 28px;font:15px/1.6 ${FONT}">
<h1 style="margin:8px 0 16px;font:600 21px/1.3 ${FONT}">${escapeHtml(parts.heading)}</h1>
${parts.bodyHtml}
${button}
</td></tr>
</table>
<p class="muted" style="max-width:600px;margin:16px auto 0;font:12px/1.5 ${FONT}">${escapeHtml(parts.reason)}${unsubscribe}</p>
</td></tr></table>
</body>
</html>
`;
}

export function mailText(parts: MailParts): string {
  const lines = [parts.heading, '', parts.bodyText.trim()];
  if (parts.action) lines.push('', `${parts.action.label}: ${parts.action.href}`);
  lines.push('', '-- ', parts.reason);
  if (parts.unsubscribeUrl) lines.push(`Unsubscribe: ${parts.unsubscribeUrl}`);
  return `${lines.join('\n')}\n`;
}

/** A paragraph of plain text as HTML. */
export function para(text: string, muted = false): string {
  return `<p${muted ? ' class="muted"' : ''} style="margin:0 0 12px">${escapeHtml(text)}</p>`;
}
