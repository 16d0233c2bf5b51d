import { and, asc, eq, inArray, isNull, not, sql } from 'drizzle-orm';
import type { Locale } from '../../contract/locale.ts';
import type { Wishlist } from '../../contract/shopping.ts';
import { productViewColumns, toProductView } from '../catalog/product-view.ts';
import { isDefaultVariant, variantPrice, variantValuesLabel } from '../catalog/variants.ts';
import type { Executor } from '../db/client.ts';
import { productOptions, products, productVariants, projects, users, wishlistItems } from '../db/schema.ts';
import { NotFound } from '../errors.ts';
import { queueMail } from '../mail/outbox.ts';
import type { MailShop } from '../mail/templates.ts';

/** Signed-in users' wishlists. Envisioned items can be wishlisted; their fans hear when they are made. */

/** Announced products not released yet are listed too, not orderable until their release. */
export async function getWishlist(
  db: Executor,
  userId: number,
  locale: Locale,
  now: Date = new Date(),
): Promise<Wishlist> {
  const rows = await db
    .select(productViewColumns(locale, now))
    .from(wishlistItems)
    .innerJoin(products, eq(products.id, wishlistItems.productId))
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(and(eq(wishlistItems.userId, userId), eq(products.visible, true), eq(projects.visible, true)))
    .orderBy(asc(wishlistItems.addedAt), asc(wishlistItems.productId));
  const choices = await variantChoices(
    db,
    locale,
    rows.filter((row) => row.orderable).map((row) => row.id),
  );
  return {
    productList: rows.map((row) => row.id),
    products: Object.fromEntries(
      rows.map((row) => [
        row.id,
        { ...toProductView(row), envisioned: row.envisioned, choice: choices.get(row.id) ?? null },
      ]),
    ),
  };
}

type Choice = NonNullable<Wishlist['products'][string]['choice']>;

/**
 * The variants a shopper picks from on the wishlist, for the orderable products with options (ADR
 * 0036): what is chosen ("Size, Colour") and each variant's values with the units orderable now
 * (0 without a price). Two queries, whatever the number of products.
 */
async function variantChoices(
  db: Executor,
  locale: Locale,
  productIds: number[],
): Promise<Map<number, Choice>> {
  const choices = new Map<number, Choice>();
  if (productIds.length === 0) return choices;
  const [optionRows, variantRows] = await Promise.all([
    db
      .select({
        productId: productOptions.productId,
        name: locale === 'ru' ? productOptions.nameRu : productOptions.nameEn,
      })
      .from(productOptions)
      .where(inArray(productOptions.productId, productIds))
      .orderBy(asc(productOptions.position), asc(productOptions.id)),
    db
      .select({
        productId: productVariants.productId,
        id: productVariants.id,
        label: variantValuesLabel(locale),
        quantity: productVariants.quantity,
        price: variantPrice,
      })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(and(inArray(productVariants.productId, productIds), not(isDefaultVariant)))
      .orderBy(asc(productVariants.position), asc(productVariants.id)),
  ]);
  for (const option of optionRows) {
    const choice = choices.get(option.productId);
    if (choice) choice.name = `${choice.name}, ${option.name}`;
    else choices.set(option.productId, { name: option.name, variants: [] });
  }
  for (const variant of variantRows) {
    choices.get(variant.productId)?.variants.push({
      id: variant.id,
      label: variant.label,
      inStock: variant.price > 0 ? variant.quantity : 0,
    });
  }
  for (const [productId, choice] of choices) if (choice.variants.length === 0) choices.delete(productId);
  return choices;
}

export async function addToWishlist(db: Executor, userId: number, productId: number): Promise<void> {
  const [product] = await db
    .select({ id: products.id })
    .from(products)
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(and(eq(products.id, productId), eq(products.visible, true), eq(projects.visible, true)));
  if (!product) throw new NotFound('product-unavailable', { product: ['product-unavailable'] });
  await db.insert(wishlistItems).values({ userId, productId }).onConflictDoNothing();
}

export async function removeFromWishlist(db: Executor, userId: number, productId: number): Promise<void> {
  await db
    .delete(wishlistItems)
    .where(and(eq(wishlistItems.userId, userId), eq(wishlistItems.productId, productId)));
}

/** Whether the user's wishlist holds this product. */
export async function isInWishlist(db: Executor, userId: number, productId: number): Promise<boolean> {
  const [row] = await db
    .select({ productId: wishlistItems.productId })
    .from(wishlistItems)
    .where(and(eq(wishlistItems.userId, userId), eq(wishlistItems.productId, productId)));
  return row !== undefined;
}
