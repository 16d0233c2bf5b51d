import { and, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import { ORDER_STATUS } from '../../contract/order-status.ts';
import type { Executor } from '../db/client.ts';
import { drops, orderItems, orders, products, productVariants } from '../db/schema.ts';
import { Invalid } from '../errors.ts';

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
  await assertWithinKnownLimits(db, customer, lines, {
    products: limited.flatMap((product) =>
      product.limit === null ? [] : [{ id: product.id, limit: Number(product.limit) }],
    ),
    variants: limited.flatMap((product) =>
      product.variants.map((variant) => ({ ...variant, productId: product.id })),
    ),
  });
}

/** The per-customer limits of some products and of their variants. */
export interface PurchaseLimits {
  products: ReadonlyArray<{ id: number; limit: number }>;
  variants: ReadonlyArray<{ id: number; productId: number; limit: number }>;
}

/** The limits of an order's lines, as read with them (`productLimit`, the variant's own limit). */
export function purchaseLimitsOf(
  lines: ReadonlyArray<{
    productId: number;
    variantId: number;
    productLimit: number | null;
    variantLimit: number | null;
  }>,
): PurchaseLimits {
  const products = new Map<number, number>();
  const variants = new Map<number, { id: number; productId: number; limit: number }>();
  for (const line of lines) {
    if (line.productLimit !== null) products.set(line.productId, Number(line.productLimit));
    if (line.variantLimit !== null)
      variants.set(line.variantId, {
        id: line.variantId,
        productId: line.productId,
        limit: line.variantLimit,
      });
  }
  return { products: [...products].map(([id, limit]) => ({ id, limit })), variants: [...variants.values()] };
}

/**
 * `assertWithinPurchaseLimits` with the limits known: reads nothing when there are none. An order
 * being placed (`exceptOrder`) whose lines are stored already is counted by `lines` only.
 */
export async function assertWithinKnownLimits(
  db: Executor,
  customer: { userId: number | null },
  lines: readonly CustomerLine[],
  limits: PurchaseLimits,
  options: { exceptOrder?: number } = {},
): Promise<void> {
  if (limits.products.length === 0 && limits.variants.length === 0) return;
  const productIds = [
    ...new Set([
      ...limits.products.map((product) => product.id),
      ...limits.variants.map((variant) => variant.productId),
    ]),
  ];
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
              options.exceptOrder === undefined ? undefined : ne(orders.id, options.exceptOrder),
            ),
          )
          .groupBy(orderItems.productId, orderItems.variantId);
  const held = [...lines, ...ordered];
  const units = (matches: (line: { productId: number; variantId: number | null }) => boolean) =>
    held.reduce((sum, line) => sum + (matches(line) ? Number(line.count) : 0), 0);

  for (const product of limits.products) {
    if (units((line) => line.productId === product.id) > product.limit)
      throw limitReached(product.limit, { productId: product.id });
  }
  for (const variant of limits.variants) {
    if (units((line) => line.variantId === variant.id) > variant.limit)
      throw limitReached(variant.limit, { productId: variant.productId, variantId: variant.id });
  }
}

/** The hold of a product's drop in minutes, or null: a column of a query of products. */
export const dropHoldMinutes: SQL<number | null> = sql<
  number | null
>`(select ${drops.holdMinutes} from ${drops} where ${drops.id} = ${products.dropId})`;
