import { and, eq, gte, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { productVariants } from '../db/schema.ts';
import { Invalid } from '../errors.ts';
import type { MailShop } from '../mail/templates.ts';
import { notifyBackInStock } from './stock-alerts.ts';
import { resolveVariantId } from './variants.ts';

/**
 * Stock as staff set it, in the product form, the variant table and the CSV import. The caller has
 * locked the product's row first (by updating it), the lock order of orders/lifecycle.ts. Shoppers
 * waiting for a variant that comes back hear of it in the same transaction.
 */

/**
 * Sets the stock of a product without options (its one variant) outright, or adds to it. A
 * negative number writes units off; writing off more than the stock holds is refused
 * (`write-off-exceeds-stock`), never cut to zero, and the caller's transaction rolls back. A
 * product with several variants has its stock set per variant.
 */
export async function setProductStock(
  tx: Executor,
  productId: number,
  stock: { set: number } | { add: number },
  shop?: MailShop,
): Promise<void> {
  const variantId = await resolveVariantId(tx, productId, undefined);
  const [changed] = await tx
    .update(productVariants)
    .set({
      quantity: 'set' in stock ? Math.max(0, stock.set) : sql`${productVariants.quantity} + ${stock.add}`,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(productVariants.id, variantId),
        'add' in stock ? gte(productVariants.quantity, -stock.add) : undefined,
      ),
    )
    .returning({ id: productVariants.id });
  if (!changed) throw new Invalid('write-off-exceeds-stock', { quantity: ['write-off-exceeds-stock'] });
  await notifyBackInStock(tx, [variantId], shop);
}

/** Sets the stock of some of a product's variants outright: the variant table's save. */
export async function setVariantStock(
  tx: Executor,
  productId: number,
  stock: readonly { variantId: number; quantity: number }[],
  shop?: MailShop,
): Promise<void> {
  for (const { variantId, quantity } of stock) {
    await tx
      .update(productVariants)
      .set({ quantity: Math.max(0, quantity), updatedAt: new Date() })
      .where(and(eq(productVariants.id, variantId), eq(productVariants.productId, productId)));
  }
  await notifyBackInStock(
    tx,
    stock.map((row) => row.variantId),
    shop,
  );
}
