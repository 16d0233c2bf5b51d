import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, productImages, projects, users } from '../db/schema.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { multipartBody, signedInAdmin } from '../testing/admin.ts';
import { createTestApp } from '../testing/app.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { blackSquarePng } from '../testing/pictures.ts';

/** Renaming and moving in the file manager, and the catalogue's own pictures shown in it. */

let shop: Awaited<ReturnType<typeof createTestApp>>;
let cookies: Record<string, string>;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;

beforeAll(async () => {
  shop = await createTestApp();
  fixtures = await insertCatalogue(shop.db);
  cookies = await signedInAdmin(shop);
});
afterAll(() => shop.close());

const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, as = cookies) => {
  const response = await shop.app.inject({ method, url, ...(payload ? { payload } : {}), cookies: as });
  return { status: response.statusCode, body: response.json() };
};

async function upload(folder: string, filename: string, colour: string) {
  const data = await sharp({ create: { width: 64, height: 64, channels: 3, background: colour } })
    .png()
    .toBuffer();
  const { payload, contentType } = await multipartBody({ path: folder }, [
    { name: filename, type: 'image/png', data },
  ]);
  const response = await shop.app.inject({
    method: 'POST',
    url: '/api/admin/files',
    headers: { 'content-type': contentType },
    payload,
    cookies,
  });
  expect(response.statusCode).toBe(200);
  return response.json().file as { id: number; name: string; folder: string; originalName: string };
}

const folderOf = async (path: string) => (await call('GET', `/api/admin/files?path=${path}`)).body;

describe('renaming and moving files', () => {
  it('renames and moves a file; what shows its picture keeps showing it', async () => {
    for (const name of ['posters', 'archive'])
      await call('POST', '/api/admin/files/folders', { path: '', name });
    const file = await upload('posters', 'IMG_0001.png', '#204080');
    const product = fixtures.id('wolf-mug');
    await shop.db.insert(productImages).values({ productId: product, file: file.name, position: 5 });

    const moved = await call('PATCH', `/api/admin/files/${file.id}`, {
      name: 'Mug, front',
      folder: 'archive',
    });
    expect(moved.status).toBe(200);
    expect(moved.body.file).toMatchObject({ name: file.name, originalName: 'Mug, front', folder: 'archive' });
    expect((await folderOf('posters')).files).toEqual([]);
    expect((await folderOf('archive')).files.map((entry: { id: number }) => entry.id)).toEqual([file.id]);
    // The reference is the picture's content name, which neither changes.
    const [image] = await shop.db.select().from(productImages).where(eq(productImages.file, file.name));
    expect(image?.productId).toBe(product);
    expect((await shop.app.inject({ method: 'GET', url: `/img/products/160/${file.name}` })).statusCode).toBe(
      200,
    );
  });

  it('never overwrites: a folder with that name or that picture refuses the file', async () => {
    await call('POST', '/api/admin/files/folders', { path: '', name: 'logos' });
    const first = await upload('logos', 'logo.png', '#aa0000');
    const second = await upload('logos', 'other.png', '#00aa00');
    const sameName = await call('PATCH', `/api/admin/files/${second.id}?locale=ru`, { name: 'logo.png' });
    expect(sameName.status).toBe(409);
    expect(sameName.body.errors.name[0]).toMatch(/ничего не перезаписывается/);

    const copy = await upload('', 'copy.png', '#aa0000');
    expect(copy.name).toBe(first.name);
    expect((await call('PATCH', `/api/admin/files/${copy.id}`, { folder: 'logos' })).status).toBe(409);

    const [row] = await shop.db.select().from(files).where(eq(files.id, second.id));
    expect(row).toMatchObject({ originalName: 'other.png', folder: 'logos' });
  });

  it('refuses unsafe names and folders that do not exist, with a message', async () => {
    const file = await upload('', 'plain.png', '#123456');
    const slash = await call('PATCH', `/api/admin/files/${file.id}`, { name: '../../etc/passwd' });
    expect(slash.status).toBe(422);
    expect(slash.body.errors.name).toEqual([expect.stringMatching(/slashes/)]);
    expect((await call('PATCH', `/api/admin/files/${file.id}`, { folder: '../x' })).status).toBe(422);
    expect((await call('PATCH', `/api/admin/files/${file.id}`, { folder: 'no-such-folder' })).status).toBe(
      404,
    );
    expect((await call('PATCH', '/api/admin/files/999999', { name: 'x' })).status).toBe(404);
  });
});

