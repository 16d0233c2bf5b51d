import { type AnyColumn, sql } from 'drizzle-orm';
import { STATUS_VISIBLE, STATUS_WEEK_SALE } from '../../contract/catalog.ts';
import type { Locale } from '../../contract/locale.ts';
import { kopecksToRoubles } from '../../contract/money.ts';
import { productImages, products, productVariantValues } from '../db/schema.ts';
import { isOrderable } from './release.ts';

/** The Russian or the English of a pair (of columns, or of values). */
export const localized = <Ru, En>(locale: Locale, ru: Ru, en: En): Ru | En => (locale === 'ru' ? ru : en);

/** The shop's status bits of a catalogue row: visible, on the week's sale. */
export const statusOf = (visible: boolean, weekSale = false) =>
  (visible ? STATUS_VISIBLE : 0) | (weekSale ? STATUS_WEEK_SALE : 0);

/** The product's first picture (the one its cards show). */
const productImage = sql<string | null>`(select ${productImages.file} from ${productImages}
  where ${productImages.productId} = ${products.id}
  order by ${productImages.position}, ${productImages.id} limit 1)`;

/**
 * The picture of a line of a basket or order: the first picture of the line's variant's colour (a
 * picture linked to one of its option values), the grey hoodie's grey photo; else the product's first.
 * `variantId` is the line's variant column (null for an order line whose variant was deleted).
 */
export const lineImage = (variantId: AnyColumn) => sql<string | null>`coalesce(
  (select pi.file from ${productImages} pi
    join ${productVariantValues} pvv on pvv.option_value_id = pi.option_value_id
    where pvv.variant_id = ${variantId} and pi.product_id = ${products.id}
    order by pi.position, pi.id limit 1),
  ${productImage})`;

/**
 * How a product looks inside a basket, wishlist or order: localized name, picture (of the line's
 * variant when `variantId` names its column, see `lineImage`), prices in roubles and what can be
 * ordered now (0 when hidden, not released yet, envisioned, without a price or out of stock). The
 * statement joins the product's project.
 */
export function productViewColumns(locale: Locale, now: Date, variantId?: AnyColumn) {
  return {
    id: products.id,
    link: products.link,
    name: localized(locale, products.nameRu, products.nameEn),
    image: variantId ? lineImage(variantId) : productImage,
    price: products.price,
    sale: products.sale,
    quantity: products.quantity,
    envisioned: products.envisioned,
    orderable: sql<boolean>`${isOrderable(now)}`,
  };
}

export interface ProductViewRow {
  id: number;
  link: string;
  name: string;
  image: string | null;
  price: number;
  sale: number | null;
  quantity: number;
  envisioned: boolean;
  orderable: boolean;
}

export const toProductView = (row: ProductViewRow) => ({
  id: row.id,
  link: row.link,
  name: row.name,
  image: row.image,
  price: kopecksToRoubles(row.price),
  sale: row.sale === null ? null : kopecksToRoubles(row.sale),
  inStock: row.orderable ? row.quantity : 0,
});
