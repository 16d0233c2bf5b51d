import { and, asc, eq, inArray, ne, notInArray, sql } from 'drizzle-orm';
import type { ProductVariantsSave } from '../../contract/admin.ts';
import { kopecksToRoubles, roublesToKopecks } from '../../contract/money.ts';
import { ORDER_STATUS } from '../../contract/order-status.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Database, Executor } from '../db/client.ts';
import {
  orderItems,
  orders,
  productImages,
  productOptions,
  productOptionValues,
  products,
  productVariants,
  productVariantValues,
} from '../db/schema.ts';
import { recordChanged } from '../db/versions.ts';
import { Conflict, Invalid, NotFound } from '../errors.ts';
import type { MailShop } from '../mail/templates.ts';
import { customsColumns, customsWire } from '../shipping/customs-fields.ts';
import { changeStock, type StaffStockChange } from './stock.ts';

/**
 * A product's options and variants as the back office edits them (issue 16): the options editor and
 * the variant table are saved together, in one transaction, over the product's version. The
 * product's row is updated first (its version), which also takes its lock before any variant's, the
 * lock order of catalog/stock.ts. Stock changes go through that module as movements: a row's
 * receipt or write-off, or a count over the figure the table showed (ADR 0056).
 */

const notFound = () => new NotFound('not-found', { id: ['not-found'] });
const invalid = (field: string, key: string) => new Invalid(key, { [field]: [key] }, key);

/** Orders that may still give their units back (cancellation, refund) hold on to their variants. */
const OPEN_ORDER = sql`${orders.status} not in (${ORDER_STATUS.cancelled}, ${ORDER_STATUS.shipped})`;

export async function getProductVariantsForAdmin(db: Executor, productId: number) {
  const [product] = await db
    .select({
      id: products.id,
      link: products.link,
      price: products.price,
      sale: products.sale,
      weight: products.weight,
      version: products.version,
    })
    .from(products)
    .where(eq(products.id, productId));
  if (!product) throw notFound();
  const [optionRows, valueRows, variantRows, variantValueRows, imageRows] = await Promise.all([
    db
      .select()
      .from(productOptions)
      .where(eq(productOptions.productId, productId))
      .orderBy(asc(productOptions.position), asc(productOptions.id)),
    db
      .select({
        id: productOptionValues.id,
        optionId: productOptionValues.optionId,
        valueRu: productOptionValues.valueRu,
        valueEn: productOptionValues.valueEn,
        swatch: productOptionValues.swatch,
      })
      .from(productOptionValues)
      .innerJoin(productOptions, eq(productOptions.id, productOptionValues.optionId))
      .where(eq(productOptions.productId, productId))
      .orderBy(asc(productOptionValues.position), asc(productOptionValues.id)),
    db
      .select()
      .from(productVariants)
      .where(eq(productVariants.productId, productId))
      .orderBy(asc(productVariants.position), asc(productVariants.id)),
    db
      .select({ variantId: productVariantValues.variantId, valueId: productVariantValues.optionValueId })
      .from(productVariantValues)
      .innerJoin(productVariants, eq(productVariants.id, productVariantValues.variantId))
      .where(eq(productVariants.productId, productId)),
    db
      .select({ file: productImages.file, valueId: productImages.optionValueId })
      .from(productImages)
      .where(eq(productImages.productId, productId))
      .orderBy(asc(productImages.position), asc(productImages.id)),
  ]);
  const valueById = new Map(valueRows.map((value) => [value.id, value]));
  const optionIndex = new Map(optionRows.map((option, index) => [option.id, index]));
  const roubles = (kopecks: number | null) => (kopecks === null ? null : kopecksToRoubles(kopecks));
  return {
    id: product.id,
    link: product.link,
    price: kopecksToRoubles(product.price),
    sale: roubles(product.sale),
    weight: product.weight,
    version: product.version,
    options: optionRows.map((option) => ({
      id: option.id,
      kind: option.kind,
      name_ru: option.nameRu,
      name_en: option.nameEn,
      values: valueRows
        .filter((value) => value.optionId === option.id)
        .map((value) => ({
          id: value.id,
          value_ru: value.valueRu,
          value_en: value.valueEn,
          swatch: value.swatch,
          images: imageRows.filter((image) => image.valueId === value.id).map((image) => image.file),
        })),
    })),
    variants: variantRows.map((variant) => {
      const options = Array.from({ length: optionRows.length }, () => '');
      for (const row of variantValueRows) {
        if (row.variantId !== variant.id) continue;
        const value = valueById.get(row.valueId);
        const index = value === undefined ? undefined : optionIndex.get(value.optionId);
        if (value && index !== undefined) options[index] = value.valueEn;
      }
      return {
        id: variant.id,
        options,
        sku: variant.sku,
        price: roubles(variant.price),
        sale: roubles(variant.sale),
        weight: variant.weight,
        quantity: variant.quantity,
        /** Sent back with a counted `quantity`: a count over a figure that has moved is refused. */
        quantity_seen: variant.quantity,
        per_customer_limit: variant.perCustomerLimit,
        ...customsWire(variant),
      };
    }),
  };
}

