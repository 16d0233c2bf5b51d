import { and, eq, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToBasket, getBasket, setBasketCount } from '../cart/service.ts';
import type { DatabaseConnection } from '../db/client.ts';
import { drops, orderItems, orders, products, productVariants, sessions } from '../db/schema.ts';
import { createWorker } from '../jobs/queue.ts';
import { MAIL_SEND_JOB } from '../mail/outbox.ts';
import {
  ORDER_EXPIRY_EVERY_MS,
  ORDER_EXPIRY_JOB,
  orderExpiryHandler,
  scheduleOrderExpiry,
} from '../orders/jobs.ts';
import { createOrder } from '../orders/service.ts';
import { ORDER_STATUS } from '../orders/status.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { createTestDatabase } from '../testing/database.ts';
import { newShopper, orderInput } from '../testing/orders.ts';
import { productWithSizes } from '../testing/variants.ts';

/** Per-customer limits and the drop's unpaid hold (ADR 0041), on a real database. */
let connection: DatabaseConnection;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
const context = { deliveryCost: 350_00, usdRate: 90, expiresMinutes: 60 };
let links = 0;

beforeAll(async () => {
  connection = await createTestDatabase();
  fixtures = await insertCatalogue(connection.db);
});
afterAll(() => connection.close());

async function newDrop(values: { holdMinutes?: number; perCustomerLimit?: number } = {}) {
  const [drop] = await connection.db
    .insert(drops)
    .values({ nameRu: 'Дроп', nameEn: 'Drop', releaseAt: new Date(Date.now() - 60_000), ...values })
    .returning();
  if (!drop) throw new Error('fixture insert failed');
  return drop.id;
}

/** A released product with 20 units, in `dropId` when given. */
async function newProduct(values: { dropId?: number; perCustomerLimit?: number } = {}) {
  const [product] = await connection.db
    .insert(products)
    .values({
      projectId: fixtures.projects.witcher.id,
      link: `limited-${++links}`,
      nameRu: 'Лимитка',
      nameEn: 'Limited',
      price: 1_000_00,
      quantity: 20,
      ...values,
    })
    .returning({ id: products.id });
  if (!product) throw new Error('fixture insert failed');
  return product.id;
}

/** Units of the product in the customer's orders that are not cancelled. */
async function orderedUnits(userId: number, productId: number) {
  const [row] = await connection.db
    .select({ units: sql<number>`coalesce(sum(${orderItems.count}), 0)::int` })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(
      and(
        eq(orders.userId, userId),
        eq(orderItems.productId, productId),
        ne(orders.status, ORDER_STATUS.cancelled),
      ),
    );
  return Number(row?.units ?? 0);
}

const markPaid = (orderId: number) =>
  connection.db
    .update(orders)
    .set({ status: ORDER_STATUS.processing, paidAt: new Date() })
    .where(eq(orders.id, orderId));

const limitReached = (limit: number) => ({ status: 422, message: 'limit-reached', details: { limit } });

