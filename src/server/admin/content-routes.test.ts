import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_CSV_COLUMNS } from '../../contract/admin.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { changeStock } from '../catalog/stock.ts';
import { auditLog, feedback, files, products, productVariants, reviews, users } from '../db/schema.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { multipartBody } from '../testing/admin.ts';
import { createTestApp } from '../testing/app.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { adminContentRoutes } from './content-routes.ts';

let shop: Awaited<ReturnType<typeof createTestApp>>;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
let uploadsDir: string;
const sessions: Record<'admin' | 'shopper', string> = { admin: '', shopper: '' };
const userIds: Record<'admin' | 'shopper', number> = { admin: 0, shopper: 0 };
const PASSWORD = 'admin password 1';
type Role = 'admin' | 'shopper' | 'guest';

beforeAll(async () => {
  shop = await createTestApp();
  uploadsDir = shop.services.config.uploadsDir;
  fixtures = await insertCatalogue(shop.db);
  const passwordHash = await hashPassword(PASSWORD);
  const inserted = await shop.db
    .insert(users)
    .values([
      { email: 'admin@example.com', passwordHash, role: 'admin', emailVerifiedAt: new Date() },
      {
        email: 'shopper@example.com',
        passwordHash,
        emailVerifiedAt: new Date(),
        locale: 'en',
        firstName: 'Sam',
      },
    ])
    .returning();
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
    userIds[role] = inserted.find((user) => user.email === email)?.id ?? 0;
  }
});
afterAll(async () => {
  await shop.close();
  rmSync(path.dirname(uploadsDir), { recursive: true, force: true });
});

const cookiesOf = (role: Role): Record<string, string> =>
  role === 'guest' ? {} : { [SESSION_COOKIE]: sessions[role] };

