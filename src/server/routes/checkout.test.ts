import { eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrderResponse } from '../../contract/orders.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { orders, products, users } from '../db/schema.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { SANDBOX_BOXBERRY_TOKEN } from '../providers/boxberry.ts';
import { robokassaSignature } from '../providers/robokassa.ts';
import { createBoxberrySimulator } from '../providers/simulators/boxberry.ts';
import { createRussianPostSimulator } from '../providers/simulators/russian-post.ts';
import { createTestApp } from '../testing/app.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { productStock, setStock } from '../testing/stock.ts';

let providers: FastifyInstance;
const boxberry = createBoxberrySimulator();
let shop: Awaited<ReturnType<typeof createTestApp>>;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
const PASSWORD = 'shopper password';

beforeAll(async () => {
  providers = Fastify();
  await providers.register(createRussianPostSimulator().plugin);
  await providers.register(boxberry.plugin);
  const base = await providers.listen({ port: 0, host: '127.0.0.1' });
  shop = await createTestApp({
    env: {
      RUSSIAN_POST_URL: `${base}/sandbox/russian-post`,
      BOXBERRY_URL: `${base}/sandbox/boxberry/json.php`,
      BOXBERRY_TOKEN: SANDBOX_BOXBERRY_TOKEN,
    },
  });
  fixtures = await insertCatalogue(shop.db);
  await shop.db.insert(users).values(
    ['anna', 'boris', 'carol', 'dmitry', 'erin', 'fiona', 'gleb'].map((name) => ({
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

/** A signed-in shopper that keeps its session cookie between calls. */
async function shopper(email: string) {
  const login = await shop.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email, password: PASSWORD },
  });
  expect(login.statusCode).toBe(200);
  const sid = sidOf(login);
  return async (method: 'GET' | 'POST', url: string, form?: Record<string, string | number>) => {
    const response = await shop.app.inject({
      method,
      url,
      headers: form ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
      payload: form
        ? new URLSearchParams(Object.entries(form).map(([key, value]) => [key, String(value)])).toString()
        : undefined,
      cookies: sid ? { [SESSION_COOKIE]: sid } : {},
    });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  };
}

const recipient = {
  locale: 'ru',
  email: 'anna@example.com',
  firstName: 'Анна',
  lastName: 'Петрова',
  phone: '+7 900 000-00-00',
  country: 'RU',
  city: 'Новосибирск',
  zip: '630099',
  address: 'Красный пр-кт, д.29',
};

/** A shopper (Anna unless told) places an order of one wolf shirt by Russian Post; answers the order and its provider form. */
async function placeOrder(paymentMethod: 'robokassa' | 'paypal' = 'robokassa', email = 'anna@example.com') {
  const send = await shopper(email);
  expect((await send('POST', '/api/basket', { product: fixtures.id('wolf-shirt') })).status).toBe(200);
  const quote = await send('GET', '/api/delivery?method=russian_post&country=RU&zip=630099');
  const placed = await send('POST', '/api/order', {
    ...recipient,
    deliveryMethod: 'russian_post',
    paymentMethod,
  });
  return { send, quote: quote.body, placed };
}

/** Robokassa's ResultURL notification, signed with Password#2 over OutSum exactly as sent. */
function resultNotification(
  invoiceId: number,
  outSum: string,
  password = shop.services.config.payments.robokassa.password2,
) {
  const { hashAlgorithm } = shop.services.config.payments.robokassa;
  return new URLSearchParams({
    OutSum: outSum,
    InvId: String(invoiceId),
    Fee: '0.00',
    EMail: 'anna@example.com',
    SignatureValue: robokassaSignature(hashAlgorithm, [outSum, String(invoiceId), password]),
    PaymentMethod: 'BankCard',
    IncCurrLabel: 'BankCardPSR',
  }).toString();
}

const statusOf = async (orderId: number) =>
  (await shop.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)))[0]?.status;

describe('POST /api/order', () => {
  it('places the order with the delivery quoted on the server, empties the basket and answers the Robokassa form', async () => {
    const { send, quote, placed } = await placeOrder();
    expect(placed.status).toBe(200);
    const { order, payment } = createOrderResponse.parse(placed.body);
    expect(order).toMatchObject({ currency: 'RUB', products_cost: '1990.00', status: 0 });
    expect(Number(order.shipping_cost)).toBe(quote.cost);
    expect(Number(order.amount)).toBeCloseTo(1990 + (quote.cost as number), 2);
    expect(payment.method).toBe('robokassa');
    expect(payment.fields).toMatchObject({
      InvId: String(order.id),
      OutSum: order.amount,
      OutSumCurrency: '',
    });
    expect((await send('GET', '/api/basket?locale=ru')).body).toMatchObject({ productList: [] });
  });

  it('refuses with 409 and the new figures a total that differs from the one shown, charging and taking nothing', async () => {
    const send = await shopper('gleb@example.com');
    const wolf = fixtures.id('wolf-shirt');
    await setStock(shop.db, wolf, 5);
    expect((await send('POST', '/api/basket', { product: wolf })).status).toBe(200);
    const quote = await send('GET', '/api/delivery?method=russian_post&country=RU&zip=630099');
    const total = 1990 + (quote.body.cost as number);
    const order = { ...recipient, deliveryMethod: 'russian_post', locale: 'ru' };
    const refused = await send('POST', '/api/order', { ...order, shownTotal: total - 100 });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      success: false,
      message:
        'Сумма изменилась с тех пор, как страница её показала. Проверьте новые суммы и нажмите «Оплатить» ещё раз.',
      changed: { currency: 'RUB', goods: 1990, delivery: quote.body.cost, total },
    });
    const [stock] = await shop.db
      .select({ quantity: products.quantity })
      .from(products)
      .where(eq(products.id, wolf));
    expect(stock?.quantity).toBe(5);
    expect((await send('GET', '/api/order')).body).toMatchObject({ orders: [] });
    expect((await send('GET', '/api/basket?locale=ru')).body).toMatchObject({ productList: [wolf] });

    const placed = await send('POST', '/api/order', { ...order, shownTotal: total });
    expect(placed.status).toBe(200);
    expect(Number(createOrderResponse.parse(placed.body).payment.fields.OutSum)).toBe(total);
  });

  it('documents shownTotal and the 409 with the new figures in the OpenAPI description', async () => {
    const docs = (await shop.app.inject({ url: '/api/docs/json' })).json();
    const call = docs.paths['/api/order'].post;
    expect(call.requestBody.content['application/json'].schema.properties).toHaveProperty('shownTotal');
    expect(
      call.responses['409'].content['application/json'].schema.properties.changed.properties,
    ).toMatchObject({
      currency: { enum: ['RUB', 'USD'] },
      total: { type: 'number' },
    });
  });

  it('refuses an order from an empty basket and changes nothing', async () => {
    const send = await shopper('boris@example.com');
    const answer = await send('POST', '/api/order', { ...recipient, deliveryMethod: 'russian_post' });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ success: false, message: 'Корзина пуста.' });
  });
});