describe('per-customer limits in the basket', () => {
  it("refuses a unit past the product's own limit, by add and by count, and keeps the basket as it was", async () => {
    const { db } = connection;
    const productId = await newProduct({ perCustomerLimit: 2 });
    const owner = { userId: (await newShopper(db)).id };
    await addToBasket(db, owner, productId);
    await addToBasket(db, owner, productId);
    await expect(addToBasket(db, owner, productId)).rejects.toMatchObject(limitReached(2));
    await expect(setBasketCount(db, owner, productId, 3)).rejects.toMatchObject(limitReached(2));
    expect((await getBasket(db, owner, 'en')).products[productId]?.count).toBe(2);
    expect(await setBasketCount(db, owner, productId, 1)).toEqual({ count: 1, force: false });
  });

  it("takes the drop's limit when the product has none, and the product's own over the drop's", async () => {
    const { db } = connection;
    const dropId = await newDrop({ perCustomerLimit: 1 });
    const fromDrop = await newProduct({ dropId });
    const ownLimit = await newProduct({ dropId, perCustomerLimit: 3 });
    const owner = { userId: (await newShopper(db)).id };
    await addToBasket(db, owner, fromDrop);
    await expect(addToBasket(db, owner, fromDrop)).rejects.toMatchObject(limitReached(1));
    await addToBasket(db, owner, ownLimit);
    expect((await setBasketCount(db, owner, ownLimit, 3)).count).toBe(3);
  });

  it("counts a variant's own limit, and the product's over all its variants", async () => {
    const { db } = connection;
    const shirt = await productWithSizes(db, {
      projectId: fixtures.projects.witcher.id,
      link: 'limited-sizes',
      sizes: { S: 10, M: 10 },
    });
    await db.update(products).set({ perCustomerLimit: 3 }).where(eq(products.id, shirt.productId));
    const { S: small, M: medium } = shirt.variants as { S: number; M: number };
    await db.update(productVariants).set({ perCustomerLimit: 1 }).where(eq(productVariants.id, small));
    const owner = { userId: (await newShopper(db)).id };
    await addToBasket(db, owner, shirt.productId, small);
    await expect(addToBasket(db, owner, shirt.productId, small)).rejects.toMatchObject({
      ...limitReached(1),
      details: { limit: 1, product: shirt.productId, variant: small },
    });
    await addToBasket(db, owner, shirt.productId, medium);
    await addToBasket(db, owner, shirt.productId, medium);
    await expect(addToBasket(db, owner, shirt.productId, medium)).rejects.toMatchObject(limitReached(3));
    // A guest's basket is held to the same limits on its own.
    await db.insert(sessions).values({ id: 'limited-guest', expiresAt: new Date(Date.now() + 3600_000) });
    const guest = { sessionKey: 'limited-guest' };
    await addToBasket(db, guest, shirt.productId, small);
    await expect(addToBasket(db, guest, shirt.productId, small)).rejects.toMatchObject(limitReached(1));
  });

  it('counts the orders of a signed-in customer that are not cancelled', async () => {
    const { db } = connection;
    const productId = await newProduct({ perCustomerLimit: 2 });
    const userId = (await newShopper(db)).id;
    await addToBasket(db, { userId }, productId);
    await addToBasket(db, { userId }, productId);
    const order = await createOrder(db, userId, orderInput(), context);
    await markPaid(order.id);
    await expect(addToBasket(db, { userId }, productId)).rejects.toMatchObject(limitReached(2));
    await db.update(orders).set({ status: ORDER_STATUS.cancelled }).where(eq(orders.id, order.id));
    await addToBasket(db, { userId }, productId);
  });
});

