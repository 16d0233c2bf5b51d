import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WHOLE_LIST } from '../../contract/shop.ts';
import type { DatabaseConnection } from '../db/client.ts';
import { categories, productImages } from '../db/schema.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { createTestDatabase } from '../testing/database.ts';
import { giveProductOptions, SIZES } from '../testing/variants.ts';
import { getProduct } from './product-page.ts';
import { listProducts } from './service.ts';

/**
 * What a shopper sees of sizes and colours: the product page's options, variants and size guide;
 * the cards' "from" price and sizes in stock; the size filter, and side-section counts that say
 * what a click would show under the other filters.
 */

let connection: DatabaseConnection;
let fixture: Awaited<ReturnType<typeof insertCatalogue>>;
let outlaw: Awaited<ReturnType<typeof giveProductOptions>>;

beforeAll(async () => {
  connection = await createTestDatabase();
  const { db } = connection;
  fixture = await insertCatalogue(db);
  // Wolf T-shirt: 2 500 ₽ on sale at 1 990 ₽; L has its own price, M is sold out.
  await giveProductOptions(db, fixture.id('wolf-shirt'), {
    options: [{ ...SIZES, values: SIZES.values.filter((size) => ['S', 'M', 'L', 'XL'].includes(size.en)) }],
    variants: [
      { values: ['S'], quantity: 2 },
      { values: ['M'], quantity: 0 },
      { values: ['L'], quantity: 3, price: 2_800_00 },
      { values: ['XL'], quantity: 1 },
    ],
  });
  await db
    .insert(productImages)
    .values({ productId: fixture.id('outlaw-shirt'), file: 'outlaw-red.webp', position: 1 });
  // Outlaw T-shirt: colour first, then size; red M is sold out, one price for all.
  outlaw = await giveProductOptions(db, fixture.id('outlaw-shirt'), {
    options: [
      {
        kind: 'colour',
        nameRu: 'Цвет',
        nameEn: 'Colour',
        values: [
          { ru: 'Чёрный', en: 'Black', swatch: '#111111' },
          { ru: 'Красный', en: 'Red', swatch: '#cc0000' },
        ],
      },
      { ...SIZES, values: SIZES.values.filter((size) => ['M', 'L'].includes(size.en)) },
    ],
    variants: [
      { values: ['Black', 'M'], quantity: 1 },
      { values: ['Red', 'M'], quantity: 0 },
      { values: ['Red', 'L'], quantity: 2 },
    ],
    pictures: { 'outlaw-1.webp': 'Black', 'outlaw-red.webp': 'Red' },
  });
  await db
    .update(categories)
    .set({
      sizeGuideRu: '<table><tr><th>Размер</th><th>Грудь</th></tr><tr><td>M</td><td>96</td></tr></table>',
      sizeGuideEn:
        '<table><tr><th>Size</th><th>Chest</th></tr><tr><td>M</td><td>38</td></tr></table><script>alert(1)</script>',
    })
    .where(eq(categories.id, fixture.categories.shirts.id));
});

afterAll(async () => {
  await connection?.close();
});

describe('the product view of a product with options', () => {
  it('lists the options in order, each value with its swatch, and the variants with their own prices and stock', async () => {
    const { product } = await getProduct(connection.db, 'ru', 'outlaw-shirt');
    expect(product.hasOptions).toBe(true);
    expect(
      product.options.map(({ kind, name, values }) => ({ kind, name, values: values.map((v) => v.value) })),
    ).toEqual([
      { kind: 'colour', name: 'Цвет', values: ['Чёрный', 'Красный'] },
      { kind: 'size', name: 'Размер', values: ['M', 'L'] },
    ]);
    const [colour, size] = product.options;
    expect(colour?.values.map((value) => [value.key, value.swatch])).toEqual([
      ['Black', '#111111'],
      ['Red', '#cc0000'],
    ]);
    const valueId = (key: string) =>
      product.options.flatMap((option) => option.values).find((value) => value.key === key)?.id;
    expect(product.variants).toEqual([
      {
        id: outlaw.variantOf('Black', 'M').id,
        sku: 'outlaw-shirt-black-m',
        values: [valueId('Black'), valueId('M')],
        price: 3100,
        sale: null,
        inStock: 1,
        perCustomerLimit: null,
      },
      expect.objectContaining({ values: [valueId('Red'), valueId('M')], inStock: 0 }),
      expect.objectContaining({ values: [valueId('Red'), valueId('L')], inStock: 2 }),
    ]);
    expect(size?.values.map((value) => value.swatch)).toEqual([null, null]);
    expect(product.pictures).toEqual([
      { file: 'outlaw-1.webp', optionValue: valueId('Black') },
      { file: 'outlaw-red.webp', optionValue: valueId('Red') },
    ]);
    expect(product.images).toEqual(['outlaw-1.webp', 'outlaw-red.webp']);
    expect(product.inStock).toBe(3);
  });

  it("takes each variant's price: the product's price and sale, or its own without the product's sale", async () => {
    const { product } = await getProduct(connection.db, 'en', 'wolf-shirt');
    const bySku = Object.fromEntries(product.variants.map((variant) => [variant.sku, variant]));
    expect(bySku['wolf-shirt-s']).toMatchObject({ price: 2500, sale: 1990, inStock: 2 });
    expect(bySku['wolf-shirt-m']).toMatchObject({ price: 2500, sale: 1990, inStock: 0 });
    expect(bySku['wolf-shirt-l']).toMatchObject({ price: 2800, sale: null, inStock: 3 });
    expect(product.fromPrice).toBe(1990);
  });

  it("gives the category's size guide in the locale, sanitized", async () => {
    const en = (await getProduct(connection.db, 'en', 'wolf-shirt')).product.sizeGuide;
    expect(en).toContain('<th>Chest</th>');
    expect(en).not.toContain('script');
    expect((await getProduct(connection.db, 'ru', 'wolf-shirt')).product.sizeGuide).toContain(
      '<th>Грудь</th>',
    );
  });

  it('keeps a product without options as it was: one variant without values, no size guide', async () => {
    const { product } = await getProduct(connection.db, 'en', 'wolf-mug');
    expect(product).toMatchObject({
      hasOptions: false,
      options: [],
      sizes: [],
      fromPrice: null,
      sizeGuide: null,
    });
    expect(product.variants).toEqual([
      {
        id: expect.any(Number),
        sku: 'wolf-mug',
        values: [],
        price: 1200,
        sale: null,
        inStock: 0,
        perCustomerLimit: null,
      },
    ]);
  });

  it('sells nothing of an envisioned product, whatever its variants hold', async () => {
    const { product } = await getProduct(connection.db, 'en', 'outlaw-statue');
    expect(product.variants.map((variant) => variant.inStock)).toEqual([0]);
  });
});

