import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../accounts/passwords.ts';
import { addToBasket } from '../cart/service.ts';
import {
  auditLog,
  categories,
  mails,
  orders,
  paymentTransactions,
  productCategories,
  products,
  users,
  wishlistItems,
} from '../db/schema.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { createOrder } from '../orders/service.ts';
import { createTestApp } from '../testing/app.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { setStock } from '../testing/stock.ts';
import { adminAuditRoutes } from './audit-routes.ts';
import { adminCatalogueRoutes } from './catalogue-routes.ts';
import { adminDashboardRoutes } from './dashboard-routes.ts';
import { adminOrderPaymentRoutes } from './order-payment-routes.ts';
import { adminOrderRoutes } from './order-routes.ts';
import { adminProductRoutes } from './product-routes.ts';
import { adminSearchRoutes } from './search-routes.ts';

let shop: Awaited<ReturnType<typeof createTestApp>>;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
const sessions: Record<'admin' | 'shopper', string> = { admin: '', shopper: '' };
const PASSWORD = 'admin password 1';

beforeAll(async () => {
  shop = await createTestApp();
  fixtures = await insertCatalogue(shop.db);
  const passwordHash = await hashPassword(PASSWORD);
  await shop.db.insert(users).values([
    { email: 'admin@example.com', passwordHash, role: 'admin', emailVerifiedAt: new Date() },
    { email: 'shopper@example.com', passwordHash, emailVerifiedAt: new Date(), locale: 'en' },
  ]);
  for (const [role, email] of [
    ['admin', 'admin@example.com'],
    ['shopper', 'shopper@example.com'],
  ] as const) {
    const login = await shop.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email, password: PASSWORD },
    });
    sessions[role] = login.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value ?? '';
  }
});
afterAll(() => shop.close());

