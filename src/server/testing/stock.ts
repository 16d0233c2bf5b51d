import { eq } from 'drizzle-orm';
import { changeStock } from '../catalog/stock.ts';
import { resolveVariantId } from '../catalog/variants.ts';
import type { Database } from '../db/client.ts';
import { products, productVariants } from '../db/schema.ts';

/** Sets a product's stock in a test, as staff do: a count on its one variant (ADR 0036, 0056). */
export async function setStock(db: Database, productId: number, quantity: number): Promise<void> {
  await db.transaction(async (tx) => {
    const variantId = await resolveVariantId(tx, productId, undefined);
    const [variant] = await tx
      .select({ quantity: productVariants.quantity })
      .from(productVariants)
      .where(eq(productVariants.id, variantId));
    await changeStock(tx, productId, [{ variantId, counted: quantity, seen: variant?.quantity ?? 0 }], {});
  });
}

/** A product's stock now: the sum over its variants that the product row keeps. */
export async function productStock(db: Database, productId: number): Promise<number | undefined> {
  const [product] = await db
    .select({ quantity: products.quantity })
    .from(products)
    .where(eq(products.id, productId));
  return product?.quantity;
}
