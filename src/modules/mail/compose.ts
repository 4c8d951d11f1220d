/**
 * What each kind of mail says (delivery.md §3; docs/email.md shows each). A message is composed
 * when it is sent, from the rows it names, so it says what is true then; a message whose subject
 * is gone (a deleted report, a revoked link) composes to null and is not sent. User-written text
 * (messages, comments) is Markdown through the one safe renderer; names are escaped.
 */
import type { AppContext } from '../../context.js';
import { markdownToSafeHtml, reactionEmoji } from '../../../packages/document/src/index.js';
import { decryptSecret } from '../../lib/secrets.js';
import { formatIsoDay } from '../../lib/locale.js';
import { escapeHtml } from '../../lib/text.js';
import * as repo from '../../repositories/mail.repository.js';
import { brandingOf } from '../branding/branding.service.js';
import { exportFileName, fileIdentity, pdfFile, versionLocale, type FileIdentity, type PdfSource } from '../exports/exports.service.js';
import { documentLabels } from '../../render/document-labels.js';
import { LOGO_CID, mailHtml, mailText, para, type MailBrand, type MailParts } from './mail-layout.js';
import { unsubscribeKey, unsubscribeToken, type MailEvent, type Unsubscribe } from './unsubscribe.js';

export interface MailAttachment {
  filename: string;
  content: Uint8Array;
  contentType: string;
  /** Set for the inline logo. */
  cid?: string;
}

export interface ComposedMail {
  subject: string;
  html: string;
  text: string;
  attachments: MailAttachment[];
  /** The one-click unsubscribe URL (List-Unsubscribe), or null for a mail that has none. */
  unsubscribeUrl: string | null;
  /** What it says, piece by piece: a digest shows each gathered mail's as a section. */
  parts: MailParts;
}

/** A discussion change a batch names (mail.service.ts `discussionChanged`). */
export interface DiscussionItem {
  type: 'comment' | 'reaction';
  by: string;
  /** The comment's first characters, or the reaction's key. */
  text: string;
}

/** A set-password link as its mail carries it (encrypted in the message's `secret`). */
export interface PasswordLinkSecret {
  url: string;
  expiresAt: string;
}

/** The version's period, its days written as `locale` writes them (a teammate's mail: `en`). */
function periodText(identity: FileIdentity, locale = 'en'): string {
  const { from, to } = identity.period;
  return from === to ? formatIsoDay(from, locale) : `${formatIsoDay(from, locale)} \u2013 ${formatIsoDay(to, locale)}`;
}

/** A PNG's width and height from its header. */
function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return png.byteLength >= 24 ? { width: view.getUint32(16), height: view.getUint32(20) } : { width: 0, height: 0 };
}

interface Brand {
  brand: MailBrand;
  attachments: MailAttachment[];
}

/** The look of a report's first workspace, with its logo attached inline. */
async function brandOf(ctx: AppContext, workspaceIds: readonly string[]): Promise<Brand> {
  const workspaceId = workspaceIds[0];
  if (!workspaceId) return { brand: { displayName: null, accentColor: null, logo: null }, attachments: [] };
  const branding = await brandingOf(ctx.db, workspaceId);
  const logo = branding.logoPng;
  return {
    brand: { displayName: branding.displayName, accentColor: branding.accentColor, logo: logo ? pngSize(logo) : null },
    attachments: logo ? [{ filename: 'logo.png', content: logo, contentType: 'image/png', cid: LOGO_CID }] : [],
  };
}

const NO_BRAND: Brand = { brand: { displayName: null, accentColor: null, logo: null }, attachments: [] };

function unsubscribeUrl(ctx: AppContext, target: Unsubscribe): string | null {
  const token = unsubscribeToken(unsubscribeKey(ctx.shareKey), target);
  return token ? `${ctx.config.publicBaseUrl}/mail/unsubscribe/${token}` : null;
}

