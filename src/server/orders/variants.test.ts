import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToBasket, getBasket, mergeGuestBasket, setBasketCount } from '../cart/service.ts';
import type { DatabaseConnection } from '../db/client.ts';
import { mails, orderItems, products, productVariants, sessions } from '../db/schema.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { createTestDatabase } from '../testing/database.ts';
import { newShopper, orderInput } from '../testing/orders.ts';
import { productWithSizes } from '../testing/variants.ts';
import { moveOrderStatus } from './lifecycle.ts';
import { orderReceipt } from './receipts.ts';
import { cancelOrder, createOrder, expireOrders, getOrder, repeatOrder } from './service.ts';

/**
 * Stock per variant (ADR 0036): sizes of one product are sold, reserved and given back each on its
 * own, under concurrency too, and the product's total stays the sum of its sizes.
 */
let connection: DatabaseConnection;
let projectId: number;
let hoodies = 0;
beforeAll(async () => {
  connection = await createTestDatabase();
  projectId = (await insertCatalogue(connection.db)).projects.witcher.id;
});
afterAll(() => connection.close());

const context = { deliveryCost: 350_00, usdRate: 90, expiresMinutes: 60 };
const newUser = async () => (await newShopper(connection.db)).id;
const hoodie = (sizes: Record<string, number>) =>
  productWithSizes(connection.db, { projectId, link: `hoodie-${++hoodies}`, sizes });

/** Each size's stock by name, and the product's total. */
async function stock(product: Awaited<ReturnType<typeof hoodie>>) {
  const rows = await connection.db
    .select({ id: productVariants.id, quantity: productVariants.quantity })
    .from(productVariants)
    .where(eq(productVariants.productId, product.productId));
  const [total] = await connection.db
    .select({ quantity: products.quantity })
    .from(products)
    .where(eq(products.id, product.productId));
  const bySize = Object.fromEntries(
    Object.entries(product.variants).map(([size, id]) => [size, rows.find((row) => row.id === id)?.quantity]),
  );
  return { ...bySize, total: total?.quantity };
}

/** Sets a size's stock in a test (the back office's per-variant save is 16c's). */
const setSizeStock = (variantId: number, quantity: number) =>
  connection.db.update(productVariants).set({ quantity }).where(eq(productVariants.id, variantId));

/** A shopper with `count` of each named size in the basket. */
async function buyer(product: Awaited<ReturnType<typeof hoodie>>, sizes: Record<string, number>) {
  const userId = await newUser();
  for (const [size, count] of Object.entries(sizes)) {
    const variantId = product.variants[size] as number;
    await addToBasket(connection.db, { userId }, product.productId, variantId);
    await setBasketCount(connection.db, { userId }, product.productId, count, variantId);
  }
  return userId;
}

const rejectionsAreConflicts = (results: PromiseSettledResult<unknown>[]) =>
  results
    .filter((result) => result.status === 'rejected')
    .every((result) => (result.reason as { status?: number }).status === 409);

describe('the lines a placement answers', () => {
  it('are the lines it wrote, in its receipt’s order: the placed form’s receipt is the one read back later', async () => {
    const product = await hoodie({ S: 5, M: 5, L: 5 });
    const userId = await buyer(product, { S: 1, M: 2, L: 1 });
    const order = await createOrder(connection.db, userId, orderInput(), context);
    const settings = { enabled: true, sno: undefined, vat: 'none', prepayment: false } as const;
    const placed = await orderReceipt(connection.db, settings, order, order.lines);
    expect(order.lines).toHaveLength(3);
    expect(placed).toEqual(await orderReceipt(connection.db, settings, order));
    // By product, then sku (…-l, …-m, …-s), not by the sizes' ids.
    expect(placed?.items.map((item) => [item.name.split(': ')[1], item.quantity])).toEqual([
      ['L', 1],
      ['M', 2],
      ['S', 1],
      [undefined, 1],
    ]);
  });
});

describe('stock per variant under concurrency', () => {
  it('30 buyers at once for the last 3 units of one size: exactly 3 sold, the other sizes untouched', async () => {
    const product = await hoodie({ S: 4, M: 30, L: 7 });
    const buyers: number[] = [];
    for (let index = 0; index < 30; index++) buyers.push(await buyer(product, { M: 1 }));
    await setSizeStock(product.variants.M as number, 3);
    const results = await Promise.allSettled(
      buyers.map((userId) => createOrder(connection.db, userId, orderInput(), context)),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
    expect(rejectionsAreConflicts(results)).toBe(true);
    expect(await stock(product)).toEqual({ S: 4, M: 0, L: 7, total: 11 });
  });

  it('a buyer of two sizes at once against buyers of each: no deadlock, each size sold to its stock', async () => {
    const product = await hoodie({ S: 10, L: 10 });
    const both = await buyer(product, { S: 1, L: 1 });
    const others: number[] = [];
    for (let index = 0; index < 8; index++) others.push(await buyer(product, { [index % 2 ? 'S' : 'L']: 1 }));
    await setSizeStock(product.variants.S as number, 3);
    await setSizeStock(product.variants.L as number, 3);
    const results = await Promise.allSettled(
      [both, ...others].map((userId) => createOrder(connection.db, userId, orderInput(), context)),
    );
    expect(rejectionsAreConflicts(results)).toBe(true);
    const placed = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value.id] : []));
    const sold = await connection.db
      .select({ variantId: orderItems.variantId, count: orderItems.count })
      .from(orderItems)
      .where(inArray(orderItems.orderId, placed));
    const soldOf = (size: string) =>
      sold
        .filter((item) => item.variantId === product.variants[size])
        .reduce((sum, item) => sum + item.count, 0);
    expect(soldOf('S')).toBe(3);
    expect(soldOf('L')).toBe(3);
    expect(await stock(product)).toEqual({ S: 0, L: 0, total: 0 });
  });
});

