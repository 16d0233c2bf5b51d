import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToBasket } from '../cart/service.ts';
import { type Config, loadConfig } from '../config.ts';
import type { DatabaseConnection } from '../db/client.ts';
import { createOrder, findOrder } from '../orders/service.ts';
import { robokassaSignature } from '../providers/robokassa.ts';
import { createRobokassaSimulator } from '../providers/simulators/robokassa.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { createTestDatabase } from '../testing/database.ts';
import { newShopper, orderInput } from '../testing/orders.ts';
import { cancelPageState, cancelPayment, paymentStatus, unpaidOrder } from './payments.ts';

/**
 * The way back from a provider: the payment page's unpaid order, the cancel page that never cancels
 * on arrival, and a payment Robokassa declined, against Robokassa's sandbox.
 */

let connection: DatabaseConnection;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
let sandbox: FastifyInstance;
let config: Config;

beforeAll(async () => {
  connection = await createTestDatabase();
  fixtures = await insertCatalogue(connection.db);
  const defaults = loadConfig({ TEST_MODE: 'true', PUBLIC_URL: 'http://shop.test' });
  const simulator = createRobokassaSimulator(
    {
      ...defaults.payments.robokassa,
      resultUrl: 'http://127.0.0.1:9/api/robokassa/result',
      successUrl: 'http://shop.test/order/result/robokassa',
      failUrl: 'http://shop.test/order/cancel/robokassa',
    },
    { retryDelaysMs: [] },
  );
  sandbox = Fastify();
  await sandbox.register(simulator.plugin);
  const base = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  config = loadConfig({
    TEST_MODE: 'true',
    PUBLIC_URL: 'http://shop.test',
    ROBOKASSA_URL: `${base}/sandbox/robokassa`,
    ROBOKASSA_OPSTATE_URL: `${base}/sandbox/robokassa/opstate`,
  });
});
afterAll(async () => {
  await sandbox?.close();
  await connection?.close();
});

async function placedOrder(locale: 'ru' | 'en' = 'en') {
  const user = await newShopper(connection.db);
  await addToBasket(connection.db, { userId: user.id }, fixtures.id('wolf-shirt'));
  const input = orderInput({ locale, email: user.email });
  const order = await createOrder(connection.db, user.id, input, {
    deliveryCost: 350_00,
    usdRate: 91,
    expiresMinutes: 60,
  });
  return { userId: user.id, order };
}

/** The shopper on Robokassa's sandbox page presses one of its buttons; answers where it sends them. */
async function leaveSandboxWith(button: 'fail' | 'cancel', placed: Awaited<ReturnType<typeof placedOrder>>) {
  const { url, fields } =
    (await unpaidOrder(connection.db, config, placed.userId, placed.order.id, 'en'))?.payment ?? {};
  if (!url || !fields) throw new Error('not payable');
  const page = await (await fetch(url, { method: 'POST', body: new URLSearchParams(fields) })).text();
  const hidden = Object.fromEntries(
    [...page.matchAll(/name="(invoice|mac)" value="([^"]*)"/g)].map((match) => [match[1], match[2]]),
  );
  const answer = await fetch(`${url}/${button}`, {
    method: 'POST',
    body: new URLSearchParams(hidden as Record<string, string>),
    redirect: 'manual',
  });
  expect(answer.status).toBe(303);
  return Object.fromEntries(new URL(answer.headers.get('location') ?? '').searchParams);
}

describe('the unpaid order the payment page shows', () => {
  it('has its items, amounts in roubles with the rate kept, expiry and a provider form in the shopper’s language', async () => {
    const { userId, order } = await placedOrder('en');
    const unpaid = await unpaidOrder(connection.db, config, userId, order.id, 'en');
    // Robokassa charges roubles whatever the language (ADR 0051); the rate stays for the "≈ $" guide.
    expect(unpaid?.order).toMatchObject({ id: order.id, currency: 'RUB', usd_rate: 91, status: 0 });
    expect(unpaid?.order.products.map((item) => item.count)).toEqual([1]);
    expect(unpaid?.expires).toBe(order.expiresAt.toISOString());
    expect(unpaid?.payment.fields).toMatchObject({
      InvId: String(order.id),
      OutSumCurrency: '',
      Culture: 'en',
      Desc: `Shop. Order #${order.id} Invoice`,
    });
  });

  it('describes the invoice in Russian to a Russian shopper', async () => {
    const { userId, order } = await placedOrder('ru');
    const unpaid = await unpaidOrder(connection.db, config, userId, order.id, 'ru');
    expect(unpaid?.payment.fields.Desc).toBe(`Магазин. Счёт к заказу №${order.id}`);
  });

  it('is nobody else’s, and gone once the order is cancelled or past its expiry', async () => {
    const { userId, order } = await placedOrder();
    await expect(unpaidOrder(connection.db, config, userId + 1000, order.id, 'en')).rejects.toMatchObject({
      status: 404,
    });
    const later = new Date(order.expiresAt.getTime() + 1000);
    expect(await unpaidOrder(connection.db, config, userId, order.id, 'en', later)).toBeNull();
    await cancelPayment(connection.db, 'robokassa', { InvId: String(order.id) }, userId);
    expect(await unpaidOrder(connection.db, config, userId, order.id, 'en')).toBeNull();
  });
});

