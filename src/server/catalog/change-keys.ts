import { eq, inArray, sql } from 'drizzle-orm';
import { cacheKeys } from '../caches/changes.ts';
import type { Executor } from '../db/client.ts';
import { categories, orderItems, productCategories, products, projects } from '../db/schema.ts';

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
  const lists = await db
    .select({
      project: projects.link,
      categories: sql<string[]>`array(select ${categories.link} from ${productCategories}
        join ${categories} on ${categories.id} = ${productCategories.categoryId}
        where ${productCategories.productId} = ${products.id})`,
    })
    .from(products)
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(inArray(products.id, ids));
  return [
    ...ids.map(cacheKeys.product),
    ...new Set([
      ...lists.map((row) => cacheKeys.project(row.project)),
      ...lists.flatMap((row) => row.categories.map(cacheKeys.category)),
    ]),
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