describe('units go back to the variant they came from', () => {
  it('on cancellation, on expiry and on a refund that restocks', async () => {
    const product = await hoodie({ S: 5, M: 5, L: 5 });
    const cancelled = await buyer(product, { S: 2, L: 1 });
    const order = await createOrder(connection.db, cancelled, orderInput(), context);
    expect(await stock(product)).toEqual({ S: 3, M: 5, L: 4, total: 12 });
    await cancelOrder(connection.db, order.id, {
      reason: 'cancelled',
      userId: cancelled,
      returnToBasket: true,
    });
    expect(await stock(product)).toEqual({ S: 5, M: 5, L: 5, total: 15 });
    // The items go back into the basket as the same sizes.
    const basket = await getBasket(connection.db, { userId: cancelled }, 'en');
    expect(Object.values(basket.products).map((line) => [line.options, line.count])).toEqual([
      ['Size: S', 2],
      ['Size: L', 1],
    ]);

    await expireOrders(connection.db, new Date(Date.now() + 24 * 3600_000)); // earlier tests' orders
    const expiring = await createOrder(connection.db, await buyer(product, { M: 3 }), orderInput(), context);
    expect(await stock(product)).toEqual({ S: 5, M: 2, L: 5, total: 12 });
    expect(await expireOrders(connection.db, new Date(Date.now() + 61 * 60_000))).toHaveLength(1);
    expect((await getOrder(connection.db, expiring.userId as number, expiring.id, 'en')).status).toBe(2);
    expect(await stock(product)).toEqual({ S: 5, M: 5, L: 5, total: 15 });

    const refunded = await createOrder(
      connection.db,
      await buyer(product, { S: 1, M: 2 }),
      orderInput(),
      context,
    );
    await connection.db.transaction(async (transaction) => {
      await moveOrderStatus(transaction, refunded.id, 1, { actor: 'payment' });
      await moveOrderStatus(transaction, refunded.id, 2, {
        actor: 'refund',
        restock: [{ productId: product.productId, variantId: product.variants.M as number, count: 2 }],
      });
    });
    expect(await stock(product)).toEqual({ S: 4, M: 5, L: 5, total: 14 });
  });
});

describe('orders keep the variant', () => {
  it('keeps the SKU and options, shows them in both languages, mails them, and repeats the same sizes', async () => {
    const product = await hoodie({ S: 5, L: 5 });
    const userId = await buyer(product, { S: 1, L: 2 });
    const order = await createOrder(
      connection.db,
      userId,
      orderInput({ email: 'sizes@example.com' }),
      context,
    );
    const en = await getOrder(connection.db, userId, order.id, 'en');
    expect(en.products.map((item) => [item.sku, item.options, item.count])).toEqual([
      [`hoodie-${hoodies}-l`, 'Size: L', 2],
      [`hoodie-${hoodies}-s`, 'Size: S', 1],
    ]);
    const ru = await getOrder(connection.db, userId, order.id, 'ru');
    expect(ru.products.map((item) => item.options)).toEqual(['Размер: L', 'Размер: S']);
    const [mail] = await connection.db.select().from(mails).where(eq(mails.to, 'sizes@example.com'));
    expect(mail?.text).toContain('Размер: S, артикул hoodie-');

    // Staff delete a size later: the order still shows what was bought.
    await connection.db.delete(productVariants).where(eq(productVariants.id, product.variants.S as number));
    const after = await getOrder(connection.db, userId, order.id, 'en');
    expect(after.products.map((item) => [item.variant, item.sku, item.options])).toEqual([
      [product.variants.L, `hoodie-${hoodies}-l`, 'Size: L'],
      [null, `hoodie-${hoodies}-s`, 'Size: S'],
    ]);

    // Repeating the order puts back the same sizes, within their stock, skipping the one gone.
    await setSizeStock(product.variants.L as number, 1);
    await repeatOrder(connection.db, userId, order.id, 'en');
    const basket = await getBasket(connection.db, { userId }, 'en');
    expect(Object.values(basket.products).map((line) => [line.variant, line.count])).toEqual([
      [product.variants.L, 1],
    ]);
  });

  it("merges a guest's sizes into the user's basket at sign-in, size by size", async () => {
    const product = await hoodie({ S: 3, M: 3 });
    const userId = await buyer(product, { S: 2 });
    const [session] = await connection.db
      .insert(sessions)
      .values({ id: `guest-${hoodies}`, data: {}, expiresAt: new Date(Date.now() + 3600_000) })
      .returning();
    const guest = { sessionKey: session?.id as string };
    for (const size of ['S', 'M'] as const) {
      await addToBasket(connection.db, guest, product.productId, product.variants[size]);
      await setBasketCount(connection.db, guest, product.productId, 2, product.variants[size]);
    }
    await mergeGuestBasket(connection.db, guest.sessionKey, userId);
    const basket = await getBasket(connection.db, { userId }, 'en');
    expect(Object.values(basket.products).map((line) => [line.options, line.count])).toEqual([
      ['Size: S', 3],
      ['Size: M', 2],
    ]);
  });
});