describe('the answer of POST /api/order', () => {
  it('goes out uncompressed though the browser takes br, a short answer of a write sent in a rush (ADR 0089)', async () => {
    const login = await shop.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'gleb@example.com', password: PASSWORD },
    });
    const cookies = { [SESSION_COOKIE]: sidOf(login) ?? '' };
    const form = { 'content-type': 'application/x-www-form-urlencoded', 'accept-encoding': 'br, gzip' };
    const basket = await shop.app.inject({
      method: 'POST',
      url: '/api/basket',
      headers: form,
      payload: `product=${fixtures.id('wolf-shirt')}`,
      cookies,
    });
    expect(basket.statusCode).toBe(200);
    const placed = await shop.app.inject({
      method: 'POST',
      url: '/api/order',
      headers: form,
      payload: new URLSearchParams({
        ...recipient,
        deliveryMethod: 'russian_post',
        paymentMethod: 'robokassa',
      }).toString(),
      cookies,
    });
    expect(placed.statusCode).toBe(200);
    // Over the threshold the other answers are compressed at.
    expect(placed.body.length).toBeGreaterThan(1024);
    expect(placed.headers['content-encoding']).toBeUndefined();
    expect(createOrderResponse.parse(placed.json()).payment.method).toBe('robokassa');
  });
});