describe('the cancel page', () => {
  it('only shows the order with its confirmation on arrival; the confirmation cancels it', async () => {
    const { userId, order } = await placedOrder();
    const arrival = await cancelPageState(
      connection.db,
      config,
      'paypal',
      { order: String(order.id) },
      userId,
      'en',
    );
    expect(arrival).toMatchObject({ status: 0, order: order.id, declined: false });
    expect(arrival.unpaid?.order.id).toBe(order.id);
    expect((await findOrder(connection.db, order.id))?.status).toBe(0);

    expect(await cancelPayment(connection.db, 'paypal', { order: String(order.id) }, userId)).toEqual({
      status: 1,
      order: order.id,
    });
    expect((await findOrder(connection.db, order.id))?.status).toBe(2);
    // Coming back to the same link afterwards says it was cancelled.
    const again = await cancelPageState(
      connection.db,
      config,
      'paypal',
      { order: String(order.id) },
      userId,
      'en',
    );
    expect(again).toMatchObject({ status: 1, unpaid: null });
  });

  it('shows another shopper’s order to nobody and cancels nothing', async () => {
    const { userId, order } = await placedOrder();
    const stranger = await cancelPageState(
      connection.db,
      config,
      'robokassa',
      { InvId: String(order.id) },
      userId + 1000,
      'en',
    );
    expect(stranger).toMatchObject({ status: -1, unpaid: null });
    expect((await findOrder(connection.db, order.id))?.status).toBe(0);
  });

  it('says the payment was declined once Robokassa reports it refused or cancelled, and not before', async () => {
    const declined = await placedOrder();
    const failReturn = await leaveSandboxWith('fail', declined);
    expect(failReturn).toMatchObject({ InvId: String(declined.order.id), Culture: 'en' });
    expect(
      await cancelPageState(connection.db, config, 'robokassa', failReturn, declined.userId, 'en'),
    ).toMatchObject({ status: 0, declined: true });
    expect((await findOrder(connection.db, declined.order.id))?.status).toBe(0);

    const walkedAway = await placedOrder();
    const cancelReturn = await leaveSandboxWith('cancel', walkedAway);
    // Robokassa reports both as not paid (10 cancelled, 60 refused): either is a declined payment.
    expect(
      await cancelPageState(connection.db, config, 'robokassa', cancelReturn, walkedAway.userId, 'en'),
    ).toMatchObject({ status: 0, declined: true });

    const notAsked = await placedOrder();
    expect(
      await cancelPageState(
        connection.db,
        config,
        'robokassa',
        { InvId: String(notAsked.order.id) },
        notAsked.userId,
        'en',
      ),
    ).toMatchObject({ status: 0, declined: false });
  });
});

describe('the result page', () => {
  it('reports a payment Robokassa declined as declined', async () => {
    const placed = await placedOrder();
    const { userId, order } = placed;
    const outSum =
      (await unpaidOrder(connection.db, config, userId, order.id, 'en'))?.payment.fields.OutSum ?? '';
    await leaveSandboxWith('fail', placed);
    const { hashAlgorithm, password1 } = config.payments.robokassa;
    const signature = robokassaSignature(hashAlgorithm, [outSum, String(order.id), password1]);
    expect(
      await paymentStatus(
        connection.db,
        config,
        'robokassa',
        { OutSum: outSum, InvId: String(order.id), SignatureValue: signature },
        userId,
      ),
    ).toEqual({ status: -1, order: order.id, declined: true });
  });
});