const call = async (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
  role: 'admin' | 'shopper' | 'guest' = 'admin',
) => {
  const response = await shop.app.inject({
    method,
    url,
    ...(payload ? { payload } : {}),
    cookies: role === 'guest' ? {} : { [SESSION_COOKIE]: sessions[role] },
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
};

describe('authorization sweep', () => {
  const routes = [
    adminCatalogueRoutes,
    adminProductRoutes,
    adminOrderRoutes,
    adminOrderPaymentRoutes,
    adminDashboardRoutes,
    adminAuditRoutes,
    adminSearchRoutes,
  ].flatMap((area) => area({} as never));

  it('covers every admin route', () => {
    expect(routes.length).toBeGreaterThan(15);
    expect(routes.every((route) => route.access !== undefined && route.url.startsWith('/api/admin/'))).toBe(
      true,
    );
    // Deleting data is an admin's call, not a manager's.
    expect(
      routes.filter((route) => route.method === 'DELETE').every((route) => route.access === 'admin'),
    ).toBe(true);
  });

  it.each(routes.map((route) => [route.method, route.url] as const))(
    '%s %s refuses guests and shoppers',
    async (method, url) => {
      const path = url.replace(':id', String(fixtures.id('wolf-shirt')));
      const guest = await call(method, path, method === 'GET' ? undefined : {}, 'guest');
      expect(guest.status).toBe(401);
      const shopper = await call(method, path, method === 'GET' ? undefined : {}, 'shopper');
      expect(shopper.status).toBe(403);
      expect(shopper.body).toMatchObject({ success: false });
    },
  );
});

describe('catalogue administration', () => {
  it('creates a project, a category and a product that shows in the shop in both languages', async () => {
    const project = await call('POST', '/api/admin/projects', {
      name_ru: 'Лунный свет',
      name_en: 'Moonlight',
      link: 'moonlight',
    });
    expect(project.status).toBe(200);
    const projectId = (project.body.project as { id: number }).id;
    const category = await call('POST', '/api/admin/categories', {
      name_ru: 'Значки',
      name_en: 'Pins',
      link: 'pins',
    });
    const categoryId = (category.body.category as { id: number }).id;
    const product = await call('POST', '/api/admin/products', {
      project: projectId,
      categories: [categoryId],
      name_ru: 'Значок «Луна»',
      name_en: 'Moon pin',
      desc_ru: '<p>Эмаль</p><script>alert(1)</script>',
      desc_en: '<p onclick="x()">Enamel</p>',
      link: 'moon-pin',
      images: ['moon-1.webp'],
      price: 490,
      sale: '',
      weight: 30,
      quantity: 12,
    });
    expect(product.status).toBe(200);
    expect(product.body.product).toMatchObject({
      currentQuantity: 12,
      desc_ru: '<p>Эмаль</p>',
      desc_en: '<p>Enamel</p>',
    });

    const ru = await call('GET', '/api/product?locale=ru&link=moon-pin');
    expect(ru.body.product).toMatchObject({
      name: 'Значок «Луна»',
      price: 490,
      inStock: 12,
      categories: [categoryId],
    });
    const en = await call('GET', '/api/category?locale=en&link=pins');
    expect((en.body.products as Array<{ name: string }>).map((item) => item.name)).toEqual(['Moon pin']);
  });

  it('refuses a taken link and a sale not below the price, changing nothing', async () => {
    const taken = await call('POST', '/api/admin/categories', {
      name_ru: 'А',
      name_en: 'A',
      link: 't-shirts',
    });
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toMatchObject({ link: [expect.any(String)] });
    const wolf = fixtures.id('wolf-shirt');
    const current = (await call('GET', `/api/admin/products/${wolf}`)).body.product as Record<
      string,
      unknown
    >;
    const bad = await call('PATCH', `/api/admin/products/${wolf}`, { ...current, sale: 5000 });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({ sale: [expect.any(String)] });
  });

  it('adds stock as a delta, sets it with quantityHardset, and the shop shows it at once', async () => {
    const outlaw = fixtures.id('outlaw-shirt');
    const current = (await call('GET', `/api/admin/products/${outlaw}`)).body.product as Record<
      string,
      unknown
    >;
    expect((await call('GET', '/api/product?locale=en&link=outlaw-shirt')).body.product).toMatchObject({
      inStock: 3,
    });
    const added = await call('PATCH', `/api/admin/products/${outlaw}`, { ...current, quantity: 5 });
    expect(added.body.product).toMatchObject({ currentQuantity: 8 });
    expect((await call('GET', '/api/product?locale=en&link=outlaw-shirt')).body.product).toMatchObject({
      inStock: 8,
    });
    const set = await call('PATCH', `/api/admin/products/${outlaw}`, {
      ...(added.body.product as object),
      quantity: 2,
      quantityHardset: '1',
      quantity_seen: 8,
    });
    expect(set.body.product).toMatchObject({ currentQuantity: 2 });
    const untouched = await call('PATCH', `/api/admin/products/${outlaw}`, {
      ...(set.body.product as object),
      quantity: '',
    });
    expect(untouched.body.product).toMatchObject({ currentQuantity: 2 });
  });

  it('making an envisioned product available mails its fans once', async () => {
    const statue = fixtures.id('outlaw-statue');
    const [fan] = await shop.db.select().from(users).where(eq(users.email, 'shopper@example.com'));
    await shop.db.insert(wishlistItems).values({ userId: fan?.id ?? 0, productId: statue });
    const current = (await call('GET', `/api/admin/products/${statue}`)).body.product as Record<
      string,
      unknown
    >;
    const available = await call('PATCH', `/api/admin/products/${statue}`, {
      ...current,
      envisioned: false,
      quantity: 4,
      quantityHardset: true,
      quantity_seen: current.currentQuantity,
    });
    const envisioned = await call('PATCH', `/api/admin/products/${statue}`, {
      ...(available.body.product as object),
      envisioned: true,
    });
    await call('PATCH', `/api/admin/products/${statue}`, {
      ...(envisioned.body.product as object),
      envisioned: false,
    });
    const sent = await shop.db.select().from(mails).where(eq(mails.template, 'envisioned-available'));
    expect(sent.map((mail) => mail.to)).toEqual(['shopper@example.com']);
  });

  it('records each change in the audit log with before and after', async () => {
    const log = await call('GET', '/api/admin/audit?entity=product');
    const entries = log.body.entries as Array<{
      actor: string;
      action: string;
      before: unknown;
      after: unknown;
    }>;
    expect(entries.length).toBeGreaterThanOrEqual(4);
    expect(entries.every((entry) => entry.actor === 'admin@example.com')).toBe(true);
    // Once the staff member's account has a name, every entry names them too.
    await shop.db
      .update(users)
      .set({ firstName: 'Вера', lastName: 'Кольцова' })
      .where(eq(users.email, 'admin@example.com'));
    const named = (await call('GET', '/api/admin/audit?entity=product')).body.entries as Array<{
      actorName: string | null;
    }>;
    expect(named.length).toBe(entries.length);
    expect(named.every((entry) => entry.actorName === 'Вера Кольцова')).toBe(true);
    const update = entries.find((entry) => entry.action === 'update');
    expect(update?.before).toBeTruthy();
    expect(update?.after).toBeTruthy();
    expect((await shop.db.select().from(auditLog)).length).toBeGreaterThanOrEqual(6);
  });

  it('filters the audit log by the person who made the change and by a period', async () => {
    const [colleague] = await shop.db
      .insert(users)
      .values({ email: 'colleague@example.com', passwordHash: 'x', role: 'manager', firstName: 'Ян' })
      .returning({ id: users.id });
    const colleagueId = colleague?.id ?? 0;
    await shop.db.insert(auditLog).values([
      {
        actorId: colleagueId,
        action: 'update',
        entity: 'product',
        entityId: '1',
        createdAt: new Date('2026-03-01T10:00:00Z'),
      },
      {
        actorId: colleagueId,
        action: 'update',
        entity: 'category',
        entityId: '2',
        createdAt: new Date('2026-03-02T20:30:00Z'),
      },
    ]);
    type Log = {
      actors: Array<{ id: number; email: string; name: string | null }>;
      entries: Array<{ actor: string; entity: string }>;
    };
    const byColleague = (await call('GET', `/api/admin/audit?actorId=${colleagueId}`)).body as unknown as Log;
    expect(byColleague.entries.map((entry) => [entry.actor, entry.entity])).toEqual([
      ['colleague@example.com', 'category'],
      ['colleague@example.com', 'product'],
    ]);
    expect(byColleague.actors).toContainEqual({
      id: colleagueId,
      email: 'colleague@example.com',
      name: 'Ян',
    });
    expect(byColleague.actors.map((actor) => actor.email)).toContain('admin@example.com');

    // A day in Moscow (UTC+3), 2 March 00:00 to 3 March 00:00 there: the change made at 23:30 on it.
    const day = new URLSearchParams({ from: '2026-03-01T21:00:00.000Z', to: '2026-03-02T21:00:00.000Z' });
    const onDay = (await call('GET', `/api/admin/audit?${day}`)).body as unknown as Log;
    expect(onDay.entries.map((entry) => entry.entity)).toEqual(['category']);
    const empty = (await call('GET', `/api/admin/audit?actorId=&from=&to=&entity=category`))
      .body as unknown as Log;
    expect(empty.entries.map((entry) => entry.actor)).toContain('colleague@example.com');
    expect((await call('GET', '/api/admin/audit?from=yesterday')).status).toBe(422);
  });
});

describe('deleting a category', () => {
  const productsIn = async (categoryId: number) =>
    (
      await shop.db
        .select({ productId: productCategories.productId })
        .from(productCategories)
        .where(eq(productCategories.categoryId, categoryId))
    )
      .map((row) => row.productId)
      .sort((a, b) => a - b);

  it('refuses a category with products, saying how many, and changes nothing', async () => {
    const { shirts } = fixtures.categories;
    const inShirts = await productsIn(shirts.id);
    expect(inShirts.length).toBeGreaterThan(1);
    const refused = await call('DELETE', `/api/admin/categories/${shirts.id}?locale=ru`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      success: false,
      products: inShirts.length,
      message: `В категории ещё есть товары: ${inShirts.length}. Сначала перенесите их в другую категорию (или скройте категорию).`,
    });
    const english = await call('DELETE', `/api/admin/categories/${shirts.id}?locale=en`);
    expect(english.body.message).toBe(
      `Products still in this category: ${inShirts.length}. Move them to another category first (or hide the category).`,
    );
    for (const moveTo of [shirts.id, 999_999]) {
      const wrong = await call('DELETE', `/api/admin/categories/${shirts.id}?moveTo=${moveTo}`);
      expect(wrong.status).toBe(422);
      expect(wrong.body.errors).toHaveProperty('moveTo');
    }
    expect(await productsIn(shirts.id)).toEqual(inShirts);
  });

  it('moves its products to the category chosen, then deletes it; an empty one goes at once', async () => {
    const { shirts, mugs } = fixtures.categories;
    const expected = [...new Set([...(await productsIn(shirts.id)), ...(await productsIn(mugs.id))])].sort(
      (a, b) => a - b,
    );
    const moved = await call('DELETE', `/api/admin/categories/${shirts.id}?moveTo=${mugs.id}`);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await productsIn(mugs.id)).toEqual(expected);
    expect(await shop.db.select().from(categories).where(eq(categories.id, shirts.id))).toEqual([]);
    const [audit] = await shop.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'category'), eq(auditLog.entityId, String(shirts.id))));
    expect(audit).toMatchObject({ action: 'delete', after: { products_moved_to: mugs.id } });

    const empty = await call('POST', '/api/admin/categories', {
      name_ru: 'Пусто',
      name_en: 'Empty',
      link: 'empty',
    });
    const emptyId = (empty.body.category as { id: number }).id;
    expect((await call('DELETE', `/api/admin/categories/${emptyId}`)).status).toBe(200);
  });
});

