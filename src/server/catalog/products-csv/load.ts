import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
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
} from '../../db/schema.ts';
import { boxWire, customsWire } from '../../shipping/customs-fields.ts';
import type { CsvProduct, CsvVariant } from './columns.ts';

/** Products with their project, category and image lists, by link. */
export async function loadProducts(db: Executor, links?: string[]) {
  if (links && links.length === 0) return new Map<string, { id: number; product: CsvProduct }>();
  const query = db
    .select({ row: products, project: projects.link })
    .from(products)
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(links ? inArray(products.link, links) : undefined)
    .orderBy(asc(products.id));
  // An import locks the products it names until it commits.
  const rows = await (links ? query.for('update', { of: products }) : query);
  const ids = rows.map(({ row }) => row.id);
  if (ids.length === 0) return new Map<string, { id: number; product: CsvProduct }>();
  // One query after the other: an import reads in its transaction, whose connection takes one at a time.
  const categoryRows = await db
    .select({ productId: productCategories.productId, link: categories.link })
    .from(productCategories)
    .innerJoin(categories, eq(categories.id, productCategories.categoryId))
    .where(inArray(productCategories.productId, ids))
    .orderBy(asc(categories.link));
  const imageRows = await db
    .select({ productId: productImages.productId, file: productImages.file })
    .from(productImages)
    .where(inArray(productImages.productId, ids))
    .orderBy(asc(productImages.position), asc(productImages.id));
  const listOf = <T extends { productId: number }>(list: T[], id: number) =>
    list.filter((item) => item.productId === id);
  return new Map(
    rows.map(({ row, project }) => [
      row.link,
      {
        id: row.id,
        product: {
          project,
          categories: listOf(categoryRows, row.id).map((category) => category.link),
          name_ru: row.nameRu,
          name_en: row.nameEn,
          price: row.price,
          sale: row.sale,
          weight: row.weight,
          quantity: row.quantity,
          visible: row.visible,
          week_sale: row.weekSale,
          envisioned: row.envisioned,
          desc_ru: row.descriptionRu,
          desc_en: row.descriptionEn,
          images: listOf(imageRows, row.id).map((image) => image.file),
          release_at: row.releaseAt?.toISOString() ?? '',
          per_customer_limit: row.perCustomerLimit,
          ...customsWire(row),
          ...boxWire(row),
        } satisfies CsvProduct,
      },
    ]),
  );
}

/** Variants of the products, in their order, by product id. */
export async function loadVariants(db: Executor, productIds: number[]): Promise<Map<number, CsvVariant[]>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: productVariants.id,
      productId: productVariants.productId,
      sku: productVariants.sku,
      options: sql<string>`coalesce((select string_agg(o.name_en || '=' || ov.value_en, ';' order by o.position, o.id)
        from ${productVariantValues} pvv
        join ${productOptionValues} ov on ov.id = pvv.option_value_id
        join ${productOptions} o on o.id = ov.option_id
        where pvv.variant_id = "product_variants"."id"), '')`,
      price: productVariants.price,
      sale: productVariants.sale,
      weight: productVariants.weight,
      quantity: productVariants.quantity,
      hsCode: productVariants.hsCode,
      originCountry: productVariants.originCountry,
      customsDescription: productVariants.customsDescription,
      netWeight: productVariants.netWeight,
    })
    .from(productVariants)
    .where(inArray(productVariants.productId, productIds))
    .orderBy(asc(productVariants.productId), asc(productVariants.position), asc(productVariants.id));
  const byProduct = new Map<number, CsvVariant[]>();
  for (const { hsCode, originCountry, customsDescription, netWeight, ...row } of rows) {
    const variant = {
      ...row,
      customs: customsWire({ hsCode, originCountry, customsDescription, netWeight }),
    };
    byProduct.set(row.productId, [...(byProduct.get(row.productId) ?? []), variant]);
  }
  return byProduct;
}
