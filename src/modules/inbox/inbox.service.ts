/** The inbox (docs/api.md "Inbox"): only a message's recipient sees it; anyone else gets 404. */
import type { Actor, AppContext } from '../../context.js';
import { notFound } from '../../lib/errors.js';
import type { Page, Paged } from '../../lib/paging.js';
import * as repo from '../../repositories/inbox.repository.js';
import type { InboxMessage, InboxMessageWithContent } from './inbox.schemas.js';

function toInboxMessage(row: repo.DeliveryRow): InboxMessage {
  return {
    id: row.id,
    reportId: row.reportId,
    reportContentId: row.reportContentId,
    reportName: row.reportName,
    version: row.version,
    senderUserId: row.senderUserId,
    senderName: row.senderName,
    message: row.message,
    sentAt: row.sentAt.toISOString(),
    readAt: row.readAt?.toISOString() ?? null,
    self: row.self,
  };
}

export async function list(ctx: AppContext, actor: Actor, page: Page): Promise<Paged<InboxMessage>> {
  const { items, total } = await repo.listInbox(ctx.db, actor.user.id, page);
  return { items: items.map(toInboxMessage), total };
}

export async function get(ctx: AppContext, actor: Actor, id: string): Promise<InboxMessageWithContent> {
  const row = await repo.findDeliveryWithContent(ctx.db, id, actor.user.id);
  if (!row) throw notFound();
  return { ...toInboxMessage(row), renderedMarkdown: row.renderedMarkdown };
}

/** Idempotent: a second read keeps the first readAt. */
export async function markRead(ctx: AppContext, actor: Actor, id: string): Promise<InboxMessage> {
  await repo.markRead(ctx.db, id, actor.user.id, ctx.clock.now());
  const row = await repo.findDeliveryForRecipient(ctx.db, id, actor.user.id);
  if (!row) throw notFound();
  return toInboxMessage(row);
}
