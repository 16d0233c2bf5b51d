import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Locale } from '../../contract/locale.ts';
import { kopecksToRoubles } from '../../contract/money.ts';
import type { Basket } from '../../contract/shopping.ts';
import { productViewColumns, toProductView } from '../catalog/product-view.ts';
import type { Executor } from '../db/client.ts';
import { basketItems, baskets, products, projects } from '../db/schema.ts';
import { Conflict, Invalid, NotFound } from '../errors.ts';

/**
 * The basket: a signed-in user's, or a guest's tied to the session until sign-in merges it into
 * the user's. Counts are clamped to stock; envisioned and hidden products never get in.
 */
export type BasketOwner = { userId: number } | { sessionKey: string };

const ownerCondition = (owner: BasketOwner) =>
  'userId' in owner ? eq(baskets.userId, owner.userId) : eq(baskets.sessionId, owner.sessionKey);

async function findBasketId(db: Executor, owner: BasketOwner): Promise<number | undefined> {
  const [row] = await db.select({ id: baskets.id }).from(baskets).where(ownerCondition(owner));
  return row?.id;
}

async function basketIdFor(db: Executor, owner: BasketOwner): Promise<number> {
  const existing = await findBasketId(db, owner);
  if (existing !== undefined) return existing;
  await db
    .insert(baskets)
    .values('userId' in owner ? { userId: owner.userId } : { sessionId: owner.sessionKey })
    .onConflictDoNothing();
  const created = await findBasketId(db, owner);
  if (created === undefined) throw new Error('basket could not be created');
  return created;
}

export async function getBasket(db: Executor, owner: BasketOwner, locale: Locale): Promise<Basket> {
  const basketId = await findBasketId(db, owner);
  if (basketId === undefined) return { productList: [], products: {}, unavailable: [], total: 0, count: 0 };
  const rows = await db
    .select({ ...productViewColumns(locale), count: basketItems.count })
    .from(basketItems)
    .innerJoin(products, eq(products.id, basketItems.productId))
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(eq(basketItems.basketId, basketId))
    .orderBy(asc(basketItems.addedAt), asc(basketItems.productId));

  let total = 0;
  let count = 0;
  const basket: Basket = { productList: [], products: {}, unavailable: [], total: 0, count: 0 };
  for (const row of rows) {
    const item = { ...toProductView(row), count: row.count };
    basket.productList.push(row.id);
    basket.products[row.id] = item;
    if (item.inStock === 0 || row.count > item.inStock) basket.unavailable.push(row.id);
    total += (row.sale ?? row.price) * row.count;
    count += row.count;
  }
  return { ...basket, total: kopecksToRoubles(total), count };
}

/** Parcel weight in grams: Σ product weight × count. */
export async function getBasketWeight(db: Executor, owner: BasketOwner): Promise<number> {
  const basketId = await findBasketId(db, owner);
  if (basketId === undefined) return 0;
  const [row] = await db
    .select({ grams: sql<string>`coalesce(sum(${products.weight} * ${basketItems.count}), 0)` })
    .from(basketItems)
    .innerJoin(products, eq(products.id, basketItems.productId))
    .where(eq(basketItems.basketId, basketId));
  return Number(row?.grams ?? 0);
}

/**
 * A product that may go into a basket: visible, of a visible project, priced, not envisioned, in
 * stock.
 */
async function orderableProduct(db: Executor, productId: number) {
  const [product] = await db
    .select({ quantity: products.quantity, envisioned: products.envisioned })
    .from(products)
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(
      and(
        eq(products.id, productId),
        eq(products.visible, true),
        eq(projects.visible, true),
        gt(products.price, 0),
      ),
    );
  if (!product) throw new NotFound('product-unavailable', { product: ['product-unavailable'] });
  if (product.envisioned)
    throw new Invalid('envisioned-not-orderable', { product: ['envisioned-not-orderable'] });
  if (product.quantity <= 0) throw new Conflict('out-of-stock', { product: ['out-of-stock'] });
  return product;
}

/** Adds one unit (or one more), never beyond stock. */
export async function addToBasket(db: Executor, owner: BasketOwner, productId: number): Promise<void> {
  const product = await orderableProduct(db, productId);
  const basketId = await basketIdFor(db, owner);
  await db
    .insert(basketItems)
    .values({ basketId, productId, count: 1 })
    .onConflictDoUpdate({
      target: [basketItems.basketId, basketItems.productId],
      set: { count: sql`least(${basketItems.count} + 1, ${product.quantity})` },
    });
  await touchBasket(db, basketId);
}

/** Sets a count, clamped to what is in stock; `force` tells the client its count was overridden. */
export async function setBasketCount(
  db: Executor,
  owner: BasketOwner,
  productId: number,
  requested: number,
): Promise<{ count: number; force: boolean }> {
  const basketId = await findBasketId(db, owner);
  const [item] =
    basketId === undefined
      ? []
      : await db
          .select({ quantity: products.quantity })
          .from(basketItems)
          .innerJoin(products, eq(products.id, basketItems.productId))
          .where(and(eq(basketItems.basketId, basketId), eq(basketItems.productId, productId)));
  if (basketId === undefined || !item)
    throw new NotFound('product-unavailable', { product: ['product-unavailable'] });
  const count = item.quantity > 0 ? Math.max(1, Math.min(requested, item.quantity)) : Math.max(1, requested);
  await db
    .update(basketItems)
    .set({ count })
    .where(and(eq(basketItems.basketId, basketId), eq(basketItems.productId, productId)));
  await touchBasket(db, basketId);
  return { count, force: count !== requested };
}

export async function removeFromBasket(db: Executor, owner: BasketOwner, productId: number): Promise<void> {
  const basketId = await findBasketId(db, owner);
  if (basketId === undefined) return;
  await db
    .delete(basketItems)
    .where(and(eq(basketItems.basketId, basketId), eq(basketItems.productId, productId)));
  await touchBasket(db, basketId);
}

/** Puts items into the basket (repeat order): counts added, clamped to stock; unorderable ones skipped. */
export async function putIntoBasket(
  db: Executor,
  owner: BasketOwner,
  items: Array<{ productId: number; count: number }>,
): Promise<void> {
  if (items.length === 0) return;
  const basketId = await basketIdFor(db, owner);
  for (const item of items) {
    await db.execute(sql`
      insert into ${basketItems} (basket_id, product_id, count)
      select ${basketId}, p.id, least(${item.count}, p.quantity)
      from ${products} p join ${projects} pr on pr.id = p.project_id
      where p.id = ${item.productId} and p.visible and pr.visible and not p.envisioned and p.price > 0 and p.quantity > 0
      on conflict (basket_id, product_id)
      do update set count = least(${basketItems.count} + excluded.count, (select quantity from ${products} where id = excluded.product_id))`);
  }
  await touchBasket(db, basketId);
}

/** On sign-in: the guest's items join the user's basket (counts summed, clamped to stock). */
export async function mergeGuestBasket(db: Executor, sessionKey: string, userId: number): Promise<void> {
  const guestBasketId = await findBasketId(db, { sessionKey });
  if (guestBasketId === undefined) return;
  await db.transaction(async (transaction) => {
    const items = await transaction
      .select({ productId: basketItems.productId, count: basketItems.count })
      .from(basketItems)
      .where(eq(basketItems.basketId, guestBasketId));
    await putIntoBasket(transaction, { userId }, items);
    await transaction.delete(baskets).where(eq(baskets.id, guestBasketId));
  });
}

async function touchBasket(db: Executor, basketId: number) {
  await db.update(baskets).set({ updatedAt: new Date() }).where(eq(baskets.id, basketId));
}
