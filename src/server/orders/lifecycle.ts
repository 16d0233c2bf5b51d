import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { orderItems, orderStatusHistory, orders, products } from '../db/schema.ts';
import { Conflict, NotFound } from '../errors.ts';
import { queueMail } from '../mail/outbox.ts';
import type { MailShop } from '../mail/templates.ts';
import type { OrderRow } from './service.ts';
import {
  assertMove,
  isPaidStatus,
  moveRefused,
  ORDER_STATUS,
  type OrderStatus,
  type StatusActor,
} from './status.ts';

/**
 * The order lifecycle: every status change of an order goes through `moveOrderStatus`, which asks
 * the state machine (status.ts) and does the move's side effects in the caller's transaction: the
 * status history row, the stock released on a cancellation, and the cancel mail. Units leave and
 * come back only through `takeStock` and `releaseStock`.
 */

export interface StockItem {
  productId: number;
  count: number;
}

const byProductId = (items: readonly StockItem[]) => [...items].sort((a, b) => a.productId - b.productId);

export const unavailableError = (unavailable: number[]) =>
  new Conflict('basket-unavailable', { basket: ['basket-unavailable'] }, 'basket-unavailable', {
    unavailable,
  });

/**
 * Takes each item's units with a conditional update, in ascending product id so concurrent
 * transactions lock rows in the same order and cannot deadlock. The first item short of stock (or
 * no longer orderable, when asked) throws basket-unavailable; the caller's transaction, or a
 * savepoint around this call, undoes the items already taken.
 */
export async function takeStock(
  tx: Executor,
  items: readonly StockItem[],
  now: Date,
  options: { orderableOnly: boolean },
): Promise<void> {
  for (const item of byProductId(items)) {
    const [taken] = await tx
      .update(products)
      .set({ quantity: sql`${products.quantity} - ${item.count}`, updatedAt: now })
      .where(
        and(
          eq(products.id, item.productId),
          gte(products.quantity, item.count),
          options.orderableOnly ? eq(products.visible, true) : undefined,
          options.orderableOnly ? eq(products.envisioned, false) : undefined,
        ),
      )
      .returning({ id: products.id });
    if (!taken) throw unavailableError([item.productId]);
  }
}

/** Puts units back in stock, in ascending product id (the same lock order as `takeStock`). */
export async function releaseStock(
  tx: Executor,
  items: { productId: number; count: number }[],
  now: Date,
): Promise<void> {
  for (const item of byProductId(items)) {
    await tx
      .update(products)
      .set({ quantity: sql`${products.quantity} + ${item.count}`, updatedAt: now })
      .where(eq(products.id, item.productId));
  }
}

/**
 * Locks products' rows in ascending id up front, for a transaction that releases some units and
 * then takes others: its row locks would otherwise come in two ascending runs and could deadlock
 * with a buyer taking the same products.
 */
export async function lockProducts(tx: Executor, productIds: readonly number[]): Promise<void> {
  if (productIds.length === 0) return;
  await tx
    .select({ id: products.id })
    .from(products)
    .where(inArray(products.id, [...new Set(productIds)]))
    .orderBy(asc(products.id))
    .for('update');
}

/** The order's items as stock units, in ascending product id. */
export async function orderStock(tx: Executor, orderId: number): Promise<StockItem[]> {
  return tx
    .select({ productId: orderItems.productId, count: orderItems.count })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.productId));
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
 * itself, mails the cancellation in the order's language. A payment sets paid_at.
 */
export async function moveOrderStatus(
  tx: Executor,
  orderId: number,
  to: OrderStatus,
  options: {
    actor: StatusActor;
    by?: number;
    reason?: string;
    shop?: MailShop;
    now?: Date;
    restock?: StockItem[];
  },
): Promise<OrderRow> {
  const now = options.now ?? new Date();
  const order = await lockOrder(tx, orderId);
  assertMove(order.status, to, options.actor);
  // The expiry job cancels only orders whose money never came, whatever their status says now.
  if (options.actor === 'expiry' && order.paidAt !== null) throw moveRefused(order.status, to);
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
  await tx.insert(orderStatusHistory).values({
    orderId,
    status: to,
    changedBy: options.by ?? null,
    reason: options.reason ?? null,
    createdAt: now,
  });
  if (to === ORDER_STATUS.cancelled) {
    await releaseStock(tx, options.restock ?? (await orderStock(tx, orderId)), now);
    if (options.actor !== 'refund') {
      await queueMail(
        tx,
        {
          template: 'order-cancelled',
          locale: order.locale === 'en' ? 'en' : 'ru',
          to: order.email,
          data: { orderId, reason: options.actor === 'expiry' ? 'expired' : 'cancelled' },
        },
        options.shop,
      );
    }
  }
  return moved;
}
