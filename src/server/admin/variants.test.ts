import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_CSV_COLUMNS } from '../../contract/admin.ts';
import { generateRows, suggestedSku } from '../../contract/variant-combinations.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { addToBasket } from '../cart/service.ts';
import { mails, productImages, products, productVariants, users } from '../db/schema.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { cancelOrder, createOrder } from '../orders/service.ts';
import { signedInAdmin } from '../testing/admin.ts';
import { createTestApp } from '../testing/app.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { orderInput } from '../testing/orders.ts';

let shop: Awaited<ReturnType<typeof createTestApp>>;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
let admin: Record<string, string>;

beforeAll(async () => {
  shop = await createTestApp();
  fixtures = await insertCatalogue(shop.db);
  admin = await signedInAdmin(shop);
});
afterAll(() => shop.close());

type Method = 'GET' | 'POST' | 'PATCH';
async function call(
  method: Method,
  url: string,
  options: { payload?: object; locale?: string; cookies?: Record<string, string> } = {},
) {
  const response = await shop.app.inject({
    method,
    url: `${url}?locale=${options.locale ?? 'en'}`,
    cookies: options.cookies ?? admin,
    ...(options.payload ? { payload: options.payload } : {}),
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
}

interface Variant {
  id?: number;
  options: string[];
  sku: string;
  price: number | null;
  sale: number | null;
  weight: number | null;
  quantity?: number;
}
interface Editor {
  id: number;
  link: string;
  version: number;
  options: Array<{
    id?: number;
    kind: string;
    name_ru: string;
    name_en: string;
    values: Array<{
      id?: number;
      value_ru: string;
      value_en: string;
      swatch?: string | null;
      images?: string[];
    }>;
  }>;
  variants: Variant[];
}

const editorOf = async (productId: number) =>
  (await call('GET', `/api/admin/products/${productId}/variants`)).body.product as Editor;
const save = (productId: number, body: object, locale = 'en') =>
  call('PATCH', `/api/admin/products/${productId}/variants`, { payload: body, locale });

const SIZES = ['XS', 'S', 'M', 'L', 'XL'];
const sizeOption = (values = SIZES) => ({
  kind: 'size',
  name_ru: 'Размер',
  name_en: 'Size',
  values: values.map((size) => ({ value_ru: size, value_en: size })),
});

/** The editor's "generate all combinations", keeping rows that stay, with `stock` per size. */
function generated(editor: Editor, options: Editor['options'], stock: Record<string, number>): Variant[] {
  return generateRows(
    options.map((option) => option.values.map((value) => value.value_en)),
    editor.variants,
    (combination) => ({
      options: combination,
      sku: suggestedSku(editor.link, combination),
      price: null,
      sale: null,
      weight: null,
    }),
  ).map((row) => {
    const size = row.options[0];
    return size !== undefined && size in stock ? { ...row, quantity: stock[size] } : row;
  });
}

const totalStock = async (productId: number) =>
  (await shop.db.select({ quantity: products.quantity }).from(products).where(eq(products.id, productId)))[0]
    ?.quantity;

/** A product with sizes XS–XL: stock 0, 1, 2, 3, 4. */
async function sizedProduct(link: string) {
  const productId = fixtures.id(link);
  const editor = await editorOf(productId);
  const options = [sizeOption()];
  const answer = await save(productId, {
    version: editor.version,
    options,
    variants: generated(editor, options, { XS: 0, S: 1, M: 2, L: 3, XL: 4 }),
  });
  expect(answer.status).toBe(200);
  return { productId, editor: answer.body.product as Editor };
}

describe('the variant table', () => {
  it('generates a row per size with its own stock; the product total is their sum', async () => {
    const { productId, editor } = await sizedProduct('wolf-shirt');
    expect(editor.options.map((option) => option.name_en)).toEqual(['Size']);
    expect(editor.variants.map((variant) => [variant.options, variant.sku, variant.quantity])).toEqual([
      [['XS'], 'wolf-shirt-xs', 0],
      [['S'], 'wolf-shirt-s', 1],
      [['M'], 'wolf-shirt-m', 2],
      [['L'], 'wolf-shirt-l', 3],
      [['XL'], 'wolf-shirt-xl', 4],
    ]);
    expect(await totalStock(productId)).toBe(10);
  });

  it('shows each running-out size on the dashboard with its option label, in the reader’s language', async () => {
    const low = async (locale: string) =>
      (
        (await call('GET', '/api/admin/dashboard', { locale })).body.lowStock as Array<{
          id: number;
          name: string;
          options: string | null;
          quantity: number;
        }>
      ).filter((row) => row.id === fixtures.id('wolf-shirt'));
    // The sold-out XS is not running out; it is gone.
    expect((await low('en')).map((row) => [row.name, row.options, row.quantity])).toEqual([
      ['Wolf T-shirt', 'Size: S', 1],
      ['Wolf T-shirt', 'Size: M', 2],
      ['Wolf T-shirt', 'Size: L', 3],
    ]);
    expect((await low('ru'))[0]).toMatchObject({ name: 'Футболка с волком', options: 'Размер: S' });
  });

  it('adding a value keeps the stock, price and SKU of the sizes that stay', async () => {
    const { productId, editor } = await sizedProduct('outlaw-shirt');
    const withPrice = editor.variants.map((variant) =>
      variant.options[0] === 'L' ? { ...variant, sku: 'OUT-L', price: 1500, sale: 1200 } : variant,
    );
    const priced = await save(productId, { ...editor, variants: withPrice });
    expect(priced.status).toBe(200);
    const before = priced.body.product as Editor;
    const options = before.options.map((option) => ({
      ...option,
      values: [...option.values, { value_ru: 'XXL', value_en: 'XXL' }],
    }));
    const answer = await save(productId, {
      version: before.version,
      options,
      variants: generated(before, options, { XXL: 7 }),
    });
    expect(answer.status).toBe(200);
    const after = answer.body.product as Editor;
    const large = after.variants.find((variant) => variant.options[0] === 'L');
    expect(large).toMatchObject({ sku: 'OUT-L', price: 1500, sale: 1200, quantity: 3 });
    expect(large?.id).toBe(before.variants.find((variant) => variant.options[0] === 'L')?.id);
    expect(after.variants.map((variant) => variant.quantity)).toEqual([0, 1, 2, 3, 4, 7]);
    expect(await totalStock(productId)).toBe(17);
  });

  it('sets one column on every row at once (stock 5 everywhere)', async () => {
    const { productId, editor } = await sizedProduct('wolf-mug');
    const answer = await save(productId, {
      ...editor,
      variants: editor.variants.map((variant) => ({ ...variant, quantity: 5, weight: 250 })),
    });
    expect(answer.status).toBe(200);
    expect(
      (answer.body.product as Editor).variants.map((variant) => [variant.quantity, variant.weight]),
    ).toEqual(SIZES.map(() => [5, 250]));
    expect(await totalStock(productId)).toBe(25);
  });

  it('refuses a save from an older version and changes nothing', async () => {
    const productId = fixtures.id('wolf-shirt');
    const editor = await editorOf(productId);
    const first = await save(productId, {
      ...editor,
      variants: editor.variants.map((variant) => ({ ...variant, quantity: 9 })),
    });
    expect(first.status).toBe(200);
    const stale = await save(productId, {
      ...editor,
      variants: editor.variants.map((variant) => ({ ...variant, quantity: 1 })),
    });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(/Someone else changed this/);
    expect(await totalStock(productId)).toBe(45);
  });

  it("refuses a variant's sale price that is not below its price, in the shopper's language", async () => {
    const productId = fixtures.id('wolf-shirt');
    const editor = await editorOf(productId);
    const variants = editor.variants.map((variant, index) =>
      index === 1 ? { ...variant, price: 1000, sale: 1000 } : variant,
    );
    const english = await save(productId, { ...editor, variants });
    expect(english.status).toBe(422);
    expect((english.body.errors as Record<string, string[]>)['variants.1.sale']).toEqual([
      'The sale price must be below the price.',
    ]);
    const russian = await save(productId, { ...editor, variants }, 'ru');
    expect((russian.body.errors as Record<string, string[]>)['variants.1.sale']).toEqual([
      'Цена со скидкой должна быть ниже цены.',
    ]);
    const saleWithoutPrice = await save(productId, {
      ...editor,
      variants: editor.variants.map((variant, index) => (index === 0 ? { ...variant, sale: 500 } : variant)),
    });
    expect(saleWithoutPrice.status).toBe(422);
  });

  it('refuses a SKU another product uses, naming the row, and a SKU twice in one save', async () => {
    const productId = fixtures.id('wolf-shirt');
    const editor = await editorOf(productId);
    const elsewhere = await save(productId, {
      ...editor,
      variants: editor.variants.map((variant, index) =>
        index === 2 ? { ...variant, sku: 'OUT-L' } : variant,
      ),
    });
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.message).toBe(
      'This SKU is already used by another variant: SKUs must be unique across the shop.',
    );
    expect(Object.keys(elsewhere.body.errors as object)).toEqual(['variants.2.sku']);
    const twice = await save(
      productId,
      {
        ...editor,
        variants: editor.variants.map((variant, index) =>
          index === 1 ? { ...variant, sku: 'wolf-shirt-xs' } : variant,
        ),
      },
      'ru',
    );
    expect(twice.status).toBe(409);
    expect(twice.body.message).toMatch(/артикул уже есть/);
  });

  it('lets two rows swap their SKUs in one save', async () => {
    const productId = fixtures.id('wolf-shirt');
    const editor = await editorOf(productId);
    const [first, second] = editor.variants;
    const answer = await save(productId, {
      ...editor,
      variants: editor.variants.map((variant, index) =>
        index === 0
          ? { ...variant, sku: second?.sku }
          : index === 1
            ? { ...variant, sku: first?.sku }
            : variant,
      ),
    });
    expect(answer.status).toBe(200);
    const swapped = answer.body.product as Editor;
    expect(swapped.variants.slice(0, 2).map((variant) => variant.sku)).toEqual([second?.sku, first?.sku]);
    const back = await save(productId, { ...swapped, variants: editor.variants });
    expect((back.body.product as Editor).variants.slice(0, 2).map((variant) => variant.sku)).toEqual([
      first?.sku,
      second?.sku,
    ]);
  });

  it('refuses to remove a size an unpaid order holds, and allows it once the order is cancelled', async () => {
    const productId = fixtures.id('wolf-shirt');
    const editor = await editorOf(productId);
    const medium = editor.variants.find((variant) => variant.options[0] === 'M');
    if (medium?.id === undefined) throw new Error('no M');
    const buyer = await newShopper('medium-buyer@example.com');
    await addToBasket(shop.db, { userId: buyer.id }, productId, medium.id);
    const order = await createOrder(shop.db, buyer.id, orderInput(), {
      deliveryCost: 350_00,
      usdRate: 90,
      expiresMinutes: 60,
    });
    const withoutMedium = {
      options: editor.options.map((option) => ({
        ...option,
        values: option.values.filter((value) => value.value_en !== 'M'),
      })),
      variants: editor.variants.filter((variant) => variant.id !== medium.id),
    };
    const refused = await save(productId, { version: editor.version, ...withoutMedium });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/held by orders that are not finished/);
    expect(refused.body.skus).toEqual([medium.sku]);

    await cancelOrder(shop.db, order.id, {
      reason: 'cancelled',
      userId: buyer.id,
      returnToBasket: false,
      shop: shop.services.mailShop,
    });
    const allowed = await save(productId, { version: editor.version, ...withoutMedium });
    expect(allowed.status).toBe(200);
    expect((allowed.body.product as Editor).variants.map((variant) => variant.options[0])).toEqual([
      'XS',
      'S',
      'L',
      'XL',
    ]);
  });

  it('a product whose options are removed gets one default variant again', async () => {
    const productId = fixtures.id('wolf-mug');
    const editor = await editorOf(productId);
    const answer = await save(productId, {
      version: editor.version,
      options: [],
      variants: generated(editor, [], {}).map((variant) => ({ ...variant, quantity: 6 })),
    });
    expect(answer.status).toBe(200);
    const after = answer.body.product as Editor;
    expect(after.options).toEqual([]);
    expect(after.variants).toMatchObject([{ options: [], sku: 'wolf-mug', quantity: 6 }]);
    expect(await totalStock(productId)).toBe(6);
  });

  it('links pictures to a colour value and keeps them across a product save', async () => {
    const productId = fixtures.id('wolf-mug');
    await shop.db.insert(productImages).values([
      { productId, file: 'mug-red.webp', position: 0 },
      { productId, file: 'mug-blue.webp', position: 1 },
    ]);
    const editor = await editorOf(productId);
    const colours = [
      {
        kind: 'colour',
        name_ru: 'Цвет',
        name_en: 'Colour',
        values: [
          { value_ru: 'Красный', value_en: 'Red', swatch: '#cc2200', images: ['mug-red.webp'] },
          { value_ru: 'Синий', value_en: 'Blue', swatch: '#1133AA', images: ['mug-blue.webp'] },
        ],
      },
    ];
    const answer = await save(productId, {
      version: editor.version,
      options: colours,
      variants: generated(editor, colours, {}),
    });
    expect(answer.status).toBe(200);
    const after = answer.body.product as Editor;
    expect(after.options[0]?.values.map((value) => [value.value_en, value.swatch, value.images])).toEqual([
      ['Red', '#cc2200', ['mug-red.webp']],
      ['Blue', '#1133aa', ['mug-blue.webp']],
    ]);
    const product = (await call('GET', `/api/admin/products/${productId}`)).body.product as Record<
      string,
      unknown
    >;
    expect(
      (
        await call('PATCH', `/api/admin/products/${productId}`, {
          payload: { ...product, quantity: undefined },
        })
      ).status,
    ).toBe(200);
    expect((await editorOf(productId)).options[0]?.values.map((value) => value.images)).toEqual([
      ['mug-red.webp'],
      ['mug-blue.webp'],
    ]);
  });
});

