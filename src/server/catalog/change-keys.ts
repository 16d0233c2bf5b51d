import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import {
  basketItems,
  baskets,
  categories,
  orderItems,
  orders,
  productCategories,
  products,
  projects,
} from '../db/schema.ts';
import { ORDER_STATUS } from '../orders/status.ts';
import { cacheKeys } from './changes.ts';

/**
 * The keys a change of these products touches (ADR 0042): each product, the lists it is on (its
 * project, its categories, every product, every search) and, unless only stock moved, the home
 * page (the category tiles' pictures come from products). Read before and after a write that may
 * move a product between lists, so both its old and its new lists are dropped.
 */
export async function productKeys(
  db: Executor,
  productIds: readonly number[],
  options: { stockOnly?: boolean } = {},
): Promise<string[]> {
  const ids = [...new Set(productIds)];
  if (ids.length === 0) return [];
  const [ownLists, categoryLinks] = await Promise.all([
    db
      .select({ id: products.id, project: projects.link })
      .from(products)
      .innerJoin(projects, eq(projects.id, products.projectId))
      .where(inArray(products.id, ids)),
    db
      .selectDistinct({ link: categories.link })
      .from(productCategories)
      .innerJoin(categories, eq(categories.id, productCategories.categoryId))
      .where(inArray(productCategories.productId, ids)),
  ]);
  return [
    ...ids.map(cacheKeys.product),
    ...new Set(ownLists.map((row) => cacheKeys.project(row.project))),
    ...categoryLinks.map((row) => cacheKeys.category(row.link)),
    cacheKeys.all,
    cacheKeys.search,
    ...(options.stockOnly ? [] : [cacheKeys.home]),
  ];
}

/** The products of these orders: the units their status changes move. */
export async function orderProductIds(db: Executor, orderIds: readonly number[]): Promise<number[]> {
  if (orderIds.length === 0) return [];
  const rows = await db
    .selectDistinct({ productId: orderItems.productId })
    .from(orderItems)
    .where(inArray(orderItems.orderId, [...new Set(orderIds)]));
  return rows.map((row) => row.productId);
}

/**
 * The products whose stock placing an order may move for this shopper: what their basket holds
 * (taken) and what their unpaid orders hold (released when the new order replaces them, ADR 0021).
 * Read before placing; the keys are dropped after it.
 */
export async function productsAnOrderMayMove(db: Executor, userId: number): Promise<number[]> {
  const [inBasket, unpaid] = await Promise.all([
    db
      .select({ productId: basketItems.productId })
      .from(basketItems)
      .innerJoin(baskets, eq(baskets.id, basketItems.basketId))
      .where(eq(baskets.userId, userId)),
    db
      .select({ productId: orderItems.productId })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .where(and(eq(orders.userId, userId), eq(orders.status, ORDER_STATUS.current))),
  ]);
  return [...new Set([...inBasket, ...unpaid].map((row) => row.productId))];
}
