import { eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToBasket, getBasket, setBasketCount } from '../cart/service.ts';
import { type DatabaseConnection, openDatabase } from '../db/client.ts';
import { mails, orders, productVariants, stockMovements } from '../db/schema.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { createTestDatabase } from '../testing/database.ts';
import { newShopper, orderInput } from '../testing/orders.ts';
import { productStock, setStock } from '../testing/stock.ts';
import { createOrder } from './service.ts';
import { ORDER_STATUS } from './status.ts';

/**
 * Group commit of order placement (ADR 0083): orders asked for together are placed in one
 * transaction, each succeeding or failing alone, and exact under any stock, on one handle and on
 * two (two instances of the shop) on PostgreSQL.
 */
let connection: DatabaseConnection;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
beforeAll(async () => {
  connection = await createTestDatabase();
  fixtures = await insertCatalogue(connection.db);
});
afterAll(() => connection.close());

const context = { deliveryCost: 350_00, usdRate: 90, expiresMinutes: 60 };
const newUser = async () => (await newShopper(connection.db)).id;

const stockOf = (productId: number) => productStock(connection.db, productId);

/** Shoppers with one unit of the product each in their baskets, and then its stock set to `stock`. */
async function buyersOf(productId: number, count: number, stock: number) {
  await setStock(connection.db, productId, count);
  const buyers: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const userId = await newUser();
    await addToBasket(connection.db, { userId }, productId);
    buyers.push(userId);
  }
  await setStock(connection.db, productId, stock);
  return buyers;
}

/** The variant's stock is what its ledger adds up to; one sale of one unit per placed order. */
async function expectLedgerOf(productId: number, placedOrders: readonly number[]) {
  const { db } = connection;
  const [variant] = await db.select().from(productVariants).where(eq(productVariants.productId, productId));
  const movements = await db.select().from(stockMovements).where(eq(stockMovements.productId, productId));
  expect(movements.reduce((sum, movement) => sum + movement.delta, 0)).toBe(variant?.quantity);
  const sales = movements.filter(
    (movement) => movement.orderId !== null && placedOrders.includes(movement.orderId),
  );
  expect(sales.map((sale) => [sale.orderId, sale.reason, sale.delta]).sort()).toEqual(
    placedOrders.map((id) => [id, 'sale', -1]).sort(),
  );
}

describe('orders placed together', () => {
  it('share one transaction, and the one refused for stock, a changed total or an empty basket fails alone', async () => {
    const { db } = connection;
    const [shirt, outlaw] = [fixtures.id('wolf-shirt'), fixtures.id('outlaw-shirt')];
    await setStock(db, shirt, 10);
    await setStock(db, outlaw, 5);
    const [first, second, short, stale, empty] = await Promise.all(Array.from({ length: 5 }, newUser));
    for (const userId of [first, second, stale] as number[]) await addToBasket(db, { userId }, shirt);
    await addToBasket(db, { userId: short as number }, outlaw);
    await setBasketCount(db, { userId: short as number }, outlaw, 4);
    await setStock(db, outlaw, 2);

    // Asked for in the same moment: one batch.
    const results = await Promise.allSettled([
      createOrder(db, first as number, orderInput(), context),
      createOrder(db, short as number, orderInput(), context),
      // The page showed 1990 + 300, the delivery of an older quote.
      createOrder(db, stale as number, orderInput({ shownTotal: 2290 }), context),
      createOrder(db, empty as number, orderInput(), context),
      createOrder(db, second as number, orderInput(), context),
    ]);
    const [placedFirst, refusedShort, refusedStale, refusedEmpty, placedSecond] = results;
    expect(placedFirst?.status).toBe('fulfilled');
    expect(placedSecond?.status).toBe('fulfilled');
    expect(refusedShort).toMatchObject({
      status: 'rejected',
      reason: { status: 409, intlError: 'basket-unavailable', details: { unavailable: [outlaw] } },
    });
    expect(refusedStale).toMatchObject({
      status: 'rejected',
      reason: { status: 409, intlError: 'total-changed' },
    });
    expect(refusedEmpty).toMatchObject({ status: 'rejected', reason: { intlError: 'basket-empty' } });

    // The placed orders took their units; the refused ones changed nothing.
    expect(await stockOf(shirt)).toBe(8);
    expect(await stockOf(outlaw)).toBe(2);
    expect((await getBasket(db, { userId: short as number }, 'ru')).products[outlaw]?.count).toBe(4);
    expect((await getBasket(db, { userId: stale as number }, 'ru')).products[shirt]?.count).toBe(1);
    const stored = await db
      .select({ id: orders.id, userId: orders.userId })
      .from(orders)
      .where(inArray(orders.userId, [first, second, short, stale, empty] as number[]));
    expect(stored.map((order) => order.userId).sort()).toEqual([first, second].sort());
    await expectLedgerOf(
      shirt,
      stored.map((order) => order.id),
    );
    // One transaction: their mails carry its one start time (a column's default now()).
    const placedMails = await db
      .select({ createdAt: mails.createdAt })
      .from(mails)
      .where(
        inArray(
          mails.orderId,
          stored.map((order) => order.id),
        ),
      );
    expect(placedMails).toHaveLength(2);
    expect(new Set(placedMails.map((mail) => mail.createdAt.getTime())).size).toBe(1);
  });

  it('places an order that replaces its shopper’s unpaid one alone, after the batch it came with, so no transaction takes product rows out of their order', async () => {
    const { db } = connection;
    const shirt = fixtures.id('wolf-shirt');
    await setStock(db, shirt, 10);
    const [replacing, first, second] = await Promise.all(Array.from({ length: 3 }, newUser));
    for (const userId of [replacing, first, second] as number[]) await addToBasket(db, { userId }, shirt);
    const unpaid = await createOrder(db, replacing as number, orderInput(), context);
    await addToBasket(db, { userId: replacing as number }, shirt);

    const placed = await Promise.all([
      createOrder(db, first as number, orderInput(), context),
      createOrder(db, replacing as number, orderInput(), context),
      createOrder(db, second as number, orderInput(), context),
    ]);
    const [replaced] = await db.select().from(orders).where(eq(orders.id, unpaid.id));
    expect(replaced?.status).toBe(ORDER_STATUS.cancelled);
    // The unpaid order's unit came back and the three new orders took one each.
    expect(await stockOf(shirt)).toBe(7);
    const startOf = async (orderId: number) =>
      (
        await db.select({ createdAt: mails.createdAt }).from(mails).where(eq(mails.orderId, orderId))
      )[0]?.createdAt.getTime();
    const [firstStart, replacingStart, secondStart] = await Promise.all(
      placed.map((order) => startOf(order.id)),
    );
    // The other two shared a transaction; the replacing order had one of its own, after theirs.
    expect(firstStart).toBe(secondStart);
    expect(replacingStart).toBeGreaterThan(firstStart as number);
  });

  it('sells the last units of a batch in the order asked: 12 buyers together for 5 units', async () => {
    const mug = fixtures.id('wolf-mug');
    const buyers = await buyersOf(mug, 12, 5);
    const results = await Promise.allSettled(
      buyers.map((userId) => createOrder(connection.db, userId, orderInput(), context)),
    );
    // One batch, each order seeing the units its predecessors claimed: the first five are placed.
    expect(results.map((result) => result.status)).toEqual([
      ...Array(5).fill('fulfilled'),
      ...Array(7).fill('rejected'),
    ]);
    expect(await stockOf(mug)).toBe(0);
    await expectLedgerOf(
      mug,
      results.flatMap((result) => (result.status === 'fulfilled' ? [result.value.id] : [])),
    );
  });
});

