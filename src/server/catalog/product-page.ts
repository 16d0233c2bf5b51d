import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { ProductCard, ProductDetail, ProductOption, ProductVariant } from '../../contract/catalog.ts';
import type { Locale } from '../../contract/locale.ts';
import { kopecksToRoubles } from '../../contract/money.ts';
import type { Executor } from '../db/client.ts';
import { rowsOf } from '../db/client.ts';
import {
  categories,
  productCategories,
  productImages,
  productOptions,
  productOptionValues,
  products,
  productVariants,
  productVariantValues,
  projects,
} from '../db/schema.ts';
import { NotFound } from '../errors.ts';
import { reviewSummary } from '../reviews/service.ts';
import { cardColumns, cardsInOrder, selectCards, toCard } from './cards.ts';
import { productLimit } from './drop-rules.ts';
import { localized } from './product-view.ts';
import { isAvailable, isListed, isVisible } from './release.ts';
import { sanitizeDescription } from './sanitize.ts';
import { variantPrice, variantSale } from './variants.ts';

const SIMILAR_LIMIT = 8;

/**
 * A visible product's page: released or only announced (then `releaseAt` is ahead and nothing can
 * be ordered yet), with its per-customer limit when it has one.
 */
export async function getProduct(
  db: Executor,
  locale: Locale,
  link: string,
  now: Date = new Date(),
): Promise<{ product: ProductDetail; similar: ProductCard[] }> {
  const [row] = await db
    .select({
      ...cardColumns(locale, now),
      description: localized(locale, products.descriptionRu, products.descriptionEn),
      weight: products.weight,
      releaseAt: products.releaseAt,
      perCustomerLimit: productLimit,
      project: { id: projects.id, nameRu: projects.nameRu, nameEn: projects.nameEn, link: projects.link },
    })
    .from(products)
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(and(isVisible, eq(products.link, link)));
  if (!row) throw new NotFound('Product not found', { link: ['No such product'] }, 'page-not-found');

  const card = toCard(row);
  const [pictures, categoryList, similar, rating, options, variants, sizeGuide] = await Promise.all([
    db
      .select({ file: productImages.file, optionValue: productImages.optionValueId })
      .from(productImages)
      .where(eq(productImages.productId, row.id))
      .orderBy(asc(productImages.position), asc(productImages.id)),
    card.categories.length === 0
      ? Promise.resolve([])
      : db
          .select({
            id: categories.id,
            name: localized(locale, categories.nameRu, categories.nameEn),
            link: categories.link,
          })
          .from(categories)
          .where(inArray(categories.id, card.categories))
          .orderBy(asc(categories.position), asc(categories.id)),
    listSimilar(db, locale, card, now),
    reviewSummary(db, row.id),
    card.hasOptions ? listOptions(db, locale, row.id) : Promise.resolve([]),
    listVariants(db, row.id, row.orderable),
    card.hasOptions ? findSizeGuide(db, locale, card.categories) : Promise.resolve(null),
  ]);

  return {
    product: {
      ...card,
      desc: row.description,
      images: pictures.map((picture) => picture.file),
      pictures,
      options,
      variants,
      sizeGuide,
      weight: row.weight,
      releaseAt: row.releaseAt === null ? null : new Date(row.releaseAt).toISOString(),
      perCustomerLimit: row.perCustomerLimit,
      project: {
        id: row.project.id,
        name: localized(locale, row.project.nameRu, row.project.nameEn),
        link: row.project.link,
      },
      categoryList,
      rating,
    },
    similar,
  };
}

/** A product's options with their values, in the picker's order. */
async function listOptions(db: Executor, locale: Locale, productId: number): Promise<ProductOption[]> {
  const rows = await db
    .select({
      optionId: productOptions.id,
      kind: productOptions.kind,
      name: localized(locale, productOptions.nameRu, productOptions.nameEn),
      id: productOptionValues.id,
      value: localized(locale, productOptionValues.valueRu, productOptionValues.valueEn),
      key: productOptionValues.valueEn,
      swatch: productOptionValues.swatch,
    })
    .from(productOptions)
    .innerJoin(productOptionValues, eq(productOptionValues.optionId, productOptions.id))
    .where(eq(productOptions.productId, productId))
    .orderBy(
      asc(productOptions.position),
      asc(productOptions.id),
      asc(productOptionValues.position),
      asc(productOptionValues.id),
    );
  const options = new Map<number, ProductOption>();
  for (const { optionId, kind, name, ...value } of rows) {
    const option = options.get(optionId) ?? { id: optionId, kind, name, values: [] };
    option.values.push(value);
    options.set(optionId, option);
  }
  return [...options.values()];
}

