import { type AnyColumn, and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Locale } from '../../contract/locale.ts';
import type { Executor } from '../db/client.ts';
import {
  type OrderItemOption,
  productOptions,
  productOptionValues,
  products,
  productVariants,
  productVariantValues,
} from '../db/schema.ts';
import { Invalid, NotFound } from '../errors.ts';

/**
 * Variants (ADR 0036): what a shopper buys is a variant of a product, one combination of its option
 * values; a product without options has exactly one, its default variant, which the database
 * creates with the product. Stock lives on variants (`products.quantity` is their sum, kept by
 * triggers); price, sale and weight are the product's unless the variant has its own.
 */

/** A variant's price in kopecks: its own, or the product's. */
export const variantPrice = sql<number>`coalesce(${productVariants.price}, ${products.price})`;
/** A variant's sale price in kopecks: its own when it has its own price, else the product's. */
export const variantSale = sql<
  number | null
>`(case when ${productVariants.price} is null then ${products.sale} else ${productVariants.sale} end)`;
/**
 * SQL: what one unit of `row` costs, its sale price when it is on sale (contract/money.ts
 * `unitPrice`): of a product, an order line, or a variant (`variantUnitPrice`).
 */
export const unitPriceSql = (row: { sale: AnyColumn | SQL; price: AnyColumn | SQL }) =>
  sql<number>`coalesce(${row.sale}, ${row.price})`;
/** A variant's unit price in kopecks: its sale price when it is on sale. */
export const variantUnitPrice = unitPriceSql({ sale: variantSale, price: variantPrice });
/** A variant's weight in grams: its own, or the product's. */
export const variantWeight = sql<number>`coalesce(${productVariants.weight}, ${products.weight})`;

const variantRequired = () =>
  new Invalid('variant-required', { variant: ['variant-required'] }, 'variant-required');
const variantUnavailable = () =>
  new NotFound('variant-unavailable', { variant: ['variant-unavailable'] }, 'variant-unavailable');

/**
 * The variant a shopper's call means: the one named (it must be the product's), or the product's
 * only variant when none is named. A product with several variants needs one named
 * (400 variant-required); the spec's calls, which name only the product, keep working for every
 * product without options.
 */
export async function resolveVariantId(
  db: Executor,
  productId: number,
  variantId: number | undefined,
): Promise<number> {
  if (variantId !== undefined) {
    const [named] = await db
      .select({ id: productVariants.id })
      .from(productVariants)
      .where(and(eq(productVariants.id, variantId), eq(productVariants.productId, productId)));
    if (!named) throw variantUnavailable();
    return named.id;
  }
  const variants = await db
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.position), asc(productVariants.id))
    .limit(2);
  const [only, another] = variants;
  if (!only) throw variantUnavailable();
  if (another) throw variantRequired();
  return only.id;
}

const variantOptionRows = sql`${productVariantValues} pvv
  join ${productOptionValues} ov on ov.id = pvv.option_value_id
  join ${productOptions} o on o.id = ov.option_id
  where pvv.variant_id = ${productVariants.id}`;

/** "Size: L, Colour: Red" in the locale, or null for a default variant. */
export const variantLabel = (locale: Locale) =>
  locale === 'ru'
    ? sql<string | null>`(select string_agg(o.name_ru || ': ' || ov.value_ru, ', ' order by o.position, o.id)
        from ${variantOptionRows})`
    : sql<string | null>`(select string_agg(o.name_en || ': ' || ov.value_en, ', ' order by o.position, o.id)
        from ${variantOptionRows})`;

/** "L, Black" in the locale: the variant's values alone, where the option names are said once. */
export const variantValuesLabel = (locale: Locale) =>
  locale === 'ru'
    ? sql<string>`(select coalesce(string_agg(ov.value_ru, ', ' order by o.position, o.id), '')
        from ${variantOptionRows})`
    : sql<string>`(select coalesce(string_agg(ov.value_en, ', ' order by o.position, o.id), '')
        from ${variantOptionRows})`;

/** The variant's option values in both languages, as an order item keeps them. */
export const variantOptions = sql<OrderItemOption[]>`(select coalesce(jsonb_agg(jsonb_build_object(
    'nameRu', o.name_ru, 'nameEn', o.name_en, 'valueRu', ov.value_ru, 'valueEn', ov.value_en)
    order by o.position, o.id), '[]'::jsonb)
  from ${variantOptionRows})`;

/** Whether the variant is a product's default one (no option values). */
export const isDefaultVariant = sql<boolean>`not exists (select 1 from ${productVariantValues} pvv
  where pvv.variant_id = ${productVariants.id})`;

/**
 * The key of a basket line on the wire: the product id for a default variant, exactly as the spec's
 * calls know it, and "product:variant" for a variant with options.
 */
export const basketLineKey = (line: { productId: number; variantId: number; isDefault: boolean }) =>
  line.isDefault ? line.productId : `${line.productId}:${line.variantId}`;

/** An order item's option values as the locale reads them, "Size: L", or null for none. */
export const orderItemLabel = (options: readonly OrderItemOption[], locale: Locale): string | null =>
  options.length === 0
    ? null
    : options
        .map((option) =>
          locale === 'ru' ? `${option.nameRu}: ${option.valueRu}` : `${option.nameEn}: ${option.valueEn}`,
        )
        .join(', ');
