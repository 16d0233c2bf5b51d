import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { type RefundLine, unitPrice, unitsRefundAmount } from '../../contract/money.ts';
import type { Executor } from '../db/client.ts';
import { orderItems, paymentTransactions } from '../db/schema.ts';
import type { OrderRow } from './service.ts';

/**
 * An order's lines as refunds count them: each variant's unit price, count and promo discount
 * (ADR 0058), and the units earlier refunds already gave back (their restock), in variant order.
 */
export async function refundLines(db: Executor, orderId: number): Promise<RefundLine[]> {
  const lines = await db
    .select({
      variantId: orderItems.variantId,
      sale: orderItems.sale,
      price: orderItems.price,
      count: orderItems.count,
      discount: orderItems.discount,
    })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, orderId), isNotNull(orderItems.variantId)))
    .orderBy(asc(orderItems.variantId));
  const refunds = await db
    .select({ restock: paymentTransactions.restock })
    .from(paymentTransactions)
    .where(
      and(
        eq(paymentTransactions.orderId, orderId),
        eq(paymentTransactions.kind, 'refund'),
        eq(paymentTransactions.accepted, true),
      ),
    );
  const returned = new Map<number, number>();
  for (const { restock } of refunds)
    for (const item of restock)
      returned.set(item.variantId, (returned.get(item.variantId) ?? 0) + item.count);
  return lines.flatMap((line) =>
    line.variantId === null
      ? []
      : [
          {
            variantId: line.variantId,
            unit: unitPrice(line),
            count: line.count,
            discount: line.discount,
            returned: returned.get(line.variantId) ?? 0,
          },
        ],
  );
}

/**
 * What refunding some units of an order gives back, in minor units of its currency: each unit's
 * price less its part of the line's promo discount (ADR 0058), counted after the units earlier
 * refunds already put back, so refunding every unit in any number of steps returns exactly what the
 * goods were charged. The rule is `unitsRefundAmount` (src/contract/money.ts), which the refund
 * form runs in the browser on the same lines (`orderTransactions`); delivery is the caller's to add.
 */
export async function refundForUnits(
  db: Executor,
  order: Pick<OrderRow, 'id' | 'currency' | 'usdRate'>,
  units: readonly { variantId: number; count: number }[],
): Promise<number> {
  return unitsRefundAmount(
    order.currency,
    Number(order.usdRate ?? 0),
    await refundLines(db, order.id),
    units,
  );
}
