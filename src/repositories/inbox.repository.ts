/** SQL of the inbox: a user's deliveries. */
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { deliveries, reportContents } from '../db/schema.js';

export type DeliveryRow = typeof deliveries.$inferSelect;
export type DeliveryWithContent = DeliveryRow & { renderedMarkdown: string };

export function listInbox(db: Db, userId: string): Promise<DeliveryRow[]> {
  return db.select().from(deliveries).where(eq(deliveries.recipientUserId, userId)).orderBy(desc(deliveries.sentAt), desc(deliveries.id));
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
