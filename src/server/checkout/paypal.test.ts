import { eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToBasket, setBasketCount } from '../cart/service.ts';
import { type Config, loadConfig } from '../config.ts';
import type { DatabaseConnection } from '../db/client.ts';
import { paymentTransactions } from '../db/schema.ts';
import { createOrder, findOrder, paymentAmounts } from '../orders/service.ts';
import { createPaypalSimulator, type PaypalSimulator } from '../providers/simulators/paypal.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { createTestDatabase } from '../testing/database.ts';
import { newShopper, orderInput } from '../testing/orders.ts';
import { setStock } from '../testing/stock.ts';
import { temporaryFolder } from '../testing/temporary-folder.ts';
import { paymentStatus } from './payments.ts';
import { handlePaypalWebhook, startPaypalCheckout } from './paypal.ts';

/**
 * PayPal Orders v2 for our orders, through the simulator over HTTP: the shop's client calls it, and
 * its signed webhooks reach the shop's own handler (ADR 0052).
 */

let connection: DatabaseConnection;
const dataDir = temporaryFolder('data');
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
let providers: FastifyInstance;
let paypal: PaypalSimulator;
let config: Config;
let providersUrl: string;
const outcomes: string[] = [];
/** While set, the shop does not answer (its webhooks fail). */
const shopDown = false;
const SHOP = 'http://shop.test';

const shopReceives: typeof fetch = async (_input, init) => {
  if (shopDown) return new Response('', { status: 503 });
  const body = String(init?.body ?? '');
  const headers = Object.fromEntries(new Headers(init?.headers).entries());
  const outcome = await handlePaypalWebhook(connection.db, config, headers, body);
  outcomes.push(outcome);
  return new Response('', { status: outcome === 'invalid' ? 400 : 200 });
};

beforeAll(async () => {
  connection = await createTestDatabase();
  fixtures = await insertCatalogue(connection.db);
  const sandbox = loadConfig({ NODE_ENV: 'test' }).payments;
  paypal = createPaypalSimulator(
    { ...sandbox.paypal, shopUrl: SHOP, webhookUrl: `${SHOP}/api/paypal/webhook` },
    { fetchImpl: shopReceives, retryDelaysMs: [] },
  );
  providers = Fastify();
  await providers.register(paypal.plugin);
  providersUrl = await providers.listen({ port: 0, host: '127.0.0.1' });
  config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir.path,
    PUBLIC_URL: SHOP,
    PAYPAL_API_URL: `${providersUrl}/sandbox/paypal`,
  });
});
afterAll(async () => {
  await providers?.close();
  await connection?.close();
  dataDir.remove();
});

/** A shopper's unpaid PayPal order of two wolf shirts, in the interface language given. */
async function placed(locale: 'ru' | 'en', usdRate = 91.37) {
  const { db } = connection;
  const user = await newShopper(db);
  const wolf = fixtures.id('wolf-shirt');
  await setStock(db, wolf, 10);
  await addToBasket(db, { userId: user.id }, wolf);
  await setBasketCount(db, { userId: user.id }, wolf, 2);
  const order = await createOrder(
    db,
    user.id,
    orderInput({ locale, paymentMethod: 'paypal', email: user.email }),
    {
      deliveryCost: 350_00,
      usdRate,
      expiresMinutes: 60,
    },
  );
  return { order, userId: user.id };
}

const approve = (approveUrl: string, action: 'approve' | 'cancel' = 'approve') =>
  fetch(`${providersUrl}/sandbox/paypal/checkoutnow/${action}`, {
    method: 'POST',
    body: new URLSearchParams({ token: new URL(approveUrl).searchParams.get('token') ?? '' }),
    redirect: 'manual',
  });

const paymentsOf = (orderId: number) =>
  connection.db.select().from(paymentTransactions).where(eq(paymentTransactions.orderId, orderId));

