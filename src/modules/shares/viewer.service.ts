/**
 * The public viewer's rules (reports-api.md 4.3): which link serves, passcodes and their attempt
 * limit, exact view counts, and the page itself. No authentication: the token is the capability.
 */
import type { AppContext } from '../../http/types.js';
import { PASSCODE_MAX_CHARS, PASSCODE_MAX_INPUT, SHARE_TOKEN_PATTERN, passcodeLength, verifyPasscode } from '../../lib/secrets.js';
import { hashSecret } from '../../lib/tokens.js';
import { parseDocument } from '../../render/document.js';
import type { ReportPageInput } from '../../render/share-page.js';
import * as repo from './shares.repository.js';

/** Wrong passcodes allowed per link and window; beyond that the passcode is not even checked. */
export const PASSCODE_ATTEMPT_LIMIT = 10;
export const PASSCODE_WINDOW_MS = 15 * 60_000;

const PAGE_CACHE_ENTRIES = 200;
/** Pages are kept until either bound is hit; a long timesheet can be megabytes of HTML. */
const PAGE_CACHE_CHARS = 64 * 1024 * 1024;

export type ViewerOutcome =
  | { kind: 'report'; html: string }
  | { kind: 'passcode-form' }
  | { kind: 'wrong-passcode' }
  | { kind: 'rate-limited'; retryAfterSeconds: number }
  | { kind: 'not-found' };

const NOT_FOUND: ViewerOutcome = { kind: 'not-found' };

/**
 * Rendered pages by content version id, least recently used first. Content versions never change
 * (the database refuses updates), so an entry is never stale and every process may keep its own
 * copy. Whether a link still serves is decided by the database on every request, never by this
 * cache. Pending renders are shared, so a burst of first views renders a version once.
 */
class PageCache {
  private readonly pages = new Map<string, Promise<string | null>>();
  private readonly sizes = new Map<string, number>();
  private chars = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxChars: number,
  ) {}

  get(id: string, render: () => Promise<string | null>): Promise<string | null> {
    const hit = this.pages.get(id);
    if (hit) {
      this.pages.delete(id);
      this.pages.set(id, hit);
      return hit;
    }
    const page = render();
    this.pages.set(id, page);
    page.then(
      (html) => {
        if (this.pages.get(id) !== page) return;
        if (html === null) this.pages.delete(id);
        else {
          this.sizes.set(id, html.length);
          this.chars += html.length;
        }
        this.trim();
      },
      () => {
        if (this.pages.get(id) === page) this.pages.delete(id);
      },
    );
    this.trim();
    return page;
  }

  private trim(): void {
    while (this.pages.size > this.maxEntries || this.chars > this.maxChars) {
      const oldest = this.pages.keys().next().value;
      if (oldest === undefined) return;
      this.pages.delete(oldest);
      this.chars -= this.sizes.get(oldest) ?? 0;
      this.sizes.delete(oldest);
    }
  }
}

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
  if ([...candidate].length > PASSCODE_MAX_INPUT) return false;
  if (passcodeLength(candidate) > PASSCODE_MAX_CHARS) return false;
  return verifyPasscode(candidate, stored);
}

export interface Viewer {
  /** GET: the page, or the passcode form for a protected link. */
  open(token: string): Promise<ViewerOutcome>;
  /** POST: the page for the right passcode (or for a link without one). */
  unlock(token: string, passcode: unknown): Promise<ViewerOutcome>;
}

export function createViewer(ctx: AppContext): Viewer {
  const pages = new PageCache(PAGE_CACHE_ENTRIES, PAGE_CACHE_CHARS);

  const renderPage = (reportContentId: string): Promise<string | null> =>
    pages.get(reportContentId, async () => {
      const source = await repo.findPageSource(ctx.db, reportContentId);
      return source ? ctx.renderer.renderPage(pageInput(source)) : null;
    });

  /** A link that serves right now; malformed tokens are refused before any database access. */
  async function serving(token: string): Promise<repo.ShareRow | null> {
    if (!SHARE_TOKEN_PATTERN.test(token)) return null;
    const share = await repo.findShareByTokenHash(ctx.db, hashSecret(token));
    return share && serves(share, ctx.clock.now()) ? share : null;
  }

  /**
   * The page first, then the count: a view is counted only when there is a page to serve, and a
   * render that fails counts nothing. The share row's version is safe to render before the count
   * confirms the link, since versions never change and the count re-checks validity itself.
   */
  async function view(share: repo.ShareRow, refundWindow?: Date): Promise<ViewerOutcome> {
    const html = await renderPage(share.reportContentId);
    if (html === null) return NOT_FOUND;
    const counted = await repo.countView(ctx.db, share.tokenHash, ctx.clock.now(), refundWindow);
    return counted ? { kind: 'report', html } : NOT_FOUND;
  }

  return {
    async open(token) {
      const share = await serving(token);
      if (!share) return NOT_FOUND;
      if (share.passcodeHash !== null) return { kind: 'passcode-form' };
      return view(share);
    },

    async unlock(token, passcode) {
      const share = await serving(token);
      if (!share) return NOT_FOUND;
      if (share.passcodeHash === null) return view(share);
      const now = ctx.clock.now();
      const booked = await repo.bookPasscodeAttempt(ctx.db, share.id, now, PASSCODE_WINDOW_MS, PASSCODE_ATTEMPT_LIMIT);
      if (!booked) return NOT_FOUND;
      if (booked.attempts > PASSCODE_ATTEMPT_LIMIT) {
        const remainingMs = booked.windowStartedAt.getTime() + PASSCODE_WINDOW_MS - now.getTime();
        return { kind: 'rate-limited', retryAfterSeconds: Math.max(1, Math.ceil(remainingMs / 1000)) };
      }
      if (!(await passcodeMatches(passcode, share.passcodeHash))) return { kind: 'wrong-passcode' };
      return view(share, booked.windowStartedAt);
    },
  };
}