describe('folders named in Russian and pictures too large to take', () => {
  it('creates, lists, fills and moves a folder with a Cyrillic name', async () => {
    expect(await call('POST', '/api/admin/files/folders', { path: '', name: 'мерч_2024' })).toEqual({
      status: 200,
      body: expect.objectContaining({ success: true }),
    });
    const file = await upload('мерч_2024', 'кружка.png', '#aa5500');
    expect((await folderOf('')).folders).toContain('мерч_2024');
    expect(
      (await folderOf(encodeURIComponent('мерч_2024'))).files.map((entry: { id: number }) => entry.id),
    ).toEqual([file.id]);
    const moved = await call('PATCH', '/api/admin/files/folders', { path: 'мерч_2024', to: 'архив' });
    expect(moved).toEqual({ status: 200, body: { success: true, path: 'архив' } });
    // Lowercase only, so two folders never differ by case alone; no spaces.
    for (const name of ['два слова', 'Мерч']) {
      expect((await call('POST', '/api/admin/files/folders', { path: '', name })).status, name).toBe(422);
    }
  });

  it('refuses a valid 20000 × 20000 PNG saying the limit in pixels, in the language asked', async () => {
    const data = blackSquarePng(20_000);
    for (const [locale, text] of [
      ['ru', /не больше 50 мегапикселей/],
      ['en', /at most 50 megapixels/],
    ] as const) {
      const { payload, contentType } = await multipartBody({ path: '', locale }, [
        { name: 'huge.png', type: 'image/png', data },
      ]);
      const refused = await shop.app.inject({
        method: 'POST',
        url: '/api/admin/files',
        headers: { 'content-type': contentType },
        payload,
        cookies,
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors.image).toEqual([expect.stringMatching(text)]);
    }
  });
});

describe('renaming and moving folders', () => {
  it('moves a folder with its sub-folders and files, in storage and in the database', async () => {
    await call('POST', '/api/admin/files/folders', { path: '', name: 'merch' });
    await call('POST', '/api/admin/files/folders', { path: 'merch', name: '2024' });
    const file = await upload('merch/2024', 'shirt.png', '#445566');
    await call('POST', '/api/admin/files/folders', { path: '', name: 'shop' });

    const moved = await call('PATCH', '/api/admin/files/folders', { path: 'merch', to: 'shop/goods' });
    expect(moved).toEqual({ status: 200, body: { success: true, path: 'shop/goods' } });
    expect((await folderOf('')).folders).not.toContain('merch');
    expect((await folderOf('shop/goods')).folders).toEqual(['2024']);
    expect((await folderOf('shop/goods/2024')).files.map((entry: { id: number }) => entry.id)).toEqual([
      file.id,
    ]);
    expect(await shop.services.storage.exists('files/merch/')).toBe(false);
  });

  it('refuses moving into itself, onto an existing folder or outside the root, changing nothing', async () => {
    await call('POST', '/api/admin/files/folders', { path: '', name: 'keep' });
    await call('POST', '/api/admin/files/folders', { path: 'keep', name: 'inner' });
    await call('POST', '/api/admin/files/folders', { path: '', name: 'taken' });
    const intoItself = await call('PATCH', '/api/admin/files/folders', {
      path: 'keep',
      to: 'keep/inner/keep',
    });
    expect(intoItself.status).toBe(422);
    expect(intoItself.body.errors.to).toBeDefined();
    expect((await call('PATCH', '/api/admin/files/folders', { path: 'keep', to: 'taken' })).status).toBe(409);
    expect((await call('PATCH', '/api/admin/files/folders', { path: 'keep', to: '../keep' })).status).toBe(
      422,
    );
    expect(
      (await call('PATCH', '/api/admin/files/folders', { path: 'keep', to: 'nowhere/keep' })).status,
    ).toBe(404);
    expect((await folderOf('keep')).folders).toEqual(['inner']);
  });
});

describe("the catalogue's pictures in the file manager", () => {
  it('lists product pictures with the product showing them, and project logos', async () => {
    const pictures = await call('GET', '/api/admin/files/catalogue?kind=products');
    expect(pictures.status).toBe(200);
    expect(pictures.body.total).toBeGreaterThan(0);
    expect(pictures.body.list[0]).toMatchObject({
      name: expect.any(String),
      url: expect.stringMatching(/^\/img\/products\/640\//),
      usedBy: { ru: expect.any(String), en: expect.any(String) },
    });
    await shop.db.update(projects).set({ image: 'witcher.webp' }).where(eq(projects.link, 'northwind'));
    const logos = await call('GET', '/api/admin/files/catalogue?kind=projects');
    expect(logos.body.list).toContainEqual({
      name: 'witcher.webp',
      url: '/img/projects/640/witcher.webp',
      usedBy: expect.objectContaining({ en: expect.any(String) }),
    });
    expect((await call('GET', '/api/admin/files/catalogue?kind=secrets')).status).toBe(422);
  });

  it('keeps customers out', async () => {
    const password = 'customer password 1';
    const { hashPassword } = await import('../accounts/passwords.ts');
    await shop.db.insert(users).values({
      email: 'buyer@example.com',
      passwordHash: await hashPassword(password),
      emailVerifiedAt: new Date(),
    });
    const login = await shop.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'buyer@example.com', password },
    });
    const customer = {
      [SESSION_COOKIE]: login.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value ?? '',
    };
    expect((await call('GET', '/api/admin/files/catalogue?kind=products', undefined, customer)).status).toBe(
      403,
    );
    expect(
      (await call('PATCH', '/api/admin/files/folders', { path: 'keep', to: 'x' }, customer)).status,
    ).toBe(403);
    expect((await call('PATCH', '/api/admin/files/1', { name: 'x' }, customer)).status).toBe(403);
  });
});