function eventUnsubscribe(ctx: AppContext, message: repo.MessageRow, event: MailEvent): string | null {
  return message.recipientUserId ? unsubscribeUrl(ctx, { kind: 'event', userId: message.recipientUserId, event }) : null;
}

function finish(subject: string, parts: MailParts, brand: Brand, extra: MailAttachment[] = []): ComposedMail {
  return {
    subject,
    html: mailHtml(parts),
    text: mailText(parts),
    attachments: [...brand.attachments, ...extra],
    unsubscribeUrl: parts.unsubscribeUrl,
    parts,
  };
}

/** A user's message (a send's, a schedule's): quoted, as safe Markdown. */
function quoted(message: string | null): { html: string; text: string } {
  if (!message) return { html: '', text: '' };
  const html = `<div class="message">${markdownToSafeHtml(message, { headingOffset: 2 })}</div>`;
  const text = `${message
    .trim()
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n')}\n\n`;
  return { html, text };
}

/** The version's PDF, made in a worker behind the render gate of the mail sender (not charged to anyone). */
async function pdfAttachment(ctx: AppContext, source: PdfSource): Promise<MailAttachment> {
  const content = await pdfFile(ctx, 'mail', source, null);
  return { filename: exportFileName(source.identity, 'pdf'), content, contentType: 'application/pdf' };
}

async function composeDelivery(ctx: AppContext, message: repo.MessageRow): Promise<ComposedMail | null> {
  if (!message.deliveryId) return null;
  const found = await repo.deliveryForMail(ctx.db, message.deliveryId, message.attachPdf);
  if (!found) return null;
  const identity = fileIdentity(found.markdown, found.report, found.version, found.reportContentId);
  const brand = await brandOf(ctx, found.report.workspaceIds);
  const pdf = message.attachPdf
    ? [await pdfAttachment(ctx, { markdown: found.markdown, report: found.report, contentId: found.reportContentId, identity })]
    : [];
  const period = periodText(identity);
  const note = quoted(found.message);
  const attached = pdf.length > 0 ? ' The PDF is attached.' : '';
  const intro = `${found.senderName} sent you version ${found.version} of \u201c${identity.name}\u201d, for ${period}.${attached}`;
  const parts: MailParts = {
    preheader: intro,
    heading: identity.name,
    bodyHtml: para(intro) + note.html,
    bodyText: `${intro}\n\n${note.text}`,
    action: { href: `${ctx.config.publicBaseUrl}/app/inbox/${found.id}`, label: 'Open in Chronicle' },
    reason: 'You get this mail because a report arrived in your Chronicle inbox.',
    unsubscribeUrl: eventUnsubscribe(ctx, message, 'inbox'),
    brand: brand.brand,
  };
  return finish(`${found.senderName} sent you \u201c${identity.name}\u201d (${period})`, parts, brand, pdf);
}

async function composeAddress(ctx: AppContext, message: repo.MessageRow): Promise<ComposedMail | null> {
  if (!message.shareId) return null;
  const share = await repo.shareForMail(ctx.db, message.shareId);
  if (!share || share.revokedAt) return null;
  const document = await repo.versionDocument(ctx.db, message.reportContentId ?? share.reportContentId, message.attachPdf);
  if (!document) return null;
  const contentId = message.reportContentId ?? share.reportContentId;
  const identity = fileIdentity(document.markdown, share.report, document.version, contentId);
  const brand = await brandOf(ctx, share.report.workspaceIds);
  // A client reads the mail in the language its document was rendered in (docs/email.md), as its PDF is.
  const locale = await versionLocale(ctx, contentId, share.report);
  const pdf = message.attachPdf
    ? [await pdfAttachment(ctx, { markdown: document.markdown, report: share.report, contentId, identity, locale })]
    : [];
  const { message: sendMessage = null } = message.data as { message?: string | null };
  const note = quoted(sendMessage);
  const words = documentLabels(locale).mail;
  const period = periodText(identity, locale);
  const link = `${ctx.config.publicBaseUrl}/share/${decryptSecret(ctx.shareKey, share.tokenEncrypted)}`;
  const follows = share.follows === 'latest' ? words.linkFollows : words.linkFixed;
  const attached = pdf.length > 0 ? ` ${words.pdfAttached}` : '';
  const intro = `${words.sentYou(share.ownerName, identity.name, period)}${attached}`;
  const parts: MailParts = {
    preheader: intro,
    heading: identity.name,
    bodyHtml: para(intro) + note.html + para(follows, true),
    bodyText: `${intro}\n\n${note.text}${follows}`,
    action: { href: link, label: words.viewReport },
    reason: words.why(share.ownerName, message.toAddress),
    unsubscribeUrl: unsubscribeUrl(ctx, { kind: 'address', shareId: share.id }),
    brand: brand.brand,
    language: { lang: locale, unsubscribe: words.unsubscribe, orOpen: words.orOpen },
  };
  return finish(`${identity.name} (${period})`, parts, brand, pdf);
}

