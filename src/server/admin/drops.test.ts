import { parse } from 'csv-parse/sync';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductResponse } from '../../contract/catalog.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { addToBasket, setBasketCount } from '../cart/service.ts';
import type { AdminDrop, DropLiveView } from '../catalog/drops.ts';
import { auditLog, drops, products, productVariants, users } from '../db/schema.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { createOrder, paymentAmounts, recordPayment } from '../orders/service.ts';
import { signedInAdmin } from '../testing/admin.ts';
import { createTestApp } from '../testing/app.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { newShopper, orderInput } from '../testing/orders.ts';
import { setStock } from '../testing/stock.ts';
import { giveProductOptions } from '../testing/variants.ts';

let shop: Awaited<ReturnType<typeof createTestApp>>;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
let admin: Record<string, string>;
let manager: Record<string, string>;
let customer: Record<string, string>;
const PASSWORD = 'staff password 1';

async function signedIn(email: string, role: 'manager' | 'customer') {
  await shop.db
    .insert(users)
    .values({ email, role, passwordHash: await hashPassword(PASSWORD), emailVerifiedAt: new Date() });
  const login = await shop.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email, password: PASSWORD },
  });
  return { [SESSION_COOKIE]: login.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value ?? '' };
}

async function call<T = Record<string, unknown>>(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  cookies: Record<string, string> | undefined,
  payload?: object,
  locale = 'en',
) {
  const response = await shop.app.inject({
    method,
    url: `${url}?locale=${locale}`,
    ...(cookies ? { cookies } : {}),
    ...(payload ? { payload } : {}),
  });
  return { status: response.statusCode, body: response.json() as T & Record<string, unknown> };
}

const inHours = (hours: number) => new Date(Date.now() + hours * 3600_000);
const releaseOf = async (productId: number) =>
  (await shop.db.select().from(products).where(eq(products.id, productId)))[0];
const dropInput = (overrides: Record<string, unknown> = {}) => ({
  name_ru: 'Зимний дроп',
  name_en: 'Winter drop',
  release_at: inHours(48).toISOString(),
  hold_minutes: 10,
  per_customer_limit: 2,
  products: [] as number[],
  ...overrides,
});

beforeAll(async () => {
  shop = await createTestApp();
  fixtures = await insertCatalogue(shop.db);
  admin = await signedInAdmin(shop);
  manager = await signedIn('manager@example.com', 'manager');
  customer = await signedIn('customer@example.com', 'customer');
});
afterAll(() => shop.close());

