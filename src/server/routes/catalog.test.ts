import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductListResponse, ProductResponse } from '../../contract/catalog.ts';
import { createTestApp } from '../testing/app.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { setStock } from '../testing/stock.ts';

let shop: Awaited<ReturnType<typeof createTestApp>>;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;

beforeAll(async () => {
  shop = await createTestApp({ usdRate: 92.5 });
  fixtures = await insertCatalogue(shop.db);
});
afterAll(() => shop.close());

const get = async <T = Record<string, unknown>>(url: string) => {
  const response = await shop.app.inject({ method: 'GET', url });
  return { status: response.statusCode, body: response.json() as T, headers: response.headers };
};
const links = (list: { products: Array<{ link: string }> }) => list.products.map((product) => product.link);

describe('GET /api/initial', () => {
  it('answers visible categories, projects, featured products and the dollar rate', async () => {
    const { status, body } = await get<{
      success: boolean;
      currencyUsd: number;
      categories: Array<{ link: string; name: string; status: number }>;
      projects: Array<{ link: string }>;
      week: Array<{ link: string; status: number }>;
    }>('/api/initial?locale=en');
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.currencyUsd).toBe(92.5);
    expect(body.categories.map((category) => category.name)).toEqual(['T-shirts', 'Mugs']);
    expect(body.categories[0]?.status).toBe(1);
    expect(body.projects.map((project) => project.link)).toEqual(['northwind', 'pixel-outlaws']);
    expect(body.week.map((product) => [product.link, product.status])).toEqual([['wolf-shirt', 3]]);
  });

  it('names things in Russian for locale=ru', async () => {
    const { body } = await get<{ categories: Array<{ name: string }> }>('/api/initial?locale=ru');
    expect(body.categories.map((category) => category.name)).toEqual(['Футболки', 'Кружки']);
  });

  it('refuses an unknown locale with the error shape', async () => {
    const { status, body } = await get('/api/initial?locale=de');
    expect(status).toBe(422);
    expect(body).toMatchObject({ success: false, errors: { locale: [expect.any(String)] } });
  });
});

describe('GET /api/category and /api/project', () => {
  it("lists a category's visible products with counts per project and category", async () => {
    const { status, body } = await get<ProductListResponse>('/api/category?locale=en&link=t-shirts');
    expect(status).toBe(200);
    expect(body.title).toBe('T-shirts');
    expect(links(body)).toEqual(['wolf-shirt', 'outlaw-shirt']);
    expect(body.counts.projects).toEqual({
      [fixtures.projects.witcher.id]: 1,
      [fixtures.projects.cyber.id]: 1,
    });
    expect(body.counts.categories).toEqual({ [fixtures.categories.shirts.id]: 2 });
  });

  it('shows prices in roubles, sale prices and stock', async () => {
    const { body } = await get<ProductListResponse>('/api/category?locale=en&link=t-shirts');
    expect(body.products[0]).toMatchObject({ price: 2500, sale: 1990, inStock: 10, envisioned: false });
  });

  it("lists a project's products including envisioned and out-of-stock ones", async () => {
    const { body } = await get<ProductListResponse>('/api/project?locale=en&link=pixel-outlaws');
    expect(links(body)).toEqual(['outlaw-shirt', 'outlaw-statue']);
    expect(body.products[1]).toMatchObject({ envisioned: true, inStock: 0 });
  });

  it('never shows hidden products, hidden projects or hidden categories', async () => {
    const mugs = await get<ProductListResponse>('/api/category?locale=en&link=mugs');
    expect(links(mugs.body)).not.toContain('hidden-mug');
    const shirts = await get<ProductListResponse>('/api/category?locale=en&link=t-shirts');
    expect(links(shirts.body)).not.toContain('secret-shirt');
    expect(shirts.body.products[0]?.categories).toEqual([fixtures.categories.shirts.id]);
    expect((await get('/api/category?locale=en&link=drafts')).status).toBe(404);
    expect((await get('/api/project?locale=en&link=secret-project')).status).toBe(404);
  });

  it('answers 404 with the error shape for an unknown link', async () => {
    const { status, body } = await get('/api/project?locale=en&link=nope');
    expect(status).toBe(404);
    expect(body).toMatchObject({
      success: false,
      errors: { link: [expect.any(String)] },
      message: expect.any(String),
    });
  });

  it('answers 422 when the link is missing', async () => {
    const { status, body } = await get('/api/category?locale=en');
    expect(status).toBe(422);
    expect(body).toMatchObject({ success: false, errors: { link: [expect.any(String)] } });
  });
});

