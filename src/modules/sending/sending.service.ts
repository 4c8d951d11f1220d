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
import { mailDeliveries } from '../mail/mail.service.js';
import type { MailState } from '../mail/mail.schemas.js';
import { sendMail } from '../../repositories/mail.repository.js';
import type { RecipientCandidate, SendHistoryEntry, SendInput, SendResult } from './sending.schemas.js';
import { reportSent } from '../webhooks/webhook-events.js';

function toCandidate(row: repo.CandidateRow): RecipientCandidate {
  return { id: row.id, name: row.name, email: row.email, imageUrl: row.imageUrl };
}

/** The mail of one send, keyed for its history: by teammate, and the outside addresses in order. */
interface SendMail {
  byUser: Map<string, MailState>;
  addresses: NonNullable<SendHistoryEntry['emails']>;
}

/**
 * `readCount` is the owner's business only (docs/api.md "Recipients and sending"); other readers
 * see 0. So are the mail states and the outside addresses (`mail` and `emails` absent).
 */
function toSendHistoryEntry(send: repo.SendRow, recipients: repo.TeammateDeliveryRow[], mail: SendMail | null): SendHistoryEntry {
  return {
    id: send.id,
    sentAt: send.sentAt.toISOString(),
    reportContentId: send.reportContentId,
    version: send.version,
    recipients: recipients.map((r) => ({
      userId: r.userId,
      name: r.name,
      ...(mail ? { mail: mail.byUser.get(r.userId) ?? null } : {}),
    })),
    sendToSelf: send.sendToSelf,
    message: send.message,
    readCount: mail ? recipients.filter((r) => r.readAt !== null).length : 0,
    ...(mail && mail.addresses.length > 0 ? { emails: mail.addresses } : {}),
  };
}

/** The mail of each send, for the owner's view of the history. */
async function mailOfSends(db: Db, sendIds: readonly string[]): Promise<Map<string, SendMail>> {
  const bySend = new Map<string, SendMail>();
  for (const row of await sendMail(db, sendIds)) {
    let entry = bySend.get(row.sendId);
    if (!entry) bySend.set(row.sendId, (entry = { byUser: new Map(), addresses: [] }));
    const state = { status: row.status as MailState['status'], error: row.error };
    if (row.recipientUserId) entry.byUser.set(row.recipientUserId, state);
    else entry.addresses.push({ address: row.toAddress, mail: state, viewCount: row.views ?? 0 });
  }
  return bySend;
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
      ctx,
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
  ctx.mailer.wake();
  await ctx.webhooks.enqueue(webhooks);
  return result;
}

/**
 * The requested recipients who are not candidates of the report's current version, each with its
 * place in the request and why (access.ts `explainRecipientRefusal`, in `words`): what a send
 * refuses, a schedule refuses when saved and a scheduled run skips (worded for people: the owner
 * reads those in the app and in a problem mail).
 */
export async function refusedRecipients(
  db: Db,
  report: ReportRow,
  actor: Actor,
  requested: readonly string[],
  words: 'api' | 'people' = 'api',
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
  return refused.map(({ userId, index }) => ({ userId, index, reason: explainRecipientRefusal(report, actor, userId, standing, words) }));
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
export async function deliverVersion(
  tx: Db,
  ctx: Pick<AppContext, 'config'>,
  delivery: Delivery,
  webhooks: string[] = [],
): Promise<string> {
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
  const toTeammates = teammates.map((userId) => ({ ...frozen, id: newId(), recipientUserId: userId, self: false }));
  await repo.insertDeliveries(tx, [
    ...toTeammates,
    ...(sendToSelf ? [{ ...frozen, id: newId(), recipientUserId: sender.id, self: true }] : []),
  ]);
  // Each teammate's mail, in this transaction: the delivery and its mail exist together or not at all.
  await mailDeliveries(tx, ctx, sentAt, sendId, toTeammates);
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
  const mail = seesReadCounts(report, actor)
    ? await mailOfSends(
        ctx.db,
        batches.map((s) => s.id),
      )
    : null;
  const empty: SendMail = { byUser: new Map(), addresses: [] };
  return { items: batches.map((s) => toSendHistoryEntry(s, bySend.get(s.id) ?? [], mail ? (mail.get(s.id) ?? empty) : null)), total };
}
