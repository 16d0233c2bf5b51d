import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { unitPrice } from '../../contract/money.ts';
import { orderItems, orders, products, productVariants } from '../db/schema.ts';
import { SANDBOX_BOXBERRY_TOKEN } from '../providers/boxberry.ts';
import { SANDBOX_OTPRAVKA } from '../providers/russian-post-shipments.ts';
import { createBoxberrySimulator } from '../providers/simulators/boxberry.ts';
import { createOtpravkaSimulator } from '../providers/simulators/russian-post-shipments.ts';
import { signedInAdmin } from './admin.ts';
import { createTestApp } from './app.ts';
import { insertCatalogue } from './catalog-fixtures.ts';

/**
 * A shop whose carriers are the Russian Post ("Отправка" and tracking) and Boxberry simulators,
 * listening on their own port as the real services would, with the test catalogue and a signed-in
 * admin; `call` speaks to the back office's API.
 */
export async function shopWithCarriers() {
  const otpravka = createOtpravkaSimulator();
  const boxberry = createBoxberrySimulator();
  const carriers = Fastify();
  await carriers.register(otpravka.plugin);
  await carriers.register(boxberry.plugin);
  const base = await carriers.listen({ port: 0, host: '127.0.0.1' });
  const shop = await createTestApp({
    env: {
      RUSSIAN_POST_OTPRAVKA_URL: `${base}/sandbox/otpravka`,
      RUSSIAN_POST_ACCESS_TOKEN: SANDBOX_OTPRAVKA.accessToken,
      RUSSIAN_POST_LOGIN: SANDBOX_OTPRAVKA.login,
      RUSSIAN_POST_PASSWORD: SANDBOX_OTPRAVKA.password,
      RUSSIAN_POST_TRACKING_URL: `${base}/sandbox/russian-post-tracking`,
      RUSSIAN_POST_TRACKING_LOGIN: SANDBOX_OTPRAVKA.login,
      RUSSIAN_POST_TRACKING_PASSWORD: SANDBOX_OTPRAVKA.password,
      BOXBERRY_URL: `${base}/sandbox/boxberry/json.php`,
      BOXBERRY_TOKEN: SANDBOX_BOXBERRY_TOKEN,
    },
  });
  await insertCatalogue(shop.db);
  const admin = await signedInAdmin(shop);
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await shop.app.inject({
      method,
      url: `/api/admin${url}`,
      cookies: admin,
      ...(payload ? { payload } : {}),
    });
    return {
      status: response.statusCode,
      headers: response.headers,
      raw: response.rawPayload,
      json: () => response.json(),
    };
  };

  /**
   * A paid order (in processing, to Kazan by Russian Post unless `values` say otherwise) of the
   * given catalogue products, each line at its price and sale.
   */
  async function paidOrder(
    values: Partial<typeof orders.$inferInsert>,
    lines: Array<{ link: string; count: number; price: number; sale?: number }>,
  ) {
    const [order] = await shop.db
      .insert(orders)
      .values({
        locale: 'ru',
        email: `buyer${Math.random().toString(36).slice(2, 8)}@example.com`,
        firstName: 'Анна',
        lastName: 'Петрова',
        phone: '+7 900 000-00-00',
        deliveryMethod: 'russian_post',
        deliveryCountry: 'RU',
        deliveryCity: 'Казань',
        deliveryAddress: 'ул. Баумана, 1',
        deliveryZip: '420111',
        paymentMethod: 'robokassa',
        productsCost: lines.reduce((sum, line) => sum + unitPrice(line) * line.count, 0),
        productsAmount: lines.reduce((sum, line) => sum + unitPrice(line) * line.count, 0),
        deliveryCost: 400_00,
        status: 1,
        paidAt: new Date(),
        expiresAt: new Date(Date.now() + 3600_000),
        ...values,
      })
      .returning();
    if (!order) throw new Error('order insert failed');
    const skus: string[] = [];
    for (const line of lines) {
      const [row] = await shop.db
        .select({ product: products, variant: productVariants })
        .from(products)
        .innerJoin(productVariants, eq(productVariants.productId, products.id))
        .where(eq(products.link, line.link));
      if (!row) throw new Error(`no fixture ${line.link}`);
      skus.push(row.variant.sku);
      await shop.db.insert(orderItems).values({
        orderId: order.id,
        productId: row.product.id,
        variantId: row.variant.id,
        sku: row.variant.sku,
        nameRu: row.product.nameRu,
        nameEn: row.product.nameEn,
        price: line.price,
        sale: line.sale ?? null,
        count: line.count,
      });
    }
    return { order, skus };
  }

  return {
    shop,
    otpravka,
    boxberry,
    call,
    paidOrder,
    async close() {
      await shop.close();
      await carriers.close();
    },
  };
}
