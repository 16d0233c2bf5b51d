import { and, eq, notInArray } from 'drizzle-orm';
import { recordOpeningStock } from '../catalog/stock.ts';
import type { Executor } from '../db/client.ts';
import {
  type OptionKind,
  productImages,
  productOptions,
  productOptionValues,
  products,
  productVariants,
  productVariantValues,
} from '../db/schema.ts';

/**
 * Gives a product options and variants in a test, as the back office would (ADR 0036): its default
 * variant is replaced by one variant per entry of `variants`, each naming one English value per
 * option. Pictures can be linked to a colour value.
 */

export interface OptionFixture {
  kind: OptionKind;
  nameRu: string;
  nameEn: string;
  values: Array<{ ru: string; en: string; swatch?: string }>;
}

export interface VariantFixture {
  /** English value of each option, in the options' order. */
  values: string[];
  quantity: number;
  /** Own price and sale in kopecks; none = the product's. */
  price?: number;
  sale?: number;
}

export async function giveProductOptions(
  db: Executor,
  productId: number,
  fixture: {
    options: OptionFixture[];
    variants: VariantFixture[];
    /** Pictures showing a colour: file name → English value. */
    pictures?: Record<string, string>;
  },
) {
  const [product] = await db.select({ link: products.link }).from(products).where(eq(products.id, productId));
  if (!product) throw new Error(`no product ${productId}`);
  const valueIds: Array<Map<string, number>> = [];
  const createdOptions: number[] = [];
  for (const [position, option] of fixture.options.entries()) {
    const [row] = await db
      .insert(productOptions)
      .values({ productId, kind: option.kind, nameRu: option.nameRu, nameEn: option.nameEn, position })
      .returning();
    if (!row) throw new Error('option insert failed');
    createdOptions.push(row.id);
    const values = await db
      .insert(productOptionValues)
      .values(
        option.values.map((value, index) => ({
          optionId: row.id,
          valueRu: value.ru,
          valueEn: value.en,
          swatch: value.swatch ?? null,
          position: index,
        })),
      )
      .returning();
    valueIds.push(new Map(values.map((value) => [value.valueEn, value.id])));
  }
  const valueId = (option: number, english: string) => {
    const id = valueIds[option]?.get(english);
    if (id === undefined) throw new Error(`no value ${english} of option ${option}`);
    return id;
  };

  await db.delete(productVariants).where(eq(productVariants.productId, productId));
  // Options the product had (the demo data gives some) go with their variants.
  await db
    .delete(productOptions)
    .where(and(eq(productOptions.productId, productId), notInArray(productOptions.id, createdOptions)));
  const variants: Array<{ id: number; sku: string; values: string[] }> = [];
  for (const [position, variant] of fixture.variants.entries()) {
    const sku = `${product.link}-${variant.values.join('-').toLowerCase()}`;
    const [row] = await db
      .insert(productVariants)
      .values({
        productId,
        sku,
        quantity: variant.quantity,
        price: variant.price ?? null,
        sale: variant.sale ?? null,
        position,
      })
      .returning();
    if (!row) throw new Error('variant insert failed');
    await db
      .insert(productVariantValues)
      .values(
        variant.values.map((value, option) => ({ variantId: row.id, optionValueId: valueId(option, value) })),
      );
    variants.push({ id: row.id, sku, values: variant.values });
  }

  await recordOpeningStock(db);

  const colour = fixture.options.findIndex((option) => option.kind === 'colour');
  for (const [file, english] of Object.entries(fixture.pictures ?? {})) {
    await db
      .update(productImages)
      .set({ optionValueId: valueId(colour, english) })
      .where(eq(productImages.file, file));
  }

  /** The variant with these English values. */
  const variantOf = (...values: string[]) => {
    const found = variants.find((variant) => variant.values.join('|') === values.join('|'));
    if (!found) throw new Error(`no variant ${values.join(', ')}`);
    return found;
  };
  return { variants, variantOf, valueId };
}

/** Sizes XS–XXL, the same word in both languages. */
export const SIZES: OptionFixture = {
  kind: 'size',
  nameRu: 'Размер',
  nameEn: 'Size',
  values: ['XS', 'S', 'M', 'L', 'XL', 'XXL'].map((size) => ({ ru: size, en: size })),
};

/** The variant a product without options was created with. */
export async function defaultVariantId(db: Executor, productId: number): Promise<number> {
  const [variant] = await db
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(eq(productVariants.productId, productId));
  if (!variant) throw new Error(`product ${productId} has no variant`);
  return variant.id;
}

/**
 * A new test product of the project in sizes, one variant per size holding the stock given
 * (`{ S: 2, M: 0, L: 3 }`). Answers the product's id and each size's variant id.
 */
export async function productWithSizes(
  db: Executor,
  fixture: { projectId: number; link: string; price?: number; sizes: Record<string, number> },
): Promise<{ productId: number; variants: Record<string, number> }> {
  const [product] = await db
    .insert(products)
    .values({
      projectId: fixture.projectId,
      link: fixture.link,
      nameRu: `Толстовка ${fixture.link}`,
      nameEn: `Hoodie ${fixture.link}`,
      price: fixture.price ?? 4_000_00,
      weight: 500,
    })
    .returning({ id: products.id });
  if (!product) throw new Error('fixture insert failed');
  const sizes = Object.entries(fixture.sizes);
  const { variantOf } = await giveProductOptions(db, product.id, {
    options: [{ ...SIZES, values: sizes.map(([size]) => ({ ru: size, en: size })) }],
    variants: sizes.map(([size, quantity]) => ({ values: [size], quantity })),
  });
  return {
    productId: product.id,
    variants: Object.fromEntries(sizes.map(([size]) => [size, variantOf(size).id])),
  };
}