async function newShopper(email: string) {
  const password = 'shopper password 1';
  const [user] = await shop.db
    .insert(users)
    .values({ email, passwordHash: await hashPassword(password), emailVerifiedAt: new Date() })
    .returning({ id: users.id });
  if (!user) throw new Error('no user');
  const login = await shop.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
  const session = login.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value;
  if (!session) throw new Error('sign-in failed');
  return { id: user.id, cookies: { [SESSION_COOKIE]: session } };
}

const backInStockMails = (to: string) =>
  shop.db
    .select({ subject: mails.subject, text: mails.text })
    .from(mails)
    .where(and(eq(mails.template, 'back-in-stock'), eq(mails.to, to)));

describe('back in stock', () => {
  it('mails a waiting shopper once when staff restock the size, never twice', async () => {
    const { productId, editor } = await sizedProduct('outlaw-statue');
    const extraSmall = editor.variants.find((variant) => variant.options[0] === 'XS');
    const large = editor.variants.find((variant) => variant.options[0] === 'L');
    await shop.db
      .update(products)
      .set({ envisioned: false, visible: true })
      .where(eq(products.id, productId));
    const shopper = await newShopper('waiting@example.com');
    const ask = (variant: number | undefined, locale = 'en') =>
      call('POST', '/api/stock-alerts', {
        payload: { product: productId, variant },
        cookies: shopper.cookies,
        locale,
      });

    expect((await ask(large?.id)).status).toBe(409);
    expect((await ask(undefined)).body.message).toBe('Choose a size (or another option) first.');
    expect(
      (
        await call('POST', '/api/stock-alerts', {
          payload: { product: productId, variant: extraSmall?.id },
          cookies: {},
        })
      ).status,
    ).toBe(401);
    expect((await ask(extraSmall?.id, 'ru')).status).toBe(200);

    const restock = async (quantity: number) => {
      const current = await editorOf(productId);
      const answer = await save(productId, {
        ...current,
        variants: current.variants.map((variant) =>
          variant.id === extraSmall?.id ? { ...variant, quantity } : { ...variant, quantity: undefined },
        ),
      });
      expect(answer.status).toBe(200);
    };
    await restock(0);
    expect(await backInStockMails('waiting@example.com')).toHaveLength(0);
    await restock(2);
    await restock(0);
    await restock(3);
    const sent = await backInStockMails('waiting@example.com');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.subject).toMatch(/^Снова в наличии/);
    expect(sent[0]?.text).toContain('Размер: XS');
  });

  it('mails a waiting shopper when a cancelled order puts the last unit back', async () => {
    const productId = fixtures.id('outlaw-shirt');
    const editor = await editorOf(productId);
    const small = editor.variants.find((variant) => variant.options[0] === 'S');
    if (small?.id === undefined) throw new Error('no S');
    expect(small.quantity).toBe(1);
    const buyer = await newShopper('last-s@example.com');
    await addToBasket(shop.db, { userId: buyer.id }, productId, small.id);
    const order = await createOrder(shop.db, buyer.id, orderInput(), {
      deliveryCost: 350_00,
      usdRate: 90,
      expiresMinutes: 60,
    });
    const waiting = await newShopper('wants-s@example.com');
    const asked = await call('POST', '/api/stock-alerts', {
      payload: { product: productId, variant: small.id },
      cookies: waiting.cookies,
    });
    expect(asked.status).toBe(200);
    expect(await backInStockMails('wants-s@example.com')).toHaveLength(0);

    await cancelOrder(shop.db, order.id, {
      reason: 'cancelled',
      userId: buyer.id,
      returnToBasket: false,
      shop: shop.services.mailShop,
    });
    const sent = await backInStockMails('wants-s@example.com');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.subject).toMatch(/^Back in stock/);
    expect(sent[0]?.text).toContain('Size: S');
    const [variant] = await shop.db
      .select({ quantity: productVariants.quantity })
      .from(productVariants)
      .where(eq(productVariants.id, small.id));
    expect(variant?.quantity).toBe(1);
  });
});

