/** Sending a report to inboxes, its recipient candidates and send history (docs/api.md "Reports"). */
import type { Actor, AppContext } from '../../context.js';
import type { Page, Paged } from '../../lib/paging.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { blankToNull } from '../../lib/text.js';
import { explainRecipientRefusal, isActiveOwner, reportReadGrant, seesReadCounts } from '../access/access.js';
import { findReport, type ReportRow } from '../../repositories/reports.repository.js';
import type { Db } from '../../db/database.js';
import * as repo from '../../repositories/sending.repository.js';
import type { RecipientCandidate, SendHistoryEntry, SendInput, SendResult } from './sending.schemas.js';
import { reportSent } from '../webhooks/webhook-events.js';

function toCandidate(row: repo.CandidateRow): RecipientCandidate {
  return { id: row.id, name: row.name, email: row.email, imageUrl: row.imageUrl };
}

/** `readCount` is the owner's business only (docs/api.md "Recipients and sending"); other readers see 0. */
function toSendHistoryEntry(send: repo.SendRow, recipients: repo.TeammateDeliveryRow[], showReads: boolean): SendHistoryEntry {
  return {
    id: send.id,
    sentAt: send.sentAt.toISOString(),
    reportContentId: send.reportContentId,
    version: send.version,
    recipients: recipients.map((r) => ({ userId: r.userId, name: r.name })),
    sendToSelf: send.sendToSelf,
    message: send.message,
    readCount: showReads ? recipients.filter((r) => r.readAt !== null).length : 0,
  };
}

/** Owner only, with current membership in every filtered workspace; anyone else gets 404. */
export async function recipients(ctx: AppContext, actor: Actor, reportId: string): Promise<RecipientCandidate[]> {
  const report = await findReport(ctx.db, reportId);
  if (!report || !(await isActiveOwner(ctx.db, actor, report))) throw notFound();
  return (await repo.recipientCandidates(ctx.db, report)).map(toCandidate);
}

/**
 * Delivers the report's current version in one transaction. The version, the candidate set and
 * the frozen report name all come from one locked read of the report, so a send racing an edit
 * delivers one whole version to everyone, checked against that version's restricting projects.
 */
export async function send(ctx: AppContext, actor: Actor, reportId: string, input: SendInput): Promise<SendResult> {
  const requested = input.recipientUserIds ?? [];
  const teammates = [...new Set(requested)];
  const sendToSelf = input.sendToSelf ?? false;
  const webhooks: string[] = [];
  const result = await ctx.db.transaction(async (tx) => {
    const report = await repo.lockReport(tx, reportId);
    if (!report || !(await isActiveOwner(tx, actor, report))) throw notFound();
    if (teammates.length === 0 && !sendToSelf) {
      throw badRequest('Name at least one recipient or set sendToSelf.', [
        { path: '/recipientUserIds', message: 'must name a recipient unless sendToSelf is true' },
      ]);
    }
    const refused = await refusedRecipients(tx, report, actor, requested);
    if (refused.length > 0) {
      throw badRequest(
        `Some recipients may not receive this report; nothing was sent. GET /api/v1/reports/${report.id}/recipients lists those who may.`,
        refused.map(({ index, reason }) => ({ path: `/recipientUserIds/${index}`, message: reason })),
      );
    }

    const sentAt = ctx.clock.now();
    const sendId = await deliverVersion(
      tx,
      {
        report,
        sender: actor.user,
        teammates,
        sendToSelf,
        message: blankToNull(input.message),
        sentAt,
      },
      webhooks,
    );
    return {
      id: sendId,
      delivered: teammates.length,
      reportContentId: report.currentContentId,
      version: report.version,
      sentAt: sentAt.toISOString(),
    };
  });
  ctx.metrics.sends.inc();
  await ctx.webhooks.enqueue(webhooks);
  return result;
}

