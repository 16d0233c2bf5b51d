import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ProductListResponse, SearchSuggestions } from '../../contract/catalog.ts';
import { WHOLE_LIST } from '../../contract/shop.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { categories, projects, searchQueries, users } from '../db/schema.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { insertDemoCatalogue } from '../seed/seed.ts';
import { createTestApp } from '../testing/app.ts';
import { recordSearch, SEARCH_STATS_DAYS, searchStats } from './search-stats.ts';
import { listProducts } from './service.ts';

/** Search beyond ranking (the relevance set covers that): suggestions, synonyms, help, analytics. */

let shop: Awaited<ReturnType<typeof createTestApp>>;
let adminSession = '';
const PASSWORD = 'search admin password';

beforeAll(async () => {
  shop = await createTestApp();
  await insertDemoCatalogue(shop.db, { projects: [], products: [] });
  await shop.db.insert(users).values({
    email: 'admin@example.com',
    passwordHash: await hashPassword(PASSWORD),
    role: 'admin',
    emailVerifiedAt: new Date(),
  });
  const login = await shop.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email: 'admin@example.com', password: PASSWORD },
  });
  adminSession = login.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value ?? '';
}, 60_000);
afterAll(() => shop.close());

const get = async <T>(url: string, session?: string) => {
  const response = await shop.app.inject({
    method: 'GET',
    url,
    ...(session ? { cookies: { [SESSION_COOKIE]: session } } : {}),
  });
  return { status: response.statusCode, body: response.json() as T, headers: response.headers };
};
const admin = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => {
  const response = await shop.app.inject({
    method,
    url,
    ...(payload ? { payload } : {}),
    cookies: { [SESSION_COOKIE]: adminSession },
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
};
const found = async (text: string) =>
  (await listProducts(shop.db, 'en', { kind: 'search', text }, WHOLE_LIST)).products.map(
    (product) => product.link,
  );
const suggest = (text: string, locale = 'en') =>
  get<SearchSuggestions & { success: boolean }>(
    `/api/search/suggestions?locale=${locale}&search=${encodeURIComponent(text)}`,
  );

describe('suggestions while typing', () => {
  it('suggests products and the game from an unfinished word, with picture, name and price', async () => {
    const { status, body, headers } = await suggest('northw');
    expect(status).toBe(200);
    expect(body.products.length).toBeGreaterThan(0);
    expect(body.products.length).toBeLessThanOrEqual(6);
    expect(body.products.every((product) => product.link.startsWith('northwind-'))).toBe(true);
    expect(body.products[0]).toEqual(
      expect.objectContaining({ name: expect.any(String), price: expect.any(Number), image: null }),
    );
    expect(body.sections).toEqual([{ kind: 'project', link: 'northwind-saga', name: 'Northwind Saga' }]);
    expect(headers['cache-control']).toBe('public, max-age=60');
  });

  it('suggests categories by their names in the shop language, and reads the other keyboard layout', async () => {
    expect((await suggest('знач', 'ru')).body.sections).toEqual([
      { kind: 'category', link: 'pins', name: 'Значки' },
    ]);
    // A misspelt word stays in its own layout when the other one reads as no known words.
    expect((await suggest('кружак', 'ru')).body.products.length).toBeGreaterThan(0);
    const mugs = await suggest('ьгп');
    expect(mugs.body.text).toBe('mug');
    expect(mugs.body.products.length).toBeGreaterThan(0);
  });

  it('asks for two letters at least', async () => {
    expect((await suggest('n')).status).toBe(422);
  });
});

describe('synonyms kept in the back office', () => {
  it('makes a word find what its meaning finds once added, and stops when removed', async () => {
    expect(await found('statuette')).toEqual([]);
    const added = await admin('POST', '/api/admin/search/synonyms', { term: 'Statuette', meaning: 'figure' });
    expect(added.status).toBe(200);
    expect((await found('statuette')).length).toBeGreaterThan(0);
    expect(
      (await admin('POST', '/api/admin/search/synonyms', { term: 'statuette', meaning: 'figure' })).status,
    ).toBe(409);
    expect(
      (await admin('POST', '/api/admin/search/synonyms', { term: 'two words', meaning: 'figure' })).status,
    ).toBe(422);

    const { body } = await admin('GET', '/api/admin/search/synonyms');
    const synonym = (body.synonyms as Array<{ id: number; term: string }>).find(
      (row) => row.term === 'statuette',
    );
    expect(synonym).toBeDefined();
    // The API's answers are cached: the write empties the cache, so the next search sees the change.
    const before = await get<ProductListResponse>('/api/search?locale=en&search=statuette');
    expect(before.body.products.length).toBeGreaterThan(0);
    expect((await admin('DELETE', `/api/admin/search/synonyms/${synonym?.id}`)).status).toBe(200);
    expect((await get<ProductListResponse>('/api/search?locale=en&search=statuette')).body.products).toEqual(
      [],
    );
  });

  it('is the back office only', async () => {
    expect((await get('/api/admin/search/synonyms')).status).toBe(401);
  });
});

describe('names of games and categories in the search', () => {
  it('follows a renamed game and a renamed or hidden category', async () => {
    await shop.db
      .update(projects)
      .set({ nameEn: 'Aurora Chronicles' })
      .where(eq(projects.link, 'ember-hollow'));
    expect((await found('chronicles')).every((link) => link.startsWith('ember-'))).toBe(true);
    expect((await found('chronicles')).length).toBe(7);

    await shop.db.update(categories).set({ nameEn: 'Glimmerware pins' }).where(eq(categories.link, 'pins'));
    expect(await found('glimmerware')).toContain('ember-spark-pin');
    await shop.db.update(categories).set({ visible: false }).where(eq(categories.link, 'pins'));
    expect(await found('glimmerware')).toEqual([]);
    await shop.db.update(categories).set({ visible: true }).where(eq(categories.link, 'pins'));
  });
});

describe('a search that finds nothing', () => {
  it('offers the closest names and popular products on the search page data', async () => {
    const help = (await shop.services.catalog.searchHelp('en', 'lanternn saloom')).value;
    expect(help.didYouMean.map((product) => product.link)).toContain('outlaws-saloon-mug');
    expect(help.popular.length).toBeGreaterThan(0);
  });
});

describe('search analytics', () => {
  it('counts searches per day and text, with what they found, and keeps no personal data', async () => {
    await get('/api/search?locale=en&search=Outlaws%20Mug');
    await get('/api/search?locale=en&search=outlaws%20%20mug');
    await get('/api/search?locale=en&search=outlaws%20mug&page=2');
    await get('/api/search?locale=en&search=zzqqxx');
    await get('/api/search?locale=en&search=someone%40example.com');
    // Counted once each answer is sent.
    const stats = await vi.waitFor(async () => {
      const counted = await searchStats(shop.db, 7, new Date());
      expect(counted.top).toEqual(
        expect.arrayContaining([
          { query: 'outlaws mug', searches: 2, results: 2 },
          { query: 'zzqqxx', searches: 1, results: 0 },
        ]),
      );
      return counted;
    });
    expect(stats.empty.map((row) => row.query)).toContain('zzqqxx');
    expect(stats.top.map((row) => row.query)).not.toContain('someone@example.com');
    const { status, body } = await admin('GET', '/api/admin/search/stats?days=30');
    expect(status).toBe(200);
    expect(body.top).toEqual(expect.arrayContaining([{ query: 'outlaws mug', searches: 2, results: 2 }]));
  });

  it('keeps one row per day and text, and drops days older than the period it shows', async () => {
    const long = new Date(Date.now() - (SEARCH_STATS_DAYS + 5) * 24 * 3600 * 1000);
    await recordSearch(shop.db, 'old words', 3, long);
    await recordSearch(shop.db, 'new words', 3, new Date());
    const rows = await shop.db.select().from(searchQueries).where(eq(searchQueries.query, 'old words'));
    expect(rows).toEqual([]);
    expect((await searchStats(shop.db, 30, new Date())).top.map((row) => row.query)).toContain('new words');
  });
});
