import { and, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { orders } from '../db/schema.ts';
import { Conflict, NotFound } from '../errors.ts';
import { queueMail } from '../mail/outbox.ts';
import type { MailShop } from '../mail/templates.ts';
import { ORDER_STATUS } from './status.ts';

/**
 * The "shipped" mail: it goes when an order is shipped (status 5) and has a track code, whichever
 * of the two is saved last. Marking `shipped_mail_at` in a conditional update is what makes it go
 * once: of two saves that race, only one finds the mark empty.
 */

const shippedWithTrackCode = and(eq(orders.status, ORDER_STATUS.shipped), isNotNull(orders.trackCode));

async function markAndQueue(db: Executor, orderId: number, condition: SQL | undefined, shop?: MailShop) {
  const [order] = await db
    .update(orders)
    .set({ shippedMailAt: new Date() })
    .where(and(eq(orders.id, orderId), condition))
    .returning({
      email: orders.email,
      locale: orders.locale,
      trackCode: orders.trackCode,
      deliveryMethod: orders.deliveryMethod,
    });
  if (!order?.trackCode) return false;
  await queueMail(
    db,
    {
      template: 'order-shipped',
      locale: order.locale === 'en' ? 'en' : 'ru',
      to: order.email,
      data: { orderId, trackCode: order.trackCode, deliveryMethod: order.deliveryMethod },
    },
    shop,
  );
  return true;
}

/**
 * Queues the mail if the order is now shipped with a track code and it never went. Call it in the
 * transaction of every save that can change the status or the track code.
 */
export function queueShippedMailOnce(db: Executor, orderId: number, shop?: MailShop): Promise<boolean> {
  return markAndQueue(db, orderId, and(shippedWithTrackCode, isNull(orders.shippedMailAt)), shop);
}

/**
 * The "shipped" mail of one parcel the shop handed to a carrier (ADR 0057): it goes with that
 * parcel's own track code, a partial shipment's too, and marks the order's mail as sent so saving
 * the order later does not send it again.
 */
export async function queueParcelMail(
  db: Executor,
  orderId: number,
  trackCode: string,
  shop?: MailShop,
): Promise<void> {
  const [order] = await db
    .update(orders)
    .set({ shippedMailAt: new Date() })
    .where(eq(orders.id, orderId))
    .returning({ email: orders.email, locale: orders.locale, deliveryMethod: orders.deliveryMethod });
  if (!order) throw new NotFound('not-found', { id: ['not-found'] });
  await queueMail(
    db,
    {
      template: 'order-shipped',
      locale: order.locale === 'en' ? 'en' : 'ru',
      to: order.email,
      data: { orderId, trackCode, deliveryMethod: order.deliveryMethod },
    },
    shop,
  );
}

/** Staff's "send again": the mail once more, for a shipped order with a track code. */
export async function resendShippedMail(db: Executor, orderId: number, shop?: MailShop): Promise<void> {
  if (await markAndQueue(db, orderId, shippedWithTrackCode, shop)) return;
  const [order] = await db.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId));
  if (!order) throw new NotFound('not-found', { id: ['not-found'] });
  throw new Conflict(
    'shipped-mail-not-ready',
    { status: ['shipped-mail-not-ready'] },
    'shipped-mail-not-ready',
  );
}
