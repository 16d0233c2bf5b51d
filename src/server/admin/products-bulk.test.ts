import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../accounts/passwords.ts';
import { priceChangedBy } from '../catalog/products-bulk.ts';
import {
  auditLog,
  orderItems,
  orders,
  productCategories,
  productImages,
  products,
  productVariants,
  users,
} from '../db/schema.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { signedInAdmin } from '../testing/admin.ts';
import { createTestApp } from '../testing/app.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { giveProductOptions } from '../testing/variants.ts';

let shop: Awaited<ReturnType<typeof createTestApp>>;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
let admin: Record<string, string>;
let manager: Record<string, string>;
let customer: Record<string, string>;

async function signedIn(email: string, role: 'manager' | 'customer') {
  const password = 'staff password 1';
  await shop.db
    .insert(users)
    .values({ email, role, passwordHash: await hashPassword(password), emailVerifiedAt: new Date() });
  const login = await shop.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
  return { [SESSION_COOKIE]: login.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value ?? '' };
}

const call = async (
  method: 'GET' | 'POST',
  url: string,
  cookies: Record<string, string>,
  payload?: object,
  locale = 'en',
) => {
  const response = await shop.app.inject({
    method,
    url,
    cookies,
    ...(payload ? { payload } : {}),
    headers: { 'accept-language': locale },
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
};

type Row = { id: number; name_en: string; image: string | null };
const listed = async (query: string, cookies = manager) => {
  const answer = await call('GET', `/api/admin/products?${query}`, cookies);
  expect(answer.status).toBe(200);
  return answer.body as { list: Row[]; total: number };
};
const linksOf = async (query: string) => {
  const { list } = await listed(query);
  const byId = new Map(
    (await shop.db.select({ id: products.id, link: products.link }).from(products)).map((row) => [
      row.id,
      row.link,
    ]),
  );
  return list.map((row) => byId.get(row.id));
};
const productRow = async (link: string) => {
  const [row] = await shop.db.select().from(products).where(eq(products.link, link));
  if (!row) throw new Error(`no product ${link}`);
  return row;
};

beforeAll(async () => {
  shop = await createTestApp();
  fixtures = await insertCatalogue(shop.db);
  admin = await signedInAdmin(shop);
  manager = await signedIn('manager@example.com', 'manager');
  customer = await signedIn('customer@example.com', 'customer');
  await shop.db.insert(productImages).values([
    { productId: fixtures.id('wolf-shirt'), file: 'wolf-back.webp', position: 5 },
    { productId: fixtures.id('wolf-shirt'), file: 'wolf-front.webp', position: -1 },
  ]);
});
afterAll(() => shop.close());

describe('the products list', () => {
  it('filters by hidden, envisioned, sold out, running out, project and category', async () => {
    expect(await linksOf('hidden=1')).toEqual(['hidden-mug']);
    expect(await linksOf('envisioned=1')).toEqual(['outlaw-statue']);
    expect((await linksOf('stock=out')).sort()).toEqual(['outlaw-statue', 'wolf-mug']);
    // 3 units left: running out; 5 and 10 are not.
    expect(await linksOf('stock=low')).toEqual(['outlaw-shirt']);
    expect((await linksOf(`project=${fixtures.projects.witcher.id}`)).sort()).toEqual([
      'wolf-mug',
      'wolf-shirt',
    ]);
    const [shirt] = await shop.db
      .select({ productId: productCategories.productId })
      .from(productCategories)
      .where(eq(productCategories.categoryId, fixtures.categories.shirts.id));
    expect((await listed(`category=${fixtures.categories.shirts.id}`)).list.map((row) => row.id)).toContain(
      shirt?.productId,
    );
    expect(await linksOf(`hidden=1&project=${fixtures.projects.witcher.id}`)).toEqual([]);
    // A search for part of a name or link, in either language; `%` is a character, not a wildcard.
    expect((await linksOf('search=волк')).sort()).toEqual(['wolf-mug', 'wolf-shirt']);
    expect((await linksOf('search=outlaw-s')).sort()).toEqual(['outlaw-shirt', 'outlaw-statue']);
    expect(await linksOf(`search=${encodeURIComponent('%')}`)).toEqual([]);
  });

  it('sorts by price, stock and name, newest first by default, each with its first picture', async () => {
    const prices = (await shop.db.select({ link: products.link, price: products.price }).from(products))
      .sort((a, b) => a.price - b.price || 0)
      .map((row) => row.link);
    expect((await linksOf('sort=price-asc'))[0]).toBe(prices[0]);
    expect((await linksOf('sort=price-desc'))[0]).toBe(prices.at(-1));
    expect((await linksOf('sort=stock-desc'))[0]).toBe('wolf-shirt');
    const byName = (await listed('sort=name')).list.map((row) => row.name_en);
    expect(byName).toEqual([...byName].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const newest = (await listed('')).list.map((row) => row.id);
    expect(newest).toEqual([...newest].sort((a, b) => b - a));
    const shirt = (await listed('search=wolf-shirt')).list[0];
    expect(shirt).toMatchObject({ image: 'wolf-front.webp' });
  });

  it('answers a filter it cannot read with a translated 422, and refuses customers', async () => {
    const wrong = await call('GET', '/api/admin/products?stock=some&locale=ru', manager);
    expect(wrong.status).toBe(422);
    expect(wrong.body.message).toBe('Проверьте форму.');
    expect((await call('GET', '/api/admin/products', customer)).status).toBe(403);
  });
});

describe('bulk changes', () => {
  beforeEach(async () => {
    await shop.db.delete(auditLog);
  });

  it('hides chosen products in one change: versions bumped, one audit entry, gone from the shop at once', async () => {
    const shirts = await call('GET', '/api/category?locale=en&link=t-shirts', customer);
    expect(JSON.stringify(shirts.body)).toContain('Wolf T-shirt');
    const ids = [fixtures.id('wolf-shirt'), fixtures.id('outlaw-shirt')];
    const before = await productRow('wolf-shirt');

    const hidden = await call('POST', '/api/admin/products/bulk', manager, { action: 'hide', ids });
    expect(hidden).toMatchObject({ status: 200, body: { success: true, changed: 2 } });

    const rows = await shop.db.select().from(products).where(inArray(products.id, ids));
    expect(rows.every((row) => !row.visible)).toBe(true);
    expect((await productRow('wolf-shirt')).version).toBe(before.version + 1);
    const entries = await shop.db.select().from(auditLog);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'update',
      entity: 'products',
      entityId: ids.sort().join(','),
    });
    const after = await call('GET', '/api/category?locale=en&link=t-shirts', customer);
    expect(JSON.stringify(after.body)).not.toContain('Wolf T-shirt');

    const shown = await call('POST', '/api/admin/products/bulk', manager, { action: 'show', ids });
    expect(shown.status).toBe(200);
    expect((await productRow('wolf-shirt')).visible).toBe(true);
  });

  it('refuses to show a product without a price, naming it in the admin language, and changes nothing', async () => {
    const free = await shop.db
      .insert(products)
      .values({
        projectId: fixtures.projects.witcher.id,
        link: 'unpriced-pin',
        nameRu: 'Значок без цены',
        nameEn: 'Unpriced pin',
        price: 0,
        visible: false,
      })
      .returning({ id: products.id });
    const freeId = free[0]?.id ?? 0;
    const hiddenMug = fixtures.id('hidden-mug');
    const refused = await call(
      'POST',
      '/api/admin/products/bulk?locale=ru',
      manager,
      { action: 'show', ids: [hiddenMug, freeId] },
      'ru',
    );
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('Ничего не изменено: часть выбранных товаров нельзя так изменить.');
    expect(refused.body.errors).toEqual({
      [`products.${freeId}`]: [
        'У товара, который виден в магазине и доступен для заказа, цена должна быть больше 0.',
      ],
    });
    expect((await productRow('hidden-mug')).visible).toBe(false);
    expect(await shop.db.select().from(auditLog)).toEqual([]);
    await shop.db.delete(products).where(eq(products.id, freeId));
  });

  it('moves products to a project and into one category', async () => {
    const ids = [fixtures.id('wolf-mug'), fixtures.id('outlaw-shirt')];
    const moved = await call('POST', '/api/admin/products/bulk', manager, {
      action: 'project',
      ids,
      project: fixtures.projects.cyber.id,
    });
    expect(moved.status).toBe(200);
    const rows = await shop.db.select().from(products).where(inArray(products.id, ids));
    expect(rows.map((row) => row.projectId)).toEqual([
      fixtures.projects.cyber.id,
      fixtures.projects.cyber.id,
    ]);

    const placed = await call('POST', '/api/admin/products/bulk', manager, {
      action: 'category',
      ids,
      category: fixtures.categories.mugs.id,
    });
    expect(placed.status).toBe(200);
    const links = await shop.db
      .select()
      .from(productCategories)
      .where(inArray(productCategories.productId, ids));
    expect(links.map((link) => link.categoryId)).toEqual([
      fixtures.categories.mugs.id,
      fixtures.categories.mugs.id,
    ]);

    const unknown = await call('POST', '/api/admin/products/bulk', manager, {
      action: 'project',
      ids,
      project: 999_999,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors).toEqual({ project: ['Not found.'] });
  });

  it('changes prices by a percent, sale prices and sizes’ own prices too, in whole roubles', async () => {
    expect(priceChangedBy(1_990_00, 10)).toBe(2_189_00);
    expect(priceChangedBy(999_00, -15)).toBe(849_00);
    expect(priceChangedBy(5_00, -90)).toBe(1_00);
    expect(priceChangedBy(0, 50)).toBe(0);

    const shirtId = fixtures.id('outlaw-shirt');
    await giveProductOptions(shop.db, shirtId, {
      options: [
        {
          kind: 'size',
          nameRu: 'Размер',
          nameEn: 'Size',
          values: [
            { ru: 'M', en: 'M' },
            { ru: 'XL', en: 'XL' },
          ],
        },
      ],
      variants: [
        { values: ['M'], quantity: 2 },
        { values: ['XL'], quantity: 1, price: 3_500_00, sale: 3_300_00 },
      ],
    });
    const wolf = await productRow('wolf-shirt');
    const shirt = await productRow('outlaw-shirt');
    const changed = await call('POST', '/api/admin/products/bulk', manager, {
      action: 'price',
      ids: [wolf.id, shirtId],
      percent: '10',
    });
    expect(changed.status).toBe(200);
    expect(await productRow('wolf-shirt')).toMatchObject({
      price: priceChangedBy(wolf.price, 10),
      sale: priceChangedBy(wolf.sale ?? 0, 10),
      version: wolf.version + 1,
    });
    expect((await productRow('outlaw-shirt')).price).toBe(priceChangedBy(shirt.price, 10));
    const variants = await shop.db
      .select({ price: productVariants.price, sale: productVariants.sale })
      .from(productVariants)
      .where(eq(productVariants.productId, shirtId))
      .orderBy(productVariants.position);
    expect(variants).toEqual([
      { price: null, sale: null },
      { price: 3_850_00, sale: 3_630_00 },
    ]);
  });

  it('refuses a price change that rounding would bring the sale up to the price, and bad percents', async () => {
    const [pin] = await shop.db
      .insert(products)
      .values({
        projectId: fixtures.projects.witcher.id,
        link: 'tight-sale-pin',
        nameRu: 'Значок',
        nameEn: 'Pin',
        price: 2_00,
        sale: 1_50,
      })
      .returning({ id: products.id });
    const pinId = pin?.id ?? 0;
    const refused = await call('POST', '/api/admin/products/bulk', manager, {
      action: 'price',
      ids: [pinId],
      percent: -50,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({
      [`products.${pinId}`]: [
        'Rounded to whole roubles, the sale price would not be below the price; change this product in its own form.',
      ],
    });
    expect(await productRow('tight-sale-pin')).toMatchObject({ price: 2_00, sale: 1_50 });

    for (const percent of [0, -95, 1.5, 'ten']) {
      const bad = await call('POST', '/api/admin/products/bulk', manager, {
        action: 'price',
        ids: [pinId],
        percent,
      });
      expect(bad.status).toBe(422);
      expect(bad.body.errors).toMatchObject({ percent: ['Enter a whole percent from −90 to 1000, not 0.'] });
    }
    const none = await call('POST', '/api/admin/products/bulk', manager, { action: 'hide', ids: [] });
    expect(none.body.errors).toMatchObject({ ids: ['Choose at least one product.'] });
    const what = await call('POST', '/api/admin/products/bulk', manager, { action: 'explode', ids: [pinId] });
    expect(what.status).toBe(422);
    await shop.db.delete(products).where(eq(products.id, pinId));
  });

  it('deletes for admins only, refusing all when one product was ordered and naming it', async () => {
    const doomed = await shop.db
      .insert(products)
      .values(
        ['doomed-a', 'doomed-b'].map((link) => ({
          projectId: fixtures.projects.witcher.id,
          link,
          nameRu: link,
          nameEn: link,
          price: 100_00,
        })),
      )
      .returning({ id: products.id });
    const doomedIds = doomed.map((row) => row.id);
    const orderedId = fixtures.id('wolf-mug');
    const [order] = await shop.db
      .insert(orders)
      .values({
        locale: 'en',
        email: 'buyer@example.com',
        firstName: 'Anna',
        lastName: 'Petrova',
        phone: '+7 900',
        deliveryMethod: 'russian_post',
        deliveryCountry: 'RU',
        deliveryCity: 'Kazan',
        deliveryAddress: 'Kremlin 1',
        deliveryZip: '420111',
        paymentMethod: 'robokassa',
        productsCost: 1_200_00,
        productsAmount: 1_200_00,
        deliveryCost: 300_00,
        expiresAt: new Date(),
      })
      .returning({ id: orders.id });
    await shop.db.insert(orderItems).values({
      orderId: order?.id ?? 0,
      productId: orderedId,
      sku: 'wolf-mug',
      nameRu: 'Кружка с волком',
      nameEn: 'Wolf mug',
      price: 1_200_00,
      count: 1,
    });

    const byManager = await call('POST', '/api/admin/products/bulk-delete', manager, { ids: doomedIds });
    expect(byManager.status).toBe(403);
    const byCustomer = await call('POST', '/api/admin/products/bulk', customer, {
      action: 'hide',
      ids: doomedIds,
    });
    expect(byCustomer.status).toBe(403);
    expect((await call('POST', '/api/admin/products/bulk-delete', customer, { ids: doomedIds })).status).toBe(
      403,
    );

    const refused = await call('POST', '/api/admin/products/bulk-delete', admin, {
      ids: [...doomedIds, orderedId],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({
      [`products.${orderedId}`]: ['This product is in orders and cannot be deleted; hide it instead.'],
    });
    expect(await shop.db.select().from(products).where(inArray(products.id, doomedIds))).toHaveLength(2);

    const deleted = await call('POST', '/api/admin/products/bulk-delete', admin, { ids: doomedIds });
    expect(deleted).toMatchObject({ status: 200, body: { changed: 2 } });
    expect(await shop.db.select().from(products).where(inArray(products.id, doomedIds))).toEqual([]);
    const [entry] = await shop.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'products'), eq(auditLog.action, 'delete')));
    expect(entry?.entityId).toBe(doomedIds.join(','));
  });
});
