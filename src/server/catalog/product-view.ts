import { sql } from 'drizzle-orm';
import type { Locale } from '../../contract/locale.ts';
import { kopecksToRoubles } from '../../contract/money.ts';
import { productImages, products, projects } from '../db/schema.ts';

/**
 * How a product looks inside a basket, wishlist or order: localized name, first image, prices in
 * roubles and what can be ordered now (0 when hidden, envisioned, without a price or out of stock).
 */
export function productViewColumns(locale: Locale) {
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
    // A product without a price is never orderable (the database refuses one that is visible).
    orderable: sql<boolean>`(${products.visible} and ${projects.visible} and not ${products.envisioned} and ${products.price} > 0)`,
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