const call = async (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
  role: Role = 'admin',
) => {
  const response = await shop.app.inject({
    method,
    url,
    ...(payload ? { payload } : {}),
    cookies: cookiesOf(role),
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
};

const upload = async (
  folder: string,
  uploads: Array<{ name: string; type: string; data: Buffer }>,
  role: Role = 'admin',
) => {
  const { payload, contentType } = await multipartBody({ path: folder }, uploads);
  const response = await shop.app.inject({
    method: 'POST',
    url: '/api/admin/files',
    headers: { 'content-type': contentType },
    payload,
    cookies: cookiesOf(role),
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
};

const picture = (width: number, height: number, colour: string) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

/** Every file below the data directory and every file row: an attack must change neither. */
async function storedState() {
  const dataDir = path.dirname(uploadsDir);
  const onDisk = existsSync(dataDir)
    ? readdirSync(dataDir, { recursive: true, withFileTypes: true })
        .map((entry) => path.join(entry.parentPath, entry.name))
        .sort()
    : [];
  return { onDisk, rows: (await shop.db.select({ id: files.id }).from(files)).length };
}

describe('authorization sweep', () => {
  const routes = adminContentRoutes({} as never);

  it('covers every content route', () => {
    expect(routes.length).toBe(18);
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
      const target = url.replace(':id', '1');
      const guest = await call(method, target, method === 'GET' ? undefined : {}, 'guest');
      expect(guest.status).toBe(401);
      const shopper = await call(method, target, method === 'GET' ? undefined : {}, 'shopper');
      expect(shopper.status).toBe(403);
      expect(shopper.body).toMatchObject({ success: false });
    },
  );

  it('refuses a guest and a shopper uploading a real picture, storing nothing', async () => {
    const before = await storedState();
    const data = await picture(64, 64, '#123456');
    expect((await upload('', [{ name: 'a.png', type: 'image/png', data }], 'guest')).status).toBe(401);
    expect((await upload('', [{ name: 'a.png', type: 'image/png', data }], 'shopper')).status).toBe(403);
    expect(await storedState()).toEqual(before);
  });
});

describe('file manager', () => {
  it('stores a real picture under a content-hash name, lists it, and a product can show it', async () => {
    expect((await call('POST', '/api/admin/files/folders', { path: '', name: 'merch' })).status).toBe(200);
    const stored = await upload('merch', [
      { name: 'Wolf photo.png', type: 'image/png', data: await picture(1600, 900, '#336699') },
    ]);
    expect(stored.status).toBe(200);
    const file = stored.body.file as { id: number; name: string; originalName: string; url: string };
    expect(file).toMatchObject({
      originalName: 'Wolf photo.png',
      width: 1200,
      height: 675,
      url: `/img/products/640/${file.name}`,
    });
    expect(file.name).toMatch(/^[0-9a-f]{16}\.webp$/);

    const root = await call('GET', '/api/admin/files');
    expect(root.body).toMatchObject({ path: '', folders: ['merch'], files: [] });
    const merch = await call('GET', '/api/admin/files?path=merch');
    expect(merch.body.files).toEqual([expect.objectContaining({ id: file.id, name: file.name })]);

    const imageDir = path.join(uploadsDir, 'img', 'products');
    for (const variant of ['', '320', '640', '1200']) {
      expect(existsSync(path.join(imageDir, variant, file.name))).toBe(true);
    }
    const served = await shop.app.inject({ method: 'GET', url: file.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');

    const wolf = fixtures.id('wolf-shirt');
    const current = (await call('GET', `/api/admin/products/${wolf}`)).body.product as Record<
      string,
      unknown
    >;
    const saved = await call('PATCH', `/api/admin/products/${wolf}`, { ...current, images: [file.name] });
    expect(saved.status).toBe(200);
    const product = await call('GET', '/api/product?locale=en&link=wolf-shirt');
    expect((product.body.product as { images: string[] }).images).toEqual([file.name]);

    // Removing the entry keeps the picture the product shows.
    const removed = await call('DELETE', `/api/admin/files/${file.id}`);
    expect(removed.body).toEqual({ success: true, keptOnDisk: true });
    expect(existsSync(path.join(imageDir, '640', file.name))).toBe(true);
    expect((await call('GET', '/api/admin/files?path=merch')).body.files).toEqual([]);
  });

  it('deletes a picture from disk only when no product, description or other folder shows it', async () => {
    const data = await picture(500, 500, '#aa0000');
    const imageDir = path.join(uploadsDir, 'img', 'products');
    const onDisk = (name: string) =>
      ['', '320', '640', '1200'].map((variant) => existsSync(path.join(imageDir, variant, name)));
    const store = async (folder: string) =>
      (await upload(folder, [{ name: 'x.jpg', type: 'image/jpeg', data }])).body.file as {
        id: number;
        name: string;
      };
    const remove = async (id: number) => (await call('DELETE', `/api/admin/files/${id}`)).body;

    const described = await store('');
    expect(onDisk(described.name)).toEqual([true, true, true, true]);
    const mug = fixtures.id('wolf-mug');
    const current = (await call('GET', `/api/admin/products/${mug}`)).body.product as Record<string, unknown>;
    const illustrated = await call('PATCH', `/api/admin/products/${mug}`, {
      ...current,
      desc_en: `<p>Inside:</p><img src="/img/products/640/${described.name}" alt="">`,
    });
    expect(await remove(described.id)).toEqual({ success: true, keptOnDisk: true });
    await call('PATCH', `/api/admin/products/${mug}`, {
      ...current,
      version: (illustrated.body.product as { version: number }).version,
    });

    const inMerch = await store('merch');
    const inRoot = await store('');
    expect(inRoot.name).toBe(inMerch.name);
    expect(await remove(inRoot.id)).toEqual({ success: true, keptOnDisk: true });
    expect(await remove(inMerch.id)).toEqual({ success: true, keptOnDisk: false });
    expect(onDisk(inMerch.name)).toEqual([false, false, false, false]);
    expect((await call('DELETE', `/api/admin/files/${inMerch.id}`)).status).toBe(404);
  });

  it('refuses what is not a picture, or too large, and stores nothing', async () => {
    const before = await storedState();
    const script = Buffer.from('<script>alert(document.cookie)</script>');
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">' +
        '<script>alert(1)</script><rect width="100" height="100" fill="red"/></svg>',
    );
    const text = await upload('', [
      { name: 'notes.txt', type: 'text/plain', data: Buffer.from('just text\n') },
    ]);
    expect(text.status).toBe(422);
    const disguised = await upload('', [{ name: 'x.png', type: 'image/png', data: script }]);
    expect(disguised.status).toBe(422);
    expect(disguised.body).toMatchObject({ success: false, errors: { image: [expect.any(String)] } });
    expect((await upload('', [{ name: 'x.svg', type: 'image/svg+xml', data: svg }])).status).toBe(422);
    expect((await upload('', [{ name: 'x.png', type: 'image/png', data: Buffer.alloc(0) }])).status).toBe(
      422,
    );

    const huge = Buffer.concat([await picture(10, 10, '#000000'), Buffer.alloc(10 * 1024 * 1024)]);
    const tooLarge = await upload('', [{ name: 'big.png', type: 'image/png', data: huge }]);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toMatchObject({ success: false, errors: { file: [expect.any(String)] } });

    const two = await upload('', [
      { name: 'a.png', type: 'image/png', data: await picture(20, 20, '#00ff00') },
      { name: 'b.png', type: 'image/png', data: await picture(20, 20, '#0000ff') },
    ]);
    expect(two.status).toBe(413);
    const noFile = await upload('', []);
    expect(noFile.status).toBe(422);
    expect(noFile.body).toMatchObject({ errors: { file: [expect.any(String)] } });
    expect(await storedState()).toEqual(before);
  });

  it('refuses every path that is not plain folder names, inside or outside the root', async () => {
    const before = await storedState();
    const real = await picture(30, 30, '#445566');
    for (const folder of ['..', '../..', 'merch/../..', '..\\..', '/etc', 'merch/', '%2e%2e', 'a//b']) {
      const refused = await upload(folder, [{ name: 'a.png', type: 'image/png', data: real }]);
      expect(refused.status, folder).toBe(422);
      expect(refused.body.errors, folder).toMatchObject({ path: [expect.any(String)] });
    }
    for (const query of [
      '..',
      '%2e%2e',
      '%2e%2e%2f%2e%2e',
      '%252e%252e',
      '..%5C..',
      '%2Fetc',
      'a/b/c/d/e/f',
    ]) {
      const listed = await call('GET', `/api/admin/files?path=${query}`);
      expect(listed.status, query).toBe(422);
      expect(listed.body.errors, query).toMatchObject({ path: [expect.any(String)] });
    }
    for (const [folder, name] of [
      ['', '..'],
      ['', '%2e%2e'],
      ['', '../evil'],
      ['', '.hidden'],
      ['', 'evil\\..'],
      ['..', 'evil'],
      ['/tmp', 'evil'],
      ['', 'Upper'],
    ] as const) {
      const created = await call('POST', '/api/admin/files/folders', { path: folder, name });
      expect(created.status, `${folder} ${name}`).toBe(422);
    }
    for (const folder of ['..', '%2e%2e', '', '/']) {
      expect((await call('DELETE', '/api/admin/files/folders', { path: folder })).status, folder).toBe(422);
    }
    expect((await call('GET', '/api/admin/files?path=nowhere')).status).toBe(404);
    expect(existsSync(path.join(uploadsDir, 'evil'))).toBe(false);
    expect(existsSync(path.join(path.dirname(uploadsDir), 'evil'))).toBe(false);
    expect(await storedState()).toEqual(before);
  });

  it('nests folders up to five deep and deletes only empty ones', async () => {
    let parent = '';
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      expect((await call('POST', '/api/admin/files/folders', { path: parent, name })).status).toBe(200);
      parent = parent ? `${parent}/${name}` : name;
    }
    expect((await call('POST', '/api/admin/files/folders', { path: parent, name: 'f' })).status).toBe(422);
    expect((await call('POST', '/api/admin/files/folders', { path: 'a', name: 'b' })).status).toBe(409);
    expect((await call('POST', '/api/admin/files/folders', { path: 'missing', name: 'x' })).status).toBe(404);

    const stored = await upload('a/b', [
      { name: 'p.png', type: 'image/png', data: await picture(40, 40, '#999999') },
    ]);
    expect(stored.status).toBe(200);
    expect((await call('DELETE', '/api/admin/files/folders', { path: 'a' })).status).toBe(409);
    expect((await call('DELETE', '/api/admin/files/folders', { path: 'a/b/c/d/e' })).status).toBe(200);
    expect((await call('GET', '/api/admin/files?path=a/b/c/d')).body.folders).toEqual([]);
    await call('DELETE', `/api/admin/files/${(stored.body.file as { id: number }).id}`);
    expect((await call('DELETE', '/api/admin/files/folders', { path: 'a/b/c/d' })).status).toBe(200);
  });

  it('drops a file part sent to any other multipart call, which keeps working', async () => {
    const before = await storedState();
    const { payload, contentType } = await multipartBody(
      { name: 'Ivan', email: 'ivan@example.com', message: 'A photo of my order' },
      [{ name: 'photo.png', type: 'image/png', data: await picture(50, 50, '#777777') }],
    );
    const sent = await shop.app.inject({
      method: 'POST',
      url: '/api/feedback',
      remoteAddress: '203.0.113.77',
      headers: { 'content-type': contentType },
      payload,
    });
    expect(sent.json()).toEqual({ success: true });
    const [row] = await shop.db.select().from(feedback).where(eq(feedback.email, 'ivan@example.com'));
    expect(row?.message).toBe('A photo of my order');
    expect(await storedState()).toEqual(before);
    await shop.db.delete(feedback);
  });

  it('audits uploads, deletions and folders', async () => {
    const entries = await shop.db.select().from(auditLog).where(eq(auditLog.actorId, userIds.admin));
    const kinds = new Set(entries.map((entry) => `${entry.entity}:${entry.action}`));
    for (const kind of ['file:create', 'file:delete', 'folder:create', 'folder:delete']) {
      expect(kinds).toContain(kind);
    }
  });
});

describe('products CSV', () => {
  const exportCsv = async () => {
    const response = await shop.app.inject({
      method: 'GET',
      url: '/api/admin/products.csv',
      cookies: cookiesOf('admin'),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    return response.body;
  };
  const importCsv = async (csv: string, dryRun: boolean) => {
    const response = await shop.app.inject({
      method: 'POST',
      url: `/api/admin/products.csv${dryRun ? '?dryRun=1' : ''}`,
      headers: { 'content-type': 'text/csv' },
      payload: csv,
      cookies: cookiesOf('admin'),
    });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  };
  const productAnswer = async (link: string) => call('GET', `/api/product?locale=ru&link=${link}`);

  it('exports every product with links, roubles and 1/0 flags', async () => {
    const csv = await exportCsv();
    // The BOM first, so that spreadsheets read Cyrillic.
    expect(csv.split('\n')[0]).toBe(`\uFEFF${PRODUCT_CSV_COLUMNS.join(',')}`);
    const rows = parse(csv, { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(6);
    expect(rows.find((row) => row.link === 'outlaw-shirt')).toMatchObject({
      id: String(fixtures.id('outlaw-shirt')),
      project: 'pixel-outlaws',
      categories: 't-shirts',
      name_en: 'Outlaw T-shirt',
      price: '3100.00',
      sale: '',
      weight: '200',
      quantity: '3',
      visible: '1',
      week_sale: '0',
      envisioned: '0',
      images: 'outlaw-1.webp',
    });
    expect(rows.find((row) => row.link === 'wolf-shirt')).toMatchObject({
      categories: 'drafts|t-shirts',
      sale: '1990.00',
      week_sale: '1',
    });
  });

  it('reports a change and a new row on a dry run without changing the shop, then applies them', async () => {
    const rows = parse(await exportCsv(), { columns: true, bom: true }) as Array<Record<string, string>>;
    expect((await productAnswer('wolf-mug')).body.product).toMatchObject({ price: 1200 });
    const edited = rows.map((row) => (row.link === 'wolf-mug' ? { ...row, price: '1350.50' } : row));
    edited.push({
      id: '',
      link: 'wolf-pin',
      project: 'northwind',
      categories: 'mugs|t-shirts',
      name_ru: 'Значок с волком',
      name_en: 'Wolf pin',
      price: '300',
      sale: '',
      weight: '15',
      quantity: '7',
      visible: '1',
      week_sale: '0',
      envisioned: '0',
      desc_ru: '<p>Эмаль</p><script>alert(1)</script>',
      desc_en: '<p onclick="steal()">Enamel</p>',
      images: '',
    });
    const csv = stringify(edited, { header: true, columns: [...PRODUCT_CSV_COLUMNS] });

    const dry = await importCsv(csv, true);
    expect(dry.status).toBe(200);
    expect(dry.body).toEqual({
      success: true,
      dryRun: true,
      created: ['wolf-pin'],
      updated: [{ link: 'wolf-mug', changes: { price: [1200, 1350.5] } }],
      unchanged: 5,
      errors: [],
      warnings: [],
    });
    expect((await productAnswer('wolf-mug')).body.product).toMatchObject({ price: 1200 });
    expect((await productAnswer('wolf-pin')).status).toBe(404);

    const applied = await importCsv(csv, false);
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ success: true, dryRun: false, created: ['wolf-pin'], unchanged: 5 });
    expect((await productAnswer('wolf-mug')).body.product).toMatchObject({ price: 1350.5 });
    const pin = (await call('GET', '/api/product?locale=en&link=wolf-pin')).body.product;
    expect(pin).toMatchObject({ name: 'Wolf pin', price: 300, inStock: 7, desc: '<p>Enamel</p>' });
    expect((await productAnswer('wolf-pin')).body.product).toMatchObject({ desc: '<p>Эмаль</p>' });

    const audited = await shop.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'product'), eq(auditLog.actorId, userIds.admin)));
    const mug = audited.filter((entry) => entry.entityId === String(fixtures.id('wolf-mug')));
    expect(mug.at(-1)).toMatchObject({
      action: 'update',
      before: expect.objectContaining({ price: 1200 }),
      after: expect.objectContaining({ price: 1350.5 }),
    });

    // The file exported now imports as no change at all.
    const again = await importCsv(await exportCsv(), true);
    expect(again.body).toMatchObject({ created: [], updated: [], unchanged: 7, errors: [] });
  });

  it('counts stock over the figure it was seen at and updates only the columns a file has', async () => {
    const csv = 'link,quantity,quantity_seen,visible\nwolf-shirt,4,10,\noutlaw-shirt,,,0\n';
    const applied = await importCsv(csv, false);
    expect(applied.status).toBe(200);
    expect(applied.body.updated).toEqual([
      { link: 'wolf-shirt', changes: { quantity: [10, 4] } },
      { link: 'outlaw-shirt', changes: { visible: [true, false] } },
    ]);
    const [wolf] = await shop.db.select().from(products).where(eq(products.link, 'wolf-shirt'));
    expect(wolf).toMatchObject({ quantity: 4, sale: 1_990_00, weekSale: true });
    expect((await productAnswer('outlaw-shirt')).status).toBe(404);
  });

  it('keeps a sale made after the export: a count left as exported changes nothing, and one typed over it is refused with the stock now (ADR 0088)', async () => {
    const productId = fixtures.id('wolf-mug');
    const stockNow = async () => {
      const [variant] = await shop.db
        .select({ id: productVariants.id, quantity: productVariants.quantity })
        .from(productVariants)
        .where(eq(productVariants.productId, productId));
      if (!variant) throw new Error('wolf-mug has no variant');
      return variant;
    };
    const move = async (delta: number) => {
      const variant = await stockNow();
      await shop.db.transaction((tx) =>
        changeStock(tx, productId, [{ variantId: variant.id, delta }], { actorId: userIds.admin }),
      );
    };
    await move(5 - (await stockNow()).quantity);
    const exported = parse(await exportCsv(), { columns: true, bom: true }) as Array<Record<string, string>>;
    const fileOf = (rows: Array<Record<string, string>>) =>
      stringify(rows, { header: true, columns: [...PRODUCT_CSV_COLUMNS] });
    const line = exported.findIndex((row) => row.link === 'wolf-mug') + 2;
    expect(exported[line - 2]).toMatchObject({ quantity: '5', quantity_seen: '5' });
    // A unit leaves the shelf after the export.
    await move(-1);

    const untouched = await importCsv(fileOf(exported), false);
    expect(untouched.body).toMatchObject({ updated: [], errors: [] });
    expect((await stockNow()).quantity).toBe(4);

    // "One more arrived", typed over the exported figure that is no longer the stock.
    const typed = exported.map((row) => (row.link === 'wolf-mug' ? { ...row, quantity: '6' } : row));
    const refused = await importCsv(fileOf(typed), false);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      { line, field: 'quantity', message: expect.stringMatching(/\(4\)$/) },
    ]);
    expect((await stockNow()).quantity).toBe(4);

    // Counted again over the figure now: the count is taken, as one ledger movement.
    const counted = typed.map((row) => (row.link === 'wolf-mug' ? { ...row, quantity_seen: '4' } : row));
    const applied = await importCsv(fileOf(counted), false);
    expect(applied.body).toMatchObject({ updated: [{ link: 'wolf-mug', changes: { quantity: [4, 6] } }] });
    expect((await stockNow()).quantity).toBe(6);
  });

  it('changes an existing stock by no bare new total: a file without quantity_seen keeps the figure now and refuses another (ADR 0094)', async () => {
    const productId = fixtures.id('wolf-mug');
    const [variant] = await shop.db
      .select({ quantity: productVariants.quantity })
      .from(productVariants)
      .where(eq(productVariants.productId, productId));
    const stock = variant?.quantity ?? -1;
    const fileWith = (quantity: number) => `link,quantity\nwolf-mug,${quantity}\n`;

    const same = await importCsv(fileWith(stock), false);
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ updated: [], errors: [] });

    const bare = await importCsv(fileWith(stock + 3), false);
    expect(bare.status).toBe(422);
    expect(bare.body.errors).toEqual([
      {
        line: 2,
        field: 'quantity',
        message: expect.stringMatching(new RegExp(`quantity_seen.*\\(${stock}\\)$`)),
      },
    ]);
    const [after] = await shop.db
      .select({ quantity: productVariants.quantity })
      .from(productVariants)
      .where(eq(productVariants.productId, productId));
    expect(after?.quantity).toBe(stock);

    // A new product's first stock has no earlier figure to be counted over.
    const created = await importCsv(
      'link,project,categories,name_ru,name_en,price,quantity\nbare-stock-mug,northwind,mugs,Кружка,Mug,999,7\n',
      true,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.created).toHaveLength(1);
  });

  it('applies nothing when any row is wrong, and says which line and field', async () => {
    const csv = [
      'link,project,categories,name_ru,name_en,price,sale,visible',
      'wolf-mug,northwind,mugs,Кружка,Mug,999,,1',
      'bad-project,nowhere,,Х,X,10,,1',
      'bad-category,northwind,mugs|nope,Х,X,10,,1',
      'bad-sale,northwind,,Х,X,10,20,1',
      'bad-flag,northwind,,Х,X,10,,maybe',
      '"Not A Link",northwind,,Х,X,10,,1',
      'no-price,northwind,,Х,X,,,1',
      'wolf-mug,northwind,mugs,Кружка,Mug,998,,1',
    ].join('\n');
    const refused = await importCsv(csv, false);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ success: false, dryRun: false });
    const errors = refused.body.errors as Array<{ line: number; field: string; message: string }>;
    expect(errors.map(({ line, field }) => [line, field])).toEqual([
      [3, 'project'],
      [4, 'categories'],
      [5, 'sale'],
      [6, 'visible'],
      [7, 'link'],
      [8, 'price'],
      [9, 'link'],
    ]);
    expect(errors[1]?.message).toContain('nope');
    expect((await productAnswer('wolf-mug')).body.product).toMatchObject({ price: 1350.5 });
    expect((await shop.db.select().from(products).where(eq(products.link, 'bad-sale'))).length).toBe(0);

    expect((await importCsv('link,colour\nwolf-mug,red\n', true)).status).toBe(422);
    expect((await importCsv('link,name_en\n"wolf-mug,Mug\n', true)).status).toBe(422);
    const json = await call('POST', '/api/admin/products.csv', { link: 'wolf-mug' });
    expect(json.status).toBe(422);
  });

  it('refuses a row that would put a product on sale without a price, on a dry run too', async () => {
    const csv = 'link,price,visible,envisioned\nwolf-mug,0,1,0\noutlaw-statue,0,1,1\n';
    for (const dryRun of [true, false]) {
      const refused = await importCsv(csv, dryRun);
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual([
        {
          line: 2,
          field: 'price',
          message: 'A product shown in the shop and available to order needs a price above 0.',
        },
      ]);
    }
    expect((await productAnswer('wolf-mug')).body.product).toMatchObject({ price: 1350.5 });
  });

  it('exports names a spreadsheet would run as formulas as text, and imports them back unchanged', async () => {
    const formulas = {
      nameEn: '=HYPERLINK("https://evil.example","Wolf mug")',
      nameRu: "'+7 (900) кружка",
      descriptionEn: '@SUM(1+1)',
      descriptionRu: '-1 кружка',
    };
    await shop.db.update(products).set(formulas).where(eq(products.link, 'wolf-mug'));
    const csv = await exportCsv();
    const rows = parse(csv, { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(rows.find((row) => row.link === 'wolf-mug')).toMatchObject({
      name_en: `'=HYPERLINK("https://evil.example","Wolf mug")`,
      name_ru: "''+7 (900) кружка",
      desc_en: "'@SUM(1+1)",
      desc_ru: "'-1 кружка",
    });
    // No cell of the file starts a formula.
    expect(rows.flatMap((row) => Object.values(row)).filter((cell) => /^[=+\-@\t\r]/.test(cell))).toEqual([]);

    const reimported = await importCsv(csv, false);
    expect(reimported.body).toMatchObject({ created: [], updated: [], errors: [] });
    const [mug] = await shop.db.select().from(products).where(eq(products.link, 'wolf-mug'));
    expect(mug).toMatchObject(formulas);
  });

  /** The file's bytes as Excel in a Russian locale saves them: Windows-1251 (Cyrillic and ASCII here). */
  const windows1251 = (text: string) =>
    Buffer.from(
      [...text].map((character) => {
        const code = character.codePointAt(0) ?? 0;
        if (code < 0x80) return code;
        if (code >= 0x410 && code <= 0x44f) return code - 0x410 + 0xc0;
        if (character === 'ё') return 0xb8;
        if (character === '«') return 0xab;
        if (character === '»') return 0xbb;
        throw new Error(`no Windows-1251 byte for ${character}`);
      }),
    );
  const importFile = async (file: Buffer | string, query: string) => {
    const response = await shop.app.inject({
      method: 'POST',
      url: `/api/admin/products.csv?${query}`,
      headers: { 'content-type': 'text/csv' },
      payload: file,
      cookies: cookiesOf('admin'),
    });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  };

  it('reads a ;-separated file in Windows-1251 with decimal commas, as Russian Excel saves it', async () => {
    const file = windows1251(
      'link;name_ru;price;sale\r\nwolf-mug;"Кружка ""Волк"", синяя";1290,50;990,5\r\n',
    );
    const dry = await importFile(file, 'dryRun=1&locale=ru');
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    const changes = (dry.body.updated as Array<{ link: string; changes: Record<string, unknown> }>)[0];
    expect(changes).toMatchObject({
      link: 'wolf-mug',
      changes: {
        name_ru: [expect.any(String), 'Кружка "Волк", синяя'],
        price: [1350.5, 1290.5],
        sale: [null, 990.5],
      },
    });
    // The same in UTF-8 with a BOM and tabs between the cells (a "Unicode text" export) reads the same.
    const tabs = await importFile('\uFEFFlink\tprice\nwolf-mug\t1290,50\n', 'dryRun=1');
    expect(tabs.body.updated).toMatchObject([{ link: 'wolf-mug', changes: { price: [1350.5, 1290.5] } }]);
  });

  it('keeps a field whose stored text Windows-1251 cannot hold, reports no change and warns', async () => {
    const stored = { nameEn: 'Mug ×2', descriptionRu: '<p>Плотность 220 г/м²</p>', nameRu: 'Кружка' };
    await shop.db.update(products).set(stored).where(eq(products.link, 'wolf-mug'));
    // As Russian Excel saves the exported file as "CSV": `?` for what Windows-1251 has no byte for.
    const asExcelSaves = (text: string) => windows1251(text.replace(/[²×]/g, '?'));
    const untouched = asExcelSaves(
      'link;name_ru;name_en;desc_ru\r\nwolf-mug;Кружка;Mug ×2;<p>Плотность 220 г/м²</p>\r\n',
    );
    const dry = await importFile(untouched, 'dryRun=1&locale=ru');
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toMatchObject({ updated: [], unchanged: 1, errors: [] });
    expect(dry.body.warnings).toEqual([
      {
        line: 2,
        field: 'name_en',
        message:
          'В кодировке Windows-1251 нет некоторых символов этого поля; оставлен прежний текст. Чтобы изменить его, сохраните файл как «CSV UTF-8». (×)',
      },
      { line: 2, field: 'desc_ru', message: expect.stringMatching(/оставлен прежний текст.*\(²\)$/) },
    ]);

    // A file that also edits such a field: the edit cannot be kept without losing the ², so the
    // stored text stays and the warning says so; the other columns are applied.
    const edited = asExcelSaves(
      'link;name_ru;desc_ru\r\nwolf-mug;Кружка «Волк»;<p>Плотность 230 г/м²</p>\r\n',
    );
    const applied = await importFile(edited, 'locale=en');
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.updated).toEqual([
      { link: 'wolf-mug', changes: { name_ru: ['Кружка', 'Кружка «Волк»'] } },
    ]);
    expect(applied.body.warnings).toEqual([
      {
        line: 2,
        field: 'desc_ru',
        message:
          'Windows-1251 cannot hold some characters of this field, so the change in it is not applied; the existing text is kept. Save the file as “CSV UTF-8” to edit it. (²)',
      },
    ]);
    const [mug] = await shop.db.select().from(products).where(eq(products.link, 'wolf-mug'));
    expect(mug).toMatchObject({ ...stored, nameRu: 'Кружка «Волк»' });

    // In UTF-8 the same text is read as written: the edit is a change like any other.
    const utf8 = await importFile('link,desc_ru\nwolf-mug,<p>Плотность 230 г/м²</p>\n', 'dryRun=1');
    expect(utf8.body).toMatchObject({
      updated: [
        { link: 'wolf-mug', changes: { desc_ru: [stored.descriptionRu, '<p>Плотность 230 г/м²</p>'] } },
      ],
      warnings: [],
    });
  });

  it('reports every error of a file at once, by line and column, in the language asked', async () => {
    const file = [
      'link;project;name_en;price;visible;sku',
      `wolf-mug;nowhere;${'x'.repeat(400)};12,345;maybe;no such sku`,
      'wolf-mug;northwind;;;;',
      'Not A Link;northwind;X;10;1;',
    ].join('\n');
    const refused = await importFile(file, 'dryRun=1&locale=ru');
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('В некоторых строках CSV-файла ошибки; ничего не изменено.');
    const errors = refused.body.errors as Array<{ line: number; field: string; message: string }>;
    expect(errors.map(({ line, field }) => [line, field])).toEqual([
      [2, 'project'],
      [2, 'price'],
      [2, 'visible'],
      [2, 'name_en'],
      [2, 'sku'],
      [3, 'link'],
      [4, 'link'],
    ]);
    expect(errors.find((error) => error.field === 'visible')?.message).toBe('Укажите 1 или 0.');
    expect(errors.find((error) => error.field === 'project')?.message).toBe(
      'Нет проекта с такой ссылкой. (nowhere)',
    );

    const unclosed = await importFile('link,name_en\n"wolf-mug,Mug\n', 'dryRun=1&locale=ru');
    expect(unclosed.body.errors).toEqual([
      { line: 2, field: 'csv', message: 'Открытая в этой строке кавычка нигде не закрыта.' },
    ]);
    const english = await importFile('link,name_en\n"wolf-mug,Mug\n', 'dryRun=1&locale=en');
    expect(english.body.errors).toEqual([
      { line: 2, field: 'csv', message: 'A quote opened in this row is never closed.' },
    ]);
  });

  it('refuses a workbook or a picture with a message that says it is no CSV file, in the language asked', async () => {
    // The first bytes of an .xlsx workbook (a zip archive) and of a PNG picture.
    const workbook = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00, 0x00, 0x00]);
    const picture = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
    for (const [file, locale, text] of [
      [workbook, 'ru', /^Это не текстовый CSV-файл/],
      [picture, 'en', /^This is not a CSV text file/],
    ] as const) {
      const refused = await importFile(file, `dryRun=1&locale=${locale}`);
      expect(refused.status).toBe(422);
      expect(refused.body.message).toMatch(text);
      expect((refused.body.errors as Record<string, string[]>).csv?.[0]).toMatch(text);
    }
  });
});