describe('products CSV with variants', () => {
  const exportCsv = async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/api/admin/products.csv', cookies: admin });
    expect(response.statusCode).toBe(200);
    return response.body;
  };
  const importCsv = async (csv: string, dryRun: boolean) => {
    const response = await shop.app.inject({
      method: 'POST',
      url: `/api/admin/products.csv?locale=en${dryRun ? '&dryRun=1' : ''}`,
      headers: { 'content-type': 'text/csv' },
      payload: csv,
      cookies: admin,
    });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  };
  const rowsOf = (csv: string) => parse(csv, { columns: true, bom: true }) as Array<Record<string, string>>;
  const csvOf = (rows: Array<Record<string, string>>) =>
    stringify(rows, { header: true, columns: [...PRODUCT_CSV_COLUMNS] });

  it('exports one row per variant, product columns on the first row only; a product without options keeps one row', async () => {
    const rows = rowsOf(await exportCsv());
    const shirt = rows.filter((row) => row.link === 'wolf-shirt');
    expect(shirt.map((row) => [row.sku, row.options, row.quantity, row.name_en])).toEqual([
      ['wolf-shirt-xs', 'Size=XS', '9', 'Wolf T-shirt'],
      ['wolf-shirt-s', 'Size=S', '9', ''],
      ['wolf-shirt-l', 'Size=L', '9', ''],
      ['wolf-shirt-xl', 'Size=XL', '9', ''],
    ]);
    const mug = rows.filter((row) => row.link === 'wolf-mug');
    expect(mug).toHaveLength(2);
    const plain = rows.filter((row) => row.link === 'hidden-mug');
    expect(plain).toMatchObject([{ sku: 'hidden-mug', options: '', variant_price: '' }]);
  });

  it('imports its own export as no change at all', async () => {
    const again = await importCsv(await exportCsv(), true);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ updated: [], created: [], errors: [] });
  });

  it('reports variant price and stock changes on a dry run, then applies them and mails a waiting shopper', async () => {
    const productId = fixtures.id('wolf-shirt');
    const soldOut = await importCsv('link,sku,quantity,quantity_seen\nwolf-shirt,wolf-shirt-xs,0,9\n', false);
    expect(soldOut.body.updated).toEqual([
      { link: 'wolf-shirt', changes: { 'wolf-shirt-xs quantity': [9, 0] } },
    ]);
    const shopper = await newShopper('csv-waiting@example.com');
    const extraSmall = (await editorOf(productId)).variants.find((variant) => variant.options[0] === 'XS');
    expect(
      (
        await call('POST', '/api/stock-alerts', {
          payload: { product: productId, variant: extraSmall?.id },
          cookies: shopper.cookies,
        })
      ).status,
    ).toBe(200);
    const rows = rowsOf(await exportCsv()).map((row) =>
      row.sku === 'wolf-shirt-xs'
        ? { ...row, quantity: '4' }
        : row.sku === 'wolf-shirt-l'
          ? { ...row, variant_price: '2500', variant_sale: '2100.50' }
          : row,
    );
    const dry = await importCsv(csvOf(rows), true);
    expect(dry.status).toBe(200);
    expect(dry.body.updated).toEqual([
      {
        link: 'wolf-shirt',
        changes: {
          'wolf-shirt-xs quantity': [0, 4],
          'wolf-shirt-l variant_price': [null, 2500],
          'wolf-shirt-l variant_sale': [null, 2100.5],
        },
      },
    ]);
    expect((await editorOf(productId)).variants[0]?.quantity).toBe(0);
    expect(await backInStockMails('csv-waiting@example.com')).toHaveLength(0);

    const applied = await importCsv(csvOf(rows), false);
    expect(applied.status).toBe(200);
    const after = await editorOf(productId);
    expect(after.variants.find((variant) => variant.sku === 'wolf-shirt-l')).toMatchObject({
      price: 2500,
      sale: 2100.5,
    });
    expect(after.variants[0]?.quantity).toBe(4);
    expect(await backInStockMails('csv-waiting@example.com')).toHaveLength(1);
    expect((await importCsv(await exportCsv(), true)).body).toMatchObject({ updated: [], errors: [] });
  });

  it('refuses unknown SKUs, product columns on a variant row and a sale not below the price, changing nothing', async () => {
    const csv = [
      'link,price,sku,variant_price,variant_sale,quantity,quantity_seen',
      'wolf-shirt,,wolf-shirt-xs,,,1,4',
      'wolf-shirt,,wolf-shirt-xxxl,,,1,',
      'wolf-shirt,2000,wolf-shirt-s,,,,',
      'wolf-shirt,,wolf-shirt-l,100,100,,',
    ].join('\n');
    const refused = await importCsv(csv, false);
    expect(refused.status).toBe(422);
    const errors = refused.body.errors as Array<{ line: number; field: string; message: string }>;
    expect(errors.map(({ line, field }) => [line, field])).toEqual([
      [3, 'sku'],
      [4, 'link'],
      [5, 'variant_sale'],
    ]);
    expect(errors[0]?.message).toMatch(/No variant of this product has this SKU/);
    expect((await editorOf(fixtures.id('wolf-shirt'))).variants[0]?.quantity).toBe(4);
  });
});