describe('GET /api/product', () => {
  it('answers the product with images, breadcrumbs data and similar items', async () => {
    const { status, body } = await get<ProductResponse>('/api/product?locale=ru&link=wolf-shirt');
    expect(status).toBe(200);
    expect(body.product).toMatchObject({
      name: 'Футболка с волком',
      images: ['wolf-1.webp', 'wolf-2.webp'],
      image: 'wolf-1.webp',
      desc: '<p>Хлопковая футболка с вышитым волком.</p>',
      project: { link: 'northwind', name: 'Северный ветер' },
      categoryList: [{ link: 't-shirts', name: 'Футболки' }],
    });
    expect(links({ products: body.similar })).toEqual(['outlaw-shirt', 'wolf-mug']);
  });

  it('hides hidden products and those of hidden projects', async () => {
    expect((await get('/api/product?locale=en&link=hidden-mug')).status).toBe(404);
    expect((await get('/api/product?locale=en&link=secret-shirt')).status).toBe(404);
    const similar = (await get<ProductResponse>('/api/product?locale=en&link=wolf-mug')).body.similar;
    expect(links({ products: similar })).not.toContain('hidden-mug');
  });

  it('shows a changed stock right after the catalogue is invalidated', async () => {
    expect(
      (await get<ProductResponse>('/api/product?locale=en&link=outlaw-shirt')).body.product.inStock,
    ).toBe(3);
    await setStock(shop.db, fixtures.id('outlaw-shirt'), 1);
    await shop.services.catalog.invalidate();
    expect(
      (await get<ProductResponse>('/api/product?locale=en&link=outlaw-shirt')).body.product.inStock,
    ).toBe(1);
    await setStock(shop.db, fixtures.id('outlaw-shirt'), 3);
    await shop.services.catalog.invalidate();
  });
});

describe('GET /api/search', () => {
  const search = async (text: string, locale = 'en') =>
    links(
      (await get<ProductListResponse>(`/api/search?locale=${locale}&search=${encodeURIComponent(text)}`))
        .body,
    );

  it('finds by English and Russian words through stemming', async () => {
    expect(await search('shirts')).toEqual(expect.arrayContaining(['wolf-shirt', 'outlaw-shirt']));
    expect(await search('футболки', 'ru')).toEqual(expect.arrayContaining(['wolf-shirt', 'outlaw-shirt']));
    // The statue is filed under "Кружки": category names are searched too, below product names.
    expect(await search('кружкой', 'ru')).toEqual(['wolf-mug', 'outlaw-statue']);
  });

  it('finds words of the description', async () => {
    expect(await search('embroidered')).toEqual(['wolf-shirt']);
    expect(await search('керамическая', 'ru')).toEqual(['wolf-mug']);
  });

  it('tolerates a misspelt word', async () => {
    expect(await search('outlw')).toContain('outlaw-shirt');
    expect(await search('футбока', 'ru')).toContain('wolf-shirt');
  });

  it('ranks name matches first and never finds hidden products', async () => {
    const found = await search('mug');
    expect(found[0]).toBe('wolf-mug');
    expect(found).not.toContain('hidden-mug');
  });

  it('answers an empty list for nonsense and 422 for empty text', async () => {
    expect(await search('zzqqxx')).toEqual([]);
    expect((await get('/api/search?locale=en&search=%20')).status).toBe(422);
  });
});

describe('sort, filters and pages on the list calls', () => {
  it('answers one page with its paging when a page is asked for, sorted and filtered over the whole list', async () => {
    const { status, body } = await get<ProductListResponse>(
      '/api/category?locale=en&link=t-shirts&page=1&sort=asc',
    );
    expect(status).toBe(200);
    expect(links(body)).toEqual(['wolf-shirt', 'outlaw-shirt']);
    expect(body.paging).toEqual({ page: 1, pages: 1, perPage: 48, total: 2 });
    const northwind = await get<ProductListResponse>(
      `/api/category?locale=en&link=t-shirts&page=1&project=${fixtures.projects.witcher.id}`,
    );
    expect(links(northwind.body)).toEqual(['wolf-shirt']);
    expect(northwind.body.counts.projects).toEqual(body.counts.projects);
    const inStock = await get<ProductListResponse>(
      '/api/project?locale=en&link=pixel-outlaws&sort=available',
    );
    expect(links(inStock.body)).toEqual(['outlaw-shirt']);
    expect(inStock.body.paging).toBeUndefined();
  });

  it('answers an empty page past the last one, with the last page number', async () => {
    const { status, body } = await get<ProductListResponse>('/api/search?locale=en&search=shirt&page=5');
    expect(status).toBe(200);
    expect(body.products).toEqual([]);
    expect(body.paging).toMatchObject({ page: 5, pages: 1, total: 2 });
  });

  it('refuses a page, sort or filter that is not one with the error shape', async () => {
    for (const query of ['page=0', 'page=abc', 'sort=cheap', 'project=-1', 'category=1.5']) {
      const { status, body } = await get(`/api/category?locale=en&link=t-shirts&${query}`);
      expect(status, query).toBe(422);
      expect(body, query).toMatchObject({
        success: false,
        errors: { [query.split('=')[0] ?? '']: [expect.any(String)] },
      });
    }
  });
});