/**
 * The requested recipients who are not candidates of the report's current version, each with its
 * place in the request and why (access.ts `explainRecipientRefusal`): what a send refuses, a
 * schedule refuses when saved and a scheduled run skips.
 */
export async function refusedRecipients(
  db: Db,
  report: ReportRow,
  actor: Actor,
  requested: readonly string[],
): Promise<{ userId: string; index: number; reason: string }[]> {
  if (requested.length === 0) return [];
  const eligible = new Set((await repo.recipientCandidates(db, report, [...new Set(requested)])).map((c) => c.id));
  const refused = requested.map((userId, index) => ({ userId, index })).filter(({ userId }) => !eligible.has(userId));
  if (refused.length === 0) return [];
  const standing = await repo.recipientStanding(
    db,
    report,
    refused.map(({ userId }) => userId),
  );
  return refused.map(({ userId, index }) => ({ userId, index, reason: explainRecipientRefusal(report, actor, userId, standing) }));
}

/** What one send delivers: the locked report's current version, to teammates and perhaps the sender. */
export interface Delivery {
  report: ReportRow;
  sender: Pick<Actor['user'], 'id' | 'name'>;
  /** Recipient candidates already checked, no repeats. */
  teammates: readonly string[];
  sendToSelf: boolean;
  message: string | null;
  sentAt: Date;
}

/**
 * Writes a send batch and its inbox messages in the caller's transaction (a send, or a scheduled
 * run with the version it just made), each message frozen with the version it delivers, and its
 * `report.sent` webhook deliveries, whose ids go to `webhooks` to enqueue once committed.
 * Returns the send's id.
 */
export async function deliverVersion(tx: Db, delivery: Delivery, webhooks: string[] = []): Promise<string> {
  const { report, sender, teammates, sendToSelf, message, sentAt } = delivery;
  const sendId = newId();
  await repo.insertSend(tx, {
    id: sendId,
    reportId: report.id,
    reportContentId: report.currentContentId,
    senderUserId: sender.id,
    message,
    sendToSelf,
    sentAt,
  });
  const frozen = {
    sendId,
    reportId: report.id,
    reportContentId: report.currentContentId,
    version: report.version,
    reportName: report.name,
    senderUserId: sender.id,
    senderName: sender.name,
    message,
    sentAt,
  };
  await repo.insertDeliveries(tx, [
    ...teammates.map((userId) => ({ ...frozen, id: newId(), recipientUserId: userId, self: false })),
    ...(sendToSelf ? [{ ...frozen, id: newId(), recipientUserId: sender.id, self: true }] : []),
  ]);
  const sent = { id: sendId, recipients: teammates.length, sendToSelf, sender: { id: sender.id, name: sender.name } };
  webhooks.push(...(await reportSent(tx, report, sent, sentAt)));
  return sendId;
}

/**
 * Readable under the report's read grants; one page of batches in two queries however many there
 * are. Read counts are shown to the owner only (access.ts `seesReadCounts`).
 */
export async function history(ctx: AppContext, actor: Actor, reportId: string, page: Page): Promise<Paged<SendHistoryEntry>> {
  const report = await findReport(ctx.db, reportId);
  const grant = report ? await reportReadGrant(ctx.db, actor, report) : null;
  if (!report || !grant) throw notFound();
  const { items: batches, total } = await repo.listSends(ctx.db, reportId, page);
  const delivered = await repo.listTeammateDeliveries(
    ctx.db,
    reportId,
    batches.map((s) => s.id),
  );
  const bySend = new Map<string, repo.TeammateDeliveryRow[]>();
  for (const d of delivered) {
    const list = bySend.get(d.sendId);
    if (list) list.push(d);
    else bySend.set(d.sendId, [d]);
  }
  const showReads = seesReadCounts(report, actor);
  return { items: batches.map((s) => toSendHistoryEntry(s, bySend.get(s.id) ?? [], showReads)), total };
}
