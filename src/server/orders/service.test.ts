import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToBasket, getBasket, setBasketCount } from '../cart/service.ts';
import type { DatabaseConnection } from '../db/client.ts';
import {
  mails,
  orderStatusHistory,
  orders,
  products,
  productVariants,
  stockMovements,
} from '../db/schema.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { createTestDatabase } from '../testing/database.ts';
import { newShopper, orderInput } from '../testing/orders.ts';
import { productStock, setStock } from '../testing/stock.ts';
import {
  cancelOrder,
  createOrder,
  expireOrders,
  getOrder,
  listOrders,
  paymentAmounts,
  recordPayment,
  repeatOrder,
} from './service.ts';

let connection: DatabaseConnection;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
beforeAll(async () => {
  connection = await createTestDatabase();
  fixtures = await insertCatalogue(connection.db);
});
afterAll(() => connection.close());

const newUser = async () => (await newShopper(connection.db)).id;

const input = orderInput;
const context = { deliveryCost: 350_00, usdRate: 90, expiresMinutes: 60 };
const stockOf = (productId: number) => productStock(connection.db, productId);

describe('placing an order', () => {
  it('takes stock, prices from the database, empties the basket and mails the buyer', async () => {
    const { db } = connection;
    const userId = await newUser();
    const wolf = fixtures.id('wolf-shirt');
    await setStock(connection.db, wolf, 10);
    await addToBasket(db, { userId }, wolf);
    await setBasketCount(db, { userId }, wolf, 3);
    const order = await createOrder(db, userId, input(), context);
    expect(order).toMatchObject({
      status: 0,
      productsCost: 3 * 1990_00,
      deliveryCost: 350_00,
      currency: 'RUB',
    });
    expect(await stockOf(wolf)).toBe(7);
    expect((await getBasket(db, { userId }, 'ru')).productList).toEqual([]);
    const [mail] = await db.select().from(mails).where(eq(mails.template, 'order-placed'));
    expect(mail?.to).toBe('buyer@example.com');
    // The address names the country in the buyer's language, not by its code.
    expect(mail?.text).toContain('420111, Россия, Kazan, Kremlin st. 1');
    expect(paymentAmounts(order)).toMatchObject({
      total: '6320.00',
      products: '5970.00',
      shipping: '350.00',
    });
  });

  it('names the products whose stock it moved: its own and those of the unpaid order it replaced', async () => {
    const { db } = connection;
    const userId = await newUser();
    const [shirt, mug] = [fixtures.id('wolf-shirt'), fixtures.id('wolf-mug')];
    await setStock(db, shirt, 10);
    await setStock(db, mug, 10);
    await addToBasket(db, { userId }, mug);
    expect((await createOrder(db, userId, input(), context)).movedProducts).toEqual([mug]);
    await addToBasket(db, { userId }, shirt);
    const replacing = await createOrder(db, userId, input(), context);
    expect([...replacing.movedProducts].sort((a, b) => a - b)).toEqual([shirt, mug].sort((a, b) => a - b));
    expect([await stockOf(shirt), await stockOf(mug)]).toEqual([9, 10]);
  });

  it('prices an English PayPal order in dollars at the rate of the moment, refusing without a rate', async () => {
    const { db } = connection;
    const userId = await newUser();
    await addToBasket(db, { userId }, fixtures.id('outlaw-shirt'));
    const english = input({ locale: 'en', paymentMethod: 'paypal' });
    await expect(createOrder(db, userId, english, { ...context, usdRate: 0 })).rejects.toMatchObject({
      status: 422,
      intlError: 'paypal-needs-dollar-rate',
    });
    const order = await createOrder(db, userId, english, { ...context, usdRate: 92.5 });
    expect(paymentAmounts(order)).toEqual({
      currency: 'USD',
      products: '33.51',
      shipping: '3.78',
      total: '37.29',
      totalMinor: 3729,
    });
  });

  it('charges an English Robokassa order in roubles, keeping the rate of the moment as a guide (ADR 0051)', async () => {
    const { db } = connection;
    const userId = await newUser();
    await addToBasket(db, { userId }, fixtures.id('outlaw-shirt'));
    const order = await createOrder(db, userId, input({ locale: 'en', paymentMethod: 'robokassa' }), {
      ...context,
      usdRate: 92.5,
    });
    expect(order).toMatchObject({ currency: 'RUB', usdRate: '92.5000' });
    expect(paymentAmounts(order).currency).toBe('RUB');
    expect(paymentAmounts(order).totalMinor).toBe(order.productsCost + order.deliveryCost);
  });

  it('refuses a basket with an item over stock, names it, and changes nothing', async () => {
    const { db } = connection;
    const userId = await newUser();
    const outlaw = fixtures.id('outlaw-shirt');
    await setStock(connection.db, outlaw, 5);
    await addToBasket(db, { userId }, outlaw);
    await setBasketCount(db, { userId }, outlaw, 4);
    await setStock(connection.db, outlaw, 2);
    await expect(createOrder(db, userId, input(), context)).rejects.toMatchObject({
      status: 409,
      details: { unavailable: [outlaw] },
    });
    expect(await stockOf(outlaw)).toBe(2);
    expect((await getBasket(db, { userId }, 'ru')).products[outlaw]?.count).toBe(4);
  });

  it('refuses a total that differs from the one shown with 409 and the new figures, and changes nothing', async () => {
    const { db } = connection;
    const userId = await newUser();
    const [shirt, mug] = [fixtures.id('wolf-shirt'), fixtures.id('wolf-mug')];
    await setStock(db, shirt, 10);
    await setStock(db, mug, 10);
    await addToBasket(db, { userId }, mug);
    const unpaid = await createOrder(db, userId, input(), context);
    await addToBasket(db, { userId }, shirt);
    await setBasketCount(db, { userId }, shirt, 2);
    const ordersBefore = await db.select({ id: orders.id }).from(orders).where(eq(orders.userId, userId));
    // The page showed the delivery of an older quote: 2 × 1990 + 300 instead of 2 × 1990 + 350.
    await expect(createOrder(db, userId, input({ shownTotal: 4280 }), context)).rejects.toMatchObject({
      status: 409,
      intlError: 'total-changed',
      details: { changed: { currency: 'RUB', goods: 3980, delivery: 350, total: 4330 } },
    });
    expect(await stockOf(shirt)).toBe(10);
    expect(await stockOf(mug)).toBe(9);
    expect((await getBasket(db, { userId }, 'ru')).products[shirt]?.count).toBe(2);
    expect(await db.select({ id: orders.id }).from(orders).where(eq(orders.userId, userId))).toEqual(
      ordersBefore,
    );
    const [kept] = await db.select().from(orders).where(eq(orders.id, unpaid.id));
    expect(kept?.status).toBe(0);
    const placed = await createOrder(db, userId, input({ shownTotal: 4330 }), context);
    expect(paymentAmounts(placed).total).toBe('4330.00');
  });

  it('compares a dollar page total in dollars, line by line as the page shows it', async () => {
    const { db } = connection;
    const userId = await newUser();
    await addToBasket(db, { userId }, fixtures.id('outlaw-shirt'));
    const english = input({ locale: 'en', paymentMethod: 'paypal', shownTotal: 37.28 });
    await expect(createOrder(db, userId, english, { ...context, usdRate: 92.5 })).rejects.toMatchObject({
      status: 409,
      details: { changed: { currency: 'USD', goods: 33.51, delivery: 3.78, total: 37.29 } },
    });
    const order = await createOrder(
      db,
      userId,
      { ...english, shownTotal: 37.29 },
      { ...context, usdRate: 92.5 },
    );
    expect(paymentAmounts(order).total).toBe('37.29');
  });

  it('refuses an empty basket', async () => {
    await expect(createOrder(connection.db, await newUser(), input(), context)).rejects.toMatchObject({
      intlError: 'basket-empty',
    });
  });

  it('never oversells: 50 buyers at once for 5 units, exactly 5 orders', async () => {
    const { db } = connection;
    const wolf = fixtures.id('wolf-shirt');
    await setStock(connection.db, wolf, 50);
    const buyers = await Promise.all(Array.from({ length: 50 }, () => newUser()));
    for (const userId of buyers) await addToBasket(db, { userId }, wolf);
    await setStock(connection.db, wolf, 5);
    const results = await Promise.allSettled(
      buyers.map((userId) => createOrder(db, userId, input(), context)),
    );
    const placed = results.filter((result) => result.status === 'fulfilled');
    const refused = results.filter((result) => result.status === 'rejected');
    expect(placed).toHaveLength(5);
    expect(refused.every((result) => (result.reason as { status?: number }).status === 409)).toBe(true);
    expect(await stockOf(wolf)).toBe(0);
  });

  it('a hot product: 40 buyers at once for 7 units place exactly 7 orders, and the ledger adds up to the stock', async () => {
    const { db } = connection;
    const mug = fixtures.id('wolf-mug');
    await setStock(db, mug, 40);
    const buyers = await Promise.all(Array.from({ length: 40 }, () => newUser()));
    for (const userId of buyers) await addToBasket(db, { userId }, mug);
    await setStock(db, mug, 7);
    const results = await Promise.allSettled(
      buyers.map((userId) => createOrder(db, userId, input(), context)),
    );
    const placed = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    expect(placed).toHaveLength(7);
    expect(refused.map((reason) => (reason as { intlError?: string }).intlError)).toEqual(
      Array(33).fill('basket-unavailable'),
    );
    // The ledger replayed gives the stock; one sale movement per placed order, none for the refused.
    const [variant] = await db.select().from(productVariants).where(eq(productVariants.productId, mug));
    const movements = await db.select().from(stockMovements).where(eq(stockMovements.productId, mug));
    expect(variant?.quantity).toBe(0);
    expect(movements.reduce((sum, movement) => sum + movement.delta, 0)).toBe(0);
    // Refused buyers have no order; each placed order has one sale movement of its unit.
    const stored = (
      await db.select({ id: orders.id }).from(orders).where(inArray(orders.userId, buyers))
    ).map((order) => order.id);
    expect(stored.sort()).toEqual(placed.map((order) => order.id).sort());
    const sales = movements.filter(
      (movement) => movement.orderId !== null && stored.includes(movement.orderId),
    );
    expect(sales.map((sale) => [sale.orderId, sale.reason, sale.delta]).sort()).toEqual(
      stored.map((id) => [id, 'sale', -1]).sort(),
    );
  });
});

