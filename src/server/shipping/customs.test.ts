import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_CSV_COLUMNS } from '../../contract/admin.ts';
import { needsCustoms } from '../../contract/customs.ts';
import { orderItems, orders, products, productVariants } from '../db/schema.ts';
import { signedInAdmin } from '../testing/admin.ts';
import { createTestApp } from '../testing/app.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';

/**
 * Customs data (issue 31, point 1; ADR 0057): per product with a per-variant override, checked as
 * the form checks it, in the CSV, on the order page and the packing slip, and required before an
 * order abroad is marked ready to ship.
 */

let shop: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;

beforeAll(async () => {
  shop = await createTestApp();
  await insertCatalogue(shop.db);
  admin = await signedInAdmin(shop);
});
afterAll(() => shop.close());

const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object | string) => {
  const response = await shop.app.inject({
    method,
    url: `/api/admin${url}`,
    cookies: admin,
    ...(typeof payload === 'string'
      ? { payload, headers: { 'content-type': 'text/csv' } }
      : payload
        ? { payload }
        : {}),
  });
  return { status: response.statusCode, body: response.body, json: () => response.json() };
};

async function productOf(link: string) {
  const [product] = await shop.db.select().from(products).where(eq(products.link, link));
  const [variant] = await shop.db
    .select()
    .from(productVariants)
    .where(eq(productVariants.productId, product?.id ?? 0));
  if (!product || !variant) throw new Error(`no fixture ${link}`);
  return { product, variant };
}

/** A paid order in dollars to `country` of one wolf shirt (sale 1990 ₽) and two wolf mugs (1200 ₽). */
async function paidOrder(country: string) {
  const shirt = await productOf('wolf-shirt');
  const mug = await productOf('wolf-mug');
  const [order] = await shop.db
    .insert(orders)
    .values({
      locale: 'en',
      email: 'buyer@example.com',
      firstName: 'Jane',
      lastName: 'Doe',
      phone: '+49 30 000000',
      deliveryMethod: 'russian_post',
      deliveryCountry: country,
      deliveryCity: 'Berlin',
      deliveryAddress: 'Unter den Linden 1',
      deliveryZip: '10117',
      paymentMethod: 'paypal',
      currency: 'USD',
      usdRate: '90.0000',
      productsCost: 4390_00,
      productsAmount: 48_78,
      deliveryCost: 900_00,
      status: 1,
      paidAt: new Date(),
      expiresAt: new Date(Date.now() + 3600_000),
    })
    .returning();
  if (!order) throw new Error('order insert failed');
  await shop.db.insert(orderItems).values([
    {
      orderId: order.id,
      productId: shirt.product.id,
      variantId: shirt.variant.id,
      sku: shirt.variant.sku,
      nameRu: shirt.product.nameRu,
      nameEn: shirt.product.nameEn,
      price: 2500_00,
      sale: 1990_00,
      count: 1,
    },
    {
      orderId: order.id,
      productId: mug.product.id,
      variantId: mug.variant.id,
      sku: mug.variant.sku,
      nameRu: mug.product.nameRu,
      nameEn: mug.product.nameEn,
      price: 1200_00,
      count: 2,
    },
  ]);
  return { order, shirt, mug };
}

const markReady = async (id: number) => {
  const { version } = (await call('GET', `/orders/${id}`)).json().order;
  return call('PATCH', `/orders/${id}`, { version, status: 4 });
};

describe('customs data on the product form', () => {
  it('refuses an HS code of five digits and a description not in English, and changes nothing', async () => {
    const { product } = await productOf('outlaw-shirt');
    const loaded = (await call('GET', `/products/${product.id}`)).json().product;
    const answer = await call('PATCH', `/products/${product.id}`, {
      ...loaded,
      hs_code: '61091',
      customs_description: 'Футболка',
      origin_country: 'XX',
    });
    expect(answer.status).toBe(422);
    expect(answer.json().errors).toMatchObject({
      hs_code: ['An HS code has 6 to 10 digits.'],
      customs_description: ['Describe the goods in English (Latin letters).'],
      origin_country: ['Choose a country.'],
    });
    expect((await productOf('outlaw-shirt')).product).toMatchObject({
      hsCode: null,
      version: product.version,
    });
  });

  it('saves the customs data and the box, and a variant its own HS code', async () => {
    const { product } = await productOf('outlaw-shirt');
    const loaded = (await call('GET', `/products/${product.id}`)).json().product;
    const saved = await call('PATCH', `/products/${product.id}`, {
      ...loaded,
      hs_code: '6109.10',
      origin_country: 'ru',
      customs_description: 'Cotton T-shirt',
      net_weight: 180,
      box_length: 30,
      box_width: 20,
      box_height: '',
    });
    expect(saved.status).toBe(200);
    expect(saved.json().product).toMatchObject({
      hs_code: '610910',
      origin_country: 'RU',
      customs_description: 'Cotton T-shirt',
      net_weight: 180,
      box_length: 30,
      box_width: 20,
      box_height: null,
    });
    const table = (await call('GET', `/products/${product.id}/variants`)).json().product;
    const [variant] = table.variants;
    const answer = await call('PATCH', `/products/${product.id}/variants`, {
      version: table.version,
      options: table.options,
      variants: [{ ...variant, hs_code: '6109100000' }],
    });
    expect(answer.status).toBe(200);
    expect(answer.json().product.variants[0]).toMatchObject({ hs_code: '6109100000', origin_country: null });
  });
});

