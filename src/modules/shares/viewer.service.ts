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
import { CLIENT_RETRY_AFTER_SECONDS } from '../../lib/client-gate.js';
import { hashSecret } from '../../lib/tokens.js';
import { parseDocument } from '../../../packages/document/src/index.js';
import type { PageBranding, ReportPageInput } from '../../render/share-page.js';
import { logoPath } from '../branding/branding.service.js';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Readable as ReadableStream } from 'node:stream';
import { AppError } from '../../lib/errors.js';
import { brandingVersionOf, countDownload, findVersionFileSource } from '../../repositories/exports.repository.js';
import { datasetFile, exportDisposition, fileIdentity, pdfFile } from '../exports/exports.service.js';
import { downloadLinks, findDownloadsMarker, followsNote } from '../../render/share-page.js';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { LRUCache } from 'lru-cache';
import { createPageFileCache } from './page-file-cache.js';
import * as repo from '../../repositories/shares.repository.js';
import { ViewCounter } from './view-counter.js';
import { createCompressedCopies } from '../../lib/compressed-copies.js';
import type { ContentEncoding } from '../../lib/compression.js';

/**
 * Wrong passcodes allowed per window from one client (an address, an IPv6 /64) on one link, and
 * from all clients together on one link (the ceiling), past which each client may try only
 * `perClientPastCeiling` times; beyond these the passcode is not even checked
 * (docs/operations.md "Passcode attempts").
 */
export const PASSCODE_LIMITS = { windowMs: 15 * 60_000, perClient: 10, perLink: 100, perClientPastCeiling: 2 } as const;

/** Clients refused passcode attempts remembered per process (about 100 bytes each); the rest ask the database. */
const LOCKED_OUT_ENTRIES = 10_000;

/** Rendered pages kept in memory per process, by total size; a long timesheet can be megabytes of HTML. */
const PAGE_CACHE_BYTES = 32 * 1024 * 1024;
/**
 * The largest page kept in memory: larger ones go to this process's page files, so a few large
 * pages never push out the many small ones, and none is ever rendered twice (page-file-cache.ts).
 */
export const MEMORY_PAGE_MAX_BYTES = 1024 * 1024;
/** Page files kept per process, by total size, on the disk of os.tmpdir(). */
const PAGE_FILE_CACHE_BYTES = 1024 * 1024 * 1024;
/**
 * Compressed pages kept per process, by total size (lib/compressed-copies.ts): about 90 KB for a
 * 5,000-entry page, a few KB for most. Pages above the largest are sent as they are.
 */
const COMPRESSED_PAGE_BYTES = 16 * 1024 * 1024;
const COMPRESSED_PAGE_MAX_SOURCE_BYTES = 16 * 1024 * 1024;
/** Links kept per process, by token hash: a few hundred bytes each. */
const LINK_CACHE_ENTRIES = 5_000;

/** How long a download link handed out after a passcode stays valid (docs/exports.md "Share links"). */
export const DOWNLOAD_GRANT_SECONDS = 10 * 60;

/** Files kept per process for share downloads, by total size: a version's files never change. */
const FILE_CACHE_BYTES = 64 * 1024 * 1024;

export type DownloadFormat = 'pdf' | 'csv';

interface ShareFile {
  body: Uint8Array;
  contentType: string;
  disposition: string;
}

export type DownloadOutcome =
  /** `encoding`: the file is sent compressed so (a CSV, for a client that accepts it). */
  | ({ kind: 'file'; encoding?: ContentEncoding } & ShareFile)
  /** A passcode link without a valid grant: the reader goes to the page (and its prompt) first. */
  | { kind: 'unlock-first' }
  /** The version has no such file (a version older than datasets has no CSV; a PDF past its bounds). */
  | { kind: 'no-file'; message: string }
  | { kind: 'rate-limited'; retryAfterSeconds: number }
  | { kind: 'unavailable'; retryAfterSeconds: number }
  | { kind: 'not-found' };

export type ViewerOutcome =
  /**
   * The page from memory, or streamed from its file (which the stream closes), and the accent
   * colour its CSP allows; `encoding` when `html` is the page compressed so.
   */
  | { kind: 'report'; html: Buffer | Readable; accentColor: string | null; encoding?: ContentEncoding }
  | { kind: 'passcode-form' }
  | { kind: 'wrong-passcode' }
  | { kind: 'rate-limited'; retryAfterSeconds: number }
  | { kind: 'not-found' };

