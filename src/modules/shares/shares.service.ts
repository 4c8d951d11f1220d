/** Public share links (docs/api.md "Share links"): mint, list and revoke. The public page is viewer.service.ts. */
import type { Actor, AppContext } from '../../context.js';
import type { Page, Paged } from '../../lib/paging.js';
import type { Db } from '../../db/database.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import {
  PASSCODE_MAX_CHARS,
  PASSCODE_MIN_CHARS,
  decryptSecret,
  encryptSecret,
  generateShareToken,
  hashPasscode,
  passcodeLength,
} from '../../lib/secrets.js';
import { hashSecret } from '../../lib/tokens.js';
import { isActiveOwner, ownDelivery, reportReadGrant } from '../access/access.js';
import { findReport } from '../../repositories/reports.repository.js';
import * as repo from '../../repositories/shares.repository.js';
import type { MintShareInput, Share } from './shares.schemas.js';

const DAY_MS = 86_400_000;

/**
 * The API shape of a link. The token is kept only encrypted (its SHA-256 is the lookup key), so
 * creators can list their links again; the passcode hash never leaves the database.
 */
function toShare(ctx: AppContext, row: repo.ShareRow): Share {
  const token = decryptSecret(ctx.shareKey, row.tokenEncrypted);
  return {
    id: row.id,
    reportContentId: row.reportContentId,
    version: row.version,
    follows: row.follows === 'latest' ? 'latest' : 'version',
    token,
    url: `${ctx.config.publicBaseUrl}/share/${token}`,
    hasPasscode: row.passcodeHash !== null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    viewCount: row.viewCount,
    downloadCount: row.downloadCount,
    lastViewedAt: row.lastViewedAt?.toISOString() ?? null,
    ...(row.emailAddress ? { emailAddress: row.emailAddress } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * 4-128 characters of the form that is hashed (NFC), checked here rather than in the schema: a
 * passcode typed with combining accents is longer on the wire than the passcode it is.
 */
function assertPasscodeLength(input: MintShareInput): void {
  if (input.passcode === undefined) return;
  const length = passcodeLength(input.passcode);
  if (length >= PASSCODE_MIN_CHARS && length <= PASSCODE_MAX_CHARS) return;
  throw badRequest('The request is not valid.', [
    { path: '/passcode', message: `must have ${PASSCODE_MIN_CHARS}-${PASSCODE_MAX_CHARS} characters after Unicode normalisation (NFC)` },
  ]);
}

/**
 * Start-up check that `shareKey` is the key the stored links were sealed with. A changed
 * SHARE_KEY would otherwise only show when a creator lists their links (every list a 500), so
 * the process refuses to start instead. One row is enough: every link is sealed under the one key.
 */
export async function assertShareKeyFits(db: Db, shareKey: Buffer): Promise<void> {
  const sealed = await repo.findAnyEncryptedToken(db);
  if (sealed === undefined) return;
  try {
    decryptSecret(shareKey, sealed);
  } catch (error) {
    throw new Error('SHARE_KEY does not decrypt the share links in this database; start with the key they were made with', {
      cause: error,
    });
  }
}

interface MintTarget {
  reportId: string;
  reportContentId: string;
  version: number;
  deliveryId: string | null;
  follows: 'latest' | 'version';
}

async function mint(ctx: AppContext, actor: Actor, target: MintTarget, input: MintShareInput): Promise<Share> {
  const token = generateShareToken();
  // PBKDF2 runs on a hashing thread; the hash is made before the insert so no transaction waits on it.
  // It takes a mint's passcode slot, so viewers unlocking links never wait behind a burst of mints.
  const { passcode } = input;
  const passcodeHash =
    passcode === undefined ? null : await ctx.passcodeSlots.run('mint', () => hashPasscode(passcode, ctx.config.passcodeIterations));
  const now = ctx.clock.now();
  // A report or delivery deleted while the passcode was hashed fails the foreign key: 404.
  const row = await repo.insertShare(ctx.db, {
    id: newId(),
    ...target,
    createdByUserId: actor.user.id,
    tokenHash: hashSecret(token),
    tokenEncrypted: encryptSecret(ctx.shareKey, token),
    passcodeHash,
    expiresAt: input.expiresInDays === undefined ? null : new Date(now.getTime() + input.expiresInDays * DAY_MS),
    createdAt: now,
  });
  return toShare(ctx, row);
}

/**
 * The link a scheduled run mails to an outside address, in the run's transaction, minted by the
 * report's owner over the version the run made: a new one per run (`version`), or the address's
 * one following link, made on its first run and reused after (`latest`; revoking it makes the
 * next run mint another). No passcode: a mail never carries one (delivery.md §3).
 */
export async function linkForAddress(
  tx: Db,
  ctx: Pick<AppContext, 'shareKey' | 'clock'>,
  report: { id: string; ownerUserId: string; currentContentId: string; version: number },
  address: string,
  follows: 'latest' | 'version',
): Promise<string> {
  if (follows === 'latest') {
    const existing = await repo.findAddressFollowingShare(tx, report.id, address);
    if (existing) return existing;
  }
  const token = generateShareToken();
  const row = await repo.insertShare(tx, {
    id: newId(),
    reportId: report.id,
    reportContentId: report.currentContentId,
    version: report.version,
    deliveryId: null,
    follows,
    emailAddress: address,
    createdByUserId: report.ownerUserId,
    tokenHash: hashSecret(token),
    tokenEncrypted: encryptSecret(ctx.shareKey, token),
    passcodeHash: null,
    expiresAt: null,
    createdAt: ctx.clock.now(),
  });
  return row.id;
}

/**
 * Owner only, with current membership in every filtered workspace; serves the current version,
 * and with `follows: 'latest'` every version after it as it is made (delivery.md §2).
 */
export async function mintForReport(ctx: AppContext, actor: Actor, reportId: string, input: MintShareInput): Promise<Share> {
  assertPasscodeLength(input);
  const report = await findReport(ctx.db, reportId);
  if (!report || !(await isActiveOwner(ctx.db, actor, report))) throw notFound();
  return mint(
    ctx,
    actor,
    {
      reportId: report.id,
      reportContentId: report.currentContentId,
      version: report.version,
      deliveryId: null,
      follows: input.follows ?? 'version',
    },
    input,
  );
}

/**
 * The report's readers (reportReadGrant) see the links its owner minted, over any version and
 * including those the owner minted on a self-copy; links of recipients never appear.
 */
export async function listForReport(ctx: AppContext, actor: Actor, reportId: string, page: Page): Promise<Paged<Share>> {
  const report = await findReport(ctx.db, reportId);
  if (!report || !(await reportReadGrant(ctx.db, actor, report))) throw notFound();
  const { items, total } = await repo.listReportShares(ctx.db, report.id, report.ownerUserId, page);
  return { items: items.map((row) => toShare(ctx, row)), total };
}

/** The message's recipient only; no membership check, since the delivery itself is the grant. */
export async function mintForInbox(ctx: AppContext, actor: Actor, deliveryId: string, input: MintShareInput): Promise<Share> {
  assertPasscodeLength(input);
  if (input.follows === 'latest') {
    throw badRequest('The request is not valid.', [
      {
        path: '/follows',
        message: 'a link on a received report always serves the version delivered; only the owner mints links that follow',
      },
    ]);
  }
  const delivery = await ownDelivery(ctx.db, actor, deliveryId);
  return mint(
    ctx,
    actor,
    {
      reportId: delivery.reportId,
      reportContentId: delivery.reportContentId,
      version: delivery.version,
      deliveryId: delivery.id,
      follows: 'version',
    },
    input,
  );
}

/**
 * "The links the caller minted on that message's version" (docs/api.md "Share links"): keyed by the
 * version, not the message, so a version delivered twice lists the same links under both.
 */
export async function listForInbox(ctx: AppContext, actor: Actor, deliveryId: string, page: Page): Promise<Paged<Share>> {
  const delivery = await ownDelivery(ctx.db, actor, deliveryId);
  const { items, total } = await repo.listVersionShares(ctx.db, delivery, actor.user.id, page);
  return { items: items.map((row) => toShare(ctx, row)), total };
}

/** Creator only; membership is not re-checked, so a creator who left can still switch a link off. */
export async function revoke(ctx: AppContext, actor: Actor, shareId: string): Promise<Share> {
  const row = await repo.revokeShare(ctx.db, shareId, actor.user.id, ctx.clock.now());
  if (!row) throw notFound();
  return toShare(ctx, row);
}