/** What can be bought of a product: its variants with their option values, prices and stock. */
async function listVariants(db: Executor, productId: number, orderable: boolean): Promise<ProductVariant[]> {
  const rows = await db
    .select({
      id: productVariants.id,
      sku: productVariants.sku,
      price: variantPrice,
      sale: variantSale,
      quantity: productVariants.quantity,
      perCustomerLimit: productVariants.perCustomerLimit,
      values: sql<number[]>`coalesce((select array_agg(pvv.option_value_id order by o.position, o.id)
        from ${productVariantValues} pvv
        join ${productOptionValues} ov on ov.id = pvv.option_value_id
        join ${productOptions} o on o.id = ov.option_id
        where pvv.variant_id = ${productVariants.id}), '{}')`,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.position), asc(productVariants.id));
  return rows.map((variant) => ({
    id: variant.id,
    sku: variant.sku,
    values: variant.values.map(Number),
    price: kopecksToRoubles(variant.price),
    sale: variant.sale === null ? null : kopecksToRoubles(variant.sale),
    inStock: orderable && variant.price > 0 ? variant.quantity : 0,
    perCustomerLimit: variant.perCustomerLimit,
  }));
}

/** The size guide of the first of the product's (visible) categories that has one, sanitized. */
async function findSizeGuide(db: Executor, locale: Locale, categoryIds: number[]): Promise<string | null> {
  if (categoryIds.length === 0) return null;
  const guide = localized(locale, categories.sizeGuideRu, categories.sizeGuideEn);
  const [row] = await db
    .select({ guide })
    .from(categories)
    .where(and(inArray(categories.id, categoryIds), ne(guide, '')))
    .orderBy(asc(categories.position), asc(categories.id))
    .limit(1);
  // Staff HTML is cleaned when written; cleaned again here, as a table is all a guide may hold.
  return row ? sanitizeDescription(row.guide) || null : null;
}
/**
 * Products sharing the most categories with this one, then those of the same project; in stock
 * first. Those sharing a category are counted from the category index; the same project's others
 * are read only when these are fewer than SIMILAR_LIMIT.
 */
async function listSimilar(
  db: Executor,
  locale: Locale,
  product: ProductCard,
  now: Date,
): Promise<ProductCard[]> {
  const available = isAvailable(now);
  const sharing =
    product.categories.length === 0
      ? []
      : rowsOf<{ id: number }>(
          await db.execute(sql`select ${products.id} as id
            from (select pc.product_id, count(*) as shared from ${productCategories} pc
              where pc.category_id in (${sql.join(product.categories, sql`, `)}) and pc.product_id <> ${product.id}
              group by pc.product_id) as sharing
            join ${products} on ${products.id} = sharing.product_id
            join ${projects} on ${projects.id} = ${products.projectId}
            where ${isListed(now)}
            order by sharing.shared desc, (${products.projectId} = ${product.project_id}) desc, ${available} desc,
              ${products.id}
            limit ${SIMILAR_LIMIT}`),
        ).map((row) => row.id);
  const sameProject =
    sharing.length === SIMILAR_LIMIT
      ? []
      : await selectCards(
          db,
          locale,
          now,
          and(
            eq(products.projectId, product.project_id),
            ne(products.id, product.id),
            sharing.length > 0 ? sql`${products.id} not in (${sql.join(sharing, sql`, `)})` : undefined,
          ),
          [sql`${available} desc`, asc(products.id)],
          SIMILAR_LIMIT - sharing.length,
        );
  return [...(await cardsInOrder(db, locale, sharing, now)), ...sameProject];
}