describe('drops in the back office', () => {
  it('refuses guests (401) and customers (403) every drops call, and a manager the deletion', async () => {
    const [drop] = await shop.db
      .insert(drops)
      .values({ nameRu: 'Д', nameEn: 'D', releaseAt: inHours(1) })
      .returning();
    if (!drop) throw new Error('fixture insert failed');
    const calls = [
      ['GET', '/api/admin/drops'],
      ['POST', '/api/admin/drops'],
      ['GET', `/api/admin/drops/${drop.id}`],
      ['GET', `/api/admin/drops/${drop.id}/live`],
      ['PATCH', `/api/admin/drops/${drop.id}`],
      ['DELETE', `/api/admin/drops/${drop.id}`],
    ] as const;
    for (const [method, url] of calls) {
      expect((await call(method, url, undefined, dropInput())).status, `${method} ${url}`).toBe(401);
      expect((await call(method, url, customer, dropInput())).status, `${method} ${url}`).toBe(403);
    }
    const refused = await call('DELETE', `/api/admin/drops/${drop.id}`, manager, undefined, 'ru');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Это может сделать только администратор.');
    expect(await shop.db.select().from(drops).where(eq(drops.id, drop.id))).toHaveLength(1);
    expect((await call('DELETE', `/api/admin/drops/${drop.id}`, admin)).status).toBe(200);
  });

  it('lets a manager schedule a drop of two products: they take its time, it is listed as upcoming, audited', async () => {
    const wolf = fixtures.id('wolf-shirt');
    const outlaw = fixtures.id('outlaw-shirt');
    const releaseAt = inHours(24);
    const created = await call<{ drop: AdminDrop }>(
      'POST',
      '/api/admin/drops',
      manager,
      dropInput({ release_at: releaseAt.toISOString(), products: [wolf, outlaw] }),
    );
    expect(created.status).toBe(200);
    const drop = created.body.drop;
    expect(drop).toMatchObject({
      name_en: 'Winter drop',
      hold_minutes: 10,
      per_customer_limit: 2,
      state: 'upcoming',
      version: 1,
    });
    expect(drop.products.map((product) => product.id).sort()).toEqual([wolf, outlaw].sort());
    expect((await releaseOf(wolf))?.releaseAt).toEqual(releaseAt);
    expect((await releaseOf(outlaw))?.dropId).toBe(drop.id);

    const list = await call<{
      drops: Array<{ id: number; state: string; products: number; unitsLeft: number }>;
    }>('GET', '/api/admin/drops', manager);
    expect(list.body.drops.find((entry) => entry.id === drop.id)).toMatchObject({
      state: 'upcoming',
      products: 2,
      unitsLeft: 10 + 3,
    });
    const [audit] = await shop.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'drop'), eq(auditLog.entityId, String(drop.id))));
    expect(audit?.action).toBe('create');
    expect(audit?.after).toMatchObject({ products: [wolf, outlaw].sort((a, b) => a - b) });

    // Moving the drop moves its products; one taken out keeps the time it had; a stale save is refused.
    const later = inHours(30);
    const edited = await call<{ drop: AdminDrop }>(
      'PATCH',
      `/api/admin/drops/${drop.id}`,
      manager,
      dropInput({ release_at: later.toISOString(), products: [wolf], version: drop.version }),
    );
    expect(edited.status).toBe(200);
    expect(edited.body.drop.version).toBe(2);
    expect((await releaseOf(wolf))?.releaseAt).toEqual(later);
    expect(await releaseOf(outlaw)).toMatchObject({ dropId: null, releaseAt: releaseAt });
    const stale = await call('PATCH', `/api/admin/drops/${drop.id}`, manager, {
      ...dropInput({ products: [wolf, outlaw] }),
      version: drop.version,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.errors).toHaveProperty('version');
    expect((await releaseOf(outlaw))?.dropId).toBeNull();

    // Deleting it (an admin): its products stay, out of any drop, still scheduled.
    expect((await call('DELETE', `/api/admin/drops/${drop.id}`, admin)).status).toBe(200);
    expect(await releaseOf(wolf)).toMatchObject({ dropId: null, releaseAt: later });
    expect((await call('GET', `/api/admin/drops/${drop.id}`, manager)).status).toBe(404);
    const history = await shop.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'drop'), eq(auditLog.entityId, String(drop.id))))
      .orderBy(auditLog.id);
    expect(history.map((entry) => entry.action)).toEqual(['create', 'update', 'delete']);
    await shop.db.update(products).set({ releaseAt: null });
  });

  it('refuses bad input with translated texts and stores nothing', async () => {
    const before = await shop.db.select().from(drops);
    const cases: Array<[Record<string, unknown>, string, string, string]> = [
      [
        { release_at: '' },
        'release_at',
        'Choose when the drop goes on sale.',
        'Укажите, когда начинаются продажи дропа.',
      ],
      [{ release_at: 'tomorrow' }, 'release_at', 'Enter a valid date.', 'Введите правильную дату.'],
      [
        { hold_minutes: 0 },
        'hold_minutes',
        'The hold is a whole number of minutes from 1 to 1440 (24 hours), or empty for the shop default.',
        'Время брони — целое число минут от 1 до 1440 (24 часа) или пусто для значения магазина.',
      ],
      [
        { hold_minutes: 1441 },
        'hold_minutes',
        'The hold is a whole number of minutes from 1 to 1440 (24 hours), or empty for the shop default.',
        'Время брони — целое число минут от 1 до 1440 (24 часа) или пусто для значения магазина.',
      ],
      [
        { per_customer_limit: 0 },
        'per_customer_limit',
        'A limit is a whole number of units, at least 1, or empty for no limit.',
        'Лимит — целое число штук, не меньше 1, или пусто, если лимита нет.',
      ],
      [{ name_en: ' ' }, 'name_en', 'This field is required.', 'Это поле обязательно.'],
    ];
    for (const [overrides, field, english, russian] of cases) {
      for (const [locale, text] of [
        ['en', english],
        ['ru', russian],
      ] as const) {
        const refused = await call('POST', '/api/admin/drops', manager, dropInput(overrides), locale);
        expect(refused.status, JSON.stringify(overrides)).toBe(422);
        expect((refused.body.errors as Record<string, string[]>)[field], JSON.stringify(overrides)).toEqual([
          text,
        ]);
      }
    }
    const missingProduct = await call(
      'POST',
      '/api/admin/drops',
      manager,
      dropInput({ products: [999_999] }),
    );
    expect(missingProduct.status).toBe(404);
    expect(await shop.db.select().from(drops)).toEqual(before);
  });

  it('refuses a product of another upcoming drop, naming it, and moves one of a released drop', async () => {
    const mug = fixtures.id('wolf-mug');
    const first = await call<{ drop: AdminDrop }>(
      'POST',
      '/api/admin/drops',
      manager,
      dropInput({ products: [mug] }),
    );
    const second = await call(
      'POST',
      '/api/admin/drops',
      manager,
      dropInput({ name_en: 'Second', products: [mug] }),
      'ru',
    );
    expect(second.status).toBe(409);
    expect(second.body.message).toBe(
      'Добавленный товар уже входит в другой предстоящий дроп: сначала уберите его оттуда.',
    );
    expect(second.body.taken).toEqual([
      {
        id: mug,
        name_ru: 'Кружка с волком',
        name_en: 'Wolf mug',
        drop: { id: first.body.drop.id, name_ru: 'Зимний дроп', name_en: 'Winter drop' },
      },
    ]);
    expect(await shop.db.select().from(drops).where(eq(drops.nameEn, 'Second'))).toEqual([]);
    expect((await releaseOf(mug))?.dropId).toBe(first.body.drop.id);

    // Released: the product may go into a new drop (a re-release), and takes its time.
    await shop.db
      .update(drops)
      .set({ releaseAt: inHours(-1) })
      .where(eq(drops.id, first.body.drop.id));
    const again = await call<{ drop: AdminDrop }>(
      'POST',
      '/api/admin/drops',
      manager,
      dropInput({ products: [mug] }),
    );
    expect(again.status).toBe(200);
    expect((await releaseOf(mug))?.dropId).toBe(again.body.drop.id);
    await call('DELETE', `/api/admin/drops/${again.body.drop.id}`, admin);
    await call('DELETE', `/api/admin/drops/${first.body.drop.id}`, admin);
    await shop.db.update(products).set({ releaseAt: null });
  });

  it('lets only one of two drops saved at the same moment take a product', async () => {
    const statue = fixtures.id('outlaw-statue');
    const answers = await Promise.all(
      ['First', 'Second'].map((name) =>
        call('POST', '/api/admin/drops', manager, dropInput({ name_en: name, products: [statue] })),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const [owner] = await shop.db
      .select({ dropId: products.dropId })
      .from(products)
      .where(eq(products.id, statue));
    const winner = answers.find((answer) => answer.status === 200)?.body.drop as AdminDrop;
    expect(owner?.dropId).toBe(winner.id);
    await call('DELETE', `/api/admin/drops/${winner.id}`, admin);
    await shop.db.update(products).set({ releaseAt: null });
  });

  it("empties the shop's catalogue cache on a drop write", async () => {
    const outlaw = fixtures.id('outlaw-shirt');
    const stock = async () =>
      (
        await shop.app.inject({ method: 'GET', url: '/api/product?locale=en&link=outlaw-shirt' })
      ).json<ProductResponse>().product.inStock;
    expect(await stock()).toBe(3);
    await setStock(shop.db, outlaw, 2);
    expect(await stock()).toBe(3);
    const created = await call<{ drop: AdminDrop }>(
      'POST',
      '/api/admin/drops',
      manager,
      dropInput({ release_at: inHours(-1).toISOString() }),
    );
    expect(created.status).toBe(200);
    expect(await stock()).toBe(2);
    await setStock(shop.db, outlaw, 3);
    await call('DELETE', `/api/admin/drops/${created.body.drop.id}`, admin);
  });

  it('keeps a release time and limit on the product form, and a limit per variant', async () => {
    const statue = fixtures.id('outlaw-shirt');
    const form = async () =>
      (await call<{ product: Record<string, unknown> }>('GET', `/api/admin/products/${statue}`, manager)).body
        .product;
    const product = await form();
    const releaseAt = inHours(5);
    const saved = await call<{ product: Record<string, unknown> }>(
      'PATCH',
      `/api/admin/products/${statue}`,
      manager,
      {
        ...product,
        release_at: releaseAt.toISOString(),
        per_customer_limit: 1,
      },
    );
    expect(saved.status).toBe(200);
    expect(saved.body.product).toMatchObject({
      release_at: releaseAt.toISOString(),
      per_customer_limit: 1,
      drop: null,
    });
    const refused = await call('PATCH', `/api/admin/products/${statue}`, manager, {
      ...saved.body.product,
      per_customer_limit: 0,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toHaveProperty('per_customer_limit');

    // In a drop, the drop's time is the product's, whatever the form sends.
    const dropTime = inHours(9);
    const drop = (
      await call<{ drop: AdminDrop }>(
        'POST',
        '/api/admin/drops',
        manager,
        dropInput({ release_at: dropTime.toISOString(), products: [statue] }),
      )
    ).body.drop;
    const inDrop = await form();
    expect(inDrop).toMatchObject({
      release_at: dropTime.toISOString(),
      drop: { id: drop.id, name_en: 'Winter drop' },
    });
    const own = await call<{ product: Record<string, unknown> }>(
      'PATCH',
      `/api/admin/products/${statue}`,
      manager,
      {
        ...inDrop,
        release_at: '',
        per_customer_limit: '',
      },
    );
    expect(own.body.product).toMatchObject({ release_at: dropTime.toISOString(), per_customer_limit: null });

    const variants = (
      await call<{ product: { version: number; variants: Array<Record<string, unknown>> } }>(
        'GET',
        `/api/admin/products/${statue}/variants`,
        manager,
      )
    ).body.product;
    const limited = await call<{ product: { variants: Array<{ per_customer_limit: number | null }> } }>(
      'PATCH',
      `/api/admin/products/${statue}/variants`,
      manager,
      {
        version: variants.version,
        options: [],
        variants: variants.variants.map((variant) => ({ ...variant, per_customer_limit: 1 })),
      },
    );
    expect(limited.status).toBe(200);
    expect(limited.body.product.variants[0]?.per_customer_limit).toBe(1);
    await call('DELETE', `/api/admin/drops/${drop.id}`, admin);
    await shop.db.update(products).set({ releaseAt: null, perCustomerLimit: null });
    await shop.db.update(productVariants).set({ perCustomerLimit: null });
  });
});

describe('release time and limit in the products CSV', () => {
  const csvCall = async (method: 'GET' | 'POST', csv?: string, locale = 'en') => {
    const response = await shop.app.inject({
      method,
      url: '/api/admin/products.csv',
      cookies: manager,
      headers: { 'accept-language': locale, ...(csv === undefined ? {} : { 'content-type': 'text/csv' }) },
      ...(csv === undefined ? {} : { payload: csv }),
    });
    return { status: response.statusCode, body: response.body };
  };

  it('exports both columns and imports them: a time sets the release, an empty cell clears it, a bad limit is a row error', async () => {
    const mug = fixtures.id('wolf-mug');
    const releaseAt = inHours(7);
    await shop.db.update(products).set({ releaseAt, perCustomerLimit: 3 }).where(eq(products.id, mug));
    const exported = parse((await csvCall('GET')).body, { columns: true, bom: true }) as Array<
      Record<string, string>
    >;
    expect(exported.find((row) => row.link === 'wolf-mug')).toMatchObject({
      release_at: releaseAt.toISOString(),
      per_customer_limit: '3',
    });
    expect(exported.find((row) => row.link === 'outlaw-shirt')).toMatchObject({
      release_at: '',
      per_customer_limit: '',
    });

    const later = inHours(20);
    const imported = await csvCall(
      'POST',
      `link,release_at,per_customer_limit\nwolf-mug,,\noutlaw-shirt,${later.toISOString()},2\n`,
    );
    expect(imported.status, imported.body).toBe(200);
    expect(await releaseOf(mug)).toMatchObject({ releaseAt: null, perCustomerLimit: null });
    expect(await releaseOf(fixtures.id('outlaw-shirt'))).toMatchObject({
      releaseAt: later,
      perCustomerLimit: 2,
    });

    const refused = await csvCall('POST', 'link,release_at,per_customer_limit\nwolf-mug,soon,0\n', 'ru');
    expect(refused.status).toBe(422);
    expect(JSON.parse(refused.body).errors).toEqual(
      expect.arrayContaining([
        { line: 2, field: 'release_at', message: 'Введите правильную дату.' },
        {
          line: 2,
          field: 'per_customer_limit',
          message: 'Лимит — целое число штук, не меньше 1, или пусто, если лимита нет.',
        },
      ]),
    );
    await shop.db.update(products).set({ releaseAt: null, perCustomerLimit: null });
  });
});

describe('the live view of a drop', () => {
  it('counts units left, sold and held, orders per minute and unpaid holds from real orders', async () => {
    const shirt = fixtures.id('wolf-shirt');
    const mug = fixtures.id('wolf-mug');
    await giveProductOptions(shop.db, shirt, {
      options: [
        {
          kind: 'size',
          nameRu: 'Размер',
          nameEn: 'Size',
          values: [
            { ru: 'M', en: 'M' },
            { ru: 'L', en: 'L' },
          ],
        },
      ],
      variants: [
        { values: ['M'], quantity: 5 },
        { values: ['L'], quantity: 4 },
      ],
    });
    await setStock(shop.db, mug, 6);
    // A live drop: released a minute ago, so the shop takes orders for it.
    const scheduled = await call<{ drop: AdminDrop }>(
      'POST',
      '/api/admin/drops',
      manager,
      dropInput({ release_at: new Date(Date.now() - 60_000).toISOString(), products: [shirt, mug] }),
    );
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    const drop = scheduled.body.drop;
    const variantOf = async (size: string) => {
      const [row] = await shop.db
        .select({ id: productVariants.id })
        .from(productVariants)
        .where(eq(productVariants.sku, `wolf-shirt-${size.toLowerCase()}`));
      if (!row) throw new Error(`no size ${size}`);
      return row.id;
    };
    const medium = await variantOf('M');
    const large = await variantOf('L');
    const context = { deliveryCost: 350_00, usdRate: 90, expiresMinutes: 10 };

    // One buyer pays for two M and a mug; another holds one L unpaid.
    const payer = await newShopper(shop.db);
    await addToBasket(shop.db, { userId: payer.id }, shirt, medium);
    await setBasketCount(shop.db, { userId: payer.id }, shirt, 2, medium);
    await addToBasket(shop.db, { userId: payer.id }, mug);
    const paidOrder = await createOrder(shop.db, payer.id, orderInput({ email: payer.email }), context);
    const amounts = paymentAmounts(paidOrder);
    expect(
      await recordPayment(shop.db, {
        orderId: paidOrder.id,
        provider: 'robokassa',
        externalId: `inv-${paidOrder.id}`,
        providerStatus: 'paid',
        amountMinor: amounts.totalMinor,
        currency: amounts.currency,
        raw: {},
      }),
    ).toBe('paid');
    const holder = await newShopper(shop.db);
    await addToBasket(shop.db, { userId: holder.id }, shirt, large);
    const heldOrder = await createOrder(shop.db, holder.id, orderInput({ email: holder.email }), context);

    const live = await call<DropLiveView>('GET', `/api/admin/drops/${drop.id}/live`, manager);
    expect(live.status).toBe(200);
    expect(live.body.drop).toMatchObject({ id: drop.id, name: 'Winter drop', state: 'live' });
    expect(live.body.totals).toEqual({ left: 3 + 3 + 5, sold: 3, held: 1 });
    const [shirtView, mugView] = live.body.products;
    expect(shirtView).toMatchObject({ id: shirt, left: 6, sold: 2, held: 1, perCustomerLimit: 2 });
    expect(
      shirtView?.variants.map(({ options, left, sold, held }) => ({ options, left, sold, held })),
    ).toEqual([
      { options: 'Size: M', left: 3, sold: 2, held: 0 },
      { options: 'Size: L', left: 3, sold: 0, held: 1 },
    ]);
    expect(mugView).toMatchObject({ id: mug, left: 5, sold: 1, held: 0 });
    expect(live.body.ordersPerMinute).toHaveLength(15);
    expect(live.body.ordersPerMinute.at(-1)).toEqual({ minutesAgo: 0, orders: 2 });
    expect(live.body.ordersPerMinute.reduce((sum, minute) => sum + minute.orders, 0)).toBe(2);
    expect(live.body.holds).toEqual({
      orders: 1,
      units: 1,
      list: [
        {
          id: heldOrder.id,
          units: 1,
          placedAt: heldOrder.createdAt.toISOString(),
          expiresAt: heldOrder.expiresAt.toISOString(),
        },
      ],
    });
    const russian = await call<DropLiveView>(
      'GET',
      `/api/admin/drops/${drop.id}/live`,
      manager,
      undefined,
      'ru',
    );
    expect(russian.body.products[0]?.variants[0]?.options).toBe('Размер: M');
    expect(russian.body.drop.name).toBe('Зимний дроп');
    expect((await call('GET', '/api/admin/drops/999999/live', manager)).status).toBe(404);
  });
});
