/** SQL of the inbox: a user's deliveries. */
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { deliveries, reportContents } from '../db/schema.js';
import { totalOf, type Page, type Paged } from '../lib/paging.js';

export type DeliveryRow = typeof deliveries.$inferSelect;
export type DeliveryWithContent = DeliveryRow & { renderedMarkdown: string };

/** One page of the user's messages, newest first, with the size of the whole inbox. */
export async function listInbox(db: Db, userId: string, page: Page): Promise<Paged<DeliveryRow>> {
  const where = eq(deliveries.recipientUserId, userId);
  const rows = await db
    .select({ delivery: deliveries, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(deliveries)
    .where(where)
    .orderBy(desc(deliveries.sentAt), desc(deliveries.id))
    .limit(page.limit)
    .offset(page.offset);
  const total = await totalOf(rows, page, async () => (await db.select({ n: count() }).from(deliveries).where(where))[0]?.n ?? 0);
  return { items: rows.map((r) => r.delivery), total };
}

/** The delivery if `userId` is its recipient; undefined for anyone else, the sender included. */
export async function findDeliveryForRecipient(db: Db, deliveryId: string, userId: string): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .select()
    .from(deliveries)
    .where(and(eq(deliveries.id, deliveryId), eq(deliveries.recipientUserId, userId)));
  return row;
}

/** As findDeliveryForRecipient, with the delivered version's document. */
export async function findDeliveryWithContent(db: Db, deliveryId: string, userId: string): Promise<DeliveryWithContent | undefined> {
  const [row] = await db
    .select({ delivery: deliveries, renderedMarkdown: reportContents.renderedMarkdown })
    .from(deliveries)
    .innerJoin(reportContents, eq(reportContents.id, deliveries.reportContentId))
    .where(and(eq(deliveries.id, deliveryId), eq(deliveries.recipientUserId, userId)));
  return row ? { ...row.delivery, renderedMarkdown: row.renderedMarkdown } : undefined;
}

/** Sets readAt only while it is null, so the first read instant stays. */
export async function markRead(db: Db, deliveryId: string, userId: string, now: Date): Promise<void> {
  await db
    .update(deliveries)
    .set({ readAt: now })
    .where(and(eq(deliveries.id, deliveryId), eq(deliveries.recipientUserId, userId), isNull(deliveries.readAt)));
}
