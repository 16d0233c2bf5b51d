import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffCancelReason } from '../../contract/status-reasons.ts';
import { addToBasket, setBasketCount } from '../cart/service.ts';
import type { DatabaseConnection } from '../db/client.ts';
import { mails, orderStatusHistory, orders } from '../db/schema.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { createTestDatabase } from '../testing/database.ts';
import { newShopper, orderInput } from '../testing/orders.ts';
import { productStock, setStock } from '../testing/stock.ts';
import { defaultVariantId } from '../testing/variants.ts';
import { moveOrderStatus } from './lifecycle.ts';
import { cancelOrder, createOrder, expireOrders } from './service.ts';
import { canMove, nextStatuses, type OrderStatus, type StatusActor } from './status.ts';

let connection: DatabaseConnection;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
beforeAll(async () => {
  connection = await createTestDatabase();
  fixtures = await insertCatalogue(connection.db);
});
afterAll(() => connection.close());

const newUser = async () => (await newShopper(connection.db)).id;

const input = orderInput({ locale: 'en' });
const context = { deliveryCost: 350_00, usdRate: 90, expiresMinutes: 60 };
const stockOf = (productId: number) => productStock(connection.db, productId);

/** Puts an order in `status`, paid when the status says so. */
async function setStatus(orderId: number, status: OrderStatus) {
  const paid = status !== 0 && status !== 2;
  const [order] = await connection.db
    .update(orders)
    .set({ status, paidAt: paid ? new Date() : null })
    .where(eq(orders.id, orderId))
    .returning();
  if (!order) throw new Error('no order');
  return order;
}

/** A new order of `count` outlaw shirts (of 100 in stock), put in `status`. */
async function orderIn(status: OrderStatus, count = 1) {
  const { db } = connection;
  const userId = await newUser();
  const outlaw = fixtures.id('outlaw-shirt');
  await setStock(db, outlaw, 100);
  await addToBasket(db, { userId }, outlaw);
  await setBasketCount(db, { userId }, outlaw, count);
  const order = await createOrder(db, userId, input, context);
  return { ...(await setStatus(order.id, status)), userId };
}

const statusOf = async (orderId: number) =>
  (await connection.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)))[0]
    ?.status;

/**
 * The moves the spec allows, written out here independently of status.ts: from → to by whom.
 * Staff run the warehouse (1 → 3 → 4 → 5 and back a step, 6 for anything odd), a payment pays an
 * unpaid or cancelled order, only a refund cancels a paid one.
 */
const ALLOWED = new Set([
  '0>1 payment',
  '0>2 shopper',
  '0>2 expiry',
  '0>2 staff',
  ...[3, 4, 5, 6].map((to) => `1>${to} staff`),
  '3>4 staff',
  '3>5 staff',
  '3>6 staff',
  '4>3 staff',
  '4>5 staff',
  '4>6 staff',
  '5>4 staff',
  '5>6 staff',
  ...[1, 3, 4, 5].map((to) => `6>${to} staff`),
  ...[1, 3, 4, 5, 6].map((from) => `${from}>2 refund`),
  '2>1 payment',
  '2>6 payment',
]);
const STATUSES: OrderStatus[] = [0, 1, 2, 3, 4, 5, 6];
const ACTORS: StatusActor[] = ['payment', 'shopper', 'expiry', 'staff', 'refund'];
const cases = STATUSES.flatMap((from) =>
  STATUSES.filter((to) => to !== from).flatMap((to) =>
    ACTORS.map((actor) => ({ from, to, actor, allowed: ALLOWED.has(`${from}>${to} ${actor}`) })),
  ),
);