const NOT_FOUND: ViewerOutcome = { kind: 'not-found' };
const NO_DOWNLOAD: DownloadOutcome = { kind: 'not-found' };

/**
 * Provenance comes from the version's own front matter, so the page shows the name, period and
 * owner as they were when that version was rendered, in the locale it was rendered in. A document
 * without readable front matter falls back to the report's current fields rather than failing
 * the page.
 */
function pageInput(source: repo.PageSource): ReportPageInput {
  const { frontMatter, body } = parseDocument(source.renderedMarkdown);
  const branding = pageBranding(source);
  if (!frontMatter) {
    return {
      branding,
      name: source.reportName,
      period: { from: source.periodFrom, to: source.periodTo },
      ownerName: source.ownerName,
      generatedAt: source.createdAt.toISOString(),
      timezone: source.ownerTimezone,
      version: source.version,
      bodyMarkdown: body,
      locale: source.locale,
    };
  }
  return {
    branding,
    name: frontMatter.report.name,
    period: { from: frontMatter.period.from, to: frontMatter.period.to },
    ownerName: frontMatter.owner.name,
    generatedAt: frontMatter.generatedAt,
    timezone: frontMatter.timezone,
    version: source.version,
    bodyMarkdown: body,
    locale: source.locale,
  };
}

/** The current branding of the report's first workspace (docs/api.md "Branding"), as the page shows it. */
function pageBranding(source: repo.PageSource): PageBranding | null {
  if (source.workspaceId === null) return null;
  const logo =
    source.logoSha256 === null || source.logoWidth === null || source.logoHeight === null
      ? null
      : { src: logoPath(source.workspaceId, source.logoSha256), width: source.logoWidth, height: source.logoHeight };
  return {
    displayName: source.brandingDisplayName,
    accentColor: source.brandingAccentColor,
    footerMarkdown: source.brandingFooter ?? '',
    logo,
  };
}

/** The stamp the page of `source` is rendered with; the same as the view count returns for it. */
const stampOf = (source: repo.PageSource): repo.BrandingStamp => ({
  version: source.brandingVersion ?? 0,
  accentColor: source.brandingAccentColor,
});

/** A page's cache key: its version and branding stamp (letters, digits, `-` and `_`, as page files need). */
const pageKey = (reportContentId: string, stamp: repo.BrandingStamp): string =>
  `${reportContentId}_b${stamp.version}${stamp.accentColor === null ? '' : `-${stamp.accentColor.slice(1)}`}`;

const sameStamp = (a: repo.BrandingStamp, b: repo.BrandingStamp) => a.version === b.version && a.accentColor === b.accentColor;

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

/** A page ready to send: in memory, or an open page file. */
type Page = Buffer | { handle: FileHandle; size: number };
/** A page and the branding stamp it was rendered with. */
interface StampedPage {
  page: Page;
  stamp: repo.BrandingStamp;
}

export interface Viewer {
  /** GET: the page (compressed in `encoding` when it can be), or the passcode form for a protected link. */
  open(token: string, encoding?: ContentEncoding | null): Promise<ViewerOutcome>;
  /** POST: the page for the right passcode (or for a link without one); `clientAddress` counts the attempt. */
  unlock(token: string, passcode: unknown, clientAddress: string, encoding?: ContentEncoding | null): Promise<ViewerOutcome>;
  /** A file of the shared version: a link without a passcode, or one with a grant the unlocked page handed out. */
  download(
    token: string,
    format: DownloadFormat,
    grant: string | undefined,
    clientAddress: string,
    encoding?: ContentEncoding | null,
  ): Promise<DownloadOutcome>;
  /** Removes this process's page files. */
  close(): Promise<void>;
}

/**
 * The viewer keeps two caches, neither of which ever decides whether a link serves:
 * - pages by content version id and branding stamp: versions never change (the database refuses
 *   updates), and what else a page shows (its first workspace's branding) changes only with the
 *   stamp, which the statement counting each view returns; a page whose stamp is not the current
 *   one is rendered again before it is served. Concurrent first views render a version once;
 * - links by token hash: the row's fixed facts (its version, passcode hash, expiry). Whether the
 *   link still serves is checked by the database in the very statement that counts the view (or,
 *   for a passcode link, by the statement that books the attempt or a direct check), so a link
 *   revoked on any process stops serving at once. A link this process saw revoked or expired is
 *   refused without asking again: revocation is final.
 */
