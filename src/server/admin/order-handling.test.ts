import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../accounts/passwords.ts';
import {
  auditLog,
  feedback,
  orderItems,
  orders,
  products,
  reviews,
  staffNotes,
  users,
} from '../db/schema.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { ORDERS_PAGE_SIZE } from '../orders/staff-orders.ts';
import { createTestApp } from '../testing/app.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { setStock } from '../testing/stock.ts';

/**
 * The back office's order desk (issue 19, points 3, 8 and 12): notes on an order, the packing
 * slip, the dashboard's figures, the last page for a page past the end, and write-offs.
 */

let shop: Awaited<ReturnType<typeof createTestApp>>;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
type Role = 'manager' | 'customer' | 'guest';
const sessions: Record<Exclude<Role, 'guest'>, string> = { manager: '', customer: '' };
const PASSWORD = 'desk password 1';

beforeAll(async () => {
  shop = await createTestApp();
  fixtures = await insertCatalogue(shop.db);
  const passwordHash = await hashPassword(PASSWORD);
  await shop.db.insert(users).values([
    { email: 'manager@example.com', passwordHash, role: 'manager', emailVerifiedAt: new Date() },
    { email: 'customer@example.com', passwordHash, emailVerifiedAt: new Date() },
  ]);
  for (const role of ['manager', 'customer'] as const) {
    const login = await shop.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: `${role}@example.com`, password: PASSWORD },
    });
    sessions[role] = login.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value ?? '';
  }
});
afterAll(() => shop.close());
beforeEach(async () => {
  await shop.db.delete(orders);
});

