import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToBasket, enterBasketPromo } from '../cart/service.ts';
import { auditLog } from '../db/schema.ts';
import { createOrder, paymentAmounts, recordPayment } from '../orders/service.ts';
import type { AdminPromoCode, listPromoCodes } from '../promo/admin.ts';
import { signedInAdmin } from '../testing/admin.ts';
import { createTestApp } from '../testing/app.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { newShopper, orderInput } from '../testing/orders.ts';
import { setStock } from '../testing/stock.ts';

let shop: Awaited<ReturnType<typeof createTestApp>>;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
let admin: Record<string, string>;

beforeAll(async () => {
  shop = await createTestApp();
  fixtures = await insertCatalogue(shop.db);
  admin = await signedInAdmin(shop);
});
afterAll(() => shop?.close());

async function call<T = Record<string, unknown>>(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  options: { cookies?: Record<string, string>; payload?: object; locale?: string } = {},
) {
  const response = await shop.app.inject({
    method,
    url: `${url}?locale=${options.locale ?? 'en'}`,
    ...(options.cookies ? { cookies: options.cookies } : {}),
    ...(options.payload ? { payload: options.payload } : {}),
  });
  return { status: response.statusCode, body: response.json() as T & Record<string, unknown> };
}

const input = (overrides: Record<string, unknown> = {}) => ({
  code: 'WINTER10',
  kind: 'percent',
  value: '10',
  min_order: '',
  starts_at: '',
  ends_at: '',
  total_limit: '5',
  per_customer_limit: '1',
  applies_to_drops: false,
  projects: [],
  categories: [],
  products: [],
  ...overrides,
});

