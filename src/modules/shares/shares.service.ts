/** Public share links (reports-api.md 4.2): mint, list and revoke. The public page is viewer.service.ts. */
import type { AppContext } from '../../http/types.js';
import { notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { decryptSecret, encryptSecret, generateShareToken, hashPasscode } from '../../lib/secrets.js';
import { hashSecret } from '../../lib/tokens.js';
import { pgErrorCode } from '../../db/errors.js';
import type { AuthContext } from '../auth/auth.js';
import { findDeliveryForRecipient } from '../inbox/inbox.repository.js';
import { isActiveOwner, reportReadGrant } from '../reports/report-access.js';
import { findReport } from '../reports/reports.repository.js';
import * as repo from './shares.repository.js';
import type { MintShareInput, Share } from './shares.schemas.js';

const DAY_MS = 86_400_000;

/**
 * The API shape of a link. The token is kept only encrypted (its SHA-256 is the lookup key), so
 * creators can list their links again; the passcode hash never leaves the database.
 */
export function toShare(ctx: AppContext, row: repo.ShareRow): Share {
  const token = decryptSecret(ctx.shareKey, row.tokenEncrypted);
  return {
    id: row.id,
    reportContentId: row.reportContentId,
    token,
    url: `${ctx.config.publicBaseUrl}/share/${token}`,
    hasPasscode: row.passcodeHash !== null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    viewCount: row.viewCount,
    lastViewedAt: row.lastViewedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

interface MintTarget {
  reportId: string;
  reportContentId: string;
  deliveryId: string | null;
}

async function mint(ctx: AppContext, actor: AuthContext, target: MintTarget, input: MintShareInput): Promise<Share> {
  const token = generateShareToken();
  // PBKDF2 runs on the libuv pool; the hash is made before the insert so no transaction waits on it.
  const passcodeHash = input.passcode === undefined ? null : await hashPasscode(input.passcode);
  const now = ctx.clock.now();
  try {
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
  } catch (error) {
    // The report or the delivery was deleted while the passcode was being hashed.
    if (pgErrorCode(error) === '23503') throw notFound();
    throw error;
  }
}

/** Owner only, with current membership in every filtered workspace; serves the current version. */
export async function mintForReport(ctx: AppContext, actor: AuthContext, reportId: string, input: MintShareInput): Promise<Share> {
  const report = await findReport(ctx.db, reportId);
  if (!report || !(await isActiveOwner(ctx.db, actor, report))) throw notFound();
  return mint(ctx, actor, { reportId: report.id, reportContentId: report.currentContentId, deliveryId: null }, input);
}

/**
 * The report's readers (reportReadGrant) see the links its owner minted, over any version and
 * including those the owner minted on a self-copy; links of recipients never appear.
 */
export async function listForReport(ctx: AppContext, actor: AuthContext, reportId: string): Promise<Share[]> {
  const report = await findReport(ctx.db, reportId);
  if (!report || !(await reportReadGrant(ctx.db, actor, report))) throw notFound();
  return (await repo.listReportShares(ctx.db, report.id, report.ownerUserId)).map((row) => toShare(ctx, row));
}

/** The message's recipient only; no membership check, since the delivery itself is the grant. */
export async function mintForInbox(ctx: AppContext, actor: AuthContext, deliveryId: string, input: MintShareInput): Promise<Share> {
  const delivery = await findDeliveryForRecipient(ctx.db, deliveryId, actor.user.id);
  if (!delivery) throw notFound();
  return mint(ctx, actor, { reportId: delivery.reportId, reportContentId: delivery.reportContentId, deliveryId: delivery.id }, input);
}

export async function listForInbox(ctx: AppContext, actor: AuthContext, deliveryId: string): Promise<Share[]> {
  const delivery = await findDeliveryForRecipient(ctx.db, deliveryId, actor.user.id);
  if (!delivery) throw notFound();
  return (await repo.listDeliveryShares(ctx.db, delivery.id, actor.user.id)).map((row) => toShare(ctx, row));
}

/** Creator only; membership is not re-checked, so a creator who left can still switch a link off. */
export async function revoke(ctx: AppContext, actor: AuthContext, shareId: string): Promise<Share> {
  const row = await repo.revokeShare(ctx.db, shareId, actor.user.id, ctx.clock.now());
  if (!row) throw notFound();
  return toShare(ctx, row);
}