describe('PayPal Orders v2 checkout', () => {
  it('charges a Russian shopper in dollars, line by line as the page showed them', async () => {
    const { order, userId } = await placed('ru');
    expect(order.currency).toBe('USD');
    const approveUrl = await startPaypalCheckout(connection.db, config, userId, order.id);
    const paypalOrder = [...paypal.state.orders.values()].at(-1);
    expect((await findOrder(connection.db, order.id))?.paypalOrderId).toBe(paypalOrder?.id);
    expect(paypalOrder).toMatchObject({ invoiceId: String(order.id), currency: 'USD', locale: 'ru-RU' });
    const amounts = paymentAmounts(order);
    expect(paypalOrder?.totalMinor).toBe(amounts.totalMinor);
    expect(paypalOrder?.items.map((item) => item.unitMinor * item.quantity)).toEqual([order.productsAmount]);
    expect(paypalOrder?.items[0]?.quantity).toBe(2);
    // "Pay now" again: the same PayPal order.
    expect(await startPaypalCheckout(connection.db, config, userId, order.id)).toBe(approveUrl);
  });

  it('pays on return: the result check captures the approved order and records the verified capture once', async () => {
    const { order, userId } = await placed('en');
    const approveUrl = await startPaypalCheckout(connection.db, config, userId, order.id);
    expect(await paymentStatus(connection.db, config, 'paypal', { order: String(order.id) }, userId)).toEqual(
      {
        status: 0,
        order: order.id,
      },
    );
    // The shopper approves; the webhook is not delivered (the shop is unreachable at that moment).
    const webhooks = paypal.state.webhooks.length;
    const response = await approve(approveUrl);
    expect(response.headers.get('location')).toContain(`/order/result/paypal?order=${order.id}`);
    await paypal.state.settled();
    expect(paypal.state.webhooks.slice(webhooks).map((webhook) => webhook.eventType)).toEqual([
      'CHECKOUT.ORDER.APPROVED',
      'PAYMENT.CAPTURE.COMPLETED',
    ]);
    expect(outcomes.slice(-2)).toEqual(['paid', 'duplicate']);
    expect(await paymentStatus(connection.db, config, 'paypal', { order: String(order.id) }, userId)).toEqual(
      {
        status: 1,
        order: order.id,
      },
    );
    const [payment] = await paymentsOf(order.id);
    expect(payment).toMatchObject({
      kind: 'payment',
      provider: 'paypal',
      amount: paymentAmounts(order).totalMinor,
      currency: 'USD',
      accepted: true,
    });
    expect(await paymentsOf(order.id)).toHaveLength(1);
  });

  it('pays an order whose shopper never came back, from the approval webhook; replays change nothing', async () => {
    const { order, userId } = await placed('en');
    const approveUrl = await startPaypalCheckout(connection.db, config, userId, order.id);
    await approve(approveUrl);
    await paypal.state.settled();
    expect((await findOrder(connection.db, order.id))?.status).toBe(1);
    const completed = paypal.state.webhooks
      .filter((webhook) => webhook.eventType === 'PAYMENT.CAPTURE.COMPLETED')
      .at(-1);
    await paypal.state.replay(completed as NonNullable<typeof completed>);
    expect(outcomes.at(-1)).toBe('duplicate');
    expect(await paymentsOf(order.id)).toHaveLength(1);
  });

  it('refuses forged and altered webhooks and changes nothing', async () => {
    const { order, userId } = await placed('en');
    const approveUrl = await startPaypalCheckout(connection.db, config, userId, order.id);
    const paypalOrderId = new URL(approveUrl).searchParams.get('token') ?? '';
    const forged = await paypal.state.sendWebhook(
      'PAYMENT.CAPTURE.COMPLETED',
      {
        id: 'FORGED0CAPTURE',
        status: 'COMPLETED',
        amount: { currency_code: 'USD', value: paymentAmounts(order).total },
        invoice_id: String(order.id),
        supplementary_data: { related_ids: { order_id: paypalOrderId } },
      },
      { forge: true },
    );
    expect(forged.attempts.at(-1)?.status).toBe(400);
    expect(outcomes.at(-1)).toBe('invalid');
    const altered = await handlePaypalWebhook(
      connection.db,
      config,
      paypal.state.webhooks.at(-2)?.headers ?? {},
      forged.body,
    );
    expect(altered).toBe('invalid');
    expect((await findOrder(connection.db, order.id))?.status).toBe(0);
    expect(await paymentsOf(order.id)).toEqual([]);
  });

  it('leaves an order the shopper cancelled at PayPal unpaid', async () => {
    const { order, userId } = await placed('ru');
    const approveUrl = await startPaypalCheckout(connection.db, config, userId, order.id);
    const response = await approve(approveUrl, 'cancel');
    expect(response.headers.get('location')).toContain(`/order/cancel/paypal?order=${order.id}`);
    expect(await paymentStatus(connection.db, config, 'paypal', { order: String(order.id) }, userId)).toEqual(
      {
        status: 0,
        order: order.id,
      },
    );
  });

  it('refuses a PayPal order with a clear 422 when no dollar rate is known', async () => {
    await expect(placed('ru', 0)).rejects.toMatchObject({
      status: 422,
      intlError: 'paypal-needs-dollar-rate',
    });
  });
});