describe('an order abroad', () => {
  it('knows the EAEU needs no declaration', () => {
    expect(['RU', 'by', 'KZ', 'AM', 'KG'].map(needsCustoms)).toEqual([false, false, false, false, false]);
    expect(['DE', 'US', 'GE'].map(needsCustoms)).toEqual([true, true, true]);
  });

  it('cannot be marked ready to ship while an item lacks customs data; the order page says which', async () => {
    const { order, shirt, mug } = await paidOrder('DE');
    await shop.db
      .update(products)
      .set({ hsCode: '610910', originCountry: 'RU', customsDescription: 'Cotton T-shirt', netWeight: 180 })
      .where(eq(products.id, shirt.product.id));
    const refused = await markReady(order.id);
    expect(refused.status).toBe(409);
    expect(refused.json()).toMatchObject({
      intlError: 'customs-data-missing',
      items: [
        { sku: mug.variant.sku, missing: ['hs_code', 'origin_country', 'customs_description', 'net_weight'] },
      ],
    });
    const page = (await call('GET', `/orders/${order.id}`)).json().order;
    expect(page.status).toBe(1);
    expect(page.customs.map((item: { sku: string; missing: string[] }) => [item.sku, item.missing])).toEqual([
      [shirt.variant.sku, []],
      [mug.variant.sku, ['hs_code', 'origin_country', 'customs_description', 'net_weight']],
    ]);

    // The mug's data, its variant overriding the origin: now the order may be marked ready.
    await shop.db
      .update(products)
      .set({ hsCode: '691200', originCountry: 'CN', customsDescription: 'Ceramic mug', netWeight: 400 })
      .where(eq(products.id, mug.product.id));
    await shop.db
      .update(productVariants)
      .set({ originCountry: 'RU' })
      .where(eq(productVariants.id, mug.variant.id));
    expect((await markReady(order.id)).status).toBe(200);

    const slip = (await call('GET', `/orders/${order.id}/packing-slip`)).json().slip;
    expect(slip.currency).toBe('USD');
    expect(slip.customs).toEqual([
      expect.objectContaining({
        sku: shirt.variant.sku,
        customs_description: 'Cotton T-shirt',
        count: 1,
        hs_code: '610910',
        value: 22.11,
        value_roubles: 1990,
        net_weight: 180,
        origin_country: 'RU',
      }),
      expect.objectContaining({
        sku: mug.variant.sku,
        customs_description: 'Ceramic mug',
        count: 2,
        hs_code: '691200',
        value: 26.66,
        value_roubles: 2400,
        net_weight: 400,
        origin_country: 'RU',
      }),
    ]);
  });

  it('inside the EAEU needs no customs data and prints none', async () => {
    const { order } = await paidOrder('KZ');
    await shop.db.update(products).set({ hsCode: null });
    expect((await markReady(order.id)).status).toBe(200);
    expect((await call('GET', `/orders/${order.id}/packing-slip`)).json().slip.customs).toBeNull();
  });
});

describe('customs columns of the products CSV', () => {
  const rowsOf = (csv: string) => parse(csv, { columns: true, bom: true }) as Array<Record<string, string>>;

  it('round-trips each new column, a variant override included', async () => {
    const exported = rowsOf((await call('GET', '/products.csv')).body);
    const changed = exported.map((row) =>
      row.link === 'wolf-mug'
        ? {
            ...row,
            hs_code: '6912001000',
            origin_country: 'cn',
            customs_description: 'Stoneware mug',
            net_weight: '410',
            box_length: '12',
            box_width: '12',
            box_height: '14',
            variant_origin_country: 'BY',
            variant_net_weight: '',
          }
        : row,
    );
    const imported = await call(
      'POST',
      '/products.csv?locale=en',
      stringify(changed, { header: true, columns: [...PRODUCT_CSV_COLUMNS] }),
    );
    expect(imported.status).toBe(200);
    const again = rowsOf((await call('GET', '/products.csv')).body);
    expect(again.find((row) => row.link === 'wolf-mug')).toMatchObject({
      hs_code: '6912001000',
      origin_country: 'CN',
      customs_description: 'Stoneware mug',
      net_weight: '410',
      box_length: '12',
      box_width: '12',
      box_height: '14',
      variant_origin_country: 'BY',
      variant_net_weight: '',
    });
    // Its own export imports as no change at all.
    const same = await call(
      'POST',
      '/products.csv?locale=en&dryRun=1',
      (await call('GET', '/products.csv')).body,
    );
    expect(same.json()).toMatchObject({ updated: [], created: [] });
  });

  it('refuses a bad HS code in a row and names its column', async () => {
    const rows = rowsOf((await call('GET', '/products.csv')).body).map((row) =>
      row.link === 'wolf-mug' ? { ...row, hs_code: '12-34', variant_hs_code: '123' } : row,
    );
    const answer = await call(
      'POST',
      '/products.csv?locale=en',
      stringify(rows, { header: true, columns: [...PRODUCT_CSV_COLUMNS] }),
    );
    expect(answer.status).toBe(422);
    expect(answer.json().errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'hs_code', message: 'An HS code has 6 to 10 digits.' }),
        expect.objectContaining({ field: 'variant_hs_code', message: 'An HS code has 6 to 10 digits.' }),
      ]),
    );
  });
});