export function createViewer(ctx: AppContext): Viewer {
  const pages = new LRUCache<string, Buffer>({ maxSize: PAGE_CACHE_BYTES, sizeCalculation: (page) => Math.max(1, page.length) });
  const pageFiles = createPageFileCache(PAGE_FILE_CACHE_BYTES);
  const compressor = createCompressedCopies({
    maxBytes: COMPRESSED_PAGE_BYTES,
    slots: 1,
    maxSourceBytes: COMPRESSED_PAGE_MAX_SOURCE_BYTES,
  });
  const rendering = new Map<string, Promise<StampedPage | undefined>>();
  /** The stamp each version's page was last seen with, to find its cached page before the count says. */
  const stamps = new LRUCache<string, repo.BrandingStamp>({ max: LINK_CACHE_ENTRIES });

  /** Renders a version's page once and keeps it: in memory if small, in a page file otherwise. */
  async function render(reportContentId: string): Promise<StampedPage | undefined> {
    const source = await repo.findPageSource(ctx.db, reportContentId);
    if (!source) return undefined;
    const stamp = stampOf(source);
    const key = pageKey(reportContentId, stamp);
    const html = Buffer.from(await ctx.renderer.renderPage(pageInput(source)));
    stamps.set(reportContentId, stamp);
    if (html.length <= MEMORY_PAGE_MAX_BYTES) {
      pages.set(key, html);
      return { page: html, stamp };
    }
    if (!(await pageFiles.put(key, html))) return { page: html, stamp };
    return { page: (await pageFiles.open(key)) ?? html, stamp };
  }

  /** The cached page of a version with this stamp, from memory or its file. */
  async function cachedPage(reportContentId: string, stamp: repo.BrandingStamp): Promise<StampedPage | undefined> {
    const key = pageKey(reportContentId, stamp);
    const page = pages.get(key) ?? (await pageFiles.open(key));
    return page ? { page, stamp } : undefined;
  }

  /**
   * The page of a version: cached under `stamp` (the last one seen), or rendered once however many
   * ask at once, with the branding the database has now.
   */
  async function pageOf(reportContentId: string, stamp: repo.BrandingStamp | undefined): Promise<StampedPage | undefined> {
    const cached = stamp && (await cachedPage(reportContentId, stamp));
    if (cached) return cached;
    const pending = rendering.get(reportContentId);
    if (pending) {
      const rendered = await pending;
      if (!rendered) return undefined;
      // Whoever started the render holds its open file; the others open their own.
      const page = await cachedPage(reportContentId, rendered.stamp);
      if (page) return page;
      return Buffer.isBuffer(rendered.page) ? rendered : pageOf(reportContentId, stamp);
    }
    const started = render(reportContentId).finally(() => rendering.delete(reportContentId));
    rendering.set(reportContentId, started);
    return started;
  }
  const links = new LRUCache<string, repo.ShareRow>({ max: LINK_CACHE_ENTRIES });
  /**
   * Clients this process has seen refused further passcode attempts on a link, by `shareId
   * clientKey`, with the instant (ms) the refusal ends. Once booking an attempt says "limited", it
   * says so until that instant whatever any process does (shares.repository.ts
   * bookPasscodeAttempt: a window only starts over when it ends, and only a booked attempt is ever
   * given back), so until then the refusal is answered here, without a statement: a storm of
   * wrong passcodes costs the database nothing once it is refused. Forgetting an entry (the cache
   * is bounded) only sends that client's next attempt to the database again.
   */
  const lockedOut = new LRUCache<string, number>({ max: LOCKED_OUT_ENTRIES });
  /**
   * The view's `share.viewed` webhook event (at most one an hour per link). The page is served
   * whatever happens to it: a view is the reader's, the event only a notice of it.
   */
  const webhookView = (share: repo.ShareRow, reportContentId: string) =>
    ctx.webhooks.shareViewed({ id: share.id, reportContentId, follows: share.follows }).catch(() => undefined);
  // Views commit without waiting for the disk (database.ts `relaxedDb`); a view is still answered only once counted.
  const counter = new ViewCounter<repo.CountedView>((views) => repo.countViews(ctx.database.relaxedDb, views, ctx.clock.now()));

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
   * link is safe: versions never change, and the count checks validity itself. The count also
   * returns the branding stamp: a page rendered with another is rendered again (one render after
   * a branding change; should that render fail, the view it was for has been counted).
   * `encoding`: the page may go out compressed. A view without a passcode is the same bytes for
   * every view of the link, so its copy is kept; an unlocked page carries a grant made for this
   * answer, so it is compressed for this answer alone.
   */
  async function view(
    share: repo.ShareRow,
    refund?: { clientKey: string; client: Date; link: Date },
    token = '',
    encoding: ContentEncoding | null = null,
  ): Promise<ViewerOutcome> {
    const contentId = share.reportContentId;
    let served: string;
    let stamped: StampedPage | undefined = await pageOf(contentId, stamps.get(contentId));
    if (!stamped) return NOT_FOUND;
    let next: repo.CountedView['next'] | undefined;
    try {
      const counted = refund
        ? await repo.countView(ctx.db, share.tokenHash, ctx.clock.now(), refund.link)
        : await counter.count(share.tokenHash);
      if (!counted) {
        links.delete(share.tokenHash);
        await closePage(stamped.page);
        return NOT_FOUND;
      }
      ctx.metrics.shareViews.inc();
      await webhookView(share, counted.reportContentId);
      next = counted.next;
      if (refund) await repo.refundClientAttempt(ctx.db, share.id, refund.clientKey, refund.client);
      // A link that follows the newest version serves the version the count found, never an older one.
      served = counted.reportContentId;
      if (served !== contentId) links.set(share.tokenHash, { ...share, reportContentId: served, version: counted.servedVersion });
      if (served !== contentId || !sameStamp(counted, stamped.stamp)) {
        const stamp = { version: counted.version, accentColor: counted.accentColor };
        stamps.set(served, stamp);
        const stale = stamped.page;
        stamped = undefined;
        await closePage(stale);
        stamped = await pageOf(served, stamp);
        if (!stamped) return NOT_FOUND;
      }
    } catch (error) {
      if (stamped) await closePage(stamped.page);
      throw error;
    }
    const { page, stamp } = stamped;
    const hrefs = downloadHrefs(share, token, refund !== undefined);
    const linksHtml = (locale: string) =>
      downloadLinks(hrefs, locale) + (share.follows === 'latest' ? followsNote(next ?? null, locale) : '');
    if (encoding) {
      const size = Buffer.isBuffer(page) ? page.length : page.size;
      const whole = async () => withLinks(Buffer.isBuffer(page) ? page : await readPageFile(page), linksHtml);
      // A link's page is kept by what makes it: its version and stamp, its addresses, a following link's next run.
      const copy = refund
        ? await compressor.once(encoding, size, whole)
        : await compressor.compressed(
            `${pageKey(served, stamp)} ${share.tokenHash} ${next ? `${next.at.toISOString()} ${next.timezone}` : ''}`,
            encoding,
            size,
            whole,
          );
      if (copy) {
        await closePage(page);
        return { kind: 'report', html: copy, accentColor: stamp.accentColor, encoding };
      }
    }
    return {
      kind: 'report',
      html: Buffer.isBuffer(page) ? withLinks(page, linksHtml) : await fileWithLinks(page, linksHtml),
      accentColor: stamp.accentColor,
    };
  }

  /**
   * The download links of a page: the link's own addresses, and after a passcode a grant valid for
   * DOWNLOAD_GRANT_SECONDS that names the unlocked link, never the passcode.
   */
  function downloadHrefs(share: repo.ShareRow, token: string, unlocked: boolean): { pdf: string; csv: string } {
    const base = `/share/${encodeURIComponent(token)}/export`;
    const grant = unlocked ? `?grant=${grantFor(share.id, ctx.clock.now())}` : '';
    return { pdf: `${base}.pdf${grant}`, csv: `${base}.csv${grant}` };
  }

  const grantSignature = (shareId: string, expires: number): Buffer =>
    createHmac('sha256', ctx.shareKey).update(`share-download:${shareId}:${expires}`).digest();

  function grantFor(shareId: string, now: Date): string {
    const expires = Math.floor(now.getTime() / 1000) + DOWNLOAD_GRANT_SECONDS;
    return `${expires}.${grantSignature(shareId, expires).toString('base64url')}`;
  }

  /** Whether `grant` was handed out for this link and has not expired (compared in constant time). */
  function grantValid(shareId: string, grant: string | undefined, now: Date): boolean {
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(grant ?? '');
    if (!match) return false;
    const expires = Number(match[1]);
    if (expires * 1000 <= now.getTime()) return false;
    const given = Buffer.from(match[2] ?? '', 'base64url');
    const expected = grantSignature(shareId, expires);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  const files = new LRUCache<string, ShareFile>({
    maxSize: FILE_CACHE_BYTES,
    sizeCalculation: (file) => Math.max(1, file.body.byteLength),
  });
  const making = new Map<string, Promise<ShareFile | undefined>>();

  /** A version's file: kept once made (files of a version never change), made once however many ask at once. */
  async function fileOf(contentId: string, format: DownloadFormat, gateKey: string): Promise<ShareFile | undefined> {
    // A PDF carries the workspace's branding: one made before a branding change is not served after it.
    const key = format === 'pdf' ? `${contentId}:pdf:${await brandingVersionOf(ctx.db, contentId)}` : `${contentId}:${format}`;
    const cached = files.get(key);
    if (cached) return cached;
    const pending = making.get(key);
    if (pending) return pending;
    const started = makeFile(contentId, format, gateKey)
      .then((file) => {
        if (file && file.body.byteLength <= FILE_CACHE_BYTES / 4) files.set(key, file);
        return file;
      })
      .finally(() => making.delete(key));
    making.set(key, started);
    return started;
  }

  async function makeFile(contentId: string, format: DownloadFormat, gateKey: string): Promise<ShareFile | undefined> {
    const source = await findVersionFileSource(ctx.db, contentId);
    if (!source) return undefined;
    const identity = fileIdentity(source.renderedMarkdown, source.report, source.version, contentId);
    // Nobody is signed in: the file is admitted by the render gate per client, and charged to no account.
    const body =
      format === 'pdf'
        ? await pdfFile(ctx, gateKey, { markdown: source.renderedMarkdown, report: source.report, identity, contentId }, null)
        : await datasetFile(ctx, gateKey, contentId, 'csv', identity, source.createdAt, null);
    return {
      body,
      contentType: format === 'pdf' ? 'application/pdf' : 'text/csv; charset=utf-8; header=present',
      disposition: exportDisposition(identity, format),
    };
  }

  /** The client as the attempt counter keys it: its /64 for IPv6, keyed-hashed, so the table holds no addresses. */
  const clientKeyOf = (address: string): string =>
    createHmac('sha256', ctx.shareKey)
      .update(`passcode-client:${clientBlock(address)}`)
      .digest('base64url');

  return {
    async open(token, encoding = null) {
      const share = await lookup(token);
      if (!share || !serves(share, ctx.clock.now())) return NOT_FOUND;
      if (share.passcodeHash === null) return view(share, undefined, token, encoding);
      if (await repo.shareServes(ctx.db, share.id, ctx.clock.now())) return { kind: 'passcode-form' };
      links.delete(share.tokenHash);
      return NOT_FOUND;
    },

    async unlock(token, passcode, clientAddress, encoding = null) {
      const share = await lookup(token);
      if (!share || !serves(share, ctx.clock.now())) return NOT_FOUND;
      const stored = share.passcodeHash;
      if (stored === null) return view(share, undefined, token, encoding);
      // A client with several unlocks running here waits for their answers (client-gate.ts).
      const release = ctx.clientGate.admit(clientAddress);
      if (!release) return { kind: 'rate-limited', retryAfterSeconds: CLIENT_RETRY_AFTER_SECONDS };
      try {
        return await attemptUnlock(share, stored, passcode, clientAddress, token, encoding);
      } finally {
        release();
      }
    },

    async download(token, format, grant, clientAddress, encoding = null) {
      const share = await lookup(token);
      if (!share || !serves(share, ctx.clock.now())) return NO_DOWNLOAD;
      if (share.passcodeHash !== null && !grantValid(share.id, grant, ctx.clock.now())) return { kind: 'unlock-first' };
      const release = ctx.clientGate.admit(clientAddress);
      if (!release) return { kind: 'rate-limited', retryAfterSeconds: CLIENT_RETRY_AFTER_SECONDS };
      try {
        // A link that follows the newest version downloads the version it serves now.
        const contentId = share.follows === 'latest' ? await repo.servedContentOf(ctx.db, share.id) : share.reportContentId;
        const file = contentId && (await fileOf(contentId, format, `share-client:${clientKeyOf(clientAddress)}`));
        if (!file) return NO_DOWNLOAD;
        if (!(await countDownload(ctx.db, share.id, ctx.clock.now()))) {
          links.delete(share.tokenHash);
          return NO_DOWNLOAD;
        }
        // A version's CSV is the same bytes for every link to it: compressed once, kept (PDFs are compressed already).
        if (format === 'csv' && encoding) {
          const { body } = file;
          const copy = await compressor.compressed(`csv ${contentId}`, encoding, body.byteLength, () =>
            Promise.resolve(Buffer.from(body.buffer, body.byteOffset, body.byteLength)),
          );
          if (copy) return { kind: 'file', ...file, body: copy, encoding };
        }
        return { kind: 'file', ...file };
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const retryAfterSeconds = Number(error.headers?.['Retry-After'] ?? CLIENT_RETRY_AFTER_SECONDS);
        if (error.code === 'conflict') return { kind: 'no-file', message: error.message };
        if (error.code === 'rate_limited') return { kind: 'rate-limited', retryAfterSeconds };
        if (error.code === 'unavailable') return { kind: 'unavailable', retryAfterSeconds };
        throw error;
      } finally {
        release();
      }
    },
    close: () => pageFiles.close(),
  };

  async function attemptUnlock(
    share: repo.ShareRow,
    stored: string,
    passcode: unknown,
    clientAddress: string,
    token: string,
    encoding: ContentEncoding | null,
  ): Promise<ViewerOutcome> {
    // The clock is read again: the link may have expired since the lookup.
    const now = ctx.clock.now();
    const clientKey = clientKeyOf(clientAddress);
    const lockKey = `${share.id} ${clientKey}`;
    const refusedUntil = lockedOut.get(lockKey);
    if (refusedUntil !== undefined && now.getTime() < refusedUntil) return refused(refusedUntil, now);
    const booked = await repo.bookPasscodeAttempt(ctx.db, share.id, clientKey, now, PASSCODE_LIMITS);
    if (booked.kind === 'gone') {
      links.delete(share.tokenHash);
      return NOT_FOUND;
    }
    if (booked.kind === 'limited') {
      lockedOut.set(lockKey, booked.until.getTime());
      return refused(booked.until.getTime(), now);
    }
    lockedOut.delete(lockKey);
    if (!(await ctx.passcodeSlots.run('unlock', () => passcodeMatches(passcode, stored)))) {
      ctx.metrics.passcodeFailures.inc({ reason: 'wrong' });
      return { kind: 'wrong-passcode' };
    }
    return view(share, { clientKey, client: booked.client.windowStartedAt, link: booked.link.windowStartedAt }, token, encoding);
  }

  function refused(until: number, now: Date): ViewerOutcome {
    ctx.metrics.passcodeFailures.inc({ reason: 'rate_limited' });
    return { kind: 'rate-limited', retryAfterSeconds: Math.max(1, Math.ceil((until - now.getTime()) / 1000)) };
  }
}

/** The HTML that takes the downloads marker's place, in the locale the marker names. */
type Links = (locale: string) => string;

/** A page in memory with its download links in place of the marker (a page without one is served as it is). */
function withLinks(page: Buffer, links: Links): Buffer {
  const marker = findDownloadsMarker(page);
  if (!marker) return page;
  return Buffer.concat([page.subarray(0, marker.start), Buffer.from(links(marker.locale)), page.subarray(marker.end)]);
}

/** How far into a page the marker may be: it follows the stylesheet and the title block. */
const MARKER_WINDOW = 64 * 1024;

/** A page file streamed with its download links in place of the marker; the stream closes the file. */
async function fileWithLinks(page: { handle: FileHandle; size: number }, links: Links): Promise<Readable> {
  const head = Buffer.alloc(Math.min(MARKER_WINDOW, page.size));
  const { bytesRead } = await page.handle.read(head, 0, head.length, 0);
  const marker = findDownloadsMarker(head.subarray(0, bytesRead));
  if (!marker) return page.handle.createReadStream();
  const rest = page.handle.createReadStream({ start: marker.end });
  return ReadableStream.from(
    (async function* () {
      yield head.subarray(0, marker.start);
      yield Buffer.from(links(marker.locale));
      yield* rest;
    })(),
  );
}

/** A page file's bytes, read at their positions (the file's own position stays at 0 for a stream of it). */
async function readPageFile(page: { handle: FileHandle; size: number }): Promise<Buffer> {
  const bytes = Buffer.alloc(page.size);
  let filled = 0;
  while (filled < page.size) {
    const { bytesRead } = await page.handle.read(bytes, filled, page.size - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return bytes.subarray(0, filled);
}

async function closePage(page: Page): Promise<void> {
  if (!Buffer.isBuffer(page)) await page.handle.close();
}