describe('payments', () => {
  async function placedOrder() {
    const userId = await newUser();
    await setStock(connection.db, fixtures.id('outlaw-shirt'), 20);
    await addToBasket(connection.db, { userId }, fixtures.id('outlaw-shirt'));
    return { userId, order: await createOrder(connection.db, userId, input(), context) };
  }
  const payment = (orderId: number, overrides: Partial<Parameters<typeof recordPayment>[1]> = {}) => ({
    orderId,
    provider: 'robokassa' as const,
    externalId: `inv-${orderId}`,
    providerStatus: 'paid',
    amountMinor: 3100_00 + 350_00,
    currency: 'RUB',
    raw: {},
    ...overrides,
  });

  it('marks the order paid once and mails its summary; a replay changes nothing', async () => {
    const { order } = await placedOrder();
    expect(await recordPayment(connection.db, payment(order.id))).toBe('paid');
    expect(await recordPayment(connection.db, payment(order.id))).toBe('duplicate');
    const paymentMails = await connection.db
      .select()
      .from(mails)
      .where(
        and(
          eq(mails.template, 'payment-received'),
          eq(mails.subject, `Оплата заказа №\u00a0${order.id} получена`),
        ),
      );
    expect(paymentMails).toHaveLength(1);
    // The order's items, delivery method and address, in the order's language.
    expect(paymentMails[0]?.text).toMatch(/Футболка бандита × 1: .*₽/);
    expect(paymentMails[0]?.text).toContain(`Адрес: ${order.deliveryZip}, Россия`);
    expect(paymentMails[0]?.text).toContain('Способ доставки: ');
    const [paid] = await connection.db.select().from(orders).where(eq(orders.id, order.id));
    expect(paid?.status).toBe(1);
    const history = await connection.db
      .select()
      .from(orderStatusHistory)
      .where(eq(orderStatusHistory.orderId, order.id));
    expect(history.map((entry) => entry.status)).toEqual([0, 1]);
  });

  it("announces the paid order to the shop's address once, in the shop's language, with a link to it", async () => {
    const { order } = await placedOrder();
    const shop = { email: 'orders@shop.example', url: 'https://shop.example', locale: 'en' as const };
    expect(await recordPayment(connection.db, payment(order.id, { amountMinor: 100, shop }))).toBe(
      'mismatch',
    );
    expect(await recordPayment(connection.db, payment(order.id, { shop }))).toBe('paid');
    expect(await recordPayment(connection.db, payment(order.id, { shop }))).toBe('duplicate');
    expect(await recordPayment(connection.db, payment(order.id, { externalId: 'again', shop }))).toBe(
      'already-paid',
    );
    const announced = await connection.db
      .select()
      .from(mails)
      .where(and(eq(mails.template, 'new-paid-order'), eq(mails.to, 'orders@shop.example')));
    const mine = announced.filter((mail) => mail.subject.includes(`#${order.id}:`));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ locale: 'en', subject: `New paid order #${order.id}: ₽3,450` });
    // The shopper's order was in Russian; the shop reads the items in its own language.
    expect(mine[0]?.text).toContain('Outlaw T-shirt × 1');
    expect(mine[0]?.text).toContain('Customer: Anna Petrova');
    expect(mine[0]?.text).toContain(`https://shop.example/admin/orders/${order.id}`);
  });

  it('writes the announcement in the payment transaction: a mail that cannot be stored leaves the order unpaid', async () => {
    const { order } = await placedOrder();
    const broken = { email: 'orders@shop.example\nBcc: x@example.com' };
    await expect(recordPayment(connection.db, payment(order.id, { shop: broken }))).rejects.toThrow(
      TypeError,
    );
    const [unpaid] = await connection.db.select().from(orders).where(eq(orders.id, order.id));
    expect(unpaid).toMatchObject({ status: 0, paidAt: null });
    const sent = await connection.db.select().from(mails).where(eq(mails.template, 'payment-received'));
    expect(sent.filter((mail) => mail.subject.includes(String(order.id)))).toEqual([]);
    expect(await recordPayment(connection.db, payment(order.id))).toBe('paid');
  });

  it('leaves the order unpaid when the amount or currency is wrong', async () => {
    const { order } = await placedOrder();
    expect(await recordPayment(connection.db, payment(order.id, { amountMinor: 100 }))).toBe('mismatch');
    expect(await recordPayment(connection.db, payment(order.id, { externalId: 'x2', currency: 'USD' }))).toBe(
      'mismatch',
    );
    const [unpaid] = await connection.db.select().from(orders).where(eq(orders.id, order.id));
    expect(unpaid?.status).toBe(0);
  });

  it('a refused notification with the wrong amount does not block the genuine one that follows', async () => {
    const { order } = await placedOrder();
    expect(await recordPayment(connection.db, payment(order.id, { amountMinor: 100 }))).toBe('mismatch');
    expect(await recordPayment(connection.db, payment(order.id))).toBe('paid');
    const [paid] = await connection.db.select().from(orders).where(eq(orders.id, order.id));
    expect(paid?.status).toBe(1);
  });

  it('money for an expired order whose units are still there takes them back and pays it as normal', async () => {
    const outlaw = fixtures.id('outlaw-shirt');
    const { order } = await placedOrder();
    await cancelOrder(connection.db, order.id, { reason: 'expired', returnToBasket: false });
    expect(await stockOf(outlaw)).toBe(20);
    expect(await recordPayment(connection.db, payment(order.id))).toBe('paid-after-cancel');
    const [paid] = await connection.db.select().from(orders).where(eq(orders.id, order.id));
    expect(paid).toMatchObject({ status: 1, paidAt: expect.any(Date) });
    expect(await stockOf(outlaw)).toBe(19);
  });

  it('money for an expired order whose last unit sold meanwhile flags it for a refund and never sells the unit twice', async () => {
    const { db } = connection;
    const outlaw = fixtures.id('outlaw-shirt');
    const { order } = await placedOrder();
    await cancelOrder(db, order.id, { reason: 'expired', returnToBasket: false });
    await setStock(connection.db, outlaw, 1);
    const rival = await newUser();
    await addToBasket(db, { userId: rival }, outlaw);
    await createOrder(db, rival, input(), context);
    expect(await stockOf(outlaw)).toBe(0);

    expect(await recordPayment(db, payment(order.id))).toBe('paid-after-cancel');
    const [flagged] = await db.select().from(orders).where(eq(orders.id, order.id));
    expect(flagged?.status).toBe(6);
    expect(await stockOf(outlaw)).toBe(0);
    const history = await db
      .select()
      .from(orderStatusHistory)
      .where(eq(orderStatusHistory.orderId, order.id));
    expect(history.at(-1)).toMatchObject({
      status: 6,
      reason: expect.stringMatching(/^paid-late-out-of-stock:\w+$/),
    });
    // Nothing to pack: the shop is not told to ship it.
    const announced = await db.select().from(mails).where(eq(mails.template, 'new-paid-order'));
    expect(announced.filter((mail) => mail.subject.includes(`№\u00a0${order.id} `))).toEqual([]);
  });
});

