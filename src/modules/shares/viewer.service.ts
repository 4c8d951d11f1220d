/**
 * The public viewer's rules (docs/api.md "Public viewer"): which link serves, passcodes and their attempt
 * limit, exact view counts, and the page itself. No authentication: the token is the capability.
 */
import type { AppContext } from '../../context.js';
import {
  PASSCODE_MAX_CHARS,
  PASSCODE_MAX_INPUT,
  SHARE_TOKEN_PATTERN,
  codePoints,
  passcodeLength,
  verifyPasscode,
} from '../../lib/secrets.js';
import { clientBlock } from '../../lib/client-block.js';
import { hashSecret } from '../../lib/tokens.js';
import { parseDocument } from '../../render/document.js';
import type { ReportPageInput } from '../../render/share-page.js';
import { createHmac } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import * as repo from '../../repositories/shares.repository.js';
import { ViewCounter } from './view-counter.js';

/**
 * Wrong passcodes allowed per window from one client (an address, an IPv6 /64) on one link, and
 * from all clients together on one link (the ceiling), past which each client may try only
 * `perClientPastCeiling` times; beyond these the passcode is not even checked
 * (docs/operations.md "Passcode attempts").
 */
export const PASSCODE_LIMITS = { windowMs: 15 * 60_000, perClient: 10, perLink: 100, perClientPastCeiling: 2 } as const;

/** Rendered pages kept per process, by total size; a long timesheet can be megabytes of HTML. */
const PAGE_CACHE_BYTES = 32 * 1024 * 1024;
/** Links kept per process, by token hash: a few hundred bytes each. */
const LINK_CACHE_ENTRIES = 5_000;

export type ViewerOutcome =
  | { kind: 'report'; html: Buffer }
  | { kind: 'passcode-form' }
  | { kind: 'wrong-passcode' }
  | { kind: 'rate-limited'; retryAfterSeconds: number }
  | { kind: 'not-found' };

const NOT_FOUND: ViewerOutcome = { kind: 'not-found' };

/**
 * Provenance comes from the version's own front matter, so the page shows the name, period and
 * owner as they were when that version was rendered. A document without readable front matter
 * falls back to the report's current fields rather than failing the page.
 */
function pageInput(source: repo.PageSource): ReportPageInput {
  const { frontMatter, body } = parseDocument(source.renderedMarkdown);
  if (!frontMatter) {
    return {
      name: source.reportName,
      period: { from: source.periodFrom, to: source.periodTo },
      ownerName: source.ownerName,
      generatedAt: source.createdAt.toISOString(),
      timezone: source.ownerTimezone,
      version: source.version,
      bodyMarkdown: body,
    };
  }
  return {
    name: frontMatter.report.name,
    period: { from: frontMatter.period.from, to: frontMatter.period.to },
    ownerName: frontMatter.owner.name,
    generatedAt: frontMatter.generatedAt,
    timezone: frontMatter.timezone,
    version: source.version,
    bodyMarkdown: body,
  };
}

function serves(share: repo.ShareRow, now: Date): boolean {
  return share.revokedAt === null && (share.expiresAt === null || share.expiresAt > now);
}

/**
 * No hash is spent on a candidate that cannot match. Lengths are those of the NFC form, the form
 * that is hashed, so a passcode typed with combining accents is judged by the passcode it is.
 * Upper bounds only: a link minted while the 4-character minimum still counted raw code points may
 * hold a passcode of fewer than 4 characters in NFC, and it must still open.
 */
async function passcodeMatches(candidate: unknown, stored: string): Promise<boolean> {
  if (typeof candidate !== 'string' || candidate.length === 0) return false;
  if (codePoints(candidate) > PASSCODE_MAX_INPUT) return false;
  if (passcodeLength(candidate) > PASSCODE_MAX_CHARS) return false;
  return verifyPasscode(candidate, stored);
}

export interface Viewer {
  /** GET: the page, or the passcode form for a protected link. */
  open(token: string): Promise<ViewerOutcome>;
  /** POST: the page for the right passcode (or for a link without one); `clientAddress` counts the attempt. */
  unlock(token: string, passcode: unknown, clientAddress: string): Promise<ViewerOutcome>;
}

