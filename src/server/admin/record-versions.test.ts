import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../db/schema.ts';
import { signedInAdmin } from '../testing/admin.ts';
import { createTestApp } from '../testing/app.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';

let shop: Awaited<ReturnType<typeof createTestApp>>;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
let cookies: Record<string, string>;

beforeAll(async () => {
  shop = await createTestApp();
  fixtures = await insertCatalogue(shop.db);
  cookies = await signedInAdmin(shop);
});
afterAll(() => shop.close());

const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, locale = 'en') => {
  const response = await shop.app.inject({
    method,
    url: `${url}${url.includes('?') ? '&' : '?'}locale=${locale}`,
    cookies,
    ...(payload ? { payload } : {}),
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
};

type Row = Record<string, unknown> & { id: number; version: number };
/** A record as its form sends it back: empty fields absent rather than null. */
const formOf = (row: Row) => Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null));
const listed = async (kind: string) => (await call('GET', `/api/admin/${kind}`)).body[kind] as Row[];

describe('a save made from an older version', () => {
  /** Each editable record: how to read it, and an edit of one of its fields. */
  const records: Array<{
    name: string;
    read: () => Promise<Row>;
    url: (row: Row) => string;
    edit: (row: Row, value: string) => Record<string, unknown>;
    field: string;
  }> = [
    {
      name: 'project',
      read: async () => (await listed('projects'))[0] as Row,
      url: (row) => `/api/admin/projects/${row.id}`,
      edit: (row, value) => ({ ...formOf(row), name_en: value }),
      field: 'name_en',
    },
    {
      name: 'category',
      read: async () => (await listed('categories'))[0] as Row,
      url: (row) => `/api/admin/categories/${row.id}`,
      edit: (row, value) => ({ ...row, name_en: value }),
      field: 'name_en',
    },
    {
      name: 'product',
      read: async () =>
        (await call('GET', `/api/admin/products/${fixtures.id('wolf-shirt')}`)).body.product as Row,
      url: (row) => `/api/admin/products/${row.id}`,
      edit: (row, value) => ({ ...row, name_en: value }),
      field: 'name_en',
    },
    {
      name: 'partner',
      read: async () => {
        const partners = await listed('partners');
        if (partners[0]) return partners[0];
        await call('POST', '/api/admin/partners', { name_ru: 'Север', name_en: 'North' });
        return (await listed('partners'))[0] as Row;
      },
      url: (row) => `/api/admin/partners/${row.id}`,
      edit: (row, value) => ({ ...formOf(row), name_en: value }),
      field: 'name_en',
    },
    {
      name: 'order',
      read: async () => {
        const [order] = await shop.db.select({ id: orders.id }).from(orders).limit(1);
        const id =
          order?.id ??
          (
            await shop.db
              .insert(orders)
              .values({
                locale: 'ru',
                email: 'buyer@example.com',
                firstName: 'Анна',
                lastName: 'Петрова',
                phone: '+7 900 000-00-00',
                deliveryMethod: 'russian_post',
                deliveryCountry: 'RU',
                deliveryCity: 'Казань',
                deliveryAddress: 'ул. Баумана, 1',
                deliveryZip: '420111',
                paymentMethod: 'robokassa',
                productsCost: 100_00,
                productsAmount: 100_00,
                deliveryCost: 100_00,
                status: 1,
                expiresAt: new Date(),
              })
              .returning({ id: orders.id })
          )[0]?.id;
        return (await call('GET', `/api/admin/orders/${id}`)).body.order as Row;
      },
      url: (row) => `/api/admin/orders/${row.id}`,
      edit: (row, value) => ({ version: row.version, track_code: value }),
      field: 'track_code',
    },
  ];

  it.each(records.map((record) => [record.name, record] as const))(
    'is refused for a %s with 409, leaving what the other save wrote',
    async (_name, record) => {
      const loaded = await record.read();
      const first = await call('PATCH', record.url(loaded), record.edit(loaded, 'First save'));
      expect(first.status).toBe(200);
      const stale = await call('PATCH', record.url(loaded), record.edit(loaded, 'Stale save'));
      expect(stale.status).toBe(409);
      expect(stale.body).toMatchObject({
        success: false,
        message:
          'Someone else changed this while you were editing. Reload to see their changes; your input stays here until you do.',
        errors: { version: [expect.any(String)] },
      });
      const now = await record.read();
      expect(now).toMatchObject({ [record.field]: 'First save', version: loaded.version + 1 });

      // In Russian too, and a save without a version is refused before anything is written.
      const russian = await call('PATCH', record.url(loaded), record.edit(loaded, 'Stale save'), 'ru');
      expect(russian.body.message).toMatch(/^Пока вы редактировали/);
      const { version: _version, ...unversioned } = record.edit(now, 'No version');
      const missing = await call('PATCH', record.url(now), unversioned);
      expect(missing.status).toBe(422);
      expect(missing.body.errors).toMatchObject({ version: [expect.any(String)] });
      expect(await record.read()).toMatchObject({ [record.field]: 'First save' });
    },
  );
});

describe('price required', () => {
  const product = (values: Record<string, unknown>) => ({
    project: fixtures.projects.witcher.id,
    name_ru: 'Значок',
    name_en: 'Pin',
    ...values,
  });

  it('refuses a visible, orderable product without a price in both languages, and changes nothing', async () => {
    const refused = await call('POST', '/api/admin/products', product({ link: 'free-pin', price: 0 }));
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({
      price: ['A product shown in the shop and available to order needs a price above 0.'],
    });
    const russian = await call('POST', '/api/admin/products', product({ link: 'free-pin', price: '' }), 'ru');
    expect(russian.status).toBe(422);
    expect((russian.body.errors as Record<string, string[]>).price?.[0]).toMatch(/цена должна быть больше 0/);
    expect((await call('GET', '/api/product?link=free-pin')).status).toBe(404);
  });

  it('lets a hidden or envisioned product wait for its price, but not be shown for sale without one', async () => {
    const hidden = await call(
      'POST',
      '/api/admin/products',
      product({ link: 'draft-pin', price: 0, visible: false }),
    );
    expect(hidden.status).toBe(200);
    const envisioned = await call(
      'POST',
      '/api/admin/products',
      product({ link: 'idea-pin', price: 0, envisioned: true }),
    );
    expect(envisioned.status).toBe(200);
    expect((await call('GET', '/api/product?link=idea-pin')).body.product).toMatchObject({ inStock: 0 });

    const draft = hidden.body.product as Row;
    const shown = await call('PATCH', `/api/admin/products/${draft.id}`, { ...draft, visible: true });
    expect(shown.status).toBe(422);
    expect(shown.body.errors).toMatchObject({ price: [expect.any(String)] });
    const idea = envisioned.body.product as Row;
    const madeOrderable = await call('PATCH', `/api/admin/products/${idea.id}`, {
      ...idea,
      envisioned: false,
    });
    expect(madeOrderable.status).toBe(422);
    expect((await call('GET', `/api/admin/products/${idea.id}`)).body.product).toMatchObject({
      envisioned: true,
      version: idea.version,
    });
  });
});
