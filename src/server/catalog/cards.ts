import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { ProductCard } from '../../contract/catalog.ts';
import type { Locale } from '../../contract/locale.ts';
import { kopecksToRoubles } from '../../contract/money.ts';
import type { Executor } from '../db/client.ts';
import {
  categories,
  productCategories,
  productOptions,
  productOptionValues,
  products,
  productVariants,
  productVariantValues,
  projects,
  reviews,
} from '../db/schema.ts';
import { type ProductViewRow, productViewColumns, statusOf, toProductView } from './product-view.ts';
import { isListed } from './release.ts';
import { variantUnitPrice } from './variants.ts';

/** A product's card in lists, search and suggestions: one projection, read by one statement. */
export function cardColumns(locale: Locale, now: Date) {
  return {
    ...productViewColumns(locale, now),
    projectId: products.projectId,
    weekSale: products.weekSale,
    // Hidden categories are listed once per statement: joined to categories, the planner scanned
    // all of them once per card.
    categoryIds: sql<number[]>`coalesce((select array_agg(pc.category_id order by pc.category_id)
      from ${productCategories} pc
      where pc.product_id = ${products.id}
        and pc.category_id <> all(array(select c.id from ${categories} c where not c.visible))), '{}')`,
    // The lowest price a variant sells for, only when the variants' prices differ ("from 1 990 ₽").
    fromPrice: sql<number | null>`(select case when min(pays) < max(pays) then min(pays) end
      from (select ${variantUnitPrice} as pays from ${productVariants}
        where ${productVariants.productId} = ${products.id}) as variant_prices)`,
    sizes: sql<string[]>`coalesce((select array_agg(${sizeName(locale)} order by ov.position, ov.id)
      from ${sizeValuesInStock(sql`${products.id}`)}), '{}')`,
    hasOptions: sql<boolean>`exists (select 1 from ${productOptions} o where o.product_id = ${products.id})`,
    // Announced products' cards ("coming soon") say when they go on sale; null once released.
    releaseAt: sql<string | Date | null>`case when ${products.releaseAt} > ${now.toISOString()}::timestamptz
      then ${products.releaseAt} end`,
    // The stars of a card: visible reviews, averaged to one decimal as the product page shows them.
    ratingAverage: sql<number | null>`(select round(avg(r.rating), 1)::float8 from ${reviews} r
      where r.product_id = ${products.id} and not r.hidden)`,
    ratingCount: sql<number>`(select count(*)::int from ${reviews} r
      where r.product_id = ${products.id} and not r.hidden)`,
  };
}

/**
 * Letter sizes in their order: products number their own values, so the size filter, which gathers
 * sizes over many products, orders these first and the rest by their usual position.
 */
export const LETTER_SIZES = sql.raw(
  `array['XXS','XS','S','M','L','XL','XXL','2XL','XXXL','3XL','4XL']::text[]`,
);

export const sizeName = (locale: Locale) => sql.raw(locale === 'ru' ? 'ov.value_ru' : 'ov.value_en');

/**
 * FROM items of the size values (`ov`) of a product that some variant in stock has: what a shopper
 * can buy in, for the cards and the size filter.
 */
export const sizeValuesInStock = (productId: SQL) => sql`${productOptions} o
  join ${productOptionValues} ov on ov.option_id = o.id
  where o.product_id = ${productId} and o.kind = 'size'
    and exists (select 1 from ${productVariantValues} pvv
      join ${productVariants} v on v.id = pvv.variant_id
      where pvv.option_value_id = ov.id and v.quantity > 0)`;

/** The card columns as `json_build_object` arguments: a statement can answer its cards as JSON. */
export const cardJson = (locale: Locale, now: Date) =>
  sql.join(
    Object.entries(cardColumns(locale, now)).map(([key, column]) => sql`${sql.raw(`'${key}'`)}, ${column}`),
    sql`, `,
  );

export type CardRow = ProductViewRow & {
  projectId: number;
  weekSale: boolean;
  categoryIds: number[];
  fromPrice: number | null;
  sizes: string[];
  hasOptions: boolean;
  releaseAt: string | Date | null;
  ratingAverage: number | null;
  ratingCount: number;
};

export function toCard(row: CardRow): ProductCard {
  return {
    ...toProductView(row),
    envisioned: row.envisioned,
    project_id: row.projectId,
    categories: row.categoryIds.map(Number),
    status: statusOf(true, row.weekSale),
    fromPrice: row.fromPrice === null ? null : kopecksToRoubles(row.fromPrice),
    sizes: row.sizes,
    hasOptions: row.hasOptions,
    releaseAt: row.releaseAt === null ? null : new Date(row.releaseAt).toISOString(),
    rating: {
      average: row.ratingAverage === null ? null : Number(row.ratingAverage),
      count: Number(row.ratingCount),
    },
  };
}

/**
 * Cards of listed products (visible and released) only, what a shopper may find and buy; or, with
 * `shown` set to the announced ones, the "coming soon" cards.
 */
export async function selectCards(
  db: Executor,
  locale: Locale,
  now: Date,
  where: SQL | undefined,
  orderBy: SQL[],
  limit?: number,
  shown: SQL = isListed(now),
): Promise<ProductCard[]> {
  const query = db
    .select(cardColumns(locale, now))
    .from(products)
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(and(shown, where))
    .orderBy(...orderBy);
  const rows = await (limit === undefined ? query : query.limit(limit));
  return rows.map(toCard);
}

/**
 * The cards of `ids` that are listed (visible and released), in that order (the order a list
 * statement or a shopper chose).
 */
export async function cardsInOrder(
  db: Executor,
  locale: Locale,
  ids: number[],
  now: Date = new Date(),
): Promise<ProductCard[]> {
  if (ids.length === 0) return [];
  const cards = await selectCards(db, locale, now, inArray(products.id, ids), []);
  const byId = new Map(cards.map((card) => [card.id, card]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
