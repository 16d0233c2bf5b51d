import { and, eq, inArray, min, ne, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { drops, orderItems, orders, products, productVariants } from '../db/schema.ts';
import { Invalid } from '../errors.ts';
import { ORDER_STATUS } from './status.ts';

/**
 * What a drop changes about buying (ADR 0041): how many units one customer may buy, and how long
 * an unpaid order holds its units. The basket and order placement both ask here.
 */

/** A product's per-customer limit: its own, else its drop's, else null (no limit). */
export const productLimit: SQL<number | null> = sql<number | null>`coalesce(${products.perCustomerLimit},
  (select ${drops.perCustomerLimit} from ${drops} where ${drops.id} = ${products.dropId}))`;

/** A basket line as it would be after the change being checked. */
export interface CustomerLine {
  productId: number;
  variantId: number;
  count: number;
}

export const limitReached = (limit: number, line: { productId: number; variantId?: number }) =>
  new Invalid('limit-reached', { product: ['limit-reached'] }, 'limit-reached', {
    limit,
    product: line.productId,
    ...(line.variantId === undefined ? {} : { variant: line.variantId }),
  });

/**
 * Refuses (422 limit-reached, with the limit) when the customer would hold more units of a product,
 * or of a variant, than its per-customer limit allows. `lines` are every basket line of the
 * products concerned as they would be after the change; a signed-in customer's orders that are not
 * cancelled count too (a guest's basket is checked on its own, and again when the order is placed).
 * Order placement calls it after locking the products' rows, in the order's transaction.
 */
export async function assertWithinPurchaseLimits(
  db: Executor,
  customer: { userId: number | null },
  lines: readonly CustomerLine[],
): Promise<void> {
  const productIds = [...new Set(lines.map((line) => line.productId))];
  if (productIds.length === 0) return;
  // The products' limits and their variants' in one query: most products have none.
  const limited = await db
    .select({
      id: products.id,
      limit: productLimit,
      // Columns named with their tables: drizzle leaves them bare in a query of one table.
      variants: sql<Array<{ id: number; limit: number }>>`(select coalesce(json_agg(json_build_object(
          'id', limited.id, 'limit', limited.per_customer_limit)), '[]')
        from ${productVariants} limited
        where limited.product_id = ${products}.id and limited.per_customer_limit is not null)`,
    })
    .from(products)
    .where(inArray(products.id, productIds));
  const productLimits = limited.filter((product) => product.limit !== null);
  const variantLimits = limited.flatMap((product) =>
    product.variants.map((variant) => ({ ...variant, productId: product.id })),
  );
  if (productLimits.length === 0 && variantLimits.length === 0) return;

  const ordered =
    customer.userId === null
      ? []
      : await db
          .select({
            productId: orderItems.productId,
            variantId: orderItems.variantId,
            count: sql<number>`sum(${orderItems.count})::int`,
          })
          .from(orderItems)
          .innerJoin(orders, eq(orders.id, orderItems.orderId))
          .where(
            and(
              eq(orders.userId, customer.userId),
              ne(orders.status, ORDER_STATUS.cancelled),
              inArray(orderItems.productId, productIds),
            ),
          )
          .groupBy(orderItems.productId, orderItems.variantId);
  const held = [...lines, ...ordered];
  const units = (matches: (line: { productId: number; variantId: number | null }) => boolean) =>
    held.reduce((sum, line) => sum + (matches(line) ? Number(line.count) : 0), 0);

  for (const product of productLimits) {
    const limit = Number(product.limit);
    if (units((line) => line.productId === product.id) > limit)
      throw limitReached(limit, { productId: product.id });
  }
  for (const variant of variantLimits) {
    const limit = Number(variant.limit);
    if (units((line) => line.variantId === variant.id) > limit)
      throw limitReached(limit, { productId: variant.productId, variantId: variant.id });
  }
}

/**
 * Minutes an unpaid order of these products holds their units: the shortest hold among their drops,
 * else the shop's default.
 */
export async function unpaidHoldMinutes(
  db: Executor,
  productIds: readonly number[],
  defaultMinutes: number,
): Promise<number> {
  if (productIds.length === 0) return defaultMinutes;
  const [row] = await db
    .select({ minutes: min(drops.holdMinutes) })
    .from(products)
    .innerJoin(drops, eq(drops.id, products.dropId))
    .where(inArray(products.id, [...new Set(productIds)]));
  return row?.minutes ?? defaultMinutes;
}