describe('cancel, expiry, history, repeat', () => {
  it('cancelling returns the stock and the items to the basket; a paid order cannot be cancelled', async () => {
    const { db } = connection;
    const userId = await newUser();
    const outlaw = fixtures.id('outlaw-shirt');
    await setStock(connection.db, outlaw, 4);
    await addToBasket(db, { userId }, outlaw);
    await setBasketCount(db, { userId }, outlaw, 2);
    const order = await createOrder(db, userId, input(), context);
    expect(await stockOf(outlaw)).toBe(2);
    await cancelOrder(db, order.id, { reason: 'cancelled', userId, returnToBasket: true });
    expect(await stockOf(outlaw)).toBe(4);
    expect((await getBasket(db, { userId }, 'ru')).products[outlaw]?.count).toBe(2);
    await expect(
      cancelOrder(db, order.id, { reason: 'cancelled', userId, returnToBasket: true }),
    ).rejects.toMatchObject({
      intlError: 'cancel-invoice-fail',
    });
  });

  it('expiry cancels overdue unpaid orders and releases their stock', async () => {
    const { db } = connection;
    await expireOrders(db, new Date(Date.now() + 24 * 3600_000)); // earlier tests' unpaid orders
    const userId = await newUser();
    const outlaw = fixtures.id('outlaw-shirt');
    await setStock(connection.db, outlaw, 3);
    await addToBasket(db, { userId }, outlaw);
    const order = await createOrder(db, userId, input(), { ...context, expiresMinutes: 60 });
    expect(await expireOrders(db, new Date(Date.now() + 30 * 60_000))).toHaveLength(0);
    expect(await expireOrders(db, new Date(Date.now() + 61 * 60_000))).toHaveLength(1);
    const [expired] = await db.select().from(orders).where(eq(orders.id, order.id));
    expect(expired?.status).toBe(2);
    expect(await stockOf(outlaw)).toBe(3);
  });

  it("shows a user their orders and no one else's; repeat puts items back within stock", async () => {
    const { db } = connection;
    const userId = await newUser();
    const stranger = await newUser();
    const wolf = fixtures.id('wolf-shirt');
    await setStock(connection.db, wolf, 10);
    await addToBasket(db, { userId }, wolf);
    await setBasketCount(db, { userId }, wolf, 4);
    const order = await createOrder(db, userId, input(), context);
    expect((await listOrders(db, userId)).map((summary) => summary.id)).toEqual([order.id]);
    const detail = await getOrder(db, userId, order.id, 'en');
    expect(detail.products).toEqual([
      expect.objectContaining({ name: 'Wolf T-shirt', count: 4, price: 2500, sale: 1990 }),
    ]);
    await expect(getOrder(db, stranger, order.id, 'en')).rejects.toMatchObject({ status: 404 });
    await expect(repeatOrder(db, stranger, order.id, 'en')).rejects.toMatchObject({ status: 404 });

    await setStock(connection.db, wolf, 2);
    expect(await repeatOrder(db, userId, order.id, 'en')).toEqual({
      notAdded: [{ id: wolf, name: 'Wolf T-shirt', reason: 'limited', ordered: 4, added: 2 }],
    });
    expect((await getBasket(db, { userId }, 'en')).products[wolf]?.count).toBe(2);
    // The basket already holds all there is: nothing more goes in, and the answer says so.
    expect(await repeatOrder(db, userId, order.id, 'en')).toEqual({
      notAdded: [{ id: wolf, name: 'Wolf T-shirt', reason: 'limited', ordered: 4, added: 0 }],
    });
  });

  it('repeat names, in the asked language, what is sold out, hidden or envisioned now', async () => {
    const { db } = connection;
    const userId = await newUser();
    const [wolf, mug, outlaw, hiddenMug] = ['wolf-shirt', 'wolf-mug', 'outlaw-shirt', 'hidden-mug'].map(
      fixtures.id,
    ) as [number, number, number, number];
    const setProduct = (id: number, values: Partial<typeof products.$inferInsert>) =>
      db.update(products).set(values).where(eq(products.id, id));
    await setStock(connection.db, wolf, 10);
    await setStock(connection.db, mug, 5);
    await setStock(connection.db, outlaw, 5);
    await setProduct(hiddenMug, { visible: true });
    for (const id of [wolf, mug, outlaw, hiddenMug]) await addToBasket(db, { userId }, id);
    const order = await createOrder(db, userId, input(), context);
    try {
      await setStock(connection.db, mug, 0);
      await setProduct(outlaw, { visible: false });
      await setProduct(hiddenMug, { envisioned: true });
      const repeated = await repeatOrder(db, userId, order.id, 'ru');
      expect(repeated.notAdded).toEqual(
        expect.arrayContaining([
          { id: mug, name: 'Кружка с волком', reason: 'sold-out', ordered: 1, added: 0 },
          { id: outlaw, name: 'Футболка бандита', reason: 'hidden', ordered: 1, added: 0 },
          { id: hiddenMug, name: 'Скрытая кружка', reason: 'envisioned', ordered: 1, added: 0 },
        ]),
      );
      expect(repeated.notAdded).toHaveLength(3);
      expect((await getBasket(db, { userId }, 'ru')).productList).toEqual([wolf]);
    } finally {
      await setStock(connection.db, mug, 0);
      await setProduct(outlaw, { visible: true });
      await setProduct(hiddenMug, { visible: false, envisioned: false });
    }
  });
});