const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)('orders placed together on PostgreSQL', () => {
  /** A second handle on the same database: a second instance of the shop with its own batches. */
  async function secondInstance() {
    const result = await connection.db.execute(sql`select current_database() as name`);
    const [row] = (result as unknown as { rows: Array<{ name: string }> }).rows;
    const url = new URL(serverUrl as string);
    url.pathname = `/${row?.name}`;
    return { url: url.toString(), ...(await openDatabase({ databaseUrl: url.toString(), poolSize: 10 })) };
  }

  it('two instances placing 60 orders of one product at once sell exactly its 25 units', async () => {
    const other = await secondInstance();
    try {
      const shirt = fixtures.id('outlaw-shirt');
      const buyers = await buyersOf(shirt, 60, 25);
      const results = await Promise.allSettled(
        buyers.map((userId, index) =>
          createOrder(index % 2 === 0 ? connection.db : other.db, userId, orderInput(), context),
        ),
      );
      const placed = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value.id] : []));
      const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
      expect(placed).toHaveLength(25);
      expect(refused.map((reason) => (reason as { intlError?: string }).intlError)).toEqual(
        Array(35).fill('basket-unavailable'),
      );
      expect(await stockOf(shirt)).toBe(0);
      await expectLedgerOf(shirt, placed);
    } finally {
      await other.close();
    }
  });

  it('a batch whose units were taken by another transaction meanwhile is placed again, exactly', async () => {
    const other = await secondInstance();
    const blocker = new pg.Client({ connectionString: other.url });
    await blocker.connect();
    try {
      const mug = fixtures.id('wolf-mug');
      const buyers = await buyersOf(mug, 6, 4);
      const [variant] = await connection.db
        .select({ id: productVariants.id })
        .from(productVariants)
        .where(eq(productVariants.productId, mug));
      // Another writer holds the product's row and takes 3 of the 4 units the batch reads.
      await blocker.query('begin');
      await blocker.query('select id from products where id = $1 for no key update', [mug]);
      await blocker.query(
        `with moved as (update product_variants set quantity = quantity - 3 where id = $1 returning product_id)
         insert into stock_movements (product_id, variant_id, delta, reason, note)
         select product_id, $1, -3, 'write-off', 'test: taken meanwhile' from moved`,
        [variant?.id],
      );
      const placing = Promise.allSettled(
        buyers.map((userId) => createOrder(connection.db, userId, orderInput(), context)),
      );
      // The batch has written its orders counting on 4 units and waits for the product's row.
      for (let waited = 0; ; waited += 50) {
        const { rows } = await blocker.query<{ waiting: number }>(
          `select count(*)::int as waiting from pg_stat_activity
           where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
        );
        if ((rows[0]?.waiting ?? 0) > 0) break;
        if (waited > 20_000) throw new Error('the batch never waited for the product row');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await blocker.query('commit');
      const results = await placing;
      const placed = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value.id] : []));
      expect(placed).toHaveLength(1);
      expect(await stockOf(mug)).toBe(0);
      await expectLedgerOf(mug, placed);
    } finally {
      await blocker.end();
      await other.close();
    }
  });
});