describe('per-customer limits at order placement', () => {
  it('refuses an order that would take the customer past the limit and takes no stock', async () => {
    const { db } = connection;
    const productId = await newProduct({ perCustomerLimit: 2 });
    const userId = (await newShopper(db)).id;
    await addToBasket(db, { userId }, productId);
    await markPaid((await createOrder(db, userId, orderInput(), context)).id);
    await addToBasket(db, { userId }, productId);
    // The limit is lowered meanwhile (or the basket was filled as a guest): placement checks again.
    await db.update(products).set({ perCustomerLimit: 1 }).where(eq(products.id, productId));
    await expect(createOrder(db, userId, orderInput(), context)).rejects.toMatchObject(limitReached(1));
    expect(await orderedUnits(userId, productId)).toBe(1);
    const [row] = await db
      .select({ quantity: products.quantity })
      .from(products)
      .where(eq(products.id, productId));
    expect(row?.quantity).toBe(19);
  });

  it('lets only one of two concurrent orders of one customer through the limit', async () => {
    const { db } = connection;
    const productId = await newProduct({ perCustomerLimit: 2 });
    const userId = (await newShopper(db)).id;
    await addToBasket(db, { userId }, productId);
    await markPaid((await createOrder(db, userId, orderInput(), context)).id);
    await addToBasket(db, { userId }, productId);
    const outcomes = await Promise.allSettled([
      createOrder(db, userId, orderInput(), context),
      createOrder(db, userId, orderInput(), context),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(await orderedUnits(userId, productId)).toBe(2);
  });

  it('stops at placement what a basket merged at sign-in brings past the limit', async () => {
    const { db } = connection;
    const productId = await newProduct({ perCustomerLimit: 1 });
    const userId = (await newShopper(db)).id;
    await addToBasket(db, { userId }, productId);
    await markPaid((await createOrder(db, userId, orderInput(), context)).id);
    // What a guest basket merged at sign-in brings: the basket holds it, the order refuses it.
    await db.execute(sql`insert into basket_items (basket_id, product_id, variant_id, count)
      select b.id, ${productId}, v.id, 1 from baskets b, product_variants v
      where b.user_id = ${userId} and v.product_id = ${productId}`);
    await expect(createOrder(db, userId, orderInput(), context)).rejects.toMatchObject(limitReached(1));
  });
});

describe("a drop's unpaid hold", () => {
  const placedAt = new Date('2026-12-01T12:00:00Z');
  const placeWith = async (productIds: number[]) => {
    const userId = (await newShopper(connection.db)).id;
    for (const productId of productIds) await addToBasket(connection.db, { userId }, productId);
    return createOrder(connection.db, userId, orderInput(), { ...context, clock: () => placedAt });
  };
  const minutesHeld = (order: { expiresAt: Date | null }) =>
    ((order.expiresAt?.getTime() ?? 0) - placedAt.getTime()) / 60_000;

  it("holds an order of a drop's product for the drop's minutes, the shortest of several, else the default", async () => {
    const ten = await newProduct({ dropId: await newDrop({ holdMinutes: 10 }) });
    const thirty = await newProduct({ dropId: await newDrop({ holdMinutes: 30 }) });
    const noHold = await newProduct({ dropId: await newDrop() });
    const plain = await newProduct();
    expect(minutesHeld(await placeWith([ten]))).toBe(10);
    expect(minutesHeld(await placeWith([thirty, ten, plain]))).toBe(10);
    expect(minutesHeld(await placeWith([thirty, plain]))).toBe(30);
    expect(minutesHeld(await placeWith([noHold]))).toBe(60);
    expect(minutesHeld(await placeWith([plain]))).toBe(60);
  });

  it('gives the units of a 10-minute hold back within a minute of its end through the recurring expiry job', async () => {
    expect(ORDER_EXPIRY_EVERY_MS).toBeLessThanOrEqual(60_000);
    const { db } = connection;
    const productId = await newProduct({ dropId: await newDrop({ holdMinutes: 10 }) });
    let now = placedAt;
    const clock = () => now;
    await scheduleOrderExpiry(db, clock);
    const order = await placeWith([productId]);
    const worker = createWorker({
      db,
      clock,
      handlers: {
        [ORDER_EXPIRY_JOB]: orderExpiryHandler({ db, onExpired: async () => {} }),
        [MAIL_SEND_JOB]: async () => {},
      },
      log: { info: () => {}, warn: () => {}, error: () => {} },
    });
    let cancelledAt: Date | undefined;
    for (let seconds = 0; seconds <= 15 * 60 && !cancelledAt; seconds += 15) {
      now = new Date(placedAt.getTime() + seconds * 1000);
      await worker.runDue();
      const [row] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, order.id));
      if (row?.status === ORDER_STATUS.cancelled) cancelledAt = now;
    }
    expect(cancelledAt).toBeDefined();
    const heldMs = (cancelledAt?.getTime() ?? 0) - placedAt.getTime();
    expect(heldMs).toBeGreaterThan(10 * 60_000);
    expect(heldMs).toBeLessThanOrEqual(10 * 60_000 + ORDER_EXPIRY_EVERY_MS);
    const [row] = await db
      .select({ quantity: products.quantity })
      .from(products)
      .where(eq(products.id, productId));
    expect(row?.quantity).toBe(20);
  });
});