describe('filters shoppers combine on the list calls (ADR 0062)', () => {
  const shirts = '/api/category?locale=en&link=t-shirts';

  it('keeps a product with any of the values repeated for a group, the groups applying together', async () => {
    const { shirts: tees, mugs } = fixtures.categories;
    const both = await get<ProductListResponse>(
      `/api/project?locale=en&link=northwind&page=1&category=${tees.id}&category=${mugs.id}`,
    );
    expect(both.status).toBe(200);
    expect(links(both.body)).toEqual(['wolf-shirt', 'wolf-mug']);
    expect(both.body.counts.categories).toEqual({ [tees.id]: 1, [mugs.id]: 1 });
    const mugsInStock = await get<ProductListResponse>(
      `/api/project?locale=en&link=northwind&category=${mugs.id}&available=1`,
    );
    expect(links(mugsInStock.body)).toEqual([]);
    const everyProject = await get<ProductListResponse>(
      `${shirts}&project=${fixtures.projects.witcher.id}&project=${fixtures.projects.cyber.id}`,
    );
    expect(links(everyProject.body)).toEqual(['wolf-shirt', 'outlaw-shirt']);
  });

  it('combines "in stock only" with a price sort, and still reads the spec’s sort=available', async () => {
    const { shirts: tees, mugs } = fixtures.categories;
    const all = `/api/project?locale=en&link=pixel-outlaws&category=${tees.id}&category=${mugs.id}`;
    expect(links((await get<ProductListResponse>(`${all}&sort=desc`)).body)).toEqual([
      'outlaw-statue',
      'outlaw-shirt',
    ]);
    expect(links((await get<ProductListResponse>(`${all}&sort=desc&available=1`)).body)).toEqual([
      'outlaw-shirt',
    ]);
    const dearFirst = await get<ProductListResponse>(`${shirts}&available=true&sort=desc`);
    expect(links(dearFirst.body)).toEqual(['outlaw-shirt', 'wolf-shirt']);
    expect(links((await get<ProductListResponse>(`${shirts}&available=1&sort=asc`)).body)).toEqual([
      'wolf-shirt',
      'outlaw-shirt',
    ]);
    const spec = await get<ProductListResponse>('/api/project?locale=en&link=northwind&sort=available');
    expect(links(spec.body)).toEqual(['wolf-shirt']);
    expect(spec.body.counts.available).toBe(1);
  });

  it('keeps a price range in roubles, its bounds included', async () => {
    expect(links((await get<ProductListResponse>(`${shirts}&price_min=2000&price_max=3100`)).body)).toEqual([
      'outlaw-shirt',
    ]);
    // The wolf shirt sells for 1 990 ₽ (its sale price), which is what counts.
    const cheap = await get<ProductListResponse>(`${shirts}&price_max=1990`);
    expect(links(cheap.body)).toEqual(['wolf-shirt']);
    expect(cheap.body.priceRange).toEqual({ min: 1990, max: 3100 });
  });

  it('keeps a price range in dollars by the dollar price shown (1 990 ₽ at 92.5 is $21.51)', async () => {
    const usd = `${shirts}&currency=USD`;
    expect(links((await get<ProductListResponse>(`${usd}&price_max=21.51`)).body)).toEqual(['wolf-shirt']);
    expect(links((await get<ProductListResponse>(`${usd}&price_max=21.50`)).body)).toEqual([]);
    expect(links((await get<ProductListResponse>(`${usd}&price_min=21.51`)).body)).toEqual([
      'wolf-shirt',
      'outlaw-shirt',
    ]);
    // 3 100 ₽ is $33.51.
    expect(links((await get<ProductListResponse>(`${usd}&price_min=21.52&price_max=33.51`)).body)).toEqual([
      'outlaw-shirt',
    ]);
  });

  it('counts 0 for a value that would show nothing, and keeps it listed', async () => {
    const { body } = await get<ProductListResponse>(`${shirts}&price_max=2000&page=1`);
    expect(body.counts.projects).toEqual({
      [fixtures.projects.witcher.id]: 1,
      [fixtures.projects.cyber.id]: 0,
    });
    expect(body.projects.map((project) => project.link)).toEqual(['northwind', 'pixel-outlaws']);
    expect(body.counts.available).toBe(1);
    const noneInStock = await get<ProductListResponse>(
      `/api/project?locale=en&link=northwind&category=${fixtures.categories.mugs.id}`,
    );
    expect(noneInStock.body.counts.available).toBe(0);
  });

  it('refuses a price, currency or in-stock value that is not one, in the error shape', async () => {
    for (const [query, field] of [
      ['price_min=-1', 'price_min'],
      ['price_max=abc', 'price_max'],
      ['price_min=50&price_max=10', 'price_min'],
      ['currency=EUR', 'currency'],
      ['available=yes', 'available'],
    ] as const) {
      const { status, body } = await get(`${shirts}&${query}`);
      expect(status, query).toBe(422);
      expect(body, query).toMatchObject({ success: false, errors: { [field]: [expect.any(String)] } });
    }
  });

  it('describes the new parameters in /api/docs', async () => {
    const { body } = await get<{
      paths: Record<string, { get: { parameters: Array<{ name: string; description?: string }> } }>;
    }>('/api/docs/json');
    for (const path of ['/api/category', '/api/project', '/api/search']) {
      const parameters = body.paths[path]?.get.parameters ?? [];
      const names = parameters.map((parameter) => parameter.name);
      expect(names, path).toEqual(
        expect.arrayContaining([
          'sort',
          'project',
          'category',
          'size',
          'available',
          'price_min',
          'price_max',
          'currency',
        ]),
      );
      expect(parameters.find((parameter) => parameter.name === 'project')?.description).toMatch(/repeat/);
    }
  });
});