export type AdminProductVariants = Awaited<ReturnType<typeof getProductVariantsForAdmin>>;

/** Refuses what the schema alone cannot see: repeated values, rows naming unknown values, twins. */
function checkShape(input: ProductVariantsSave) {
  input.options.forEach((option, optionIndex) => {
    for (const language of ['value_ru', 'value_en'] as const) {
      const seen = new Set<string>();
      option.values.forEach((value, valueIndex) => {
        const text = value[language].toLowerCase();
        if (seen.has(text))
          throw invalid(`options.${optionIndex}.values.${valueIndex}.${language}`, 'option-value-duplicate');
        seen.add(text);
      });
    }
  });
  if (input.options.length === 0 && input.variants.length !== 1)
    throw invalid('variants', 'variants-without-options');
  const combinations = new Set<string>();
  const skus = new Set<string>();
  input.variants.forEach((variant, index) => {
    const known =
      variant.options.length === input.options.length &&
      variant.options.every((text, optionIndex) =>
        input.options[optionIndex]?.values.some((value) => value.value_en === text),
      );
    if (!known) throw invalid(`variants.${index}.options`, 'variant-options-invalid');
    const combination = JSON.stringify(variant.options);
    if (combinations.has(combination)) throw invalid(`variants.${index}.options`, 'variant-duplicate');
    combinations.add(combination);
    const sku = variant.sku.toLowerCase();
    if (skus.has(sku))
      throw new Conflict('sku-taken', { [`variants.${index}.sku`]: ['sku-taken'] }, 'sku-taken');
    skus.add(sku);
  });
}

/**
 * Saves the options (with their values, swatches and the pictures each colour shows) and the
 * variants of a product over `version`. Rows without an id are created; existing variants left out
 * are deleted, unless an open order holds them (409 variant-ordered: its units must be able to go
 * back). A product whose options are all removed keeps (or gets) one default variant. A row's
 * `stock_change` is received or written off; its `quantity` is a count over `quantity_seen`, refused
 * (409 stock-moved, with the current figure) if the stock moved since; a new row's units are its
 * first receipt. Rows without them keep their stock.
 */
