import { createHash } from 'node:crypto';
import fastifyFormbody from '@fastify/formbody';
import { and, eq, sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minorToKopecks, unitsRefundAmount } from '../../contract/money.ts';
import { refundCancelReason } from '../../contract/status-reasons.ts';
import { addToBasket, enterBasketPromo, setBasketCount } from '../cart/service.ts';
import { importProductsCsv } from '../catalog/products-csv/import.ts';
import { changeStock } from '../catalog/stock.ts';
import { handleRobokassaResult, paymentFormOf } from '../checkout/payments.ts';
import { handlePaypalWebhook, startPaypalCheckout } from '../checkout/paypal.ts';
import { type Config, loadConfig } from '../config.ts';
import type { DatabaseConnection } from '../db/client.ts';
import {
  jobs,
  mails,
  orderItems,
  orderStatusHistory,
  orders,
  paymentTransactions,
  products,
  productVariants,
  promoCodes,
  stockMovements,
  users,
} from '../db/schema.ts';
import { Conflict } from '../errors.ts';
import { createPaypalSimulator, type PaypalSimulator } from '../providers/simulators/paypal.ts';
import { createRobokassaSimulator, type RobokassaSimulator } from '../providers/simulators/robokassa.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { createTestDatabase } from '../testing/database.ts';
import { newShopper, orderInput } from '../testing/orders.ts';
import { setStock } from '../testing/stock.ts';
import { temporaryFolder } from '../testing/temporary-folder.ts';
import { defaultVariantId, giveProductOptions } from '../testing/variants.ts';
import { moveOrderStatus } from './lifecycle.ts';
import { orderReceipts, SETTLEMENT_RECEIPT_JOB, settlementReceiptHandler } from './receipts.ts';
import { refundForUnits } from './refund-amounts.ts';
import { orderTransactions, refreshRefund, refundOrder } from './refunds.ts';
import { cancelOrder, createOrder, findOrder, type OrderRow, paymentAmounts } from './service.ts';
import { ORDER_STATUS } from './status.ts';

/**
 * Refunds end to end through the providers' simulators over HTTP: the shop's real clients call
 * them, and their callbacks (ResultURL, IPN) reach the shop's own handlers.
 */

let connection: DatabaseConnection;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
let providers: FastifyInstance;
let robokassa: RobokassaSimulator;
let paypal: PaypalSimulator;
let config: Config;
let staffId: number;
const dataDir = temporaryFolder('data');
const webhookOutcomes: string[] = [];
let providersUrl: string;
const SHOP = 'http://shop.test';

/** The simulators' calls to the shop, answered by the shop's own notification handlers. */
const shopReceives: typeof fetch = async (input, init) => {
  const url = new URL(String(input));
  const body = String(init?.body ?? '');
  if (url.pathname === '/api/robokassa/result') {
    const result = await handleRobokassaResult(
      connection.db,
      config,
      Object.fromEntries(new URLSearchParams(body)),
    );
    return new Response(result.ok ? result.answer : result.reason, { status: result.ok ? 200 : 400 });
  }
  if (url.pathname === '/api/paypal/webhook') {
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const outcome = await handlePaypalWebhook(connection.db, config, headers, body);
    webhookOutcomes.push(outcome);
    return new Response('', { status: outcome === 'invalid' ? 400 : 200 });
  }
  return new Response('not found', { status: 404 });
};

beforeAll(async () => {
  connection = await createTestDatabase();
  fixtures = await insertCatalogue(connection.db);
  const sandbox = loadConfig({ NODE_ENV: 'test' }).payments;
  robokassa = createRobokassaSimulator(
    {
      ...sandbox.robokassa,
      resultUrl: `${SHOP}/api/robokassa/result`,
      successUrl: `${SHOP}/order/result/robokassa`,
      failUrl: `${SHOP}/order/cancel/robokassa`,
    },
    { fetchImpl: shopReceives, retryDelaysMs: [] },
  );
  paypal = createPaypalSimulator(
    { ...sandbox.paypal, shopUrl: SHOP, webhookUrl: `${SHOP}/api/paypal/webhook` },
    { fetchImpl: shopReceives, retryDelaysMs: [] },
  );
  providers = Fastify();
  await providers.register(fastifyFormbody);
  await providers.register(robokassa.plugin);
  await providers.register(paypal.plugin);
  providersUrl = await providers.listen({ port: 0, host: '127.0.0.1' });
  const base = `${providersUrl}/sandbox`;
  config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir.path,
    PUBLIC_URL: SHOP,
    ROBOKASSA_URL: `${base}/robokassa`,
    ROBOKASSA_OPSTATE_URL: `${base}/robokassa/opstate`,
    ROBOKASSA_REFUND_URL: `${base}/robokassa/refund/create`,
    ROBOKASSA_REFUND_STATE_URL: `${base}/robokassa/refund/state`,
    ROBOKASSA_SECOND_RECEIPT_URL: `${base}/robokassa/receipt/attach`,
    PAYPAL_API_URL: `${base}/paypal`,
  });
  const [staff] = await connection.db
    .insert(users)
    .values({ email: 'manager@example.com', passwordHash: '', role: 'admin', emailVerifiedAt: new Date() })
    .returning();
  staffId = staff?.id as number;
});
afterAll(async () => {
  await providers?.close();
  await connection?.close();
  dataDir.remove();
});