describe('order administration', () => {
  it('finds a paid order by the search fields, ships it with a track code and mails the customer', async () => {
    const [customer] = await shop.db.select().from(users).where(eq(users.email, 'shopper@example.com'));
    const userId = customer?.id ?? 0;
    const wolf = fixtures.id('wolf-shirt');
    await addToBasket(shop.db, { userId }, wolf);
    const order = await createOrder(
      shop.db,
      userId,
      {
        locale: 'en',
        paymentMethod: 'paypal',
        email: 'shopper@example.com',
        firstName: 'Sam',
        lastName: 'Taylor',
        phone: '+1 555 0100',
        deliveryMethod: 'russian_post',
        country: 'US',
        city: 'Boston',
        address: '1 Main St',
        zip: '02101',
        comment: undefined,
      },
      { deliveryCost: 1500_00, usdRate: 90, expiresMinutes: 60 },
    );
    await shop.db.update(orders).set({ status: 3 }).where(eq(orders.id, order.id));

    const defaultFilter = await call('GET', '/api/admin/orders');
    expect((defaultFilter.body.list as Array<{ id: number }>).map((row) => row.id)).toContain(order.id);
    const byFields = await call(
      'GET',
      `/api/admin/orders?status=>2&lastName=tay&country=us&product=Wolf&deliveryMethod=russian_post`,
    );
    expect(byFields.body).toMatchObject({ total: 1, currentPage: 1, lastPage: 1 });
    const cancelledOnly = await call('GET', '/api/admin/orders?status=2');
    expect((cancelledOnly.body.list as Array<{ id: number }>).map((row) => row.id)).not.toContain(order.id);

    const detail = (await call('GET', `/api/admin/orders/${order.id}`)).body.order as Record<string, unknown>;
    expect(detail).toMatchObject({
      email: 'shopper@example.com',
      last_name: 'Taylor',
      delivery_country: 'US',
      status: 3,
    });
    const shipped = await call('PATCH', `/api/admin/orders/${order.id}`, {
      version: detail.version,
      status: 5,
      track_code: 'RA123456789RU',
      delivery_cost_actual: 1380,
      manager_comment: 'Packed twice',
    });
    expect(shipped.body.order).toMatchObject({
      status: 5,
      track_code: 'RA123456789RU',
      delivery_cost_actual: 1380,
    });
    const [mail] = await shop.db.select().from(mails).where(eq(mails.template, 'order-shipped'));
    expect(mail?.text).toContain('RA123456789RU');
    // The status history names the staff member who shipped it; the shop's own moves name nobody.
    const [admin] = await shop.db.select().from(users).where(eq(users.email, 'admin@example.com'));
    const adminName = [admin?.firstName, admin?.lastName].filter(Boolean).join(' ') || 'admin@example.com';
    const history = (shipped.body.order as { history: Array<{ status: number; author: string | null }> })
      .history;
    expect(history.at(-1)).toMatchObject({ status: 5, author: adminName });
    expect(history.filter((entry) => entry.status !== 5).every((entry) => entry.author === null)).toBe(true);
    const badDate = await call('GET', '/api/admin/orders?date=yesterday');
    expect(badDate.status).toBe(422);
  });

  it('offers staff only the allowed next statuses and refuses any other move with a 409 that changes nothing', async () => {
    const [customer] = await shop.db.select().from(users).where(eq(users.email, 'shopper@example.com'));
    const userId = customer?.id ?? 0;
    const wolf = fixtures.id('wolf-shirt');
    await setStock(shop.db, wolf, 10);
    await addToBasket(shop.db, { userId }, wolf);
    const order = await createOrder(
      shop.db,
      userId,
      {
        locale: 'en',
        paymentMethod: 'paypal',
        email: 'shopper@example.com',
        firstName: 'Sam',
        lastName: 'Taylor',
        phone: '+1 555 0100',
        deliveryMethod: 'russian_post',
        country: 'US',
        city: 'Boston',
        address: '1 Main St',
        zip: '02101',
        comment: undefined,
      },
      { deliveryCost: 1500_00, usdRate: 90, expiresMinutes: 60 },
    );
    const detail = async () => (await call('GET', `/api/admin/orders/${order.id}`)).body.order;
    const save = async (status: number, reason?: string) =>
      call('PATCH', `/api/admin/orders/${order.id}`, {
        version: ((await detail()) as { version: number }).version,
        status,
        track_code: '',
        delivery_cost_actual: '',
        manager_comment: 'Call before delivery',
        ...(reason === undefined ? {} : { reason }),
      });
    expect(await detail()).toMatchObject({ status: 0, nextStatuses: [2] });

    const unpaidToProcessing = await save(1);
    expect(unpaidToProcessing.status).toBe(409);
    expect(unpaidToProcessing.body).toMatchObject({
      success: false,
      errors: { status: ['The order cannot move to this status from its current one.'] },
    });
    expect(await detail()).toMatchObject({ status: 0, manager_comment: null });

    await shop.db.update(orders).set({ status: 1, paidAt: new Date() }).where(eq(orders.id, order.id));
    expect(await detail()).toMatchObject({ nextStatuses: [3, 4, 5, 6] });
    expect((await save(0)).status).toBe(409);
    expect((await save(2)).status).toBe(409);
    expect(await detail()).toMatchObject({ status: 1 });
    const processed = await save(3);
    expect(processed.body.order).toMatchObject({ status: 3, manager_comment: 'Call before delivery' });

    // An unpaid order staff cancel gives its units back.
    await shop.db.update(orders).set({ status: 0, paidAt: null }).where(eq(orders.id, order.id));
    await setStock(shop.db, wolf, 9);
    // Cancelling asks why: without a reason nothing changes.
    const unexplained = await save(2);
    expect(unexplained.status).toBe(422);
    expect(unexplained.body).toMatchObject({
      success: false,
      errors: {
        reason: ['Say why the order is cancelled: the customer reads it in the cancellation e-mail.'],
      },
    });
    expect(await detail()).toMatchObject({ status: 0 });
    const cancelled = await save(2, 'Asked by phone to cancel');
    expect(cancelled.body.order).toMatchObject({ status: 2, nextStatuses: [] });
    expect((cancelled.body.order as { history: { reason: string }[] }).history.at(-1)?.reason).toBe(
      'cancelled-by-staff:Asked by phone to cancel',
    );
    const [stock] = await shop.db.select().from(products).where(eq(products.id, wolf));
    expect(stock?.quantity).toBe(10);
  });

  it('refuses to refund an unpaid order or a malformed amount, and lists no payment', async () => {
    const [customer] = await shop.db.select().from(users).where(eq(users.email, 'shopper@example.com'));
    const userId = customer?.id ?? 0;
    await addToBasket(shop.db, { userId }, fixtures.id('wolf-shirt'));
    const order = await createOrder(
      shop.db,
      userId,
      {
        locale: 'en',
        paymentMethod: 'robokassa',
        email: 'shopper@example.com',
        firstName: 'Sam',
        lastName: 'Taylor',
        phone: '+1 555 0100',
        deliveryMethod: 'russian_post',
        country: 'US',
        city: 'Boston',
        address: '1 Main St',
        zip: '02101',
        comment: undefined,
      },
      { deliveryCost: 1500_00, usdRate: 90, expiresMinutes: 60 },
    );
    const unpaid = await call('POST', `/api/admin/orders/${order.id}/refunds`, { restock: [] });
    expect(unpaid).toMatchObject({
      status: 409,
      body: {
        success: false,
        intlError: 'refund-nothing-to-refund',
        message: 'Nothing is left to refund on this order.',
      },
    });
    const malformed = await call('POST', `/api/admin/orders/${order.id}/refunds`, { amount: '12.345' });
    expect(malformed.status).toBe(422);
    const payments = await call('GET', `/api/admin/orders/${order.id}/payments`);
    expect(payments).toMatchObject({
      status: 200,
      // Robokassa charges roubles whatever the language (ADR 0051).
      body: { payments: { currency: 'RUB', paid: '0.00', left: '0.00', list: [] } },
    });
  });

  it('refuses a refund of all that is left without a reason, in the admin’s language, asking no provider', async () => {
    const [customer] = await shop.db.select().from(users).where(eq(users.email, 'shopper@example.com'));
    await addToBasket(shop.db, { userId: customer?.id ?? 0 }, fixtures.id('wolf-shirt'));
    const order = await createOrder(
      shop.db,
      customer?.id ?? 0,
      {
        locale: 'en',
        paymentMethod: 'robokassa',
        email: 'shopper@example.com',
        firstName: 'Sam',
        lastName: 'Taylor',
        phone: '+1 555 0100',
        deliveryMethod: 'russian_post',
        country: 'US',
        city: 'Boston',
        address: '1 Main St',
        zip: '02101',
        comment: undefined,
      },
      { deliveryCost: 1500_00, usdRate: 90, expiresMinutes: 60 },
    );
    // Paid as a verified notification records it (the test app asks no real provider).
    const paid = order.productsCost + order.deliveryCost;
    await shop.db.update(orders).set({ status: 1, paidAt: new Date() }).where(eq(orders.id, order.id));
    await shop.db.insert(paymentTransactions).values({
      orderId: order.id,
      provider: 'robokassa',
      externalId: `paid-${order.id}`,
      providerStatus: 'paid',
      amount: paid,
      currency: 'RUB',
      verified: true,
      raw: {},
    });
    const refunds = `/api/admin/orders/${order.id}/refunds`;
    const english = await call('POST', `${refunds}?locale=en`, { restock: [] });
    expect(english).toMatchObject({
      status: 422,
      body: {
        success: false,
        intlError: 'refund-cancel-reason-required',
        errors: {
          reason: [
            'This refund returns all that is left and cancels the order: say why (the customer reads it in the refund e-mail).',
          ],
        },
      },
    });
    const russian = await call('POST', `${refunds}?locale=ru`, {
      amount: (paid / 100).toFixed(2),
      reason: ' ',
    });
    expect(russian).toMatchObject({
      status: 422,
      body: {
        errors: {
          reason: [
            'Этот возврат отдаёт весь остаток и отменяет заказ: укажите причину (покупатель прочтёт её в письме о возврате).',
          ],
        },
      },
    });
    const payments = await call('GET', `/api/admin/orders/${order.id}/payments`);
    expect(payments.body).toMatchObject({ payments: { refunded: '0.00', list: [{ kind: 'payment' }] } });
    expect((await shop.db.select().from(orders).where(eq(orders.id, order.id)))[0]?.status).toBe(1);
  });

  it('shows the dashboard', async () => {
    const board = await call('GET', '/api/admin/dashboard');
    expect(board.body).toMatchObject({ success: true, last30: expect.any(Array), last90: expect.any(Array) });
    expect((board.body.lowStock as Array<{ quantity: number }>).every((row) => row.quantity <= 3)).toBe(true);
    await setStock(shop.db, fixtures.id('wolf-shirt'), 10);
  });
});
