import { and, asc, eq, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { ProductBulkChange } from '../../contract/admin.ts';
import { kopecksToRoubles, roublesToKopecks } from '../../contract/money.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Database, Executor } from '../db/client.ts';
import {
  categories,
  orderItems,
  productCategories,
  products,
  productVariants,
  projects,
} from '../db/schema.ts';
import { Invalid, NotFound } from '../errors.ts';

/**
 * One change to many products at once, from the back office's list: all of it in one transaction
 * or none of it. Every product the rule refuses is named in the answer with its reason
 * (`errors['products.<id>']`), and then nothing changes. Each changed product's version goes up,
 * so an editor open on one of them is told its copy is stale; one audit entry records the change.
 * It changes everything shown, applied once afterwards (services.writes).
 */
export type ProductBulkOperation = ProductBulkChange | { action: 'delete'; ids: number[] };

/** The highest price the product form takes (10,000,000 roubles), in kopecks. */
const MAX_PRICE = roublesToKopecks(10_000_000);

/**
 * A price changed by `percent`, rounded to whole roubles (half up), as a shop shows prices; a
 * price that had a value keeps at least one rouble. Zero (a product not priced yet) stays zero.
 */
export function priceChangedBy(kopecks: number, percent: number): number {
  if (kopecks === 0) return 0;
  return Math.max(100, Math.round((kopecks * (100 + percent)) / 10_000) * 100);
}

type Refusals = Map<number, string>;

const productState = {
  id: products.id,
  name_ru: products.nameRu,
  name_en: products.nameEn,
  project: products.projectId,
  price: products.price,
  sale: products.sale,
  visible: products.visible,
  envisioned: products.envisioned,
};

/** The products named, in id order, locked until the transaction ends. */
const lockedProducts = (transaction: Executor, ids: number[]) =>
  transaction
    .select(productState)
    .from(products)
    .where(inArray(products.id, ids))
    .orderBy(asc(products.id))
    .for('update');
type ProductState = Awaited<ReturnType<typeof lockedProducts>>[number];

/** The audit's picture of a product: the fields a bulk change can touch, prices in roubles. */
const audited = (row: ProductState, categoryIds?: number[]) => ({
  id: row.id,
  name_ru: row.name_ru,
  name_en: row.name_en,
  project: row.project,
  price: kopecksToRoubles(row.price),
  sale: row.sale === null ? null : kopecksToRoubles(row.sale),
  visible: row.visible,
  ...(categoryIds ? { categories: categoryIds } : {}),
});

const bumped = { version: sql`${products.version} + 1`, updatedAt: new Date() };

/** `(values (…), (…)) as name(columns)`: rows to join an update with, every value typed. */
function valuesTable(name: string, columns: string[], rows: Array<Array<number | null>>): SQL {
  const tuples = rows.map(
    (row) =>
      sql`(${sql.join(
        row.map((value) => sql`${value}::int`),
        sql`, `,
      )})`,
  );
  return sql`(values ${sql.join(tuples, sql`, `)}) as ${sql.identifier(name)}(${sql.raw(columns.join(', '))})`;
}

async function changePrices(
  transaction: Executor,
  rows: ProductState[],
  percent: number,
  refusals: Refusals,
) {
  const productPrices = rows.map((row) => {
    const price = priceChangedBy(row.price, percent);
    const sale = row.sale === null ? null : priceChangedBy(row.sale, percent);
    if (price > MAX_PRICE) refusals.set(row.id, 'bulk-price-too-high');
    // Rounding can lift a sale price to its regular price (a 1-rouble difference, say).
    else if (sale !== null && sale >= price) refusals.set(row.id, 'bulk-sale-not-below-price');
    return [row.id, price, sale];
  });
  const variants = await transaction
    .select({
      id: productVariants.id,
      productId: productVariants.productId,
      price: productVariants.price,
      sale: productVariants.sale,
    })
    .from(productVariants)
    .where(
      and(
        inArray(
          productVariants.productId,
          rows.map((row) => row.id),
        ),
        isNotNull(productVariants.price),
      ),
    )
    .orderBy(asc(productVariants.id))
    .for('update');
  const variantPrices = variants.map((variant) => {
    const price = priceChangedBy(variant.price ?? 0, percent);
    const sale = variant.sale === null ? null : priceChangedBy(variant.sale, percent);
    if (price > MAX_PRICE) refusals.set(variant.productId, 'bulk-price-too-high');
    else if (sale !== null && sale >= price) refusals.set(variant.productId, 'bulk-sale-not-below-price');
    return [variant.id, price, sale];
  });
  if (refusals.size > 0) return;
  await transaction.execute(
    sql`update ${products} set price = changed.price, sale = changed.sale, version = ${products.version} + 1, updated_at = now()
        from ${valuesTable('changed', ['id', 'price', 'sale'], productPrices)}
        where ${products.id} = changed.id`,
  );
  if (variantPrices.length > 0)
    await transaction.execute(
      sql`update ${productVariants} set price = changed.price, sale = changed.sale, updated_at = now()
          from ${valuesTable('changed', ['id', 'price', 'sale'], variantPrices)}
          where ${productVariants.id} = changed.id`,
    );
}

/** Applies `operation` to its products; refuses it whole (422, each refused product named) or does it all. */
export async function changeProducts(db: Database, actorId: number, operation: ProductBulkOperation) {
  const ids = [...operation.ids].sort((a, b) => a - b);
  await db.transaction(async (transaction) => {
    // Locked in id order, so two bulk changes over the same products queue instead of deadlocking.
    const rows = await lockedProducts(transaction, ids);
    const refusals: Refusals = new Map();
    for (const id of ids) if (!rows.some((row) => row.id === id)) refusals.set(id, 'not-found');
    let before: unknown[] = rows.map((row) => audited(row));
    let details: Record<string, unknown> = {};

    switch (operation.action) {
      case 'hide':
      case 'show': {
        const visible = operation.action === 'show';
        if (visible) {
          // A product shoppers can order needs a price (the product form's rule, and the database's).
          for (const row of rows)
            if (row.price <= 0 && !row.envisioned) refusals.set(row.id, 'price-required');
        }
        if (refusals.size === 0)
          await transaction
            .update(products)
            .set({ visible, ...bumped })
            .where(inArray(products.id, ids));
        break;
      }
      case 'project': {
        const [project] = await transaction
          .select({ id: projects.id })
          .from(projects)
          .where(eq(projects.id, operation.project));
        if (!project) throw new NotFound('not-found', { project: ['not-found'] });
        details = { project: operation.project };
        if (refusals.size === 0)
          await transaction
            .update(products)
            .set({ projectId: operation.project, ...bumped })
            .where(inArray(products.id, ids));
        break;
      }
      case 'category': {
        const [category] = await transaction
          .select({ id: categories.id })
          .from(categories)
          .where(eq(categories.id, operation.category));
        if (!category) throw new NotFound('not-found', { category: ['not-found'] });
        details = { category: operation.category };
        if (refusals.size > 0) break;
        const placed = await transaction
          .delete(productCategories)
          .where(inArray(productCategories.productId, ids))
          .returning();
        before = rows.map((row) =>
          audited(
            row,
            placed
              .filter((link) => link.productId === row.id)
              .map((link) => link.categoryId)
              .sort((a, b) => a - b),
          ),
        );
        await transaction
          .insert(productCategories)
          .values(ids.map((productId) => ({ productId, categoryId: operation.category })));
        await transaction.update(products).set(bumped).where(inArray(products.id, ids));
        break;
      }
      case 'price':
        details = { percent: operation.percent };
        await changePrices(transaction, rows, operation.percent, refusals);
        break;
      case 'delete': {
        const ordered = await transaction
          .selectDistinct({ id: orderItems.productId })
          .from(orderItems)
          .where(inArray(orderItems.productId, ids));
        for (const { id } of ordered) refusals.set(id, 'product-ordered');
        if (refusals.size === 0) await transaction.delete(products).where(inArray(products.id, ids));
        break;
      }
    }

    if (refusals.size > 0) {
      throw new Invalid(
        'bulk-refused',
        Object.fromEntries([...refusals].map(([id, reason]) => [`products.${id}`, [reason]])),
      );
    }
    const after =
      operation.action === 'delete'
        ? undefined
        : (await lockedProducts(transaction, ids)).map((row) =>
            audited(row, operation.action === 'category' ? [operation.category] : undefined),
          );
    await recordAudit(transaction, {
      actorId,
      action: operation.action === 'delete' ? 'delete' : 'update',
      entity: 'products',
      entityId: ids.join(','),
      before: { products: before },
      after: { change: operation.action, ...details, ...(after ? { products: after } : {}) },
    });
  });
  return { changed: ids.length };
}