export async function saveProductVariants(
  db: Database,
  actorId: number,
  productId: number,
  input: ProductVariantsSave,
  context: { shop?: MailShop },
): Promise<AdminProductVariants> {
  checkShape(input);
  const before = await getProductVariantsForAdmin(db, productId);
  await db.transaction(async (tx) => {
    const [product] = await tx
      .update(products)
      .set({ version: sql`${products.version} + 1`, updatedAt: new Date() })
      .where(and(eq(products.id, productId), eq(products.version, input.version)))
      .returning({ id: products.id });
    if (!product) throw recordChanged();

    const existing = await tx
      .select({ id: productVariants.id, sku: productVariants.sku })
      .from(productVariants)
      .where(eq(productVariants.productId, productId));
    const existingIds = new Set(existing.map((variant) => variant.id));
    input.variants.forEach((variant, index) => {
      if (variant.id !== undefined && !existingIds.has(variant.id))
        throw invalid(`variants.${index}.id`, 'variant-unavailable');
    });
    const keptIds = new Set(
      input.variants.flatMap((variant) => (variant.id === undefined ? [] : [variant.id])),
    );
    const removed = existing.filter((variant) => !keptIds.has(variant.id));
    if (removed.length > 0) {
      const held = await tx
        .selectDistinct({ sku: productVariants.sku })
        .from(orderItems)
        .innerJoin(orders, eq(orders.id, orderItems.orderId))
        .innerJoin(productVariants, eq(productVariants.id, orderItems.variantId))
        .where(
          and(
            inArray(
              orderItems.variantId,
              removed.map((variant) => variant.id),
            ),
            OPEN_ORDER,
          ),
        );
      if (held.length > 0)
        throw new Conflict('variant-ordered', { variants: ['variant-ordered'] }, 'variant-ordered', {
          skus: held.map((row) => row.sku).sort(),
        });
    }

    // SKUs are unique across the shop: name the row whose SKU another product uses.
    const takenElsewhere = new Set(
      (
        await tx
          .select({ sku: productVariants.sku })
          .from(productVariants)
          .where(
            and(
              inArray(
                productVariants.sku,
                input.variants.map((variant) => variant.sku),
              ),
              ne(productVariants.productId, productId),
            ),
          )
      ).map((row) => row.sku),
    );
    const takenIndex = input.variants.findIndex((variant) => takenElsewhere.has(variant.sku));
    if (takenIndex >= 0)
      throw new Conflict('sku-taken', { [`variants.${takenIndex}.sku`]: ['sku-taken'] }, 'sku-taken', {
        sku: input.variants[takenIndex]?.sku,
      });

    if (removed.length > 0)
      await tx.delete(productVariants).where(
        inArray(
          productVariants.id,
          removed.map((variant) => variant.id),
        ),
      );
    await tx
      .delete(productVariantValues)
      .where(
        inArray(
          productVariantValues.variantId,
          tx
            .select({ id: productVariants.id })
            .from(productVariants)
            .where(eq(productVariants.productId, productId)),
        ),
      );

    const valueIds = await saveOptions(tx, productId, input.options);

    // A SKU may move from one row to another in one save: free the kept rows' SKUs first.
    await tx
      .update(productVariants)
      .set({ sku: sql`${productVariants.sku} || '~' || ${productVariants.id}` })
      .where(eq(productVariants.productId, productId));
    const stock: StaffStockChange[] = [];
    for (const [position, variant] of input.variants.entries()) {
      const values = {
        sku: variant.sku,
        price: variant.price === null ? null : roublesToKopecks(variant.price),
        sale: variant.sale === null ? null : roublesToKopecks(variant.sale),
        weight: variant.weight,
        ...(variant.per_customer_limit === undefined ? {} : { perCustomerLimit: variant.per_customer_limit }),
        ...customsColumns(variant),
        position,
        updatedAt: new Date(),
      };
      const [row] =
        variant.id === undefined
          ? await tx
              .insert(productVariants)
              .values({ ...values, productId })
              .returning({ id: productVariants.id })
          : await tx
              .update(productVariants)
              .set(values)
              .where(eq(productVariants.id, variant.id))
              .returning({ id: productVariants.id });
      if (!row) throw notFound();
      const optionValueIds = variant.options.map((text, optionIndex) => valueIds[optionIndex]?.get(text));
      const links = optionValueIds.flatMap((optionValueId) =>
        optionValueId === undefined ? [] : [{ variantId: row.id, optionValueId }],
      );
      if (links.length > 0) await tx.insert(productVariantValues).values(links);
      if (variant.id === undefined) {
        const units = (variant.quantity ?? 0) + (variant.stock_change ?? 0);
        if (units !== 0) stock.push({ variantId: row.id, delta: units });
      } else if (variant.quantity !== undefined && variant.quantity_seen !== undefined)
        stock.push({ variantId: row.id, counted: variant.quantity, seen: variant.quantity_seen });
      else if (variant.stock_change !== undefined && variant.stock_change !== 0)
        stock.push({ variantId: row.id, delta: variant.stock_change });
    }
    await changeStock(tx, productId, stock, {
      actorId,
      ...(context.shop ? { shop: context.shop } : {}),
    });
  });
  const after = await getProductVariantsForAdmin(db, productId);
  await recordAudit(db, {
    actorId,
    action: 'update',
    entity: 'product-variants',
    entityId: productId,
    before,
    after,
  });
  return after;
}

