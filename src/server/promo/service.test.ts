import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amountsIn, returnedAmount, shareByLargestRemainder } from '../../contract/money.ts';
import { addToBasket, enterBasketPromo, getBasket, setBasketCount } from '../cart/service.ts';
import type { DatabaseConnection } from '../db/client.ts';
import { drops, mails, orderItems, orders, products, promoCodes } from '../db/schema.ts';
import { cancelOrder, createOrder } from '../orders/service.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { createTestDatabase } from '../testing/database.ts';
import { newShopper, orderInput } from '../testing/orders.ts';
import { setStock } from '../testing/stock.ts';
import { evaluatePromo, type PromoCodeRow, type PromoLine } from './service.ts';

let connection: DatabaseConnection;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
beforeAll(async () => {
  connection = await createTestDatabase();
  fixtures = await insertCatalogue(connection.db);
});
afterAll(() => connection?.close());

const context = { deliveryCost: 350_00, usdRate: 90, expiresMinutes: 60 };
const NOW = new Date('2026-11-26T12:00:00Z');

const code = (overrides: Partial<PromoCodeRow> = {}): PromoCodeRow => ({
  id: 1,
  code: 'WINTER',
  kind: 'percent',
  value: 10,
  minOrder: 0,
  startsAt: null,
  endsAt: null,
  totalLimit: null,
  perCustomerLimit: null,
  appliesToDrops: false,
  projectIds: [],
  categoryIds: [],
  productIds: [],
  uses: 0,
  pausedAt: null,
  createdBy: null,
  createdAt: NOW,
  updatedAt: NOW,
  version: 1,
  ...overrides,
});
const line = (overrides: Partial<PromoLine> = {}): PromoLine => ({
  productId: 1,
  projectId: 1,
  categoryIds: [1],
  inDrop: false,
  unit: 1000_00,
  count: 1,
  ...overrides,
});

describe('the rule', () => {
  it.each([
    [{ pausedAt: NOW }, 'promo-paused'],
    [{ startsAt: new Date('2026-12-01T00:00:00Z') }, 'promo-not-started'],
    [{ endsAt: NOW }, 'promo-expired'],
    [{ totalLimit: 5, uses: 5 }, 'promo-used-up'],
    [{ minOrder: 1000_01 }, 'promo-min-order'],
    [{ productIds: [2] }, 'promo-not-for-these-goods'],
  ] satisfies [Partial<PromoCodeRow>, string][])('refuses %o with %s', (overrides, reason) => {
    expect(evaluatePromo(code(overrides), [line()], NOW, 0)).toMatchObject({ ok: false, reason });
  });

  it('counts a customer’s uses against the per-customer limit, and a guest’s only at the order', () => {
    const limited = code({ perCustomerLimit: 1 });
    expect(evaluatePromo(limited, [line()], NOW, 1)).toMatchObject({ reason: 'promo-customer-used-up' });
    expect(evaluatePromo(limited, [line()], NOW, null)).toMatchObject({ ok: true });
  });

  it('leaves drops out unless the code says so, and names drops when only they were in scope', () => {
    const dropLine = line({ inDrop: true });
    expect(evaluatePromo(code(), [dropLine], NOW, 0)).toMatchObject({ reason: 'promo-not-for-drops' });
    expect(evaluatePromo(code({ appliesToDrops: true }), [dropLine], NOW, 0)).toMatchObject({
      ok: true,
      discount: 100_00,
    });
    // With other goods, the drop's line carries nothing and the minimum counts only the others.
    expect(evaluatePromo(code(), [dropLine, line({ productId: 2, unit: 333_33 })], NOW, 0)).toEqual({
      ok: true,
      discount: 33_33,
      shares: [0, 33_33],
    });
  });

  it('scopes by product, project or category, and the minimum counts only the goods in scope', () => {
    const lines = [
      line({ productId: 1, projectId: 1, categoryIds: [10], unit: 600_00 }),
      line({ productId: 2, projectId: 2, categoryIds: [20], unit: 500_00 }),
    ];
    expect(evaluatePromo(code({ projectIds: [2] }), lines, NOW, 0)).toMatchObject({ shares: [0, 50_00] });
    expect(evaluatePromo(code({ categoryIds: [10] }), lines, NOW, 0)).toMatchObject({ shares: [60_00, 0] });
    expect(evaluatePromo(code({ productIds: [2], minOrder: 600_00 }), lines, NOW, 0)).toMatchObject({
      reason: 'promo-min-order',
      minOrder: 600_00,
    });
  });

  it('takes a fixed amount, never more than the eligible goods, shared to the kopeck', () => {
    const lines = [line({ unit: 100_00, count: 1 }), line({ productId: 2, unit: 100_00, count: 2 })];
    expect(evaluatePromo(code({ kind: 'amount', value: 100_00 }), lines, NOW, 0)).toEqual({
      ok: true,
      discount: 100_00,
      shares: [33_33, 66_67],
    });
    expect(evaluatePromo(code({ kind: 'amount', value: 1_000_00 }), lines, NOW, 0)).toMatchObject({
      discount: 300_00,
    });
  });
});

