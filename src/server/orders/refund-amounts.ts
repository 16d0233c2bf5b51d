import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { returnedAmount } from '../../contract/money.ts';
import type { Executor } from '../db/client.ts';
import { orderItems, paymentTransactions } from '../db/schema.ts';
import type { OrderRow } from './service.ts';

/**
 * What refunding some units of an order gives back, in minor units of its currency: each unit's
 * price less its part of the line's promo discount (ADR 0058), counted after the units earlier
 * refunds already put back, so refunding every unit in any number of steps returns exactly what the
 * goods were charged. The refund form fills its amount from it; delivery is the caller's to add.
 */
export async function refundForUnits(
  db: Executor,
  order: Pick<OrderRow, 'id' | 'currency' | 'usdRate'>,
  units: readonly { variantId: number; count: number }[],
): Promise<number> {
  const lines = await db
    .select({
      variantId: orderItems.variantId,
      unit: orderItems.sale,
      price: orderItems.price,
      count: orderItems.count,
      discount: orderItems.discount,
    })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, order.id), isNotNull(orderItems.variantId)))
    .orderBy(asc(orderItems.variantId));
  const refunds = await db
    .select({ restock: paymentTransactions.restock })
    .from(paymentTransactions)
    .where(
      and(
        eq(paymentTransactions.orderId, order.id),
        eq(paymentTransactions.kind, 'refund'),
        eq(paymentTransactions.accepted, true),
      ),
    );
  const returned = new Map<number, number>();
  for (const { restock } of refunds)
    for (const item of restock)
      returned.set(item.variantId, (returned.get(item.variantId) ?? 0) + item.count);
  const rate = Number(order.usdRate ?? 0);
  return units.reduce((sum, wanted) => {
    const line = lines.find((candidate) => candidate.variantId === wanted.variantId);
    if (!line || wanted.count <= 0) return sum;
    const before = returned.get(wanted.variantId) ?? 0;
    const count = Math.min(wanted.count, line.count - before);
    return (
      sum +
      returnedAmount(
        order.currency,
        rate,
        { unit: line.unit ?? line.price, count: line.count, discount: line.discount },
        before,
        Math.max(0, count),
      )
    );
  }, 0);
}
