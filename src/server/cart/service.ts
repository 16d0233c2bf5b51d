import { and, asc, eq, sql } from 'drizzle-orm';
import type { Locale } from '../../contract/locale.ts';
import { kopecksToRoubles, unitPrice } from '../../contract/money.ts';
import type { Basket } from '../../contract/shopping.ts';
import { assertWithinPurchaseLimits } from '../catalog/drop-rules.ts';
import { productViewColumns, toProductView } from '../catalog/product-view.ts';
import { isOrderable, isReleased, isVisible } from '../catalog/release.ts';
import {
  basketLineKey,
  isDefaultVariant,
  resolveVariantId,
  variantLabel,
  variantPrice,
  variantSale,
  variantUnitPrice,
  variantWeight,
} from '../catalog/variants.ts';
import type { Executor } from '../db/client.ts';
import { preparedOnce } from '../db/prepared.ts';
import { basketItems, baskets, products, productVariants, projects, wishlistItems } from '../db/schema.ts';
import { Conflict, Invalid, NotFound } from '../errors.ts';
import { type BasketPromo, basketPromo, clearPromoCode, enterPromoCode } from '../promo/service.ts';
import { type Box, boxOf, parcelBox } from '../providers/parcel.ts';

/**
 * The basket: a signed-in user's, or a guest's tied to the session until sign-in merges it into
 * the user's. Counts are clamped to stock; envisioned, hidden and unreleased products never get in;
 * a count above a per-customer limit is refused (ADR 0041), never cut silently.
 */
export type BasketOwner = { userId: number } | { sessionKey: string };

const ownerCondition = (owner: BasketOwner) =>
  'userId' in owner ? eq(baskets.userId, owner.userId) : eq(baskets.sessionId, owner.sessionKey);