const quantityOf = async (productId: number) =>
  (await connection.db.select().from(products).where(eq(products.id, productId)))[0]?.quantity;

/** A shopper buys wolf shirts (two, or `shirts`), with a promo code when given, and pays on the provider's page. */
async function paidOrder(
  paymentMethod: 'robokassa' | 'paypal',
  locale: 'ru' | 'en' = 'ru',
  options: { shirts?: number; promoCode?: string } = {},
) {
  const { db } = connection;
  const user = await newShopper(db);
  const userId = user.id;
  const wolf = fixtures.id('wolf-shirt');
  await setStock(db, wolf, 10);
  await addToBasket(db, { userId }, wolf);
  await setBasketCount(db, { userId }, wolf, options.shirts ?? 2);
  if (options.promoCode) await enterBasketPromo(db, { userId }, options.promoCode);
  const input = orderInput({ locale, paymentMethod, email: user.email });
  const placed = await createOrder(db, userId, input, {
    deliveryCost: 350_00,
    usdRate: 90,
    expiresMinutes: 60,
  });
  if (paymentMethod === 'paypal') {
    // The shopper approves on PayPal's page; its webhook makes the shop capture the order.
    const approve = new URL(await startPaypalCheckout(db, config, userId, placed.id));
    const token = approve.searchParams.get('token') ?? '';
    await fetch(`${providersUrl}/sandbox/paypal/checkoutnow/approve`, {
      method: 'POST',
      body: new URLSearchParams({ token }),
      redirect: 'manual',
    });
    await paypal.state.settled();
    const order = await findOrder(db, placed.id);
    expect(order?.status).toBe(1);
    return { order: order as NonNullable<typeof order>, wolf, shirt: await defaultVariantId(db, wolf) };
  }
  const order = await payAtProvider(placed.id);
  return { order, wolf, shirt: await defaultVariantId(db, wolf) };
}

/** The shopper posts the order's Robokassa form and presses Pay there; answers the order, now paid. */
async function payAtProvider(orderId: number) {
  const { db } = connection;
  const form = await paymentFormOf(db, config, (await findOrder(db, orderId)) as NonNullable<OrderRow>);
  const page = await fetch(form.url, { method: 'POST', body: new URLSearchParams(form.fields) });
  const html = await page.text();
  expect(page.status).toBe(200);
  const sealed = 'invoice';
  const hidden = new URLSearchParams({
    [sealed]: new RegExp(`name="${sealed}" value="([^"]+)"`).exec(html)?.[1] ?? '',
    mac: /name="mac" value="([^"]+)"/.exec(html)?.[1] ?? '',
  });
  await fetch(`${form.url}/pay`, { method: 'POST', body: hidden, redirect: 'manual' });
  const order = await findOrder(db, orderId);
  expect(order?.status).toBe(1);
  return order as NonNullable<typeof order>;
}

const refundsOf = (orderId: number) =>
  connection.db
    .select()
    .from(paymentTransactions)
    .where(and(eq(paymentTransactions.orderId, orderId), eq(paymentTransactions.kind, 'refund')));
const refundMails = (to: string) =>
  connection.db
    .select()
    .from(mails)
    .where(and(eq(mails.to, to), eq(mails.template, 'order-refunded')));
const statusOf = async (orderId: number) => (await findOrder(connection.db, orderId))?.status;
/** The reason the order's cancellation keeps in its status history. */
const cancellationReasonOf = async (orderId: number) =>
  (
    await connection.db
      .select({ reason: orderStatusHistory.reason })
      .from(orderStatusHistory)
      .where(
        and(eq(orderStatusHistory.orderId, orderId), eq(orderStatusHistory.status, ORDER_STATUS.cancelled)),
      )
  ).map((row) => row.reason);
/** Staff's words when a refund of all that is left cancels the order. */
const WHY = 'Шов разошёлся: нового размера нет';
const receiptsOf = (orderId: number) => orderReceipts(connection.db, orderId);

