import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { staffCancelReason } from '../../contract/status-reasons.ts';
import { releaseStock, type StockItem } from '../catalog/stock.ts';
import type { Executor, Transaction } from '../db/client.ts';
import { orderItems, orderStatusHistory, orders } from '../db/schema.ts';
import { Invalid, NotFound } from '../errors.ts';
import { queueMail } from '../mail/outbox.ts';
import { DEFAULT_MAIL_SHOP, type MailShop } from '../mail/templates.ts';
import { movePromoUse } from '../promo/service.ts';
import { assertCustomsComplete } from '../shipping/customs.ts';
import { orderMailData, orderMailItems } from './order-mail.ts';
import { queueSettlementReceipt } from './receipts.ts';
import type { OrderRow } from './service.ts';
import {
  assertMove,
  isPaidStatus,
  moveRefused,
  ORDER_STATUS,
  type OrderStatus,
  type StatusActor,
  TO_SHIP_STATUSES,
} from './status.ts';

/**
 * The order lifecycle: every status change of an order goes through `moveOrderStatus`, which asks
 * the state machine (status.ts) and does the move's side effects in the caller's transaction: the
 * status history row, the stock released on a cancellation, the cancel mail, and the mail that
 * tells the shop a new order is paid. Units leave and come back only through the stock module
 * (catalog/stock.ts), each change a movement of the ledger.
 */

/** The order's items as stock units (those whose variant still exists), in lock order. */
export async function orderStock(tx: Executor, orderId: number): Promise<StockItem[]> {
  const rows = await tx
    .select({ productId: orderItems.productId, variantId: orderItems.variantId, count: orderItems.count })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, orderId), isNotNull(orderItems.variantId)))
    .orderBy(asc(orderItems.productId), asc(orderItems.variantId));
  return rows.flatMap((row) => (row.variantId === null ? [] : [{ ...row, variantId: row.variantId }]));
}

/** Locks the order's row for the rest of the caller's transaction. */
export async function lockOrder(tx: Executor, orderId: number): Promise<OrderRow> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  if (!order) throw new NotFound('not-found', { order: ['not-found'] });
  return order;
}

/**
 * Moves an order to `to` on behalf of `actor`, inside the caller's transaction: locks the order,
 * refuses a move the state machine does not allow (409 order-status-move-refused), updates the
 * status conditionally and bumps the version, writes the history row (changedBy = `by`, the staff
 * member). A move to cancelled puts the units back (`restock`, by default all the order's items;
 * a refund that keeps shipped goods passes fewer or none) and, unless a refund tells the customer
 * itself, mails the cancellation in the order's language. A payment sets paid_at and announces the
 * paid order to the shop's own address, once per payment, in this same transaction.
 */
export async function moveOrderStatus(
  tx: Transaction,
  orderId: number,
  to: OrderStatus,
  options: {
    actor: StatusActor;
    by?: number;
    reason?: string;
    /** Staff's words of why they cancel (required for their cancellation): history and the customer's mail. */
    note?: string | null;
    shop?: MailShop;
    now?: Date;
    restock?: StockItem[];
  },
): Promise<OrderRow> {
  const now = options.now ?? new Date();
  const order = await lockOrder(tx, orderId);
  assertMove(order.status, to, options.actor);
  const note = options.note?.trim() || undefined;
  const cancelledByStaff = to === ORDER_STATUS.cancelled && options.actor === 'staff';
  // Staff say why they cancel: the customer reads it in the cancellation mail.
  if (cancelledByStaff && !note) {
    throw new Invalid(
      'cancel-reason-required',
      { reason: ['cancel-reason-required'] },
      'cancel-reason-required',
    );
  }
  // The expiry job cancels only orders whose money never came, whatever their status says now.
  if (options.actor === 'expiry' && order.paidAt !== null) throw moveRefused(order.status, to);
  // A parcel abroad is packed with its CN23: every item needs its customs data first (ADR 0057).
  if (to === ORDER_STATUS.readyToShip) await assertCustomsComplete(tx, order);
  const [moved] = await tx
    .update(orders)
    .set({
      status: to,
      version: sql`${orders.version} + 1`,
      updatedAt: now,
      ...(options.actor === 'payment' && isPaidStatus(to) ? { paidAt: now } : {}),
    })
    .where(and(eq(orders.id, orderId), eq(orders.status, order.status)))
    .returning();
  if (!moved) throw moveRefused(order.status, to);
  // A cancelled order gives its promo code's use back; money that comes after takes it again (ADR 0058).
  if (
    order.promoCodeId !== null &&
    (to === ORDER_STATUS.cancelled) !== (order.status === ORDER_STATUS.cancelled)
  )
    await movePromoUse(tx, order.promoCodeId, to === ORDER_STATUS.cancelled ? 'give-back' : 'take-again');
  await tx.insert(orderStatusHistory).values({
    orderId,
    status: to,
    changedBy: options.by ?? null,
    reason: cancelledByStaff && note ? staffCancelReason(note) : (options.reason ?? null),
    createdAt: now,
  });
  // Money for an order to pack; money that came too late to keep its stock (6) is staff's to refund.
  if (options.actor === 'payment' && TO_SHIP_STATUSES.includes(to))
    await announcePaidOrder(tx, moved, options.shop);
  // The goods are handed over: a prepaid order's second (full payment) receipt is due (ADR 0051).
  if (to === ORDER_STATUS.shipped) await queueSettlementReceipt(tx, orderId, now);
  if (to === ORDER_STATUS.cancelled) {
    await releaseStock(tx, options.restock ?? (await orderStock(tx, orderId)), now, {
      reason: options.actor === 'refund' ? 'refund' : 'cancellation',
      orderId,
      ...(options.by === undefined ? {} : { actorId: options.by }),
      ...(options.shop ? { shop: options.shop } : {}),
    });
    if (options.actor !== 'refund') {
      await queueMail(
        tx,
        {
          template: 'order-cancelled',
          locale: order.locale === 'en' ? 'en' : 'ru',
          to: order.email,
          data: {
            orderId,
            reason: options.actor === 'expiry' ? 'expired' : 'cancelled',
            ...(cancelledByStaff && note ? { note } : {}),
          },
        },
        options.shop,
      );
    }
  }
  return moved;
}

/** A payment's move tells the shop's own address, in the shop's language, that an order waits to be packed. */
async function announcePaidOrder(tx: Executor, order: OrderRow, shop: MailShop = DEFAULT_MAIL_SHOP) {
  const locale = shop.locale ?? 'ru';
  await queueMail(
    tx,
    {
      template: 'new-paid-order',
      locale,
      to: shop.email,
      replyTo: order.email,
      data: {
        ...orderMailData(order, await orderMailItems(tx, order.id), locale),
        customer: `${order.firstName} ${order.lastName}`.trim(),
        email: order.email,
        phone: order.phone,
        ...(shop.url ? { link: `${shop.url.replace(/\/$/, '')}/admin/orders/${order.id}` } : {}),
      },
    },
    shop,
  );
}