export async function findBasketId(db: Executor, owner: BasketOwner): Promise<number | undefined> {
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

/** A basket line: a variant of a product (its default variant for a product without options). */
export interface BasketLine {
  productId: number;
  variantId: number;
  count: number;
}

export async function getBasket(
  db: Executor,
  owner: BasketOwner,
  locale: Locale,
  now: Date = new Date(),
): Promise<Basket> {
  const basketId = await findBasketId(db, owner);
  if (basketId === undefined) return { productList: [], products: {}, unavailable: [], total: 0, count: 0 };
  const rows = await db
    .select({
      ...productViewColumns(locale, now, productVariants.id),
      price: variantPrice,
      sale: variantSale,
      quantity: productVariants.quantity,
      variantId: productVariants.id,
      sku: productVariants.sku,
      options: variantLabel(locale),
      isDefault: isDefaultVariant,
      count: basketItems.count,
    })
    .from(basketItems)
    .innerJoin(productVariants, eq(productVariants.id, basketItems.variantId))
    .innerJoin(products, eq(products.id, basketItems.productId))
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(eq(basketItems.basketId, basketId))
    .orderBy(asc(basketItems.addedAt), asc(basketItems.productId), asc(basketItems.variantId));

  let total = 0;
  let count = 0;
  const basket: Basket = { productList: [], products: {}, unavailable: [], total: 0, count: 0 };
  const goods = rows.map((row) => ({ productId: row.id, unit: unitPrice(row), count: row.count }));
  for (const row of rows) {
    const key = basketLineKey({ productId: row.id, variantId: row.variantId, isDefault: row.isDefault });
    const item = {
      ...toProductView(row),
      count: row.count,
      variant: row.variantId,
      sku: row.sku,
      options: row.options,
    };
    basket.productList.push(key);
    basket.products[key] = item;
    if (item.inStock === 0 || row.count > item.inStock) basket.unavailable.push(key);
    total += unitPrice(row) * row.count;
    count += row.count;
  }
  const promo = await basketPromo(db, basketId, goods, customerOf(owner).userId, now);
  return {
    ...basket,
    total: kopecksToRoubles(total),
    count,
    ...(promo ? { promo: shownPromo(promo, basket.productList) } : {}),
  };
}

/** A basket's code as the shopper sees it: its discount and each line's share, or why it does not apply. */
function shownPromo(promo: BasketPromo, keys: Basket['productList']): NonNullable<Basket['promo']> {
  const { outcome } = promo;
  if (!outcome.ok) return { code: promo.code, discount: 0, lines: {}, refused: outcome.reason };
  return {
    code: promo.code,
    discount: kopecksToRoubles(outcome.discount),
    lines: Object.fromEntries(keys.map((key, index) => [key, kopecksToRoubles(outcome.shares[index] ?? 0)])),
    refused: null,
  };
}

/** The basket's goods (product, unit price, count) in its order, as promo codes see them. */
async function basketGoods(db: Executor, basketId: number) {
  return db
    .select({
      productId: basketItems.productId,
      unit: variantUnitPrice,
      count: basketItems.count,
    })
    .from(basketItems)
    .innerJoin(productVariants, eq(productVariants.id, basketItems.variantId))
    .innerJoin(products, eq(products.id, basketItems.productId))
    .where(eq(basketItems.basketId, basketId));
}

/** Enters a promo code for the owner's basket: kept when it applies to the goods now, refused with its reason otherwise. */
export async function enterBasketPromo(
  db: Executor,
  owner: BasketOwner,
  code: string,
  now: Date = new Date(),
): Promise<void> {
  const basketId = await basketIdFor(db, owner);
  const goods = await basketGoods(db, basketId);
  await enterPromoCode(
    db,
    basketId,
    code,
    goods.map((line) => ({ ...line, unit: Number(line.unit) })),
    customerOf(owner).userId,
    now,
  );
}

/** Takes the promo code off the owner's basket. */
export async function removeBasketPromo(db: Executor, owner: BasketOwner): Promise<void> {
  const basketId = await findBasketId(db, owner);
  if (basketId !== undefined) await clearPromoCode(db, basketId);
}

/** Parcel weight in grams: Σ variant weight × count. */
export async function getBasketWeight(db: Executor, owner: BasketOwner): Promise<number> {
  const basketId = await findBasketId(db, owner);
  if (basketId === undefined) return 0;
  const [row] = await db
    .select({ grams: sql<string>`coalesce(sum(${variantWeight} * ${basketItems.count}), 0)` })
    .from(basketItems)
    .innerJoin(productVariants, eq(productVariants.id, basketItems.variantId))
    .innerJoin(products, eq(products.id, basketItems.productId))
    .where(eq(basketItems.basketId, basketId));
  return Number(row?.grams ?? 0);
}

/** What a delivery quote needs of a basket: its units, goods total (kopecks), grams and box. */
export interface BasketParcel {
  count: number;
  totalKopecks: number;
  grams: number;
  box: Box;
}

/** `getBasketParcel`'s statement for one kind of owner, built once per connection (ADR 0095). */
const basketParcelOf = (owner: 'user' | 'guest') =>
  preparedOnce((db) =>
    db
      .select({
        count: basketItems.count,
        unit: variantUnitPrice,
        grams: variantWeight,
        boxLength: products.boxLength,
        boxWidth: products.boxWidth,
        boxHeight: products.boxHeight,
      })
      .from(basketItems)
      .innerJoin(baskets, eq(baskets.id, basketItems.basketId))
      .innerJoin(productVariants, eq(productVariants.id, basketItems.variantId))
      .innerJoin(products, eq(products.id, basketItems.productId))
      .where(
        owner === 'user'
          ? eq(baskets.userId, sql.placeholder('owner'))
          : eq(baskets.sessionId, sql.placeholder('owner')),
      )
      // By name, so that PostgreSQL plans it once per connection: every delivery quote and order
      // placement reads it (ADR 0089).
      .prepare(`basket_parcel_of_${owner}`),
  );
const basketParcelOfUser = basketParcelOf('user');
const basketParcelOfGuest = basketParcelOf('guest');

/**
 * The basket's parcel in one query: the units and goods total (as `getBasket` adds them up), the
 * weight (as `getBasketWeight`) and the box (ADR 0057) a delivery quote is asked with.
 */
export async function getBasketParcel(
  db: Executor,
  owner: BasketOwner,
  defaultBox: Box,
): Promise<BasketParcel> {
  const rows =
    'userId' in owner
      ? await basketParcelOfUser(db).execute({ owner: owner.userId })
      : await basketParcelOfGuest(db).execute({ owner: owner.sessionKey });
  return {
    count: rows.reduce((sum, row) => sum + row.count, 0),
    totalKopecks: rows.reduce((sum, row) => sum + Number(row.unit) * row.count, 0),
    grams: rows.reduce((sum, row) => sum + Number(row.grams ?? 0) * row.count, 0),
    box: parcelBox(rows.map(boxOf), defaultBox),
  };
}

/**
 * A variant that may go into a basket: of an orderable product (catalog/release.ts), in stock.
 * Without a variant named, the product's only one (ADR 0036). An envisioned or not yet released
 * product is refused with its own reason.
 */
async function orderableVariant(db: Executor, productId: number, variant: number | undefined, now: Date) {
  const [product] = await db
    .select({ envisioned: products.envisioned, released: isReleased(now), orderable: isOrderable(now) })
    .from(products)
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(and(eq(products.id, productId), isVisible));
  if (product?.envisioned)
    throw new Invalid('envisioned-not-orderable', { product: ['envisioned-not-orderable'] });
  if (product && !product.released)
    throw new Conflict('product-not-released', { product: ['product-not-released'] }, 'product-not-released');
  if (!product?.orderable) throw new NotFound('product-unavailable', { product: ['product-unavailable'] });
  const variantId = await resolveVariantId(db, productId, variant);
  const [stock] = await db
    .select({ quantity: productVariants.quantity })
    .from(productVariants)
    .where(eq(productVariants.id, variantId));
  if (!stock || stock.quantity <= 0) throw new Conflict('out-of-stock', { product: ['out-of-stock'] });
  return { variantId, quantity: stock.quantity };
}

/** The user a basket belongs to, or null for a guest's: whose orders count towards limits. */
const customerOf = (owner: BasketOwner) => ({ userId: 'userId' in owner ? owner.userId : null });

/** The basket's lines of a product, with one line's count as it would be after a change. */
async function linesAfterChange(
  db: Executor,
  basketId: number,
  productId: number,
  change: { variantId: number; count: (current: number) => number },
) {
  const lines = await db
    .select({ productId: basketItems.productId, variantId: basketItems.variantId, count: basketItems.count })
    .from(basketItems)
    .where(and(eq(basketItems.basketId, basketId), eq(basketItems.productId, productId)));
  const changed = lines.find((line) => line.variantId === change.variantId);
  return [
    ...lines.filter((line) => line !== changed),
    { productId, variantId: change.variantId, count: change.count(changed?.count ?? 0) },
  ];
}

/**
 * Adds one unit (or one more) of a product's variant, never beyond its stock; refused (422
 * limit-reached) when the customer already holds the product's or variant's per-customer limit.
 */
export async function addToBasket(
  db: Executor,
  owner: BasketOwner,
  productId: number,
  variant?: number,
  now: Date = new Date(),
): Promise<void> {
  const { variantId, quantity } = await orderableVariant(db, productId, variant, now);
  const basketId = await basketIdFor(db, owner);
  await assertWithinPurchaseLimits(
    db,
    customerOf(owner),
    await linesAfterChange(db, basketId, productId, { variantId, count: (current) => current + 1 }),
  );
  await db
    .insert(basketItems)
    .values({ basketId, productId, variantId, count: 1 })
    .onConflictDoUpdate({
      target: [basketItems.basketId, basketItems.variantId],
      set: { count: sql`least(${basketItems.count} + 1, ${quantity})` },
    });
  await touchBasket(db, basketId);
}

/** The basket line of a product (and variant, when the product has several) in this basket. */
async function basketLine(db: Executor, owner: BasketOwner, productId: number, variant: number | undefined) {
  const basketId = await findBasketId(db, owner);
  if (basketId === undefined) return undefined;
  const lines = await db
    .select({ variantId: basketItems.variantId, quantity: productVariants.quantity })
    .from(basketItems)
    .innerJoin(productVariants, eq(productVariants.id, basketItems.variantId))
    .where(
      and(
        eq(basketItems.basketId, basketId),
        eq(basketItems.productId, productId),
        variant === undefined ? undefined : eq(basketItems.variantId, variant),
      ),
    )
    .limit(2);
  const [line, another] = lines;
  if (another) throw new Invalid('variant-required', { variant: ['variant-required'] }, 'variant-required');
  return line && { basketId, ...line };
}

/**
 * Sets a count, clamped to what is in stock; `force` tells the client its count was overridden. A
 * count above a per-customer limit is refused (422 limit-reached), not cut.
 */
export async function setBasketCount(
  db: Executor,
  owner: BasketOwner,
  productId: number,
  requested: number,
  variant?: number,
): Promise<{ count: number; force: boolean }> {
  const line = await basketLine(db, owner, productId, variant);
  if (!line) throw new NotFound('product-unavailable', { product: ['product-unavailable'] });
  const count = line.quantity > 0 ? Math.max(1, Math.min(requested, line.quantity)) : Math.max(1, requested);
  await assertWithinPurchaseLimits(
    db,
    customerOf(owner),
    await linesAfterChange(db, line.basketId, productId, { variantId: line.variantId, count: () => count }),
  );
  await db
    .update(basketItems)
    .set({ count })
    .where(and(eq(basketItems.basketId, line.basketId), eq(basketItems.variantId, line.variantId)));
  await touchBasket(db, line.basketId);
  return { count, force: count !== requested };
}

export async function removeFromBasket(
  db: Executor,
  owner: BasketOwner,
  productId: number,
  variant?: number,
): Promise<void> {
  const line = await basketLine(db, owner, productId, variant);
  if (!line) return;
  await db
    .delete(basketItems)
    .where(and(eq(basketItems.basketId, line.basketId), eq(basketItems.variantId, line.variantId)));
  await touchBasket(db, line.basketId);
}

/**
 * Puts lines into the basket (repeat order, sign-in merge): counts added, clamped to the variant's
 * stock; lines that cannot be ordered now are skipped.
 */
export async function putIntoBasket(
  db: Executor,
  owner: BasketOwner,
  lines: readonly BasketLine[],
  now: Date = new Date(),
): Promise<void> {
  if (lines.length === 0) return;
  const basketId = await basketIdFor(db, owner);
  for (const line of lines) {
    await db.execute(sql`
      insert into ${basketItems} (basket_id, product_id, variant_id, count)
      select ${basketId}, ${products.id}, ${productVariants.id}, least(${line.count}, ${productVariants.quantity})
      from ${productVariants}
      join ${products} on ${products.id} = ${productVariants.productId}
      join ${projects} on ${projects.id} = ${products.projectId}
      where ${productVariants.id} = ${line.variantId} and ${products.id} = ${line.productId}
        and ${isOrderable(now)} and ${productVariants.quantity} > 0
      on conflict (basket_id, variant_id)
      do update set count = least(${basketItems.count} + excluded.count,
        (select quantity from ${productVariants} where id = excluded.variant_id))`);
  }
  await touchBasket(db, basketId);
}

/**
 * On sign-in: the guest's items join the user's basket (counts summed, clamped to stock), and the
 * guest's promo code with them unless the user's basket holds one already.
 */
export async function mergeGuestBasket(db: Executor, sessionKey: string, userId: number): Promise<void> {
  const guestBasketId = await findBasketId(db, { sessionKey });
  if (guestBasketId === undefined) return;
  await db.transaction(async (transaction) => {
    const lines = await transaction
      .select({
        productId: basketItems.productId,
        variantId: basketItems.variantId,
        count: basketItems.count,
      })
      .from(basketItems)
      .where(eq(basketItems.basketId, guestBasketId));
    await putIntoBasket(transaction, { userId }, lines);
    await transaction
      .update(baskets)
      .set({
        promoCodeId: sql`coalesce(${baskets.promoCodeId}, (select promo_code_id from ${baskets} where id = ${guestBasketId}))`,
      })
      .where(eq(baskets.userId, userId));
    await transaction.delete(baskets).where(eq(baskets.id, guestBasketId));
  });
}

async function touchBasket(db: Executor, basketId: number) {
  await db.update(baskets).set({ updatedAt: new Date() }).where(eq(baskets.id, basketId));
}

/**
 * The header's badges in one query: units in the owner's basket (as `getBasket` counts them) and,
 * for a signed-in shopper, products in their wishlist (as `getWishlist` lists them).
 */
export async function headerCounts(
  db: Executor,
  owner: BasketOwner,
): Promise<{ basket: number; wishlist: number }> {
  const units = db
    .select({ units: sql<string>`coalesce(sum(${basketItems.count}), 0)` })
    .from(basketItems)
    .innerJoin(baskets, eq(baskets.id, basketItems.basketId))
    .innerJoin(productVariants, eq(productVariants.id, basketItems.variantId))
    .innerJoin(products, eq(products.id, basketItems.productId))
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(ownerCondition(owner));
  const liked =
    'userId' in owner
      ? sql`(select count(*) from ${wishlistItems}
          join ${products} on ${products.id} = ${wishlistItems.productId}
          join ${projects} on ${projects.id} = ${products.projectId}
          where ${wishlistItems.userId} = ${owner.userId} and ${products.visible} and ${projects.visible})`
      : sql`0`;
  const [row] = await db
    .select({ basket: sql<string>`(${units})`, wishlist: sql<string>`${liked}` })
    .from(sql`(select 1) as one`);
  return { basket: Number(row?.basket ?? 0), wishlist: Number(row?.wishlist ?? 0) };
}