describe('promo codes in the back office', () => {
  it('refuses guests', async () => {
    expect((await call('GET', '/api/admin/promo-codes')).status).toBe(401);
    expect((await call('POST', '/api/admin/promo-codes', { payload: input() })).status).toBe(401);
  });

  it('creates a code, refuses the same name in another case and bad values in the staff member’s language', async () => {
    const created = await call<{ promoCode: AdminPromoCode }>('POST', '/api/admin/promo-codes', {
      cookies: admin,
      payload: input(),
    });
    expect(created.status).toBe(200);
    expect(created.body.promoCode).toMatchObject({
      code: 'WINTER10',
      kind: 'percent',
      value: 10,
      uses: 0,
      state: 'active',
    });
    const taken = await call('POST', '/api/admin/promo-codes', {
      cookies: admin,
      payload: input({ code: 'winter10' }),
      locale: 'ru',
    });
    expect(taken).toMatchObject({
      status: 409,
      body: { errors: { code: ['Промокод с таким названием уже есть.'] } },
    });
    const bad = await call('POST', '/api/admin/promo-codes', {
      cookies: admin,
      payload: input({
        code: 'BAD',
        value: '150',
        starts_at: '2026-12-02T00:00:00Z',
        ends_at: '2026-12-01T00:00:00Z',
      }),
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({
      value: ['A percent is a whole number from 1 to 100.'],
      ends_at: ['The end must come after the start.'],
    });
    const [audit] = await shop.db.select().from(auditLog).where(eq(auditLog.entity, 'promo-code'));
    expect(audit).toMatchObject({ action: 'create', entityId: String(created.body.promoCode.id) });
  });

  it('edits over the version, pauses and resumes; a basket holding a paused code is told why', async () => {
    const { body } = await call<{ promoCode: AdminPromoCode }>('POST', '/api/admin/promo-codes', {
      cookies: admin,
      payload: input({ code: 'SPRING', kind: 'amount', value: '300' }),
    });
    const code = body.promoCode;
    expect(code).toMatchObject({ kind: 'amount', value: 300 });
    const edited = await call<{ promoCode: AdminPromoCode }>('PATCH', `/api/admin/promo-codes/${code.id}`, {
      cookies: admin,
      payload: { ...input({ code: 'SPRING', kind: 'amount', value: '250.50' }), version: code.version },
    });
    expect(edited.body.promoCode).toMatchObject({ value: 250.5, version: code.version + 1 });
    const stale = await call('PATCH', `/api/admin/promo-codes/${code.id}`, {
      cookies: admin,
      payload: { ...input({ code: 'SPRING' }), version: code.version },
    });
    expect(stale.status).toBe(409);

    const wolf = fixtures.id('wolf-shirt');
    await setStock(shop.db, wolf, 10);
    const post = (url: string, payload: object) =>
      shop.app.inject({ method: 'POST', url, payload, cookies: guest });
    let guest: Record<string, string> = {};
    const first = await shop.app.inject({ method: 'POST', url: '/api/basket', payload: { product: wolf } });
    guest = Object.fromEntries(first.cookies.map((cookie) => [cookie.name, cookie.value]));
    expect((await post('/api/basket/promo', { code: 'spring' })).statusCode).toBe(200);
    const basket = async () =>
      (await shop.app.inject({ method: 'GET', url: '/api/basket?locale=ru', cookies: guest })).json();
    expect((await basket()).promo).toEqual({
      code: 'SPRING',
      discount: 250.5,
      lines: { [wolf]: 250.5 },
      refused: null,
    });

    const paused = await call<{ promoCode: AdminPromoCode }>(
      'POST',
      `/api/admin/promo-codes/${code.id}/pause`,
      {
        cookies: admin,
        payload: { paused: true, version: code.version + 1 },
      },
    );
    expect(paused.body.promoCode).toMatchObject({ paused: true, state: 'paused' });
    expect((await basket()).promo).toMatchObject({ discount: 0, refused: 'promo-paused' });
    const unknown = await post('/api/basket/promo', { code: 'nothing' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({
      errors: { promo: ['There is no such promo code. Check how it is spelt.'] },
    });
    await call('POST', `/api/admin/promo-codes/${code.id}/pause`, {
      cookies: admin,
      payload: { paused: false, version: code.version + 2 },
    });
    expect((await basket()).promo).toMatchObject({ refused: null });
    await shop.app.inject({ method: 'DELETE', url: '/api/basket/promo', cookies: guest });
    expect((await basket()).promo).toBeUndefined();
  });

  it('lists uses and the revenue of paid orders, and each code’s orders', async () => {
    const { body } = await call<{ promoCode: AdminPromoCode }>('POST', '/api/admin/promo-codes', {
      cookies: admin,
      payload: input({ code: 'PAID', total_limit: '', per_customer_limit: '' }),
    });
    const outlaw = fixtures.id('outlaw-shirt');
    await setStock(shop.db, outlaw, 10);
    const placed = [];
    for (let index = 0; index < 2; index++) {
      const shopper = await newShopper(shop.db);
      await addToBasket(shop.db, { userId: shopper.id }, outlaw);
      await enterBasketPromo(shop.db, { userId: shopper.id }, 'paid');
      placed.push(
        await createOrder(shop.db, shopper.id, orderInput({ email: shopper.email }), {
          deliveryCost: 350_00,
          usdRate: 90,
          expiresMinutes: 60,
        }),
      );
    }
    const [paidOrder] = placed;
    if (!paidOrder) throw new Error('no order');
    await recordPayment(shop.db, {
      orderId: paidOrder.id,
      provider: 'robokassa',
      externalId: `promo-${paidOrder.id}`,
      providerStatus: 'paid',
      amountMinor: paymentAmounts(paidOrder).totalMinor,
      currency: 'RUB',
      raw: {},
    });
    const list = await call<{ promoCodes: Awaited<ReturnType<typeof listPromoCodes>> }>(
      'GET',
      '/api/admin/promo-codes',
      { cookies: admin },
    );
    // 3100 ₽ less 10 % is 2790 ₽, and 350 ₽ of delivery: one paid order of the two placed.
    expect(list.body.promoCodes.find((code) => code.code === 'PAID')).toMatchObject({
      uses: 2,
      paid_orders: 1,
      revenue: 3140,
      discount_given: 310,
    });
    const detail = await call<{ promoCode: AdminPromoCode }>(
      'GET',
      `/api/admin/promo-codes/${body.promoCode.id}`,
      {
        cookies: admin,
      },
    );
    expect(detail.body.promoCode.orders.map((order) => order.id)).toEqual(placed.map((order) => order.id));
  });
});