const call = async (
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  payload?: object,
  role: Role = 'manager',
) => {
  const response = await shop.app.inject({
    method,
    url,
    ...(payload ? { payload } : {}),
    cookies: role === 'guest' ? {} : { [SESSION_COOKIE]: sessions[role] },
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
};

const DAY = 24 * 3600_000;

/** An order with items as checkout stores them: names in both languages, options, SKU, prices. */
async function insertOrder(
  values: Partial<typeof orders.$inferInsert> = {},
  items: Array<{ link: string; count: number; price?: number; sku?: string; options?: boolean }> = [
    { link: 'wolf-shirt', count: 2, sku: 'WOLF-L', options: true },
    { link: 'wolf-mug', count: 1 },
  ],
) {
  const [order] = await shop.db
    .insert(orders)
    .values({
      locale: 'ru',
      email: 'buyer@example.com',
      firstName: 'Анна',
      lastName: 'Петрова',
      phone: '+7 900 000-00-00',
      deliveryMethod: 'boxberry',
      deliveryCountry: 'RU',
      deliveryCity: 'Казань',
      deliveryAddress: 'ул. Баумана, 1',
      deliveryZip: '420111',
      comment: 'Пункт выдачи на Баумана',
      paymentMethod: 'robokassa',
      productsCost: 5000_00,
      productsAmount: 5000_00,
      deliveryCost: 350_00,
      expiresAt: new Date(Date.now() + 3600_000),
      ...values,
    })
    .returning();
  if (!order) throw new Error('order insert failed');
  const [wolfShirt, wolfMug] = await Promise.all(
    ['wolf-shirt', 'wolf-mug'].map(async (link) => {
      const [row] = await shop.db.select().from(products).where(eq(products.link, link));
      return row;
    }),
  );
  const byLink = { 'wolf-shirt': wolfShirt, 'wolf-mug': wolfMug } as Record<string, typeof wolfShirt>;
  if (items.length === 0) return order;
  await shop.db.insert(orderItems).values(
    items.map((item) => {
      const product = byLink[item.link];
      if (!product) throw new Error(`no fixture ${item.link}`);
      return {
        orderId: order.id,
        productId: product.id,
        sku: item.sku ?? product.link,
        options: item.options ? [{ nameRu: 'Размер', nameEn: 'Size', valueRu: 'L', valueEn: 'L' }] : [],
        nameRu: product.nameRu,
        nameEn: product.nameEn,
        price: item.price ?? product.price,
        sale: null,
        count: item.count,
      };
    }),
  );
  return order;
}

describe('notes on an order', () => {
  it('keeps every note with its author and time, oldest first, and shows the newest as the manager comment', async () => {
    const order = await insertOrder({ status: 1 });
    const first = await call('POST', `/api/admin/orders/${order.id}/notes`, {
      body: 'Звонила, просит упаковать отдельно',
    });
    expect(first.status).toBe(200);
    const second = await call('POST', `/api/admin/orders/${order.id}/notes`, { body: '  Packed twice  ' });
    expect(second.body.notes).toEqual([
      {
        id: expect.any(Number),
        body: 'Звонила, просит упаковать отдельно',
        author: 'manager@example.com',
        date: expect.any(String),
      },
      {
        id: expect.any(Number),
        body: 'Packed twice',
        author: 'manager@example.com',
        date: expect.any(String),
      },
    ]);
    const detail = (await call('GET', `/api/admin/orders/${order.id}`)).body.order as Record<string, unknown>;
    expect(detail).toMatchObject({ manager_comment: 'Packed twice', comment: 'Пункт выдачи на Баумана' });
    expect(detail.notes).toEqual(second.body.notes);
    const audited = await shop.db.select().from(auditLog).where(eq(auditLog.entity, 'order-note'));
    expect(audited.map((entry) => entry.after)).toContainEqual({ orderId: order.id, body: 'Packed twice' });
  });

  it("takes the spec's manager_comment as a new note, whatever version the editor loaded, and never overwrites one", async () => {
    const order = await insertOrder({ status: 3 });
    const loaded = (await call('GET', `/api/admin/orders/${order.id}`)).body.order as { version: number };
    await call('PATCH', `/api/admin/orders/${order.id}`, { version: loaded.version, track_code: 'RA1' });
    const stale = await call('PATCH', `/api/admin/orders/${order.id}`, {
      version: loaded.version,
      manager_comment: 'Call before delivery',
    });
    expect(stale.status).toBe(200);
    // The same text again adds nothing; a different one is a second note.
    await call('PATCH', `/api/admin/orders/${order.id}`, {
      version: loaded.version,
      manager_comment: 'Call before delivery',
    });
    await call('PATCH', `/api/admin/orders/${order.id}`, {
      version: loaded.version,
      manager_comment: 'Fragile',
    });
    const notes = await shop.db.select().from(staffNotes).where(eq(staffNotes.orderId, order.id));
    expect(notes.map((note) => note.body)).toEqual(['Call before delivery', 'Fragile']);
    expect((await call('GET', `/api/admin/orders/${order.id}`)).body.order).toMatchObject({
      track_code: 'RA1',
      manager_comment: 'Fragile',
    });
  });

  it('refuses an empty note in the admin’s language, a note on a missing order, and customers and guests', async () => {
    const order = await insertOrder();
    const empty = await call('POST', `/api/admin/orders/${order.id}/notes?locale=ru`, { body: '   ' });
    expect(empty.status).toBe(422);
    expect(empty.body).toMatchObject({ success: false, errors: { body: ['Это поле обязательно.'] } });
    const english = await call('POST', `/api/admin/orders/${order.id}/notes?locale=en`, { body: '' });
    expect(english.body).toMatchObject({ errors: { body: ['This field is required.'] } });
    expect((await call('POST', `/api/admin/orders/${order.id + 1000}/notes`, { body: 'x' })).status).toBe(
      404,
    );
    expect(
      (await call('POST', `/api/admin/orders/${order.id}/notes`, { body: 'x' }, 'customer')).status,
    ).toBe(403);
    expect((await call('POST', `/api/admin/orders/${order.id}/notes`, { body: 'x' }, 'guest')).status).toBe(
      401,
    );
    expect(await shop.db.select().from(staffNotes).where(eq(staffNotes.orderId, order.id))).toEqual([]);
  });
});

describe('packing slip', () => {
  it('lists where the order goes and each item with SKU, options and count, in the language asked', async () => {
    const order = await insertOrder({ status: 1 });
    const english = await call('GET', `/api/admin/orders/${order.id}/packing-slip?locale=en`);
    expect(english.status).toBe(200);
    expect(english.body).toMatchObject({
      shop: { email: 'shop@vitrina.example' },
      slip: {
        id: order.id,
        date: order.createdAt.toISOString(),
        shipTo: {
          name: 'Анна Петрова',
          phone: '+7 900 000-00-00',
          country: 'RU',
          city: 'Казань',
          zip: '420111',
          address: 'ул. Баумана, 1',
          deliveryMethod: 'boxberry',
        },
        comment: 'Пункт выдачи на Баумана',
        items: [
          { name: 'Wolf T-shirt', options: 'Size: L', sku: 'WOLF-L', count: 2 },
          { name: 'Wolf mug', options: null, sku: 'wolf-mug', count: 1 },
        ],
        units: 3,
      },
    });
    const russian = await call('GET', `/api/admin/orders/${order.id}/packing-slip?locale=ru`);
    expect(
      (russian.body.slip as { items: Array<{ name: string; options: string | null }> }).items[0],
    ).toMatchObject({
      options: 'Размер: L',
    });
    expect((russian.body.slip as { items: Array<{ name: string }> }).items[0]?.name).not.toBe('Wolf T-shirt');
  });

  it('answers 404 for a missing order and refuses customers and guests', async () => {
    const order = await insertOrder();
    expect((await call('GET', `/api/admin/orders/${order.id + 1000}/packing-slip`)).status).toBe(404);
    expect(
      (await call('GET', `/api/admin/orders/${order.id}/packing-slip`, undefined, 'customer')).status,
    ).toBe(403);
    expect((await call('GET', `/api/admin/orders/${order.id}/packing-slip`, undefined, 'guest')).status).toBe(
      401,
    );
  });
});

describe('dashboard', () => {
  it('counts paid orders to ship and unread feedback, and ranks the products of orders paid in 30 days', async () => {
    await shop.db.delete(feedback);
    await shop.db.insert(feedback).values([
      { name: 'A', email: 'a@example.com', message: 'unread' },
      { name: 'B', email: 'b@example.com', message: 'unread too' },
      { name: 'C', email: 'c@example.com', message: 'read', readAt: new Date() },
    ]);
    const now = Date.now();
    const paid = (days: number) => new Date(now - days * DAY);
    // Paid within 30 days: 1, 3, 4 are to ship; 5 shipped and 6 special are not, but they sold.
    await insertOrder({ status: 1, paidAt: paid(1) }, [{ link: 'wolf-mug', count: 3, price: 500_00 }]);
    await insertOrder({ status: 3, paidAt: paid(2) }, [{ link: 'wolf-shirt', count: 1, price: 2000_00 }]);
    await insertOrder({ status: 4, paidAt: paid(3) }, [{ link: 'wolf-mug', count: 1, price: 500_00 }]);
    await insertOrder({ status: 5, paidAt: paid(10) }, [{ link: 'wolf-shirt', count: 1, price: 2000_00 }]);
    await insertOrder({ status: 6, paidAt: paid(12) }, [{ link: 'wolf-mug', count: 1, price: 500_00 }]);
    // Not counted: unpaid, cancelled (refunded), paid too long ago.
    await insertOrder({ status: 0 }, [{ link: 'wolf-shirt', count: 9 }]);
    await insertOrder({ status: 2, paidAt: paid(5) }, [{ link: 'wolf-shirt', count: 9 }]);
    await insertOrder({ status: 5, paidAt: paid(40) }, [{ link: 'wolf-shirt', count: 9 }]);

    const board = await call('GET', '/api/admin/dashboard?locale=en');
    expect(board.body).toMatchObject({
      toShip: 3,
      unreadFeedback: 2,
      topProducts: [
        { id: fixtures.id('wolf-mug'), name: 'Wolf mug', units: 5, revenue: 2500 },
        { id: fixtures.id('wolf-shirt'), name: 'Wolf T-shirt', units: 2, revenue: 4000 },
      ],
    });
    expect(await shop.services.backOffice.ordersToShip()).toBe(3);
    const russian = await call('GET', '/api/admin/dashboard?locale=ru');
    expect((russian.body.topProducts as Array<{ name: string }>)[0]?.name).not.toBe('Wolf mug');
    expect((await call('GET', '/api/admin/dashboard', undefined, 'customer')).status).toBe(403);
  });
});

describe('a page past the end', () => {
  it('shows the last page of every back-office list', async () => {
    for (let index = 0; index < ORDERS_PAGE_SIZE + 3; index++) await insertOrder({ status: 1 }, []);
    await shop.db.insert(feedback).values({ name: 'Z', email: 'z@example.com', message: 'hello' });
    const [reviewer] = await shop.db.select().from(users).where(eq(users.email, 'customer@example.com'));
    await shop.db
      .insert(reviews)
      .values({ productId: fixtures.id('wolf-mug'), userId: reviewer?.id ?? 0, rating: 5, body: 'Good mug' })
      .onConflictDoNothing();
    for (const list of ['orders', 'products', 'customers', 'audit', 'feedback', 'reviews']) {
      const answer = await call('GET', `/api/admin/${list}?page=999&status=`);
      expect(answer.status, list).toBe(200);
      const { currentPage, lastPage } = answer.body as { currentPage: number; lastPage: number };
      expect(currentPage, list).toBe(lastPage);
      const rows = (answer.body.list ?? answer.body.entries) as unknown[];
      expect(rows.length, list).toBeGreaterThan(0);
    }
    const orderPages = await call('GET', '/api/admin/orders?page=999&status=');
    expect(orderPages.body).toMatchObject({ currentPage: 2, lastPage: 2 });
    expect(orderPages.body.list).toHaveLength(3);
  });
});

describe('write-offs', () => {
  it('refuses to write off more than the stock, in the admin’s language, and changes nothing', async () => {
    const outlaw = fixtures.id('outlaw-shirt');
    await setStock(shop.db, outlaw, 3);
    const current = (await call('GET', `/api/admin/products/${outlaw}`)).body.product as Record<
      string,
      unknown
    >;
    for (const [locale, text] of [
      ['en', 'You cannot write off more units than are in stock.'],
      ['ru', 'Нельзя списать больше, чем есть на складе.'],
    ] as const) {
      const refused = await call('PATCH', `/api/admin/products/${outlaw}?locale=${locale}`, {
        ...current,
        name_en: 'Renamed meanwhile',
        quantity: -5,
      });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ success: false, errors: { quantity: [text] } });
    }
    expect((await call('GET', `/api/admin/products/${outlaw}`)).body.product).toMatchObject({
      currentQuantity: 3,
      name_en: current.name_en,
      version: current.version,
    });
    const allOfIt = await call('PATCH', `/api/admin/products/${outlaw}`, { ...current, quantity: -3 });
    expect(allOfIt.body.product).toMatchObject({ currentQuantity: 0 });
  });
});
