import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { orderStatusHistory, orders } from '../db/schema.ts';
import { ORDER_STATUS } from '../orders/status.ts';

/**
 * Whether the user's order was cancelled by the shopper on the cancel page (not expired, not by
 * staff). A second visit to the same cancel link then shows the same success instead of a failure:
 * nothing changes, and the items already went back to the cart the first time.
 */
export async function cancelledByShopper(db: Executor, orderId: number, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .innerJoin(orderStatusHistory, eq(orderStatusHistory.orderId, orders.id))
    .where(
      and(
        eq(orders.id, orderId),
        eq(orders.userId, userId),
        eq(orders.status, ORDER_STATUS.cancelled),
        eq(orderStatusHistory.status, ORDER_STATUS.cancelled),
        eq(orderStatusHistory.reason, 'cancelled'),
        isNull(orderStatusHistory.changedBy),
      ),
    )
    .limit(1);
  return row !== undefined;
}
