import { eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrderResponse } from '../../contract/orders.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { addToBasket } from '../cart/service.ts';
import { orders, users } from '../db/schema.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { createOrder } from '../orders/service.ts';
import { createRussianPostSimulator } from '../providers/simulators/russian-post.ts';
import { createTestApp } from '../testing/app.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { orderInput } from '../testing/orders.ts';

/** A shop that offers Robokassa and Russian Post only (PAYMENT_METHODS, DELIVERY_METHODS; ADR 0054). */
let providers: FastifyInstance;
let shop: Awaited<ReturnType<typeof createTestApp>>;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
const PASSWORD = 'shopper password';

beforeAll(async () => {
  providers = Fastify();
  await providers.register(createRussianPostSimulator().plugin);
  const base = await providers.listen({ port: 0, host: '127.0.0.1' });
  shop = await createTestApp({
    env: {
      RUSSIAN_POST_URL: `${base}/sandbox/russian-post`,
      PAYMENT_METHODS: 'robokassa',
      DELIVERY_METHODS: 'russian_post',
    },
  });
  fixtures = await insertCatalogue(shop.db);
  await shop.db.insert(users).values(
    ['anna', 'boris'].map((name) => ({
      email: `${name}@example.com`,
      passwordHash: '',
      emailVerifiedAt: new Date(),
    })),
  );
  await shop.db.update(users).set({ passwordHash: await hashPassword(PASSWORD) });
});
afterAll(async () => {
  await shop?.close();
  await providers?.close();
});

const sidOf = (response: LightMyRequestResponse) =>
  response.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value;

async function shopper(email: string) {
  const login = await shop.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email, password: PASSWORD },
  });
  expect(login.statusCode).toBe(200);
  const sid = sidOf(login);
  return async (method: 'GET' | 'POST', url: string, payload?: Record<string, string | number>) => {
    const response = await shop.app.inject({
      method,
      url,
      payload,
      cookies: sid ? { [SESSION_COOKIE]: sid } : {},
    });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  };
}

const recipient = {
  email: 'anna@example.com',
  firstName: 'Anna',
  lastName: 'Petrova',
  phone: '+7 900 000-00-00',
  country: 'RU',
  city: 'Novosibirsk',
  zip: '630099',
  address: 'Krasny pr. 29',
};

const ordersOf = (email: string) =>
  shop.db
    .select({ id: orders.id, paymentMethod: orders.paymentMethod })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(users.email, email));

describe('a shop that offers Robokassa and Russian Post only', () => {
  it('refuses POST /api/order with paymentMethod=paypal with a clear 422 in ru and en, changing nothing', async () => {
    const send = await shopper('anna@example.com');
    expect((await send('POST', '/api/basket', { product: fixtures.id('wolf-shirt') })).status).toBe(200);

    const ru = await send('POST', '/api/order', {
      ...recipient,
      locale: 'ru',
      deliveryMethod: 'russian_post',
      paymentMethod: 'paypal',
    });
    expect(ru).toEqual({
      status: 422,
      body: {
        success: false,
        message: 'Магазин не принимает этот способ оплаты. Выберите другой.',
        errors: { paymentMethod: ['Магазин не принимает этот способ оплаты. Выберите другой.'] },
        intlError: 'payment-method-off',
      },
    });
    const en = await send('POST', '/api/order', {
      ...recipient,
      locale: 'en',
      deliveryMethod: 'russian_post',
      paymentMethod: 'paypal',
    });
    expect(en.status).toBe(422);
    expect(en.body.message).toBe('The shop does not offer this payment method. Please choose another one.');

    expect(await ordersOf('anna@example.com')).toEqual([]);
    expect((await send('GET', '/api/basket?locale=en')).body).toMatchObject({
      productList: [expect.anything()],
    });

    const placed = await send('POST', '/api/order', {
      ...recipient,
      locale: 'ru',
      deliveryMethod: 'russian_post',
      paymentMethod: 'robokassa',
    });
    expect(placed.status).toBe(200);
    expect(createOrderResponse.parse(placed.body).payment.method).toBe('robokassa');
  });

  it('neither quotes nor orders a delivery method it has switched off', async () => {
    const send = await shopper('boris@example.com');
    await send('POST', '/api/basket', { product: fixtures.id('wolf-shirt') });

    const quote = await send('GET', '/api/delivery?method=boxberry.courier&country=RU&zip=630099&locale=en');
    expect(quote).toEqual({
      status: 422,
      body: {
        success: false,
        message: 'The shop does not offer this shipping method. Please choose another one.',
        errors: {
          deliveryMethod: ['The shop does not offer this shipping method. Please choose another one.'],
        },
        intlError: 'delivery-method-off',
      },
    });
    const order = await send('POST', '/api/order', {
      ...recipient,
      email: 'boris@example.com',
      locale: 'ru',
      deliveryMethod: 'boxberry.courier',
      paymentMethod: 'robokassa',
    });
    expect(order.status).toBe(422);
    expect(order.body.message).toBe('Магазин не предлагает этот способ доставки. Выберите другой.');
    expect(await ordersOf('boris@example.com')).toEqual([]);
    expect((await send('GET', '/api/delivery?method=russian_post&country=RU&zip=630099')).status).toBe(200);
  });

  it('still shows an order placed with PayPal before PayPal was switched off', async () => {
    const [boris] = await shop.db.select().from(users).where(eq(users.email, 'boris@example.com'));
    if (!boris) throw new Error('no Boris');
    await addToBasket(shop.db, { userId: boris.id }, fixtures.id('wolf-shirt'));
    // Placed while every method was on (the domain's default when the shop's choice is not given).
    const old = await createOrder(shop.db, boris.id, orderInput({ paymentMethod: 'paypal', locale: 'en' }), {
      deliveryCost: 30_000,
      usdRate: 90,
      expiresMinutes: 60,
    });
    const send = await shopper('boris@example.com');
    const shown = await send('GET', `/api/order/${old.id}?locale=en`);
    expect(shown.status).toBe(200);
    expect(JSON.stringify(shown.body)).toContain('paypal');
  });
});
