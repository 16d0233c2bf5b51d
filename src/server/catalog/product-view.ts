import { sql } from 'drizzle-orm';
import type { Locale } from '../../contract/locale.ts';
import { kopecksToRoubles } from '../../contract/money.ts';
import { productImages, products } from '../db/schema.ts';
import { isOrderable } from './release.ts';

/**
 * How a product looks inside a basket, wishlist or order: localized name, first image, prices in
 * roubles and what can be ordered now (0 when hidden, not released yet, envisioned, without a price
 * or out of stock). The statement joins the product's project.
 */
export function productViewColumns(locale: Locale, now: Date) {
  return {
    id: products.id,
    link: products.link,
    name: locale === 'ru' ? products.nameRu : products.nameEn,
    image: sql<string | null>`(select ${productImages.file} from ${productImages}
      where ${productImages.productId} = ${products.id} order by ${productImages.position} limit 1)`,
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
