import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import {
  productOptions,
  productOptionValues,
  products,
  productVariants,
  productVariantValues,
} from '../db/schema.ts';

/** The variant a product without options was created with (ADR 0036). */
export async function defaultVariantId(db: Executor, productId: number): Promise<number> {
  const [variant] = await db
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(eq(productVariants.productId, productId));
  if (!variant) throw new Error(`product ${productId} has no variant`);
  return variant.id;
}

/**
 * A test product in sizes: a new product of the project with a Size option and one variant per
 * size holding the stock given (`{ S: 2, M: 0, L: 3 }`), SKUs `<link>-<size>`; the default variant
 * the product was created with goes. Answers the product's id and each size's variant id. Rows
 * are written directly, as a fixture; staff give a product sizes in the back office.
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
  await db.delete(productVariants).where(eq(productVariants.productId, product.id));
  const [size] = await db
    .insert(productOptions)
    .values({ productId: product.id, kind: 'size', nameRu: 'Размер', nameEn: 'Size' })
    .returning({ id: productOptions.id });
  if (!size) throw new Error('fixture insert failed');
  const variants: Record<string, number> = {};
  for (const [position, [name, quantity]] of Object.entries(fixture.sizes).entries()) {
    const [value] = await db
      .insert(productOptionValues)
      .values({ optionId: size.id, valueRu: name, valueEn: name, position })
      .returning({ id: productOptionValues.id });
    const [variant] = await db
      .insert(productVariants)
      .values({ productId: product.id, sku: `${fixture.link}-${name}`, quantity, position })
      .returning({ id: productVariants.id });
    if (!value || !variant) throw new Error('fixture insert failed');
    await db.insert(productVariantValues).values({ variantId: variant.id, optionValueId: value.id });
    variants[name] = variant.id;
  }
  return { productId: product.id, variants };
}