async function composeDiscussion(ctx: AppContext, message: repo.MessageRow): Promise<ComposedMail | null> {
  if (!message.reportContentId || !message.recipientUserId) return null;
  const found = await repo.discussionForMail(ctx.db, message.reportContentId, message.recipientUserId);
  if (!found) return null;
  const { items = [], more = 0 } = message.data as { items?: DiscussionItem[]; more?: number };
  const comments = items.filter((i) => i.type === 'comment').length;
  const reactions = items.length - comments + more;
  const what = [
    comments > 0 ? `${comments} new comment${comments === 1 ? '' : 's'}` : '',
    reactions > 0 ? `${reactions} new reaction${reactions === 1 ? '' : 's'}` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  // Each change on a line of its own; a comment's text is Markdown through the safe renderer, quoted.
  const listHtml = `${items
    .map((i) =>
      i.type === 'comment'
        ? `<p style="margin:16px 0 0"><strong>${escapeHtml(i.by)}</strong> commented:</p>${quoted(i.text).html}`
        : `<p style="margin:16px 0 12px"><strong>${escapeHtml(i.by)}</strong> reacted ${escapeHtml(reactionEmoji(i.text))}</p>`,
    )
    .join('')}${more > 0 ? para(`And ${more} more.`, true) : ''}`;
  const listText = items
    .map((i) => (i.type === 'comment' ? `- ${i.by} commented: ${i.text}` : `- ${i.by} reacted ${reactionEmoji(i.text)}`))
    .join('\n');
  const href = found.deliveryId
    ? `${ctx.config.publicBaseUrl}/app/inbox/${found.deliveryId}`
    : `${ctx.config.publicBaseUrl}/app/reports/${found.reportId}`;
  const intro = `${what} on version ${found.version} of \u201c${found.reportName}\u201d.`;
  const brand = await brandOf(ctx, found.workspaceIds);
  const parts: MailParts = {
    preheader: intro,
    heading: `Discussion of \u201c${found.reportName}\u201d`,
    bodyHtml: para(intro.charAt(0).toUpperCase() + intro.slice(1)) + listHtml,
    bodyText: `${intro.charAt(0).toUpperCase() + intro.slice(1)}\n\n${listText}${more > 0 ? `\nAnd ${more} more.` : ''}`,
    action: { href, label: 'Open the discussion' },
    reason: 'You get this mail because you take part in this discussion (at most one mail per discussion every 10 minutes).',
    unsubscribeUrl: eventUnsubscribe(ctx, message, 'discussion'),
    brand: brand.brand,
  };
  return finish(`${what.charAt(0).toUpperCase() + what.slice(1)} on \u201c${found.reportName}\u201d`, parts, brand);
}

async function composeRunProblem(ctx: AppContext, message: repo.MessageRow): Promise<ComposedMail | null> {
  if (!message.scheduleRunId) return null;
  const found = await repo.runForMail(ctx.db, message.scheduleRunId);
  if (!found) return null;
  const { run } = found;
  const skipped = run.skipped as { name: string; reason: string }[];
  const failed = run.status === 'failed';
  const intro = failed
    ? `The scheduled run of \u201c${found.reportName}\u201d failed; nothing was sent.`
    : `The scheduled run of \u201c${found.reportName}\u201d made version ${run.version ?? ''} but could not deliver it to ${skipped.length} recipient${skipped.length === 1 ? '' : 's'}.`;
  // A skip's reason is a predicate that follows the name ("is no longer a member of “Studio”", access.ts).
  const reasons = failed ? [run.error ?? 'No reason was recorded.'] : skipped.map((s) => `${s.name} ${s.reason}`);
  const reasonsHtml = failed
    ? [escapeHtml(reasons[0] ?? '')]
    : skipped.map((s) => `<strong>${escapeHtml(s.name)}</strong> ${escapeHtml(s.reason)}`);
  const fix = failed
    ? 'Open the report to see the run and fix what it names; "Run now" tries again.'
    : "Open the report's schedule to change its recipients, or give them back access to what the report covers.";
  const brand = await brandOf(ctx, found.workspaceIds);
  const parts: MailParts = {
    preheader: intro,
    heading: failed ? 'A scheduled report failed' : 'A scheduled report skipped recipients',
    bodyHtml: `${para(intro)}<ul style="padding-left:20px;margin:0 0 16px">${reasonsHtml.map((r) => `<li style="margin:0 0 6px">${r}</li>`).join('')}</ul>${para(fix)}`,
    bodyText: `${intro}\n\n${reasons.map((r) => `- ${r}`).join('\n')}\n\n${fix}`,
    action: { href: `${ctx.config.publicBaseUrl}/app/reports/${run.reportId}`, label: 'Open the report' },
    reason: 'You get this mail because you own this scheduled report.',
    unsubscribeUrl: eventUnsubscribe(ctx, message, 'scheduleProblems'),
    brand: brand.brand,
  };
  return finish(
    failed ? `Scheduled run failed: \u201c${found.reportName}\u201d` : `Scheduled run skipped recipients: \u201c${found.reportName}\u201d`,
    parts,
    brand,
  );
}

function composePasswordLink(ctx: AppContext, message: repo.MessageRow): ComposedMail | null {
  if (!message.secret) return null;
  const link = JSON.parse(decryptSecret(ctx.shareKey, message.secret)) as PasswordLinkSecret;
  const until = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(
    new Date(link.expiresAt),
  );
  const intro = `An administrator of Chronicle made a link for you to set your password. It works once, until ${until} UTC.`;
  const parts: MailParts = {
    preheader: intro,
    heading: 'Set your Chronicle password',
    bodyHtml: para(intro) + para('If you did not expect this mail, you can ignore it.', true),
    bodyText: `${intro}\n\nIf you did not expect this mail, you can ignore it.`,
    action: { href: link.url, label: 'Set your password' },
    reason: 'You get this mail because an administrator of Chronicle chose to send you this link.',
    unsubscribeUrl: null,
    brand: NO_BRAND.brand,
  };
  return finish('Set your Chronicle password', parts, NO_BRAND);
}

const isPdf = (attachment: MailAttachment) => attachment.contentType === 'application/pdf';

/** Sections one digest shows, and PDFs it attaches; it says how many more there were. */
const DIGEST_MAX_SECTIONS = 50;
const DIGEST_MAX_PDFS = 10;

/** A daily digest: what each gathered message would have said, one section each. */
async function composeDigest(ctx: AppContext, message: repo.MessageRow): Promise<ComposedMail | null> {
  const { items, total } = await repo.digestItems(ctx.db, message.id, DIGEST_MAX_SECTIONS);
  const parts: ComposedMail[] = [];
  for (const item of items) {
    const composed = await composeMail(
      ctx,
      parts.filter((p) => p.attachments.some(isPdf)).length < DIGEST_MAX_PDFS ? item : { ...item, attachPdf: false },
    );
    if (composed) parts.push(composed);
  }
  if (parts.length === 0) return null;
  const more = total - items.length;
  const count = parts.length + more;
  const intro = `${count} update${count === 1 ? '' : 's'} since your last digest.`;
  const tail = more > 0 ? `And ${more} more in your inbox.` : '';
  // Each gathered mail as a section: its heading, what it says, and its link.
  const sectionsHtml = parts
    .map(({ parts: section }) => {
      const link = section.action
        ? `<p style="margin:0 0 8px"><a href="${escapeHtml(section.action.href)}" style="font-weight:600">${escapeHtml(section.action.label)}</a></p>`
        : '';
      return `<div class="rule" style="border-top:1px solid #e5e7eb;margin:20px 0 0;padding:20px 0 0"><h2 style="margin:0 0 8px;font-size:17px;line-height:1.35">${escapeHtml(section.heading)}</h2>${section.bodyHtml}${link}</div>`;
    })
    .join('');
  const sectionsText = parts
    .map(({ parts: section }) =>
      [
        `## ${section.heading}`,
        '',
        section.bodyText.trim(),
        ...(section.action ? ['', `${section.action.label}: ${section.action.href}`] : []),
      ].join('\n'),
    )
    .join('\n\n');
  const brand = sharedBrand(parts);
  const body: MailParts = {
    preheader: intro,
    heading: 'Your Chronicle digest',
    bodyHtml: `${para(intro)}${sectionsHtml}<div class="rule" style="border-top:1px solid #e5e7eb;margin:20px 0 0;padding:${tail ? '16px' : '0'} 0 0">${tail ? para(tail, true) : ''}</div>`,
    bodyText: `${intro}\n\n${sectionsText}${tail ? `\n\n${tail}` : ''}`,
    action: { href: `${ctx.config.publicBaseUrl}/app/inbox`, label: 'Open your inbox' },
    reason: 'You get this digest at 08:00 each day there is something new, because your Chronicle settings ask for one.',
    unsubscribeUrl: message.recipientUserId ? unsubscribeUrl(ctx, { kind: 'digest', userId: message.recipientUserId }) : null,
    brand: brand.brand,
  };
  const attachments = parts.flatMap((m) => m.attachments.filter(isPdf));
  return finish(`Your Chronicle digest: ${count} update${count === 1 ? '' : 's'}`, body, brand, attachments);
}

/** The look every section of a digest shares (all from one workspace's reports), or Chronicle's own. */
function sharedBrand(mails: readonly ComposedMail[]): Brand {
  const [first, ...rest] = mails;
  if (!first) return NO_BRAND;
  const logoOf = (mail: ComposedMail) => mail.attachments.find((a) => a.cid === LOGO_CID);
  const logo = logoOf(first);
  const same = (mail: ComposedMail) => {
    const other = logoOf(mail);
    return (
      JSON.stringify(mail.parts.brand) === JSON.stringify(first.parts.brand) &&
      (logo && other ? Buffer.from(logo.content).equals(Buffer.from(other.content)) : logo === other)
    );
  };
  return rest.every(same) ? { brand: first.parts.brand, attachments: logo ? [logo] : [] } : NO_BRAND;
}

/** The mail a message stands for, as it would be sent now; null when there is nothing to send any more. */
export async function composeMail(ctx: AppContext, message: repo.MessageRow): Promise<ComposedMail | null> {
  switch (message.kind) {
    case 'delivery':
      return composeDelivery(ctx, message);
    case 'address':
      return composeAddress(ctx, message);
    case 'discussion':
      return composeDiscussion(ctx, message);
    case 'run_problem':
      return composeRunProblem(ctx, message);
    case 'password_link':
      return composePasswordLink(ctx, message);
    case 'digest':
      return composeDigest(ctx, message);
    default:
      return null;
  }
}
