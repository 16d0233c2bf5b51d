import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toUser } from '../accounts/service.ts';
import { addToBasket } from '../cart/service.ts';
import type { DatabaseConnection } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { cancelOrder, createOrder } from '../orders/service.ts';
import { quoteFingerprint } from '../requests/fresh-quote.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { createTestDatabase } from '../testing/database.ts';
import { newShopper, orderInput } from '../testing/orders.ts';
import { setStock } from '../testing/stock.ts';
import { rememberedRecipient } from './recipient.ts';

let connection: DatabaseConnection;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
beforeAll(async () => {
  connection = await createTestDatabase();
  fixtures = await insertCatalogue(connection.db);
  await setStock(connection.db, fixtures.id('wolf-mug'), 10);
});
afterAll(() => connection.close());

const userRow = async (id: number) => {
  const [row] = await connection.db.select().from(users).where(eq(users.id, id));
  if (!row) throw new Error('no user');
  return toUser(row);
};

describe('the recipient the delivery step starts with', () => {
  it('comes from the last order, cancelled too, when the profile is empty, with its pickup-point method', async () => {
    const { db } = connection;
    const shopper = await newShopper(db);
    expect((await rememberedRecipient(db, shopper.id, await userRow(shopper.id))).recipient).toMatchObject({
      email: shopper.email,
      firstName: '',
      phone: '',
    });
    await addToBasket(db, { userId: shopper.id }, fixtures.id('wolf-mug'));
    const placed = await createOrder(
      db,
      shopper.id,
      orderInput({
        deliveryMethod: 'boxberry',
        address: 'Пункт выдачи: Казань, Баумана 1',
        zip: '420111',
        pickupPointCode: '16004',
      }),
      { deliveryCost: 300_00, usdRate: 90, expiresMinutes: 60 },
    );
    await cancelOrder(db, placed.id, { reason: 'cancelled', userId: shopper.id, returnToBasket: true });
    expect(await rememberedRecipient(db, shopper.id, await userRow(shopper.id))).toEqual({
      recipient: {
        email: shopper.email,
        firstName: 'Anna',
        lastName: 'Petrova',
        phone: '+7 900 000-00-00',
        country: 'RU',
        city: 'Kazan',
        zip: '420111',
        address: 'Пункт выдачи: Казань, Баумана 1',
        pickupPointCode: '16004',
      },
      method: 'boxberry',
    });
  });

  it("prefers the profile's own name, phone and address", async () => {
    const { db } = connection;
    const shopper = await newShopper(db);
    await addToBasket(db, { userId: shopper.id }, fixtures.id('wolf-mug'));
    await createOrder(db, shopper.id, orderInput(), {
      deliveryCost: 300_00,
      usdRate: 90,
      expiresMinutes: 60,
    });
    await db
      .update(users)
      .set({
        firstName: 'Anya',
        phone: '+7 911 111-11-11',
        country: 'KZ',
        city: 'Almaty',
        zip: '050000',
        address: 'Abay 1',
      })
      .where(eq(users.id, shopper.id));
    expect(await rememberedRecipient(db, shopper.id, await userRow(shopper.id))).toEqual({
      recipient: {
        email: shopper.email,
        firstName: 'Anya',
        lastName: 'Petrova',
        phone: '+7 911 111-11-11',
        country: 'KZ',
        city: 'Almaty',
        zip: '050000',
        address: 'Abay 1',
      },
      method: null,
    });
  });
});

describe('what a delivery quote was for', () => {
  const basket = (count: number, price = 1990) => ({
    productList: [7],
    products: { '7': { count, price, sale: null } },
  });
  const address = { country: 'KZ', zip: '050000', city: 'Almaty', address: 'Abay 1' };

  it('changes with a count, a price, the method or the address, and only then', () => {
    const quoted = quoteFingerprint(basket(1), 'russian_post', address);
    expect(quoteFingerprint(basket(1), 'russian_post', { ...address })).toBe(quoted);
    expect(quoteFingerprint(basket(4), 'russian_post', address)).not.toBe(quoted);
    expect(quoteFingerprint(basket(1, 1490), 'russian_post', address)).not.toBe(quoted);
    expect(quoteFingerprint(basket(1), 'boxberry.courier', address)).not.toBe(quoted);
    expect(quoteFingerprint(basket(1), 'russian_post', { ...address, zip: '050001' })).not.toBe(quoted);
    expect(quoteFingerprint(basket(1), 'boxberry', { ...address, pickupPointCode: '16004' })).not.toBe(
      quoteFingerprint(basket(1), 'boxberry', { ...address, pickupPointCode: '16017' }),
    );
  });
});