describe('the wire', () => {
  it('answers unknown API paths with a JSON 404', async () => {
    const { status, body } = await get('/api/nothing-here');
    expect(status).toBe(404);
    expect(body).toMatchObject({ success: false });
  });

  it('documents the calls as OpenAPI at /api/docs', async () => {
    const { status, body } = await get<{ openapi: string; paths: Record<string, unknown> }>('/api/docs/json');
    expect(status).toBe(200);
    expect(body.openapi).toMatch(/^3\./);
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining([
        '/api/initial',
        '/api/project',
        '/api/category',
        '/api/search',
        '/api/product',
      ]),
    );
  });
});

describe('CDN headers of the catalogue calls (ADR 0042)', () => {
  it('let a shared cache keep an answer whose language is in the address, under the keys of what it shows', async () => {
    const id = fixtures.id('wolf-shirt');
    const product = await shop.app.inject({ url: '/api/product?locale=en&link=wolf-shirt' });
    expect(product.headers['cache-control']).toBe('public, max-age=0, s-maxage=1');
    const keys = String(product.headers['surrogate-key']).split(' ');
    expect(keys).toEqual(expect.arrayContaining(['shop', `product:${id}`]));
    expect(String(product.headers['cache-tag']).split(',')).toEqual(keys);
    const list = await shop.app.inject({ url: '/api/category?locale=en&link=t-shirts' });
    expect(list.headers['surrogate-key']).toBe('shop category:t-shirts');
    const initial = await shop.app.inject({ url: '/api/initial?locale=en' });
    expect(initial.headers['cache-tag']).toBe(`shop,home,product:${id}`);
  });

  it('keep an answer private when a session came with it or its language was negotiated', async () => {
    const signedIn = await shop.app.inject({
      url: '/api/product?locale=en&link=wolf-shirt',
      headers: { cookie: 'vitrina.sid=someone' },
    });
    expect(signedIn.headers['cache-control']).toBe('private, no-cache');
    expect(signedIn.headers['surrogate-key']).toBeUndefined();
    const negotiated = await shop.app.inject({ url: '/api/product?link=wolf-shirt' });
    expect(negotiated.headers['cache-control']).toBe('private, no-cache');
  });
});