describe('POST /api/order/repeat', () => {
  it("answers which of the order's items did not go back into the basket, and refuses someone else's order", async () => {
    const { send, placed } = await placeOrder('robokassa', 'fiona@example.com');
    const { order } = createOrderResponse.parse(placed.body);
    const wolf = fixtures.id('wolf-shirt');
    const [before] = await shop.db
      .select({ quantity: products.quantity })
      .from(products)
      .where(eq(products.id, wolf));
    await setStock(shop.db, wolf, 0);
    try {
      const repeated = await send('POST', '/api/order/repeat', { order: order.id });
      expect(repeated).toEqual({
        status: 200,
        body: {
          success: true,
          notAdded: [{ id: wolf, name: 'Wolf T-shirt', reason: 'sold-out', ordered: 1, added: 0 }],
        },
      });
      const stranger = await shopper('boris@example.com');
      expect((await stranger('POST', '/api/order/repeat', { order: order.id })).status).toBe(404);
    } finally {
      await setStock(shop.db, wolf, before?.quantity ?? 0);
    }
  });
});

describe('one basket, one order, one unpaid order', () => {
  const stockOf = (productId: number) => productStock(shop.db, productId);
  const ordersOf = (email: string) =>
    shop.db
      .select({ id: orders.id, status: orders.status })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .where(eq(users.email, email));

  it('10 submits of one checkout at once place one order, take the stock once and all answer it', async () => {
    const send = await shopper('carol@example.com');
    const wolf = fixtures.id('wolf-shirt');
    await setStock(shop.db, wolf, 10);
    await send('POST', '/api/basket', { product: wolf });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        send('POST', '/api/order', {
          ...recipient,
          deliveryMethod: 'russian_post',
          checkoutKey: 'carol-basket-1',
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const ids = new Set(answers.map((answer) => createOrderResponse.parse(answer.body).order.id));
    expect(ids.size).toBe(1);
    expect(await ordersOf('carol@example.com')).toHaveLength(1);
    expect(await stockOf(wolf)).toBe(9);
  });

  it('10 submits at once without a key still place one order: the others find the basket empty', async () => {
    const send = await shopper('dmitry@example.com');
    const wolf = fixtures.id('wolf-shirt');
    await setStock(shop.db, wolf, 10);
    await send('POST', '/api/basket', { product: wolf });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        send('POST', '/api/order', { ...recipient, deliveryMethod: 'russian_post' }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 422)).toHaveLength(9);
    expect(await ordersOf('dmitry@example.com')).toHaveLength(1);
    expect(await stockOf(wolf)).toBe(9);
  });

  it('a new order replaces the unpaid one and gives its units back', async () => {
    const send = await shopper('erin@example.com');
    const wolf = fixtures.id('wolf-shirt');
    await setStock(shop.db, wolf, 10);
    await send('POST', '/api/basket', { product: wolf });
    const first = await send('POST', '/api/order', { ...recipient, deliveryMethod: 'russian_post' });
    await send('POST', '/api/basket', { product: wolf });
    const second = await send('POST', '/api/order', { ...recipient, deliveryMethod: 'russian_post' });
    const firstId = createOrderResponse.parse(first.body).order.id;
    const secondId = createOrderResponse.parse(second.body).order.id;
    expect(await statusOf(firstId)).toBe(2);
    expect(await statusOf(secondId)).toBe(0);
    expect(await stockOf(wolf)).toBe(9);
  });

  it('refuses a Boxberry order whose address names no pickup point, as the shipping page does', async () => {
    const send = await shopper('erin@example.com');
    await send('POST', '/api/basket', { product: fixtures.id('wolf-shirt') });
    const refused = await send('POST', '/api/order', { ...recipient, deliveryMethod: 'boxberry' });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      success: false,
      errors: { address: [expect.stringMatching(/пункт выдачи/i)] },
    });
    const placed = await send('POST', '/api/order', {
      ...recipient,
      deliveryMethod: 'boxberry',
      address: 'Пункт выдачи: Красный пр-кт, д.29',
      pickupPointCode: '54009',
    });
    expect(placed.status).toBe(200);
  });

  describe('the chosen pickup point', () => {
    const pickup = { ...recipient, deliveryMethod: 'boxberry', address: 'Пункт выдачи: Красный пр-кт, д.29' };
    const ordersTo = async (email: string) =>
      (await shop.db.select({ id: orders.id }).from(orders).where(eq(orders.email, email))).length;

    it("is required of a Boxberry order, and a code that is not one is refused in the shopper's language; no order is written", async () => {
      const send = await shopper('fiona@example.com');
      await send('POST', '/api/basket', { product: fixtures.id('wolf-shirt') });
      const withoutCode = await send('POST', '/api/order', { ...pickup, email: 'point-refused@example.com' });
      expect(withoutCode.status).toBe(422);
      expect(withoutCode.body).toMatchObject({
        errors: { address: [expect.stringMatching(/пункт выдачи/i)] },
      });
      for (const [locale, text] of [
        ['ru', /пункт выдачи не найден/i],
        ['en', /pickup point cannot be found/i],
      ] as const) {
        const badCode = await send('POST', '/api/order', {
          ...pickup,
          email: 'point-refused@example.com',
          locale,
          pickupPointCode: '54009; drop table',
        });
        expect(badCode.status).toBe(422);
        expect(badCode.body).toMatchObject({ errors: { pickupPointCode: [expect.stringMatching(text)] } });
      }
      expect(await ordersTo('point-refused@example.com')).toBe(0);
    });

    it('is quoted and kept with the order; the nearest point is quoted until one is chosen', async () => {
      const send = await shopper('gleb@example.com');
      await send('POST', '/api/basket', { product: fixtures.id('wolf-shirt') });
      boxberry.clearRequests();
      const beforeChoosing = await send('GET', '/api/delivery?method=boxberry&country=RU&zip=630005');
      const chosen = await send(
        'GET',
        '/api/delivery?method=boxberry&country=RU&zip=630005&pickupPointCode=54009',
      );
      expect(beforeChoosing.status).toBe(200);
      expect(chosen.status).toBe(200);
      const targets = boxberry
        .requests()
        .filter((query) => query.method === 'DeliveryCosts')
        .map((query) => query.target);
      // 630005 is the Gogolya street point's own postcode: the nearest, unless another is chosen.
      expect(targets).toEqual(['54021', '54009']);
      expect(boxberry.requests().filter((query) => query.method === 'PointsByPostCode')).toHaveLength(1);

      const placed = await send('POST', '/api/order', {
        ...pickup,
        zip: '630005',
        email: 'gleb@example.com',
        pickupPointCode: '54009',
      });
      expect(placed.status).toBe(200);
      const { order } = createOrderResponse.parse(placed.body);
      const [row] = await shop.db
        .select({ pickupPointCode: orders.pickupPointCode, deliveryCost: orders.deliveryCost })
        .from(orders)
        .where(eq(orders.id, order.id));
      expect(row).toEqual({ pickupPointCode: '54009', deliveryCost: Number(chosen.body.cost) * 100 });
    });

    it('is not kept for a courier or Russian Post order', async () => {
      const send = await shopper('dmitry@example.com');
      await send('POST', '/api/basket', { product: fixtures.id('wolf-shirt') });
      const placed = await send('POST', '/api/order', {
        ...recipient,
        email: 'dmitry@example.com',
        deliveryMethod: 'russian_post',
        pickupPointCode: '54021',
      });
      expect(placed.status).toBe(200);
      const { order } = createOrderResponse.parse(placed.body);
      const [row] = await shop.db
        .select({ pickupPointCode: orders.pickupPointCode })
        .from(orders)
        .where(eq(orders.id, order.id));
      expect(row?.pickupPointCode).toBeNull();
    });
  });
});