describe('content moderation', () => {
  it('manages partners shown on the partners page, refusing script links', async () => {
    const partner = {
      name_ru: 'Студия «Север»',
      name_en: 'North Studio',
      desc_en: 'Prints',
      link: 'https://north.example.com',
      socials: [{ type: 'vk', link: 'https://vk.com/north' }],
    };
    const created = await call('POST', '/api/admin/partners', partner);
    expect(created.status).toBe(200);
    const id = (created.body.partner as { id: number }).id;
    const page = await call('GET', '/api/partners?locale=en');
    expect(page.body.partners).toEqual([expect.objectContaining({ name: 'North Studio', desc: 'Prints' })]);

    const script = await call('PATCH', `/api/admin/partners/${id}`, {
      ...partner,
      version: 1,
      link: 'javascript:alert(1)',
    });
    expect(script.status).toBe(422);
    expect(script.body.errors).toMatchObject({ link: [expect.any(String)] });
    const socialScript = await call('POST', '/api/admin/partners', {
      ...partner,
      socials: [{ type: 'vk', link: 'javascript:alert(1)' }],
    });
    expect(socialScript.status).toBe(422);

    const hidden = await call('PATCH', `/api/admin/partners/${id}`, {
      ...partner,
      version: 1,
      visible: false,
    });
    expect(hidden.body.partner).toMatchObject({ visible: false });
    expect((await call('GET', '/api/partners?locale=en')).body.partners).toEqual([]);
    expect((await call('GET', '/api/admin/partners')).body.partners).toHaveLength(1);
    expect((await call('DELETE', `/api/admin/partners/${id}`)).status).toBe(200);
    expect((await call('GET', '/api/admin/partners')).body.partners).toEqual([]);
    expect((await call('DELETE', `/api/admin/partners/${id}`)).status).toBe(404);
    const audited = await shop.db.select().from(auditLog).where(eq(auditLog.entity, 'partner'));
    expect(audited.map((entry) => entry.action)).toEqual(['create', 'update', 'delete']);
  });

  it('lists feedback unread first and newest first, and marks messages read', async () => {
    const day = (n: number) => new Date(Date.UTC(2025, 0, n));
    const [first, second, third] = await shop.db
      .insert(feedback)
      .values([
        { name: 'A', email: 'a@example.com', message: 'oldest', createdAt: day(1) },
        { name: 'B', email: 'b@example.com', message: 'middle', createdAt: day(2) },
        { name: 'C', email: 'c@example.com', message: 'newest', createdAt: day(3) },
      ])
      .returning();
    const messages = async (query = '') =>
      ((await call('GET', `/api/admin/feedback${query}`)).body.list as Array<{ message: string }>).map(
        (row) => row.message,
      );
    expect(await messages()).toEqual(['newest', 'middle', 'oldest']);
    const read = await call('PATCH', `/api/admin/feedback/${third?.id}`, { read: '1' });
    expect(read.body.feedback).toMatchObject({ read: true });
    expect(await messages()).toEqual(['middle', 'oldest', 'newest']);
    expect(await messages('?unread=1')).toEqual(['middle', 'oldest']);
    expect((await call('GET', '/api/admin/feedback')).body).toMatchObject({ unread: 2, total: 3 });
    await call('PATCH', `/api/admin/feedback/${third?.id}`, { read: false });
    expect(await messages('?unread=1')).toEqual(['newest', 'middle', 'oldest']);
    expect(first && second).toBeTruthy();
    expect((await call('PATCH', '/api/admin/feedback/999999', { read: true })).status).toBe(404);
  });

  it('hides a review: it leaves the thread and the product rating count drops', async () => {
    const wolf = fixtures.id('wolf-shirt');
    const [kept, rude] = await shop.db
      .insert(reviews)
      .values([
        { productId: wolf, userId: userIds.admin, rating: 5, body: 'Great shirt' },
        { productId: wolf, userId: userIds.shopper, rating: 1, body: 'Rude words' },
      ])
      .returning();
    await shop.services.catalog.invalidate();
    expect((await call('GET', '/api/product?locale=en&link=wolf-shirt')).body.product).toMatchObject({
      rating: { count: 2, average: 3 },
    });

    const listed = await call('GET', '/api/admin/reviews');
    expect(listed.body.list).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: rude?.id,
          email: 'shopper@example.com',
          product: expect.objectContaining({ name_en: 'Wolf T-shirt' }),
          hidden: false,
        }),
      ]),
    );
    const hidden = await call('PATCH', `/api/admin/reviews/${rude?.id}`, { hidden: '1' });
    expect(hidden.body.review).toMatchObject({ hidden: true });

    const thread = await call('GET', `/api/reviews?product=${wolf}`);
    expect((thread.body.reviews as Array<{ id: number }>).map((review) => review.id)).toEqual([kept?.id]);
    expect((await call('GET', '/api/product?locale=en&link=wolf-shirt')).body.product).toMatchObject({
      rating: { count: 1, average: 5 },
    });
    const onlyHidden = await call('GET', '/api/admin/reviews?hidden=1');
    expect((onlyHidden.body.list as Array<{ id: number }>).map((review) => review.id)).toEqual([rude?.id]);
    const audited = await shop.db.select().from(auditLog).where(eq(auditLog.entity, 'review'));
    expect(audited).toEqual([
      expect.objectContaining({ before: { hidden: false }, after: { hidden: true } }),
    ]);
  });
});
