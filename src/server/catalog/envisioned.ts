import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Locale } from '../../contract/locale.ts';
import type { Executor } from '../db/client.ts';
import { products, users, wishlistItems } from '../db/schema.ts';
import { NotFound } from '../errors.ts';
import { queueMail } from '../mail/outbox.ts';
import type { MailShop } from '../mail/templates.ts';

/**
 * Makes an envisioned product orderable, or envisioned again. When it becomes orderable, every user
 * who wishlisted it and was not told yet gets one mail in their language; the `notified_at` mark
 * makes that exactly once, however often the item is toggled. The caller invalidates the catalogue.
 */
export async function setEnvisioned(
  db: Executor,
  productId: number,
  envisioned: boolean,
  context: { publicUrl: string; shop?: MailShop },
): Promise<{ notified: number }> {
  return db.transaction(async (transaction) => {
    const [product] = await transaction
      .update(products)
      .set({ envisioned, updatedAt: new Date() })
      .where(eq(products.id, productId))
      .returning();
    if (!product) throw new NotFound('product-unavailable', { product: ['product-unavailable'] });
    if (envisioned) return { notified: 0 };
    const fans = await transaction
      .update(wishlistItems)
      .set({ notifiedAt: new Date() })
      .where(and(eq(wishlistItems.productId, productId), isNull(wishlistItems.notifiedAt)))
      .returning({ userId: wishlistItems.userId });
    if (fans.length === 0) return { notified: 0 };
    const recipients = await transaction
      .select({ email: users.email, locale: users.locale })
      .from(users)
      .where(
        sql`${users.id} in (${sql.join(
          fans.map((fan) => fan.userId),
          sql`, `,
        )})`,
      );
    for (const recipient of recipients) {
      const locale: Locale = recipient.locale === 'en' ? 'en' : 'ru';
      await queueMail(
        transaction,
        {
          template: 'envisioned-available',
          locale,
          to: recipient.email,
          data: {
            productName: locale === 'ru' ? product.nameRu : product.nameEn,
            link: `${context.publicUrl}/product/${product.link}`,
          },
        },
        context.shop,
      );
    }
    return { notified: recipients.length };
  });
}