/**
 * The viewer keeps two caches, neither of which ever decides whether a link serves:
 * - pages by content version id: versions never change (the database refuses updates), so a page
 *   is never stale; concurrent first views render a version once;
 * - links by token hash: the row's fixed facts (its version, passcode hash, expiry). Whether the
 *   link still serves is checked by the database in the very statement that counts the view (or,
 *   for a passcode link, by the statement that books the attempt or a direct check), so a link
 *   revoked on any process stops serving at once. A link this process saw revoked or expired is
 *   refused without asking again: revocation is final.
 */
export function createViewer(ctx: AppContext): Viewer {
  const pages = new LRUCache<string, Buffer>({
    maxSize: PAGE_CACHE_BYTES,
    sizeCalculation: (page) => Math.max(1, page.length),
    fetchMethod: async (reportContentId) => {
      const source = await repo.findPageSource(ctx.db, reportContentId);
      return source ? Buffer.from(await ctx.renderer.renderPage(pageInput(source))) : undefined;
    },
  });
  const links = new LRUCache<string, repo.ShareRow>({ max: LINK_CACHE_ENTRIES });
  const counter = new ViewCounter((views) => repo.countViews(ctx.db, views, ctx.clock.now()));

  /** The link a well-formed token names, from the cache or the database; malformed tokens cost nothing. */
  async function lookup(token: string): Promise<repo.ShareRow | null> {
    if (!SHARE_TOKEN_PATTERN.test(token)) return null;
    const tokenHash = hashSecret(token);
    const cached = links.get(tokenHash);
    if (cached) return cached;
    const share = await repo.findShareByTokenHash(ctx.db, tokenHash);
    if (share) links.set(tokenHash, share);
    return share ?? null;
  }

  /**
   * The page first, then the count: a view is counted only when there is a page to serve, and a
   * render that fails counts nothing. Rendering the row's version before the count confirms the
   * link is safe: versions never change, and the count checks validity itself.
   */
  async function view(share: repo.ShareRow, refund?: { clientKey: string; client: Date; link: Date }): Promise<ViewerOutcome> {
    const html = await pages.fetch(share.reportContentId);
    if (!html) return NOT_FOUND;
    const counted = refund
      ? await repo.countView(ctx.db, share.tokenHash, ctx.clock.now(), refund.link)
      : await counter.count(share.tokenHash);
    if (!counted) {
      links.delete(share.tokenHash);
      return NOT_FOUND;
    }
    ctx.metrics.shareViews.inc();
    if (refund) await repo.refundClientAttempt(ctx.db, share.id, refund.clientKey, refund.client);
    return { kind: 'report', html };
  }

  /** The client as the attempt counter keys it: its /64 for IPv6, keyed-hashed, so the table holds no addresses. */
  const clientKeyOf = (address: string): string =>
    createHmac('sha256', ctx.shareKey)
      .update(`passcode-client:${clientBlock(address)}`)
      .digest('base64url');

  return {
    async open(token) {
      const share = await lookup(token);
      if (!share || !serves(share, ctx.clock.now())) return NOT_FOUND;
      if (share.passcodeHash === null) return view(share);
      if (await repo.shareServes(ctx.db, share.id, ctx.clock.now())) return { kind: 'passcode-form' };
      links.delete(share.tokenHash);
      return NOT_FOUND;
    },

    async unlock(token, passcode, clientAddress) {
      const share = await lookup(token);
      if (!share || !serves(share, ctx.clock.now())) return NOT_FOUND;
      const stored = share.passcodeHash;
      if (stored === null) return view(share);
      // The clock is read again: the link may have expired since the lookup.
      const now = ctx.clock.now();
      const clientKey = clientKeyOf(clientAddress);
      const booked = await repo.bookPasscodeAttempt(ctx.db, share.id, clientKey, now, PASSCODE_LIMITS);
      if (booked.kind === 'gone') {
        links.delete(share.tokenHash);
        return NOT_FOUND;
      }
      if (booked.kind === 'limited') {
        ctx.metrics.passcodeFailures.inc({ reason: 'rate_limited' });
        return { kind: 'rate-limited', retryAfterSeconds: Math.max(1, Math.ceil((booked.until.getTime() - now.getTime()) / 1000)) };
      }
      if (!(await ctx.passcodeSlots.run('unlock', () => passcodeMatches(passcode, stored)))) {
        ctx.metrics.passcodeFailures.inc({ reason: 'wrong' });
        return { kind: 'wrong-passcode' };
      }
      return view(share, { clientKey, client: booked.client.windowStartedAt, link: booked.link.windowStartedAt });
    },
  };
}