/**
 * Writes the options and their values over the product's, deleting those left out, and links each
 * colour's pictures. Answers, per option, its values' ids by English text.
 */
async function saveOptions(
  tx: Executor,
  productId: number,
  options: ProductVariantsSave['options'],
): Promise<Map<string, number>[]> {
  const keptOptionIds = options.flatMap((option) => (option.id === undefined ? [] : [option.id]));
  await tx
    .delete(productOptions)
    .where(
      and(
        eq(productOptions.productId, productId),
        keptOptionIds.length > 0 ? notInArray(productOptions.id, keptOptionIds) : undefined,
      ),
    );
  await tx.update(productImages).set({ optionValueId: null }).where(eq(productImages.productId, productId));
  const valueIds: Map<string, number>[] = [];
  for (const [position, option] of options.entries()) {
    const fields = { kind: option.kind, nameRu: option.name_ru, nameEn: option.name_en, position };
    const [saved] =
      option.id === undefined
        ? await tx
            .insert(productOptions)
            .values({ ...fields, productId })
            .returning({ id: productOptions.id })
        : await tx
            .update(productOptions)
            .set(fields)
            .where(and(eq(productOptions.id, option.id), eq(productOptions.productId, productId)))
            .returning({ id: productOptions.id });
    if (!saved) throw invalid(`options.${position}.id`, 'not-found');
    const keptValueIds = option.values.flatMap((value) => (value.id === undefined ? [] : [value.id]));
    await tx
      .delete(productOptionValues)
      .where(
        and(
          eq(productOptionValues.optionId, saved.id),
          keptValueIds.length > 0 ? notInArray(productOptionValues.id, keptValueIds) : undefined,
        ),
      );
    // Renames may swap texts between values: move the kept ones out of the way first.
    if (keptValueIds.length > 0)
      await tx
        .update(productOptionValues)
        .set({
          valueRu: sql`${productOptionValues.valueRu} || '~' || ${productOptionValues.id}`,
          valueEn: sql`${productOptionValues.valueEn} || '~' || ${productOptionValues.id}`,
        })
        .where(eq(productOptionValues.optionId, saved.id));
    const ids = new Map<string, number>();
    for (const [valuePosition, value] of option.values.entries()) {
      const valueFields = {
        valueRu: value.value_ru,
        valueEn: value.value_en,
        swatch: value.swatch,
        position: valuePosition,
      };
      const [savedValue] =
        value.id === undefined
          ? await tx
              .insert(productOptionValues)
              .values({ ...valueFields, optionId: saved.id })
              .returning({ id: productOptionValues.id })
          : await tx
              .update(productOptionValues)
              .set(valueFields)
              .where(and(eq(productOptionValues.id, value.id), eq(productOptionValues.optionId, saved.id)))
              .returning({ id: productOptionValues.id });
      if (!savedValue) throw invalid(`options.${position}.values.${valuePosition}.id`, 'not-found');
      ids.set(value.value_en, savedValue.id);
      if (value.images.length > 0)
        await tx
          .update(productImages)
          .set({ optionValueId: savedValue.id })
          .where(and(eq(productImages.productId, productId), inArray(productImages.file, value.images)));
    }
    valueIds.push(ids);
  }
  return valueIds;
}