describe('POST /api/robokassa/result', () => {
  it('records a notification posted as a form and answers OK{InvId}', async () => {
    const { placed } = await placeOrder();
    const { order } = createOrderResponse.parse(placed.body);
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/robokassa/result',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: resultNotification(order.id, `${order.amount}0000`),
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(`OK${order.id}`);
    expect(await statusOf(order.id)).toBe(1);
  });

  it('pays the order on the genuine notification that follows one with the wrong amount, and answers its replay', async () => {
    const { placed } = await placeOrder();
    const { order } = createOrderResponse.parse(placed.body);
    const notify = (outSum: string) =>
      shop.app.inject({
        method: 'POST',
        url: '/api/robokassa/result',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: resultNotification(order.id, outSum),
      });
    const wrong = await notify('1.00');
    expect(wrong.statusCode).toBe(400);
    expect(await statusOf(order.id)).toBe(0);
    const right = await notify(order.amount);
    expect(right.body).toBe(`OK${order.id}`);
    expect(await statusOf(order.id)).toBe(1);
    const replay = await notify(order.amount);
    expect(replay.body).toBe(`OK${order.id}`);
    expect(await statusOf(order.id)).toBe(1);
  });

  it('refuses a forged notification and leaves the order unpaid', async () => {
    const { placed } = await placeOrder();
    const { order } = createOrderResponse.parse(placed.body);
    const response = await shop.app.inject({
      method: 'POST',
      url: '/api/robokassa/result',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: resultNotification(order.id, `${order.amount}0000`, 'not-the-password'),
    });
    expect(response.statusCode).toBe(400);
    expect(await statusOf(order.id)).toBe(0);
  });
});

