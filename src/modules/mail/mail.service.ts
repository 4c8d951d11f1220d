/**
 * E-mail (delivery.md §3; docs/api.md "E-mail"): the messages each event writes, in the event's
 * own transaction, and what users and instance admins read and change. Sending is outbox.ts's.
 *
 * Who gets what:
 * - a delivery to an inbox: the teammate recipient (not the sender's own copy), if their `inbox`
 *   preference is on; with the PDF if `attachPdf`;
 * - a scheduled run: each outside address of the schedule that has not unsubscribed from the report;
 * - a comment or a reaction: the other participants of the version's discussion (the report's
 *   owner and the version's recipients, access.ts `discussionAccess`) with `discussion` on,
 *   batched per discussion and participant, at most one mail every 10 minutes;
 * - a run that failed or skipped recipients: the report's owner, with `scheduleProblems` on;
 * - a set-password link an instance admin chooses to e-mail: that user.
 * A user with `digest: daily` gets their inbox and discussion mail gathered at 08:00 in their
 * time zone instead.
 */
import { DateTime } from 'luxon';
import { instantOfWall } from '../../../packages/money/src/index.js';
import type { Actor, AppContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import { newId } from '../../lib/ids.js';
import type { Page, Paged } from '../../lib/paging.js';
import { decryptSecret, encryptSecret } from '../../lib/secrets.js';
import { requireInstanceAdmin } from '../access/access.js';
import * as repo from '../../repositories/mail.repository.js';
import { findShare } from '../../repositories/shares.repository.js';
import type { DiscussionItem, PasswordLinkSecret } from './compose.js';
import type { MailEvent, Unsubscribe } from './unsubscribe.js';
import type { NotificationPreferences, NotificationPreferencesPatch, OutboxMessage } from './mail.schemas.js';

/** How far apart one participant's mails about one discussion are. */
export const DISCUSSION_BATCH_MS = 10 * 60 * 1000;
/** The local hour of a daily digest. */
export const DIGEST_HOUR = 8;

const DEFAULTS: Omit<repo.PreferencesRow, 'userId' | 'updatedAt'> = {
  inbox: true,
  discussion: true,
  scheduleProblems: true,
  attachPdf: false,
  digest: 'immediate',
};

function preferencesOf(row: repo.PreferencesRow | null | undefined): Omit<repo.PreferencesRow, 'userId' | 'updatedAt'> {
  return row
    ? { inbox: row.inbox, discussion: row.discussion, scheduleProblems: row.scheduleProblems, attachPdf: row.attachPdf, digest: row.digest }
    : DEFAULTS;
}

/**
 * The next 08:00 in `timezone` after `now` (an unknown zone reads as UTC), by the one rule that
 * turns a wall time into an instant (packages/money `instantOfWall`).
 */
export function nextDigestAt(now: Date, timezone: string): Date {
  const zoned = DateTime.fromJSDate(now).setZone(timezone);
  const local = zoned.isValid ? zoned : DateTime.fromJSDate(now, { zone: 'UTC' });
  const zone = local.zoneName ?? 'UTC';
  const eightOn = (day: DateTime) => instantOfWall({ year: day.year, month: day.month, day: day.day, hour: DIGEST_HOUR, minute: 0 }, zone);
  const today = eightOn(local);
  return new Date(today > now.getTime() ? today : eightOn(local.plus({ days: 1 })));
}

/** A Message-ID local part, the same on every attempt of the message. */
export function messageIdOf(id: string, publicBaseUrl: string): string {
  return `${id}@${new URL(publicBaseUrl).hostname || 'chronicle'}`;
}

type Timing = Pick<repo.MessageInsert, 'status' | 'dueAt' | 'forDigest'>;

function timing(recipient: repo.MailRecipient, now: Date, digestable: boolean): Timing {
  if (digestable && preferencesOf(recipient.preferences).digest === 'daily') {
    return { status: 'held', dueAt: nextDigestAt(now, recipient.timezone), forDigest: true };
  }
  return { status: 'queued', dueAt: now, forDigest: false };
}

function wants(recipient: repo.MailRecipient, event: MailEvent): boolean {
  return preferencesOf(recipient.preferences)[event];
}

/** The inbox mail of each teammate delivery of a send (in the send's transaction). */
export async function mailDeliveries(
  tx: Db,
  ctx: Pick<AppContext, 'config'>,
  now: Date,
  sendId: string,
  deliveries: readonly { id: string; recipientUserId: string }[],
): Promise<void> {
  const byUser = new Map(deliveries.map((d) => [d.recipientUserId, d.id]));
  const recipients = (await repo.mailRecipients(tx, [...byUser.keys()])).filter((r) => wants(r, 'inbox'));
  await repo.insertMessages(
    tx,
    recipients.map((r) => {
      const id = newId();
      return {
        id,
        kind: 'delivery',
        recipientUserId: r.id,
        toAddress: r.email,
        sendId,
        deliveryId: byUser.get(r.id) ?? null,
        attachPdf: preferencesOf(r.preferences).attachPdf,
        ...timing(r, now, true),
        messageId: messageIdOf(id, ctx.config.publicBaseUrl),
        createdAt: now,
      };
    }),
  );
}

/** A scheduled run's mail to one outside address, over the link minted for it (in the run's transaction). */
export async function mailAddress(
  tx: Db,
  ctx: Pick<AppContext, 'config'>,
  now: Date,
  message: {
    address: string;
    sendId: string | null;
    runId: string;
    shareId: string;
    contentId: string;
    attachPdf: boolean;
    text: string | null;
  },
): Promise<void> {
  const id = newId();
  await repo.insertMessages(tx, [
    {
      id,
      kind: 'address',
      toAddress: message.address,
      sendId: message.sendId,
      scheduleRunId: message.runId,
      shareId: message.shareId,
      reportContentId: message.contentId,
      attachPdf: message.attachPdf,
      data: { message: message.text },
      status: 'queued',
      dueAt: now,
      messageId: messageIdOf(id, ctx.config.publicBaseUrl),
      createdAt: now,
    },
  ]);
}

/** Of a schedule's outside addresses, those that have not unsubscribed from the report's mail. */
export async function addressesToMail(db: Db, reportId: string, addresses: readonly string[]): Promise<string[]> {
  const suppressed = await repo.suppressedAddresses(db, reportId, addresses);
  return addresses.filter((a) => !suppressed.has(a));
}

/** A comment or reaction: joins each other participant's pending batch for the discussion (two statements). */
export async function discussionChanged(
  db: Db,
  ctx: Pick<AppContext, 'config'>,
  now: Date,
  contentId: string,
  actorId: string,
  item: DiscussionItem,
): Promise<void> {
  const recipients = (await repo.discussionRecipients(db, contentId, actorId)).filter((r) => wants(r, 'discussion'));
  const rows = recipients.map((r): repo.MessageInsert => {
    const id = newId();
    let at = timing(r, now, true);
    if (!at.forDigest) {
      // A batch waits until 10 minutes after the participant's last mail about this discussion.
      const earliest = r.lastMailAt ? r.lastMailAt.getTime() + DISCUSSION_BATCH_MS : now.getTime();
      at = { status: 'held', dueAt: new Date(Math.max(earliest, now.getTime())), forDigest: false };
    }
    return {
      id,
      kind: 'discussion',
      recipientUserId: r.id,
      toAddress: r.email,
      reportContentId: contentId,
      ...at,
      messageId: messageIdOf(id, ctx.config.publicBaseUrl),
      createdAt: now,
    };
  });
  await repo.addToDiscussionBatches(db, rows, item);
}

/** A run that failed or skipped recipients: a mail to the report's owner (in the run's transaction or after it). */
export async function mailRunProblem(
  db: Db,
  ctx: Pick<AppContext, 'config'>,
  now: Date,
  runId: string,
  ownerUserId: string,
): Promise<void> {
  const [owner] = (await repo.mailRecipients(db, [ownerUserId])).filter((r) => wants(r, 'scheduleProblems'));
  if (!owner) return;
  const id = newId();
  await repo.insertMessages(db, [
    {
      id,
      kind: 'run_problem',
      recipientUserId: owner.id,
      toAddress: owner.email,
      scheduleRunId: runId,
      status: 'queued',
      dueAt: now,
      messageId: messageIdOf(id, ctx.config.publicBaseUrl),
      createdAt: now,
    },
  ]);
}

/** A set-password link mailed to its user; the link rides encrypted, as it is a credential. */
export async function mailPasswordLink(
  db: Db,
  ctx: Pick<AppContext, 'config' | 'shareKey'>,
  now: Date,
  user: { id: string; email: string },
  link: PasswordLinkSecret,
): Promise<string> {
  const id = newId();
  await repo.insertMessages(db, [
    {
      id,
      kind: 'password_link',
      recipientUserId: user.id,
      toAddress: user.email,
      secret: encryptSecret(ctx.shareKey, JSON.stringify(link)),
      status: 'queued',
      dueAt: now,
      messageId: messageIdOf(id, ctx.config.publicBaseUrl),
      createdAt: now,
    },
  ]);
  return id;
}

function toPreferences(row: repo.PreferencesRow | undefined): NotificationPreferences {
  const p = preferencesOf(row);
  return {
    events: { inbox: p.inbox, discussion: p.discussion, scheduleProblems: p.scheduleProblems },
    attachPdf: p.attachPdf,
    digest: p.digest as NotificationPreferences['digest'],
  };
}

export async function getPreferences(ctx: AppContext, actor: Actor): Promise<NotificationPreferences> {
  return toPreferences(await repo.findPreferences(ctx.db, actor.user.id));
}

export async function updatePreferences(
  ctx: AppContext,
  actor: Actor,
  input: NotificationPreferencesPatch,
): Promise<NotificationPreferences> {
  const patch: repo.PreferencesPatch = {
    ...input.events,
    ...(input.attachPdf === undefined ? {} : { attachPdf: input.attachPdf }),
    ...(input.digest === undefined ? {} : { digest: input.digest }),
  };
  return toPreferences(await repo.savePreferences(ctx.db, actor.user.id, patch, ctx.clock.now()));
}

/** What a valid unsubscribe link turns off; idempotent. */
export async function unsubscribe(ctx: AppContext, target: Unsubscribe): Promise<void> {
  const now = ctx.clock.now();
  if (target.kind === 'address') {
    const share = await findShare(ctx.db, target.shareId);
    if (share?.emailAddress) await repo.suppressAddress(ctx.db, share.reportId, share.emailAddress).catch(ignoreGone);
    return;
  }
  const patch: repo.PreferencesPatch = target.kind === 'event' ? { [target.event]: false } : { inbox: false, discussion: false };
  await repo.savePreferences(ctx.db, target.userId, patch, now).catch(ignoreGone);
}

/** A link of a deleted user or report turns off what no longer exists: nothing to do. */
function ignoreGone(error: unknown): void {
  if ((error as { code?: unknown }).code === '23503') return;
  throw error;
}

function toOutboxMessage(ctx: AppContext, row: repo.MessageRow): OutboxMessage {
  const body = row.body
    ? (JSON.parse(decryptSecret(ctx.shareKey, row.body)) as { text: string; html: string; attachments: string[] })
    : null;
  return {
    id: row.id,
    kind: row.kind as OutboxMessage['kind'],
    to: row.toAddress,
    status: row.status as OutboxMessage['status'],
    subject: row.subject,
    text: body?.text ?? null,
    html: body?.html ?? null,
    attachments: body?.attachments ?? [],
    attempts: row.attempts,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
  };
}

/** The outbox, instance admins only (403 for anyone else): every message, newest first, as it was sent or kept. */
export async function listOutbox(ctx: AppContext, actor: Actor, status: string | undefined, page: Page): Promise<Paged<OutboxMessage>> {
  requireInstanceAdmin(actor, 'read the outbox');
  const { items, total } = await repo.listMessages(ctx.db, status, page);
  return { items: items.map((row) => toOutboxMessage(ctx, row)), total };
}