describe('the order state machine', () => {
  it('allows exactly the moves of the spec, and offers staff only theirs', () => {
    expect(cases.filter((move) => canMove(move.from, move.to, move.actor) !== move.allowed)).toEqual([]);
    expect(nextStatuses(0)).toEqual([2]);
    expect(nextStatuses(1)).toEqual([3, 4, 5, 6]);
    expect(nextStatuses(5)).toEqual([4, 6]);
    expect(nextStatuses(2)).toEqual([]);
  });

  it('makes every allowed move on the database with its history row, and refuses every other with a 409 that changes nothing', async () => {
    const staff = await newUser();
    const { id: orderId } = await orderIn(0);
    const outcomes: string[] = [];
    for (const move of cases) {
      const order = await setStatus(orderId, move.from);
      const attempt = connection.db.transaction((transaction) =>
        moveOrderStatus(transaction, order.id, move.to, {
          actor: move.actor,
          by: staff,
          // Staff say why they cancel.
          note: 'Asked by the customer',
        }),
      );
      if (move.allowed) {
        const moved = await attempt;
        if (moved.status !== move.to || moved.version !== order.version + 1)
          outcomes.push(`${move.from}>${move.to} ${move.actor} did not move`);
        const history = await connection.db
          .select()
          .from(orderStatusHistory)
          .where(eq(orderStatusHistory.orderId, order.id));
        if (history.at(-1)?.status !== move.to || history.at(-1)?.changedBy !== staff)
          outcomes.push(`${move.from}>${move.to} ${move.actor} has no history row`);
      } else {
        const error = await attempt.then(
          () => undefined,
          (refusal: unknown) => refusal,
        );
        if ((error as { status?: number; intlError?: string })?.intlError !== 'order-status-move-refused')
          outcomes.push(`${move.from}>${move.to} ${move.actor} was not refused with a 409`);
        if ((await statusOf(order.id)) !== move.from)
          outcomes.push(`${move.from}>${move.to} ${move.actor} moved`);
      }
    }
    expect(outcomes).toEqual([]);
  });

  it('lets the expiry job cancel only an order that was never paid', async () => {
    const order = await orderIn(0);
    await connection.db.update(orders).set({ paidAt: new Date() }).where(eq(orders.id, order.id));
    await expect(
      connection.db.transaction((transaction) =>
        moveOrderStatus(transaction, order.id, 2, { actor: 'expiry' }),
      ),
    ).rejects.toMatchObject({ status: 409 });
    await expireOrders(connection.db, new Date(Date.now() + 24 * 3600_000));
    expect(await statusOf(order.id)).toBe(0);
  });
});

describe('stock comes back on every cancellation', () => {
  const outlaw = () => fixtures.id('outlaw-shirt');

  it('when the order expires, with the cancel mail in the order’s language', async () => {
    const order = await orderIn(0, 3);
    expect(await stockOf(outlaw())).toBe(97);
    expect(
      (await expireOrders(connection.db, new Date(Date.now() + 2 * 3600_000))).length,
    ).toBeGreaterThanOrEqual(1);
    expect(await statusOf(order.id)).toBe(2);
    expect(await stockOf(outlaw())).toBe(100);
    const cancelMails = await connection.db.select().from(mails).where(eq(mails.template, 'order-cancelled'));
    expect(cancelMails.find((mail) => mail.text.includes(`${order.id}`))?.subject).toMatch(/cancelled/i);
  });

  it('when the shopper cancels', async () => {
    const order = await orderIn(0, 2);
    expect(await stockOf(outlaw())).toBe(98);
    await cancelOrder(connection.db, order.id, {
      reason: 'cancelled',
      userId: order.userId,
      returnToBasket: true,
    });
    expect(await stockOf(outlaw())).toBe(100);
  });

  it('when staff cancel an unpaid order, only with a reason, which the history and the mail keep', async () => {
    const staff = await newUser();
    const order = await orderIn(0, 4);
    expect(await stockOf(outlaw())).toBe(96);
    // No reason, no cancellation: nothing moves.
    await expect(
      connection.db.transaction((transaction) =>
        moveOrderStatus(transaction, order.id, 2, { actor: 'staff', by: staff, note: '  ' }),
      ),
    ).rejects.toMatchObject({ status: 422, errors: { reason: ['cancel-reason-required'] } });
    expect(await statusOf(order.id)).toBe(0);
    expect(await stockOf(outlaw())).toBe(96);

    const words = 'The black M is sold out: we could not pack it';
    await connection.db.transaction((transaction) =>
      moveOrderStatus(transaction, order.id, 2, { actor: 'staff', by: staff, note: words }),
    );
    expect(await stockOf(outlaw())).toBe(100);
    const [cancelMail] = await connection.db
      .select()
      .from(mails)
      .where(eq(mails.template, 'order-cancelled'))
      .then((rows) => rows.filter((mail) => mail.subject.includes(`${order.id}`)));
    // The order is English: the mail says so in English, with the staff's words.
    expect(cancelMail?.text).toContain('The reason the shop gave:');
    expect(cancelMail?.text).toContain(words);
    expect(cancelMail?.html).toContain('The black M is sold out: we could not pack it');
    const [entry] = await connection.db
      .select()
      .from(orderStatusHistory)
      .where(eq(orderStatusHistory.orderId, order.id))
      .orderBy(orderStatusHistory.id)
      .limit(1)
      .offset(1);
    expect(entry).toMatchObject({ status: 2, changedBy: staff, reason: staffCancelReason(words) });
  });

  it('when a full refund cancels a paid order, the units it names', async () => {
    const order = await orderIn(1, 5);
    expect(await stockOf(outlaw())).toBe(95);
    const variantId = await defaultVariantId(connection.db, outlaw());
    await connection.db.transaction((transaction) =>
      moveOrderStatus(transaction, order.id, 2, {
        actor: 'refund',
        restock: [{ productId: outlaw(), variantId, count: 2 }],
      }),
    );
    expect(await stockOf(outlaw())).toBe(97);
  });
});
