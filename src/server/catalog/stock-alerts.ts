import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Locale } from '../../contract/locale.ts';
import type { Executor } from '../db/client.ts';
import { products, productVariants, projects, stockAlerts, users } from '../db/schema.ts';
import { Conflict } from '../errors.ts';
import { queueMail } from '../mail/outbox.ts';
import type { MailShop } from '../mail/templates.ts';
import { resolveVariantId, variantLabel } from './variants.ts';

/**
 * "Notify me when back" (issue 16): a signed-in shopper asks to hear when a sold-out variant is in
 * stock again. Every path that adds stock (staff saves, the CSV import, units released by a
 * cancellation or refund) calls `notifyBackInStock` in the transaction of its stock change, so the
 * mail goes exactly once: the `notified_at` mark and the queued mail commit with the stock.
 */

const inStockAlready = () =>
  new Conflict('variant-in-stock', { variant: ['variant-in-stock'] }, 'variant-in-stock');

/**
 * Remembers the shopper's wish for the variant (the product's only one when none is named), in the
 * shopper's language. Asking again after a mail went waits for the next return. A variant in stock
 * needs no alert (409 variant-in-stock).
 */
export async function askForStockAlert(
  db: Executor,
  userId: number,
  request: { productId: number; variantId?: number | undefined; locale: Locale },
): Promise<{ variantId: number }> {
  const variantId = await resolveVariantId(db, request.productId, request.variantId);
  const [variant] = await db
    .select({ quantity: productVariants.quantity })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(and(eq(productVariants.id, variantId), eq(products.visible, true), eq(projects.visible, true)));
  if (!variant) throw new Conflict('variant-unavailable', { variant: ['variant-unavailable'] });
  if (variant.quantity > 0) throw inStockAlready();
  await db
    .insert(stockAlerts)
    .values({ userId, variantId, locale: request.locale })
    .onConflictDoUpdate({
      target: [stockAlerts.userId, stockAlerts.variantId],
      set: { locale: request.locale, notifiedAt: null },
    });
  return { variantId };
}

/** Whether the shopper waits for the variant now. */
export async function isWaitingForStock(db: Executor, userId: number, variantId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: stockAlerts.userId })
    .from(stockAlerts)
    .where(
      and(
        eq(stockAlerts.userId, userId),
        eq(stockAlerts.variantId, variantId),
        isNull(stockAlerts.notifiedAt),
      ),
    );
  return row !== undefined;
}

/**
 * Mails everyone waiting for one of `variantIds` that is in stock now, once: marks their alerts
 * notified and queues the mails in the caller's transaction, the one that added the stock. Without
 * the shop's public address (a caller that passes no shop) the alerts wait for the next change.
 */
export async function notifyBackInStock(
  tx: Executor,
  variantIds: readonly number[],
  shop: MailShop | undefined,
): Promise<number> {
  const origin = shop?.url;
  if (variantIds.length === 0 || origin === undefined) return 0;
  const notified = await tx
    .update(stockAlerts)
    .set({ notifiedAt: new Date() })
    .where(
      and(
        inArray(stockAlerts.variantId, [...new Set(variantIds)]),
        isNull(stockAlerts.notifiedAt),
        sql`exists (select 1 from ${productVariants} where ${productVariants.id} = ${stockAlerts.variantId}
          and ${productVariants.quantity} > 0)`,
      ),
    )
    .returning({ userId: stockAlerts.userId, variantId: stockAlerts.variantId, locale: stockAlerts.locale });
  if (notified.length === 0) return 0;
  const variants = new Map(
    (
      await tx
        .select({
          id: productVariants.id,
          link: products.link,
          nameRu: products.nameRu,
          nameEn: products.nameEn,
          optionsRu: variantLabel('ru'),
          optionsEn: variantLabel('en'),
        })
        .from(productVariants)
        .innerJoin(products, eq(products.id, productVariants.productId))
        .where(inArray(productVariants.id, [...new Set(notified.map((alert) => alert.variantId))]))
    ).map((variant) => [variant.id, variant]),
  );
  const emails = new Map(
    (
      await tx
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(inArray(users.id, [...new Set(notified.map((alert) => alert.userId))]))
    ).map((user) => [user.id, user.email]),
  );
  for (const alert of notified) {
    const variant = variants.get(alert.variantId);
    const to = emails.get(alert.userId);
    if (!variant || !to) continue;
    const locale: Locale = alert.locale === 'en' ? 'en' : 'ru';
    await queueMail(
      tx,
      {
        template: 'back-in-stock',
        locale,
        to,
        data: {
          productName: locale === 'ru' ? variant.nameRu : variant.nameEn,
          options: locale === 'ru' ? variant.optionsRu : variant.optionsEn,
          link: `${origin}/product/${variant.link}?variant=${variant.id}`,
        },
      },
      shop,
    );
  }
  return notified.length;
}