describe('refunds through Robokassa', () => {
  it('refunds the whole payment: the order is cancelled, the chosen units go back, the buyer is told in Russian', async () => {
    const { order, wolf, shirt } = await paidOrder('robokassa');
    const before = await quantityOf(wolf);
    const refund = await refundOrder(connection.db, config, {
      orderId: order.id,
      restock: [{ variantId: shirt, count: 2 }],
      reason: `  ${WHY} `,
      staffId,
    });
    expect(refund).toMatchObject({
      kind: 'refund',
      providerStatus: 'finished',
      amount: order.productsCost + order.deliveryCost,
      createdBy: staffId,
      accepted: true,
      restock: [{ variantId: shirt, count: 2 }],
    });
    expect(robokassa.state.refunds.get(refund.externalId)).toMatchObject({
      amountMinor: order.productsCost + order.deliveryCost,
      label: 'finished',
    });
    expect(await statusOf(order.id)).toBe(2);
    expect(await quantityOf(wolf)).toBe((before as number) + 2);
    const [mail] = await refundMails(order.email);
    expect(mail?.locale).toBe('ru');
    expect(mail?.subject).toMatch(new RegExp(`^Возврат денег по заказу №\\s?${order.id}$`));
    expect(mail?.text).toContain('Заказ отменён');
    // Staff's words, trimmed: in the status history and quoted in the customer's mail.
    expect(await cancellationReasonOf(order.id)).toEqual([refundCancelReason('robokassa', WHY)]);
    expect(mail?.text).toContain('Причина, которую указал магазин:');
    expect(mail?.text).toContain(WHY);
  });

  it('refuses to refund all that is left without a reason: nothing recorded, no provider asked', async () => {
    const { order, wolf, shirt } = await paidOrder('robokassa');
    const before = await quantityOf(wolf);
    const asked = robokassa.state.refunds.size;
    const total = order.productsCost + order.deliveryCost;
    for (const request of [
      { restock: [{ variantId: shirt, count: 2 }] },
      { amountMinor: total, restock: [], reason: '   ' },
    ]) {
      await expect(
        refundOrder(connection.db, config, { orderId: order.id, staffId, ...request }),
      ).rejects.toMatchObject({
        status: 422,
        intlError: 'refund-cancel-reason-required',
        errors: { reason: ['refund-cancel-reason-required'] },
      });
    }
    expect(robokassa.state.refunds.size).toBe(asked);
    expect(await refundsOf(order.id)).toEqual([]);
    expect(await statusOf(order.id)).toBe(1);
    expect(await quantityOf(wolf)).toBe(before);
    expect(await refundMails(order.email)).toEqual([]);
    // A part leaves the order as it is and asks for no reason; the rest then does.
    await refundOrder(connection.db, config, {
      orderId: order.id,
      amountMinor: 100_00,
      restock: [],
      staffId,
    });
    await expect(
      refundOrder(connection.db, config, {
        orderId: order.id,
        amountMinor: total - 100_00,
        restock: [],
        staffId,
      }),
    ).rejects.toMatchObject({ status: 422, intlError: 'refund-cancel-reason-required' });
    expect(await refundsOf(order.id)).toHaveLength(1);
    expect(await statusOf(order.id)).toBe(1);
    const [partMail] = await refundMails(order.email);
    expect(partMail?.text).not.toContain('Причина');
  });

  it('refunds part, then the rest with a restock: the order stays paid until the last kopeck is back', async () => {
    const { order, wolf, shirt } = await paidOrder('robokassa');
    const before = (await quantityOf(wolf)) as number;
    await refundOrder(connection.db, config, {
      orderId: order.id,
      amountMinor: 500_00,
      restock: [],
      staffId,
    });
    expect(await statusOf(order.id)).toBe(1);
    expect(await quantityOf(wolf)).toBe(before);
    const rest = await refundOrder(connection.db, config, {
      orderId: order.id,
      restock: [{ variantId: shirt, count: 1 }],
      reason: WHY,
      staffId,
    });
    expect(rest.amount).toBe(order.productsCost + order.deliveryCost - 500_00);
    expect(await statusOf(order.id)).toBe(2);
    expect(await quantityOf(wolf)).toBe(before + 1);
    expect((await refundsOf(order.id)).map((row) => row.amount)).toEqual([500_00, rest.amount]);
    expect(await refundMails(order.email)).toHaveLength(2);
  });

  it('a partial refund of a promo order returns the units’ price less their share of the discount, and the rest adds up', async () => {
    await connection.db.insert(promoCodes).values({ code: 'TEN', kind: 'percent', value: 10 });
    const { order, shirt } = await paidOrder('robokassa', 'ru', { shirts: 3, promoCode: 'ten' });
    // 3 × 1990 ₽ less 10 % = 5373 ₽: the line carries 597 ₽ of discount, 199 ₽ a unit.
    expect(order).toMatchObject({ discount: 597_00, productsAmount: 5373_00 });
    const one = await refundForUnits(connection.db, order, [{ variantId: shirt, count: 1 }]);
    expect(one).toBe(1791_00);
    const first = await refundOrder(connection.db, config, {
      orderId: order.id,
      amountMinor: one,
      restock: [{ variantId: shirt, count: 1 }],
      staffId,
    });
    expect(robokassa.state.refunds.get(first.externalId)).toMatchObject({ amountMinor: 1791_00 });
    const rest = await refundForUnits(connection.db, order, [{ variantId: shirt, count: 2 }]);
    expect(one + rest).toBe(order.productsAmount);
    await refundOrder(connection.db, config, {
      orderId: order.id,
      amountMinor: rest + order.deliveryCost,
      restock: [{ variantId: shirt, count: 2 }],
      reason: WHY,
      staffId,
    });
    expect(await statusOf(order.id)).toBe(2);
  });

  it('refuses more than is left and more units than were ordered, and changes nothing', async () => {
    const { order, shirt } = await paidOrder('robokassa');
    const total = order.productsCost + order.deliveryCost;
    await refundOrder(connection.db, config, {
      orderId: order.id,
      amountMinor: 100_00,
      restock: [],
      staffId,
    });
    await expect(
      refundOrder(connection.db, config, {
        orderId: order.id,
        amountMinor: total - 100_00 + 1,
        restock: [],
        staffId,
      }),
    ).rejects.toMatchObject({ status: 422, intlError: 'refund-amount-too-large' });
    await expect(
      refundOrder(connection.db, config, {
        orderId: order.id,
        amountMinor: 100,
        restock: [{ variantId: shirt, count: 3 }],
        staffId,
      }),
    ).rejects.toMatchObject({ status: 422, intlError: 'refund-restock-too-many' });
    expect(await refundsOf(order.id)).toHaveLength(1);
    expect(
      [...robokassa.state.refunds.values()].filter((refund) => refund.invoiceId === order.id),
    ).toHaveLength(1);
    expect(await statusOf(order.id)).toBe(1);
  });

  it('leaves nothing recorded when the provider refuses or cannot be reached', async () => {
    const { order, wolf, shirt } = await paidOrder('robokassa');
    const before = await quantityOf(wolf);
    const wrongPassword = {
      ...config,
      payments: { ...config.payments, robokassa: { ...config.payments.robokassa, password3: 'guess' } },
    };
    await expect(
      refundOrder(connection.db, wrongPassword, {
        orderId: order.id,
        restock: [{ variantId: shirt, count: 1 }],
        reason: WHY,
        staffId,
      }),
    ).rejects.toMatchObject({
      // A refusal is a refusal (422) in the admin's words; an outage below is an outage (503).
      status: 422,
      message: 'refund-robokassa-invalid-token',
      details: { reason: 'InvalidToken' },
    });
    const unreachable = {
      ...config,
      payments: {
        ...config.payments,
        robokassa: { ...config.payments.robokassa, refundCreateUrl: 'http://127.0.0.1:1/refund' },
      },
    };
    await expect(
      refundOrder(connection.db, unreachable, {
        orderId: order.id,
        restock: [{ variantId: shirt, count: 1 }],
        reason: WHY,
        staffId,
      }),
    ).rejects.toMatchObject({ status: 503, intlError: 'refund-provider-failed' });
    expect(await refundsOf(order.id)).toEqual([]);
    expect(await statusOf(order.id)).toBe(1);
    expect(await quantityOf(wolf)).toBe(before);
    expect(await refundMails(order.email)).toEqual([]);
  });

  it('lets only one of two simultaneous full refunds through', async () => {
    const { order } = await paidOrder('robokassa');
    const results = await Promise.allSettled(
      [1, 2].map(() =>
        refundOrder(connection.db, config, { orderId: order.id, restock: [], reason: WHY, staffId }),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((result) => result.status === 'rejected')).toMatchObject({
      reason: { status: 409, intlError: 'refund-nothing-to-refund' },
    });
    expect(
      [...robokassa.state.refunds.values()].filter((refund) => refund.invoiceId === order.id),
    ).toHaveLength(1);
    expect(await refundsOf(order.id)).toHaveLength(1);
  });

  it('records a refund Robokassa is still processing as pending, and finishes it on a state check', async () => {
    const { order, wolf, shirt } = await paidOrder('robokassa');
    const before = (await quantityOf(wolf)) as number;
    robokassa.state.newRefundLabel = 'processing';
    const pending = await refundOrder(connection.db, config, {
      orderId: order.id,
      restock: [{ variantId: shirt, count: 2 }],
      reason: WHY,
      staffId,
    }).finally(() => {
      robokassa.state.newRefundLabel = 'finished';
    });
    expect(pending.providerStatus).toBe('pending');
    expect(await statusOf(order.id)).toBe(1);
    expect(await quantityOf(wolf)).toBe(before);
    // What is pending is reserved: nothing more can be refunded meanwhile.
    await expect(
      refundOrder(connection.db, config, { orderId: order.id, amountMinor: 100, restock: [], staffId }),
    ).rejects.toMatchObject({ status: 409 });
    expect(await refreshRefund(connection.db, config, { id: order.id, refundId: pending.id })).toBe(
      'pending',
    );

    (robokassa.state.refunds.get(pending.externalId) as { label: string }).label = 'finished';
    expect(await refreshRefund(connection.db, config, { id: order.id, refundId: pending.id })).toBe(
      'finished',
    );
    expect(await refreshRefund(connection.db, config, { id: order.id, refundId: pending.id })).toBe(
      'finished',
    );
    expect(await statusOf(order.id)).toBe(2);
    expect(await quantityOf(wolf)).toBe(before + 2);
    // The words given with the refund reach the history and the mail when it finishes, later.
    expect(await cancellationReasonOf(order.id)).toEqual([refundCancelReason('robokassa', WHY)]);
    const mailed = await refundMails(order.email);
    expect(mailed).toHaveLength(1);
    expect(mailed[0]?.text).toContain(WHY);
  });
});

describe('refunds through PayPal', () => {
  const captureOf = async (orderId: number) =>
    (
      await connection.db
        .select()
        .from(paymentTransactions)
        .where(and(eq(paymentTransactions.orderId, orderId), eq(paymentTransactions.kind, 'payment')))
    )[0]?.externalId as string;

  it('refunds part in dollars through the captures refund; its webhook is recognised as that refund, never as a payment', async () => {
    const { order } = await paidOrder('paypal', 'en');
    expect(order.currency).toBe('USD');
    const refund = await refundOrder(connection.db, config, {
      orderId: order.id,
      amountMinor: 10_00,
      restock: [],
      staffId,
    });
    expect(refund).toMatchObject({ providerStatus: 'finished', amount: 10_00, currency: 'USD' });
    expect(paypal.state.refunds.at(-1)).toMatchObject({
      id: refund.externalId,
      captureId: await captureOf(order.id),
      amountMinor: 10_00,
      note: `Refund for order ${order.id}`,
    });
    await paypal.state.settled();
    expect(paypal.state.webhooks.at(-1)?.eventType).toBe('PAYMENT.CAPTURE.REFUNDED');
    // The webhook may outrun the refund's own transaction (then kept as a refund nobody asked for,
    // which that transaction replaces) or come after it (a duplicate): either way one refund is left.
    expect(['duplicate', 'refund-not-asked']).toContain(webhookOutcomes.at(-1));
    const rows = await connection.db
      .select()
      .from(paymentTransactions)
      .where(eq(paymentTransactions.orderId, order.id));
    expect(rows.map((row) => [row.kind, row.amount, row.accepted])).toEqual([
      ['payment', expect.any(Number), true],
      ['refund', 10_00, true],
    ]);
    expect(await statusOf(order.id)).toBe(1);
    const [mail] = await refundMails(order.email);
    expect(mail?.locale).toBe('en');
    expect(mail?.subject).toMatch(new RegExp(`^Refund for order (#|№)\\s?${order.id}$`));
    expect(mail?.text).toContain('$10.00');
  });

  it('fills the refund amount from the ticked units and the delivery, in dollars at the order’s rate, roubles beside', async () => {
    const { db } = connection;
    const { order, shirt } = await paidOrder('paypal', 'en');
    // What the refund form receives (GET /api/admin/orders/:id/payments).
    const payments = await orderTransactions(db, order);
    // 1990 ₽ a shirt and 350 ₽ of delivery at 90 ₽ per dollar: $22.11 and $3.89, charged $48.11.
    expect(payments).toMatchObject({ currency: 'USD', usdRate: 90, deliveryMinor: 3_89, paid: '48.11' });
    expect(payments.lines).toEqual([{ variantId: shirt, unit: 1990_00, count: 2, discount: 0, returned: 0 }]);
    // One shirt ticked with the delivery: the form's amount is the server's own count for those units.
    const one = [{ variantId: shirt, count: 1 }];
    const filled = unitsRefundAmount('USD', 90, payments.lines, one, payments.deliveryMinor);
    expect(filled).toBe(22_11 + 3_89);
    expect(filled).toBe((await refundForUnits(db, order, one)) + payments.deliveryMinor);
    // The roubles shown beside it, at the order's rate.
    expect(minorToKopecks(filled, 'USD', payments.usdRate ?? 0)).toBe(2340_00);
    await refundOrder(db, config, { orderId: order.id, amountMinor: filled, restock: one, staffId });
    expect(paypal.state.refunds.at(-1)).toMatchObject({ amountMinor: 26_00 });
    await paypal.state.settled();

    // The other shirt is all that is left: ticking both counts only the one not yet returned,
    // and refunding that amount gives back everything, which cancels the order.
    const after = await orderTransactions(db, order);
    expect(after.lines[0]?.returned).toBe(1);
    const rest = unitsRefundAmount('USD', 90, after.lines, [{ variantId: shirt, count: 2 }]);
    expect(rest).toBe(22_11);
    expect(after.left).toBe('22.11');
    await refundOrder(db, config, {
      orderId: order.id,
      amountMinor: rest,
      restock: one,
      reason: WHY,
      staffId,
    });
    await paypal.state.settled();
    expect(await statusOf(order.id)).toBe(2);
  });

  it('records a refund PayPal answers PENDING, and its webhook finishes it: the order is cancelled once', async () => {
    const { order, wolf, shirt } = await paidOrder('paypal');
    expect(order.currency).toBe('USD');
    const before = (await quantityOf(wolf)) as number;
    paypal.state.newRefundStatus = 'PENDING';
    const pending = await refundOrder(connection.db, config, {
      orderId: order.id,
      restock: [{ variantId: shirt, count: 1 }],
      reason: 'Sold out',
      staffId,
    }).finally(() => {
      paypal.state.newRefundStatus = 'COMPLETED';
    });
    expect(pending.providerStatus).toBe('pending');
    expect(await quantityOf(wolf)).toBe(before);
    await paypal.state.settled();
    expect(webhookOutcomes.at(-1)).toBe('refund-finished');
    expect(await statusOf(order.id)).toBe(2);
    expect(await quantityOf(wolf)).toBe(before + 1);
    const [refund] = await refundsOf(order.id);
    expect(refund).toMatchObject({ providerStatus: 'finished', accepted: true });
    // PayPal sends the same webhook again: nothing happens twice.
    await paypal.state.replay(paypal.state.webhooks.at(-1) as (typeof paypal.state.webhooks)[number]);
    expect(webhookOutcomes.at(-1)).toBe('duplicate');
    expect(await quantityOf(wolf)).toBe(before + 1);
    const mailed = await refundMails(order.email);
    expect(mailed).toHaveLength(1);
    expect(mailed[0]?.text).toContain('Sold out');
    expect(await cancellationReasonOf(order.id)).toEqual([refundCancelReason('paypal', 'Sold out')]);
  });

  it('keeps a reversal as a refund the shop did not ask for, never as a payment; PayPal then refuses a refund with its reason (422)', async () => {
    const { order } = await paidOrder('paypal');
    await paypal.state.reverse(await captureOf(order.id));
    expect(webhookOutcomes.at(-1)).toBe('refund-not-asked');
    const [outside] = await refundsOf(order.id);
    expect(outside).toMatchObject({
      accepted: false,
      amount: paymentAmounts(order).totalMinor,
      providerStatus: 'REVERSED',
    });
    expect(await statusOf(order.id)).toBe(1);
    expect(await refundMails(order.email)).toEqual([]);
    await expect(
      refundOrder(connection.db, config, { orderId: order.id, restock: [], reason: WHY, staffId }),
    ).rejects.toMatchObject({
      status: 422,
      intlError: 'refund-provider-refused',
      details: { reason: expect.stringContaining('CAPTURE_FULLY_REFUNDED') },
    });
    expect(await refundsOf(order.id)).toHaveLength(1);
  });

  it('tells an outage (503) from a refusal and records nothing', async () => {
    const { order } = await paidOrder('paypal');
    const unreachable = {
      ...config,
      payments: {
        ...config.payments,
        paypal: { ...config.payments.paypal, apiUrl: 'http://127.0.0.1:9/sandbox/paypal' },
      },
    };
    await expect(
      refundOrder(connection.db, unreachable, { orderId: order.id, restock: [], reason: WHY, staffId }),
    ).rejects.toMatchObject({ status: 503, intlError: 'refund-provider-failed' });
    expect(await refundsOf(order.id)).toEqual([]);
  });
});

describe('the stock ledger', () => {
  /** A small seeded generator, so a failing mix can be replayed (its seed is in the test's name). */
  const generator = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let value = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
  const SEED = Number(process.env.LEDGER_SEED ?? 30);

  it(`replays to today's stock for every variant after a random mix of sales, cancellations, refunds, receipts and CSV imports (seed ${SEED})`, async () => {
    const { db } = connection;
    const random = generator(SEED);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
    const mug = fixtures.id('wolf-mug');
    const mugVariant = await defaultVariantId(db, mug);
    const open: number[] = [];
    const done = new Map<string, number>();
    const step = async (kind: string) => {
      done.set(kind, (done.get(kind) ?? 0) + 1);
      switch (kind) {
        case 'sale': {
          const user = await newShopper(db);
          try {
            await addToBasket(db, { userId: user.id }, mug);
            await setBasketCount(db, { userId: user.id }, mug, 1 + Math.floor(random() * 3));
            const placed = await createOrder(db, user.id, orderInput({ email: user.email }), {
              deliveryCost: 350_00,
              usdRate: 90,
              expiresMinutes: 60,
            });
            open.push(placed.id);
          } catch (error) {
            // Short of stock: nothing was taken, nothing recorded.
            if (!(error instanceof Conflict)) throw error;
          }
          return;
        }
        case 'cancellation': {
          const orderId = open.splice(Math.floor(random() * open.length), 1)[0];
          if (orderId !== undefined)
            await cancelOrder(db, orderId, { reason: 'cancelled', returnToBasket: false });
          return;
        }
        case 'refund': {
          const { order, shirt } = await paidOrder('robokassa');
          await refundOrder(db, config, {
            orderId: order.id,
            restock: [{ variantId: shirt, count: Math.floor(random() * 3) }],
            reason: WHY,
            staffId,
          });
          return;
        }
        case 'receipt':
          await db.transaction((tx) =>
            changeStock(tx, mug, [{ variantId: mugVariant, delta: 1 + Math.floor(random() * 5) }], {
              actorId: staffId,
              note: 'delivery',
            }),
          );
          return;
        default: {
          // A count over the stock as it is now, as a fresh export carries it (ADR 0088, 0094).
          const counted = async (link: string) =>
            `${link},${Math.floor(random() * 8)},${await quantityOf(fixtures.id(link))}`;
          const report = await importProductsCsv(db, {
            csv: `link,quantity,quantity_seen\n${await counted('wolf-mug')}\n${await counted('wolf-shirt')}\n`,
            dryRun: false,
            actorId: staffId,
            locale: 'en',
            context: { publicUrl: SHOP },
          });
          expect(report.errors).toEqual([]);
        }
      }
    };
    for (let index = 0; index < 30; index += 1)
      await step(pick(['sale', 'sale', 'cancellation', 'refund', 'receipt', 'import']));

    const replay = await db
      .select({
        variantId: productVariants.id,
        stock: productVariants.quantity,
        ledger: sql<number>`coalesce(sum(${stockMovements.delta}), 0)::integer`,
      })
      .from(productVariants)
      .leftJoin(stockMovements, eq(stockMovements.variantId, productVariants.id))
      .groupBy(productVariants.id);
    expect(replay.length).toBeGreaterThan(1);
    expect(replay.filter((row) => row.ledger !== row.stock)).toEqual([]);
    // Every kind of change happened and left its reason in the ledger.
    const reasons = await db.selectDistinct({ reason: stockMovements.reason }).from(stockMovements);
    expect(reasons.map((row) => row.reason).sort()).toEqual(
      ['cancellation', 'import', 'initial', 'receipt', 'refund', 'sale', 'correction'].sort(),
    );
    expect(done.size).toBe(5);
  });
});

describe('54-FZ receipts through Robokassa (ADR 0051)', () => {
  /**
   * Outlaw T-shirt in sizes S ×1 and M ×2 (the M line carries 333.33 ₽ of a promo discount, set
   * directly as the promo code would), a wolf mug whose product says VAT 20 %, and 350 ₽ delivery.
   */
  async function sizedOrder(locale: 'ru' | 'en') {
    const { db } = connection;
    const user = await newShopper(db);
    const outlaw = fixtures.id('outlaw-shirt');
    const mug = fixtures.id('wolf-mug');
    await db.update(products).set({ vatRate: 'vat20' }).where(eq(products.id, mug));
    const sizes = await giveProductOptions(db, outlaw, {
      options: [
        {
          kind: 'size',
          nameRu: 'Размер',
          nameEn: 'Size',
          values: [
            { ru: 'S', en: 'S' },
            { ru: 'M', en: 'M' },
          ],
        },
      ],
      variants: [
        { values: ['S'], quantity: 10 },
        { values: ['M'], quantity: 10 },
      ],
    });
    await setStock(db, mug, 10);
    await addToBasket(db, { userId: user.id }, outlaw, sizes.variantOf('S').id);
    await addToBasket(db, { userId: user.id }, outlaw, sizes.variantOf('M').id);
    await setBasketCount(db, { userId: user.id }, outlaw, 2, sizes.variantOf('M').id);
    await addToBasket(db, { userId: user.id }, mug);
    const placed = await createOrder(
      db,
      user.id,
      orderInput({ locale, paymentMethod: 'robokassa', email: user.email }),
      {
        deliveryCost: 350_00,
        usdRate: 90,
        expiresMinutes: 60,
      },
    );
    const discount = 333_33;
    await db
      .update(orderItems)
      .set({ discount })
      .where(and(eq(orderItems.orderId, placed.id), eq(orderItems.variantId, sizes.variantOf('M').id)));
    await db
      .update(orders)
      .set({ discount, productsAmount: placed.productsAmount - discount })
      .where(eq(orders.id, placed.id));
    return { order: (await findOrder(db, placed.id)) as OrderRow, sizeM: sizes.variantOf('M').id };
  }

  const receiptOf = (fields: Record<string, string>) =>
    JSON.parse(decodeURIComponent(fields.Receipt as string)) as {
      items: {
        name: string;
        quantity: number;
        sum: number;
        tax: string;
        payment_method: string;
        payment_object: string;
      }[];
    };
  const kopecks = (items: { sum: number }[]) =>
    items.reduce((sum, item) => sum + Math.round(item.sum * 100), 0);

  it('sends every line after its discount, the delivery and the VAT codes, adding up to OutSum, signed as documented', async () => {
    const { order } = await sizedOrder('ru');
    const form = await paymentFormOf(connection.db, config, order);
    const { items } = receiptOf(form.fields);
    expect(items).toEqual(
      expect.arrayContaining([
        {
          name: 'Футболка бандита, Размер: S',
          quantity: 1,
          sum: 3100,
          tax: 'none',
          payment_method: 'full_prepayment',
          payment_object: 'commodity',
        },
        {
          name: 'Футболка бандита, Размер: M',
          quantity: 2,
          sum: 5866.67,
          tax: 'none',
          payment_method: 'full_prepayment',
          payment_object: 'commodity',
        },
        {
          name: 'Кружка с волком',
          quantity: 1,
          sum: 1200,
          tax: 'vat20',
          payment_method: 'full_prepayment',
          payment_object: 'commodity',
        },
      ]),
    );
    expect(items.at(-1)).toEqual({
      name: 'Доставка',
      quantity: 1,
      sum: 350,
      tax: 'none',
      payment_method: 'full_prepayment',
      payment_object: 'service',
    });
    expect(items).toHaveLength(4);
    expect(form.fields.OutSum).toBe('10516.67');
    expect(kopecks(items)).toBe(10516_67);
    // https://docs.robokassa.ru/ru/fiscalization: MerchantLogin:OutSum:InvId:Receipt:Пароль#1, Receipt URL-encoded.
    const { merchantLogin, password1 } = config.payments.robokassa;
    expect(form.fields.SignatureValue).toBe(
      createHash('md5')
        .update(`${merchantLogin}:10516.67:${order.id}:${form.fields.Receipt}:${password1}`)
        .digest('hex'),
    );
    // The simulator takes it (it checks the signature and the sums itself), and the payment keeps it.
    const paid = await payAtProvider(order.id);
    expect(robokassa.state.operations.get(order.id)?.receipt?.items).toEqual(items);
    expect(await receiptsOf(paid.id)).toMatchObject([{ purpose: 'payment', total: 10516_67, state: 'sent' }]);
  });

  it('charges an English order the same roubles, the receipt adding up to OutSum, the dollar rate kept as a guide', async () => {
    const { order } = await sizedOrder('en');
    expect(order).toMatchObject({ currency: 'RUB', usdRate: '90.0000' });
    const form = await paymentFormOf(connection.db, config, order);
    expect(form.fields).toMatchObject({ OutSum: '10516.67', OutSumCurrency: '', Culture: 'en' });
    expect(kopecks(receiptOf(form.fields).items)).toBe(10516_67);
  });

  it('sends no receipt when the shop registers its receipts elsewhere', async () => {
    const { order } = await sizedOrder('ru');
    const form = await paymentFormOf(
      connection.db,
      { ...config, receipts: { ...config.receipts, enabled: false } },
      order,
    );
    expect(form.fields.Receipt).toBeUndefined();
  });

  it('refunds the units put back with their share of their line, then the rest of the amount, as InvoiceItems', async () => {
    const { order, sizeM } = await sizedOrder('ru');
    await payAtProvider(order.id);
    await refundOrder(connection.db, config, {
      orderId: order.id,
      amountMinor: 3000_00,
      restock: [{ variantId: sizeM, count: 1 }],
      staffId,
    });
    const refund = (await receiptsOf(order.id)).find((receipt) => receipt.purpose === 'refund');
    // One M of 5866.67 for two is 2933.33; the other 66.67 comes off the receipt's first line, the mug.
    expect(refund?.items).toHaveLength(2);
    expect(refund?.items).toEqual(
      expect.arrayContaining([
        {
          name: 'Кружка с волком',
          quantity: 1,
          sum: 66_67,
          tax: 'vat20',
          paymentMethod: 'full_prepayment',
          paymentObject: 'commodity',
        },
        {
          name: 'Футболка бандита, Размер: M',
          quantity: 1,
          sum: 2933_33,
          tax: 'none',
          paymentMethod: 'full_prepayment',
          paymentObject: 'commodity',
        },
      ]),
    );
    expect(refund?.total).toBe(3000_00);
    const sent = [...robokassa.state.refunds.values()].find((entry) => entry.invoiceId === order.id);
    expect(sent?.amountMinor).toBe(3000_00);
    expect(sent?.items.map((item) => item.Name)).toEqual(refund?.items.map((item) => item.name));
  });

  it('registers the second, full payment receipt once a prepaid order ships; no answer is retried', async () => {
    const { order } = await sizedOrder('ru');
    await payAtProvider(order.id);
    await connection.db.transaction((tx) =>
      moveOrderStatus(tx, order.id, ORDER_STATUS.shipped, { actor: 'staff', by: staffId }),
    );
    const [settlement] = (await receiptsOf(order.id)).filter((receipt) => receipt.purpose === 'settlement');
    expect(settlement).toMatchObject({ state: 'pending', total: 10516_67 });
    expect(settlement?.items.every((item) => item.paymentMethod === 'full_payment')).toBe(true);
    const [job] = await connection.db
      .select()
      .from(jobs)
      .where(eq(jobs.uniqueKey, `receipt-settlement:${settlement?.id}`));
    expect(job?.kind).toBe(SETTLEMENT_RECEIPT_JOB);

    const context = {
      jobId: job?.id as number,
      kind: SETTLEMENT_RECEIPT_JOB,
      attempt: 1,
      maxAttempts: 3,
      now: new Date(),
    };
    const unreachable = {
      ...config,
      payments: {
        ...config.payments,
        robokassa: { ...config.payments.robokassa, secondReceiptUrl: 'http://127.0.0.1:1/attach' },
      },
    };
    await expect(
      settlementReceiptHandler({ db: connection.db, config: unreachable })(job?.payload ?? {}, context),
    ).rejects.toThrow();
    expect((await receiptsOf(order.id)).find((receipt) => receipt.purpose === 'settlement')).toMatchObject({
      state: 'pending',
      error: expect.any(String),
    });

    await settlementReceiptHandler({ db: connection.db, config })(job?.payload ?? {}, {
      ...context,
      attempt: 2,
    });
    expect((await receiptsOf(order.id)).find((receipt) => receipt.purpose === 'settlement')).toMatchObject({
      state: 'sent',
      error: null,
    });
    expect(robokassa.state.secondReceipts.filter((entry) => entry.originId === order.id)).toHaveLength(1);
  });
});