describe('size guide', () => {
  it("saves a category's size guide sanitized, and keeps it when a save leaves it out", async () => {
    const category = (
      (await call('GET', '/api/admin/categories')).body.categories as Array<Record<string, unknown>>
    ).find((row) => row.link === 't-shirts');
    if (!category) throw new Error('no t-shirts');
    const saved = await call('PATCH', `/api/admin/categories/${category.id}`, {
      payload: {
        ...category,
        size_guide_ru: '<p>Обхват груди</p><ul><li>S — 90 см</li></ul>',
        size_guide_en: '<p onclick="steal()">Chest</p><script>alert(1)</script><ul><li>S: 90 cm</li></ul>',
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.category).toMatchObject({
      size_guide_ru: '<p>Обхват груди</p><ul><li>S — 90 см</li></ul>',
      size_guide_en: '<p>Chest</p><ul><li>S: 90 cm</li></ul>',
    });
    const {
      size_guide_ru: _ru,
      size_guide_en: _en,
      ...withoutGuide
    } = saved.body.category as Record<string, unknown>;
    const hidden = await call('PATCH', `/api/admin/categories/${category.id}`, {
      payload: { ...withoutGuide, visible: false },
    });
    expect(hidden.body.category).toMatchObject({
      visible: false,
      size_guide_en: '<p>Chest</p><ul><li>S: 90 cm</li></ul>',
    });
  });
});

describe("an order in the staff member's language", () => {
  it("names a Russian shopper's items, their sizes and the status history's reasons in the back office's language", async () => {
    const productId = fixtures.id('wolf-shirt');
    const inStock = (await editorOf(productId)).variants.find((variant) => (variant.quantity ?? 0) > 0);
    if (inStock?.id === undefined) throw new Error('no size in stock');
    const buyer = await newShopper('russian-buyer@example.com');
    await addToBasket(shop.db, { userId: buyer.id }, productId, inStock.id);
    const order = await createOrder(shop.db, buyer.id, orderInput(), {
      deliveryCost: 350_00,
      usdRate: 90,
      expiresMinutes: 60,
    });
    const size = inStock.options[0];
    for (const [locale, name, options] of [
      ['en', 'Wolf T-shirt', `Size: ${size}`],
      ['ru', 'Футболка с волком', `Размер: ${size}`],
    ] as const) {
      const answer = await call('GET', `/api/admin/orders/${order.id}`, { locale });
      const detail = answer.body.order as {
        locale: string;
        products: Array<{ name: string; options: string; sku: string }>;
        history: Array<{ reason: string | null }>;
      };
      expect(detail.locale).toBe('ru');
      expect(detail.products).toEqual([expect.objectContaining({ name, options, sku: inStock.sku })]);
      expect(detail.history.map((entry) => entry.reason)).toEqual(['placed']);
    }
  });
});

describe('stock in the variant table (issue 30)', () => {
  it('4 shown, a shopper buys one (3), the manager types +1 received: 4, one ledger row per change; a count over the stale 4 is refused with 3 shown', async () => {
    const { productId, editor } = await sizedProduct('wolf-mug');
    const medium = editor.variants.find((variant) => variant.options[0] === 'M');
    if (medium?.id === undefined) throw new Error('no M');
    const received = await save(productId, {
      ...editor,
      variants: editor.variants.map((variant) =>
        variant.id === medium.id
          ? { ...variant, quantity: undefined, stock_change: 2 }
          : { ...variant, quantity: undefined },
      ),
    });
    expect(received.status).toBe(200);
    // The table as the manager keeps it open: M shows 4.
    const shown = received.body.product as Editor;
    expect(shown.variants.find((variant) => variant.id === medium.id)?.quantity).toBe(4);

    const buyer = await newShopper('stale-table@example.com');
    await addToBasket(shop.db, { userId: buyer.id }, productId, medium.id);
    const order = await createOrder(shop.db, buyer.id, orderInput(), {
      deliveryCost: 350_00,
      usdRate: 90,
      expiresMinutes: 60,
    });

    // A count typed over the figure the table showed (4) is refused now that it is 3, and changes nothing.
    const stale = await save(productId, {
      ...shown,
      variants: shown.variants.map((variant) =>
        variant.id === medium.id ? { ...variant, quantity: 5 } : { ...variant, quantity: undefined },
      ),
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ variantId: medium.id, current: 3 });
    expect(stale.body.message).toMatch(/stock has changed since you saw it/);
    expect((await editorOf(productId)).variants.find((variant) => variant.id === medium.id)?.quantity).toBe(
      3,
    );

    // "+1 arrived", typed in the same stale table: a receipt, so the sale is kept.
    const fresh = await editorOf(productId);
    const plusOne = await save(productId, {
      ...shown,
      version: fresh.version,
      variants: shown.variants.map((variant) =>
        variant.id === medium.id
          ? { ...variant, quantity: undefined, stock_change: '+1' }
          : { ...variant, quantity: undefined },
      ),
    });
    expect(plusOne.status).toBe(200);
    expect(
      (plusOne.body.product as Editor).variants.find((variant) => variant.id === medium.id)?.quantity,
    ).toBe(4);

    const history = await call('GET', `/api/admin/products/${productId}/stock-movements`, {});
    const ofMedium = (history.body.movements as Array<Record<string, unknown>>).filter(
      (movement) => movement.variantId === medium.id,
    );
    expect(
      ofMedium.map((movement) => [movement.reason, movement.delta, movement.balance, movement.orderId]),
    ).toEqual([
      ['receipt', 1, 4, null],
      ['sale', -1, 3, order.id],
      ['receipt', 2, 4, null],
      ['receipt', 2, 2, null],
    ]);
  });
});
