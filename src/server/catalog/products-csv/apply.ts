import { and, eq, inArray, sql } from 'drizzle-orm';
import { kopecksToRoubles } from '../../../contract/money.ts';
import { recordAudit } from '../../audit/audit.ts';
import type { Transaction } from '../../db/client.ts';
import { productCategories, productImages, products, productVariants } from '../../db/schema.ts';
import type { MailShop } from '../../mail/templates.ts';
import { boxColumns, customsColumns } from '../../shipping/customs-fields.ts';
import { setEnvisioned } from '../envisioned.ts';
import { changeStock } from '../stock.ts';
import {
  BOX_COLUMNS,
  type CsvProduct,
  CUSTOMS_COLUMNS,
  type Field,
  type Planned,
  type VariantStep,
} from './columns.ts';

const releaseTime = (product: CsvProduct) =>
  product.release_at === '' ? null : new Date(product.release_at);

const auditView = (id: number, link: string, product: CsvProduct) => ({
  id,
  link,
  ...product,
  price: kopecksToRoubles(product.price),
  sale: product.sale === null ? null : kopecksToRoubles(product.sale),
});

/** Writes one planned product row and its variants, with its audit entry. */
export async function apply(
  transaction: Transaction,
  step: Planned,
  ids: { projects: Map<string, number>; categories: Map<string, number> },
  context: { actorId: number; publicUrl: string; shop?: MailShop },
) {
  const { product, existing, changes } = step;
  const changed = (field: Field) => !existing || field in changes;
  const changedOf = <K extends Field>(fields: readonly K[]) =>
    Object.fromEntries(fields.filter(changed).map((field) => [field, product[field]])) as Partial<
      Pick<CsvProduct, K>
    >;
  const scalar = {
    ...(changed('project') ? { projectId: ids.projects.get(product.project) ?? 0 } : {}),
    ...(changed('name_ru') ? { nameRu: product.name_ru } : {}),
    ...(changed('name_en') ? { nameEn: product.name_en } : {}),
    ...(changed('desc_ru') ? { descriptionRu: product.desc_ru } : {}),
    ...(changed('desc_en') ? { descriptionEn: product.desc_en } : {}),
    ...(changed('price') ? { price: product.price } : {}),
    ...(changed('sale') ? { sale: product.sale } : {}),
    ...(changed('weight') ? { weight: product.weight } : {}),
    ...(changed('visible') ? { visible: product.visible } : {}),
    ...(changed('week_sale') ? { weekSale: product.week_sale } : {}),
    ...(changed('release_at') ? { releaseAt: releaseTime(product) } : {}),
    ...(changed('per_customer_limit') ? { perCustomerLimit: product.per_customer_limit } : {}),
    ...customsColumns(changedOf(CUSTOMS_COLUMNS)),
    ...boxColumns(changedOf(BOX_COLUMNS)),
  };

  let id: number;
  if (existing) {
    id = existing.id;
    await transaction
      .update(products)
      // A new version: an editor open on this product must not save over the import.
      .set({ ...scalar, version: sql`${products.version} + 1`, updatedAt: new Date() })
      .where(eq(products.id, id));
    if (changed('quantity') && step.quantityGiven) {
      const [variant] = await transaction
        .select({ id: productVariants.id })
        .from(productVariants)
        .where(eq(productVariants.productId, id));
      if (variant)
        await changeStock(
          transaction,
          id,
          [{ variantId: variant.id, counted: product.quantity, seen: existing.product.quantity }],
          stockSource(context),
        );
    }
    // Through the wishlist rule: an envisioned product made available mails its fans, once.
    if (changed('envisioned')) await setEnvisioned(transaction, id, product.envisioned, context);
  } else {
    const [row] = await transaction
      .insert(products)
      .values({
        projectId: ids.projects.get(product.project) ?? 0,
        link: step.link,
        nameRu: product.name_ru,
        nameEn: product.name_en,
        descriptionRu: product.desc_ru,
        descriptionEn: product.desc_en,
        price: product.price,
        sale: product.sale,
        weight: product.weight,
        visible: product.visible,
        weekSale: product.week_sale,
        envisioned: product.envisioned,
        releaseAt: releaseTime(product),
        perCustomerLimit: product.per_customer_limit,
        ...customsColumns(product),
        ...boxColumns(product),
      })
      .returning({ id: products.id });
    if (!row) throw new Error('product insert returned nothing');
    id = row.id;
    const [variant] = await transaction
      .select({ id: productVariants.id })
      .from(productVariants)
      .where(eq(productVariants.productId, id));
    if (variant)
      await changeStock(
        transaction,
        id,
        [{ variantId: variant.id, delta: product.quantity }],
        stockSource(context),
      );
  }
  await applyVariants(transaction, id, step.variants, context);
  if (existing && changed('categories'))
    await transaction.delete(productCategories).where(eq(productCategories.productId, id));
  if (changed('categories') && product.categories.length > 0) {
    await transaction
      .insert(productCategories)
      .values(
        product.categories.map((link) => ({ productId: id, categoryId: ids.categories.get(link) ?? 0 })),
      );
  }
  if (existing && changed('images'))
    await transaction.delete(productImages).where(eq(productImages.productId, id));
  if (changed('images') && product.images.length > 0) {
    await transaction
      .insert(productImages)
      .values(product.images.map((file, position) => ({ productId: id, file, position })));
  }
  await recordAudit(transaction, {
    actorId: context.actorId,
    action: existing ? 'update' : 'create',
    entity: 'product',
    entityId: id,
    before: existing ? auditView(id, step.link, existing.product) : undefined,
    after: auditView(id, step.link, product),
  });
}

/**
 * The rows' variant changes, after the product's row was written (its lock first). SKUs are freed
 * before they are set, so two rows may swap theirs.
 */
async function applyVariants(
  transaction: Transaction,
  productId: number,
  steps: readonly VariantStep[],
  context: { actorId: number; shop?: MailShop },
) {
  if (steps.length === 0) return;
  const ids = steps.flatMap((step) => (step.id === undefined ? [] : [step.id]));
  if (ids.length > 0)
    await transaction
      .update(productVariants)
      .set({ sku: sql`${productVariants.sku} || '~' || ${productVariants.id}` })
      .where(inArray(productVariants.id, ids));
  for (const step of steps) {
    await transaction
      .update(productVariants)
      .set({
        sku: step.sku,
        price: step.price,
        sale: step.sale,
        weight: step.weight,
        ...customsColumns(step.customs),
        updatedAt: new Date(),
      })
      .where(
        step.id === undefined
          ? eq(productVariants.productId, productId)
          : and(eq(productVariants.id, step.id), eq(productVariants.productId, productId)),
      );
  }
  await changeStock(
    transaction,
    productId,
    steps.flatMap((step) =>
      step.id === undefined || step.quantity === undefined || step.seen === undefined
        ? []
        : [{ variantId: step.id, counted: step.quantity, seen: step.seen }],
    ),
    stockSource(context),
  );
}

/** The import's stock movements: reason `import`, by the staff member who applied the file. */
const stockSource = (context: { actorId: number; shop?: MailShop }) => ({
  reason: 'import' as const,
  actorId: context.actorId,
  ...(context.shop ? { shop: context.shop } : {}),
});