describe('POST /api/paypal/status', () => {
  it("answers the state of the shopper's own order and nobody else's", async () => {
    const { send, placed } = await placeOrder('paypal');
    const { order } = createOrderResponse.parse(placed.body);
    expect((await send('POST', '/api/paypal/status', { order: order.id })).body).toMatchObject({
      success: true,
      status: 0,
      order: order.id,
    });
    const stranger = await shopper('boris@example.com');
    const probe = await stranger('POST', '/api/paypal/status', { order: order.id });
    expect(probe.status).toBe(422);
    expect(probe.body).toMatchObject({ success: false });
    expect(probe.body).not.toHaveProperty('status');
    const guest = await shop.app.inject({
      method: 'POST',
      url: '/api/paypal/status',
      payload: { order: order.id },
    });
    expect(guest.statusCode).toBe(422);
  });
});

describe('POST /api/paypal/webhook', () => {
  it('refuses with 400 a body that is no verified PayPal event: JSON without its headers, a form', async () => {
    for (const [type, payload] of [
      ['application/json', '{"event_type":"PAYMENT.CAPTURE.COMPLETED"}'],
      ['application/x-www-form-urlencoded', 'order=1&txn_id=abc'],
      ['text/plain', 'hello'],
    ]) {
      const answer = await shop.app.inject({
        method: 'POST',
        url: '/api/paypal/webhook',
        headers: { 'content-type': type as string },
        payload,
      });
      expect([400, 415], type).toContain(answer.statusCode);
    }
  });
});

describe('POST /api/paypal/cancel', () => {
  it("cancels the shopper's unpaid order and the catalogue shows its stock back at once", async () => {
    const inStock = async () =>
      (
        (await shop.app.inject({ method: 'GET', url: '/api/product?locale=en&link=wolf-shirt' })).json() as {
          product: { inStock: number };
        }
      ).product.inStock;
    const before = await inStock();
    // Boris: Anna's next order would replace her unpaid one and give its unit back meanwhile.
    const { send, placed } = await placeOrder('paypal', 'boris@example.com');
    const { order } = createOrderResponse.parse(placed.body);
    expect(await inStock()).toBe(before - 1);
    const cancelled = await send('POST', '/api/paypal/cancel', { order: order.id });
    expect(cancelled.body).toMatchObject({ success: true, status: 1, order: order.id });
    expect(await statusOf(order.id)).toBe(2);
    expect(await inStock()).toBe(before);
  });
});