describe('shares and returns', () => {
  it('shares by largest remainder: the shares add up to the discount', () => {
    expect(shareByLargestRemainder(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(shareByLargestRemainder(10, [0, 7, 3])).toEqual([0, 7, 3]);
    for (let seed = 1; seed < 200; seed++) {
      const weights = [seed * 7919, seed * 104_729, (seed * 31) % 97, 1];
      const total = (seed * 1_301) % 50_000;
      expect(shareByLargestRemainder(total, weights).reduce((sum, share) => sum + share, 0)).toBe(total);
    }
  });

  it('returning a discounted line unit by unit gives back exactly what it was charged, in roubles and dollars', () => {
    const charged = { unit: 1990_00, count: 3, discount: 597_01 };
    for (const [currency, rate] of [
      ['RUB', 0],
      ['USD', 92.3456],
    ] as const) {
      const back = [0, 1, 2].map((returned) => returnedAmount(currency, rate, charged, returned, 1));
      expect(back.reduce((sum, amount) => sum + amount, 0)).toBe(
        amountsIn(currency, rate, [charged])?.products,
      );
      expect(returnedAmount(currency, rate, charged, 0, 2)).toBe((back[0] ?? 0) + (back[1] ?? 0));
    }
    expect(returnedAmount('RUB', 0, charged, 0, 1)).toBe(1990_00 - 199_00);
  });
});

async function newCode(values: Partial<typeof promoCodes.$inferInsert> & { code: string }) {
  const [row] = await connection.db
    .insert(promoCodes)
    .values({ kind: 'percent', value: 10, ...values })
    .returning();
  return row as PromoCodeRow;
}
const usesOf = async (id: number) =>
  (await connection.db.select().from(promoCodes).where(eq(promoCodes.id, id)))[0]?.uses;

describe('in the basket and the order', () => {
  it('is entered case-insensitively, refused with its reason, and priced in the basket', async () => {
    const { db } = connection;
    const { id: userId } = await newShopper(db);
    const wolf = fixtures.id('wolf-shirt');
    await setStock(db, wolf, 10);
    await addToBasket(db, { userId }, wolf);
    await newCode({ code: 'Basket10' });
    await expect(enterBasketPromo(db, { userId }, 'nope')).rejects.toMatchObject({
      status: 422,
      intlError: 'promo-unknown',
    });
    await newCode({ code: 'MUGS', categoryIds: [fixtures.categories.mugs.id] });
    await expect(enterBasketPromo(db, { userId }, 'mugs')).rejects.toMatchObject({
      intlError: 'promo-not-for-these-goods',
    });
    await enterBasketPromo(db, { userId }, ' basket10 ');
    expect((await getBasket(db, { userId }, 'ru')).promo).toEqual({
      code: 'Basket10',
      discount: 199,
      lines: { [wolf]: 199 },
      refused: null,
    });
  });

  it('is checked again whenever the basket is priced: a paused code shows why it no longer applies', async () => {
    const { db } = connection;
    const { id: userId } = await newShopper(db);
    const wolf = fixtures.id('wolf-shirt');
    await setStock(db, wolf, 10);
    await addToBasket(db, { userId }, wolf);
    const row = await newCode({ code: 'LATER' });
    await enterBasketPromo(db, { userId }, 'later');
    await db.update(promoCodes).set({ pausedAt: new Date() }).where(eq(promoCodes.id, row.id));
    expect((await getBasket(db, { userId }, 'en')).promo).toMatchObject({
      discount: 0,
      refused: 'promo-paused',
    });
    await expect(createOrder(db, userId, orderInput(), context)).rejects.toMatchObject({
      intlError: 'promo-paused',
    });
  });

  it('places the order with its discount on the lines and in the amounts, mails it, and a cancellation gives the use back', async () => {
    const { db } = connection;
    const user = await newShopper(db);
    const userId = user.id;
    const [wolf, outlaw] = [fixtures.id('wolf-shirt'), fixtures.id('outlaw-shirt')];
    await setStock(db, wolf, 10);
    await setStock(db, outlaw, 10);
    await addToBasket(db, { userId }, wolf);
    await setBasketCount(db, { userId }, wolf, 3);
    await addToBasket(db, { userId }, outlaw);
    const row = await newCode({
      code: 'ORDER500',
      kind: 'amount',
      value: 500_00,
      totalLimit: 3,
      perCustomerLimit: 1,
    });
    await enterBasketPromo(db, { userId }, 'order500');
    const order = await createOrder(db, userId, orderInput({ email: user.email }), context);
    // 3 × 1990 + 3100 = 9070; 500 shared 5970 : 3100 → 329.11 and 170.89 (largest remainder).
    expect(order).toMatchObject({
      promoCodeId: row.id,
      discount: 500_00,
      productsCost: 8570_00,
      productsAmount: 8570_00,
    });
    const items = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    expect(Object.fromEntries(items.map((item) => [item.productId, item.discount]))).toEqual({
      [wolf]: 329_11,
      [outlaw]: 170_89,
    });
    expect(await usesOf(row.id)).toBe(1);
    expect((await getBasket(db, { userId }, 'ru')).promo).toBeUndefined();
    const [mail] = await db.select().from(mails).where(eq(mails.to, user.email));
    expect(mail?.text).toContain('Скидка по промокоду');
    expect(mail?.text).toMatch(/8\s570/);

    // The customer's one use is taken: the code is refused for another order until this one is cancelled.
    await addToBasket(db, { userId }, outlaw);
    await expect(enterBasketPromo(db, { userId }, 'order500')).rejects.toMatchObject({
      intlError: 'promo-customer-used-up',
    });
    await cancelOrder(db, order.id, { reason: 'cancelled', userId, returnToBasket: false });
    expect(await usesOf(row.id)).toBe(0);
    await enterBasketPromo(db, { userId }, 'order500');
  });

  it('leaves a drop’s product out unless the code applies to drops', async () => {
    const { db } = connection;
    const { id: userId } = await newShopper(db);
    const outlaw = fixtures.id('outlaw-shirt');
    await setStock(db, outlaw, 10);
    await addToBasket(db, { userId }, outlaw);
    const [drop] = await db
      .insert(drops)
      .values({ nameRu: 'Дроп', nameEn: 'Drop', releaseAt: new Date('2026-01-01T00:00:00Z') })
      .returning();
    await db.update(products).set({ dropId: drop?.id }).where(eq(products.id, outlaw));
    try {
      await newCode({ code: 'NODROPS' });
      await expect(enterBasketPromo(db, { userId }, 'nodrops')).rejects.toMatchObject({
        intlError: 'promo-not-for-drops',
      });
      await newCode({ code: 'DROPSTOO', appliesToDrops: true });
      await enterBasketPromo(db, { userId }, 'dropstoo');
      expect((await getBasket(db, { userId }, 'ru')).promo).toMatchObject({ discount: 310 });
    } finally {
      await db.update(products).set({ dropId: null }).where(eq(products.id, outlaw));
    }
  });

  it('20 concurrent checkouts with a code limited to 5 uses: exactly 5 orders get it', async () => {
    const { db } = connection;
    // Each shopper buys a product of their own, so no product's lock lines the checkouts up: only the code's.
    const own = await db
      .insert(products)
      .values(
        Array.from({ length: 20 }, (_, index) => ({
          projectId: fixtures.projects.witcher.id,
          link: `promo-race-${index}`,
          nameRu: `Значок ${index}`,
          nameEn: `Pin ${index}`,
          price: 300_00,
          quantity: 5,
        })),
      )
      .returning({ id: products.id });
    const row = await newCode({ code: 'FIVE', totalLimit: 5 });
    const shoppers = await Promise.all(Array.from({ length: 20 }, () => newShopper(db)));
    for (const [index, shopper] of shoppers.entries()) {
      await addToBasket(db, { userId: shopper.id }, own[index]?.id as number);
      await enterBasketPromo(db, { userId: shopper.id }, 'five');
    }
    const results = await Promise.allSettled(
      shoppers.map((shopper) => createOrder(db, shopper.id, orderInput({ email: shopper.email }), context)),
    );
    const placed = results.filter((result) => result.status === 'fulfilled');
    const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    expect(placed).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const reason of refused) expect(reason).toMatchObject({ status: 422, intlError: 'promo-used-up' });
    expect(await usesOf(row.id)).toBe(5);
    const withCode = await db.select().from(orders).where(eq(orders.promoCodeId, row.id));
    expect(withCode).toHaveLength(5);
  });
});