describe('cards and the size filter of a list', () => {
  const shirts = { kind: 'category', link: 't-shirts' } as const;

  it('shows a "from" price only when the variants\' prices differ, and the sizes in stock', async () => {
    const list = await listProducts(connection.db, 'en', shirts, WHOLE_LIST);
    const card = (link: string) => list.products.find((product) => product.link === link);
    expect(card('wolf-shirt')).toMatchObject({ fromPrice: 1990, sizes: ['S', 'L', 'XL'], hasOptions: true });
    expect(card('outlaw-shirt')).toMatchObject({ fromPrice: null, sizes: ['M', 'L'], hasOptions: true });
  });

  it('lists the sizes in stock with what choosing each would show', async () => {
    const list = await listProducts(connection.db, 'en', shirts, { ...WHOLE_LIST, page: 1 });
    expect(list.sizes).toEqual([
      { key: 'S', name: 'S' },
      { key: 'M', name: 'M' },
      { key: 'L', name: 'L' },
      { key: 'XL', name: 'XL' },
    ]);
    expect(list.counts.sizes).toEqual({ S: 1, M: 1, L: 2, XL: 1 });
  });

  it('keeps only products with the size in stock, in either case', async () => {
    const medium = await listProducts(connection.db, 'en', shirts, { ...WHOLE_LIST, sizes: ['m'], page: 1 });
    expect(medium.products.map((product) => product.link)).toEqual(['outlaw-shirt']);
    expect(medium.paging?.total).toBe(1);
    const none = await listProducts(connection.db, 'en', shirts, { ...WHOLE_LIST, sizes: ['XXL'], page: 1 });
    expect(none.products).toEqual([]);
    // Two sizes: a product with either; a size nobody has adds nothing.
    const mediumOrNone = await listProducts(connection.db, 'en', shirts, {
      ...WHOLE_LIST,
      sizes: ['XXL', 'm'],
      page: 1,
    });
    expect(mediumOrNone.products.map((product) => product.link)).toEqual(['outlaw-shirt']);
    const smallOrLarge = await listProducts(connection.db, 'en', shirts, {
      ...WHOLE_LIST,
      sizes: ['S', 'L'],
    });
    expect(smallOrLarge.products).toHaveLength(2);
  });

  it('counts each side section under the other active filters (a game chosen: T-shirts says what shows)', async () => {
    const { witcher, cyber } = fixture.projects;
    const { shirts: shirtsCategory } = fixture.categories;
    const oneGame = await listProducts(connection.db, 'en', shirts, {
      ...WHOLE_LIST,
      projectIds: [witcher.id],
      page: 1,
    });
    expect(oneGame.products).toHaveLength(1);
    expect(oneGame.counts.categories[shirtsCategory.id]).toBe(1);
    expect(oneGame.counts.sizes).toEqual({ S: 1, M: 0, L: 1, XL: 1 });
    // Its own section still counts each project as choosing it would show.
    expect(oneGame.counts.projects).toEqual({ [witcher.id]: 1, [cyber.id]: 1 });

    const medium = await listProducts(connection.db, 'en', shirts, { ...WHOLE_LIST, sizes: ['M'], page: 1 });
    expect(medium.counts.projects).toEqual({ [witcher.id]: 0, [cyber.id]: 1 });
    expect(medium.counts.categories[shirtsCategory.id]).toBe(1);
    expect(medium.counts.sizes).toEqual({ S: 1, M: 1, L: 2, XL: 1 });
  });
});
