import { describe, expect, it } from 'vitest';
import type { ProductListResponse } from '../../contract/catalog.ts';
import type { Locale } from '../../contract/locale.ts';
import type { ListView } from '../../contract/shop.ts';
import { loadListPage } from './list-page.ts';

const ADDRESS = 'https://shop.example/category/mugs';

/** A list of `total` products as the service answers it for `view` (no cards: the loader does not look at them). */
function listOf(total: number) {
  const asked: ListView[] = [];
  const load = async (view: ListView) => {
    asked.push(view);
    const value: Omit<ProductListResponse, 'success'> = {
      title: 'Mugs',
      products: [],
      counts: { projects: {}, categories: {}, sizes: {}, available: 0 },
      projects: [],
      categories: [],
      sizes: [],
      priceRange: null,
      paging: { page: view.page ?? 1, pages: Math.max(1, Math.ceil(total / 48)), perPage: 48, total },
    };
    return { value };
  };
  return { load, asked };
}

const open = (query: string, total: number, locale: Locale = 'ru', usdRate = 100) => {
  const list = listOf(total);
  return {
    asked: list.asked,
    page: loadListPage(
      new URL(`http://127.0.0.1/category/mugs${query}`),
      ADDRESS,
      { locale, usdRate },
      list.load,
    ),
  };
};

/** What a loader threw: a redirect Response or a `data()` answer with a status. */
async function thrown(page: Promise<unknown>) {
  try {
    await page;
  } catch (error) {
    if (error instanceof Response) return { status: error.status, location: error.headers.get('location') };
    return { status: (error as { init?: { status?: number } }).init?.status, location: null };
  }
  throw new Error('the loader did not throw');
}

describe('loading one page of a shop list', () => {
  it('asks the service for the page of the view in the address', async () => {
    const { page, asked } = open('?sort=desc&category=4&size=XL&page=2', 200);
    await page;
    expect(asked).toEqual([
      {
        sort: 'desc',
        projectIds: [],
        categoryIds: [4],
        sizes: ['XL'],
        available: false,
        price: { min: null, max: null },
        page: 2,
      },
    ]);
  });

  it('asks for a price range in roubles as kopecks, and one in dollars as the kopecks shown within it', async () => {
    const roubles = open('?price_min=1000&price_max=2500', 10, 'ru');
    await roubles.page;
    expect(roubles.asked[0]?.price).toEqual({ min: 100_000, max: 250_000 });
    // At 100 roubles to the dollar, $10.00 is shown from 999.50 ₽ and $25.00 up to 2 500.49 ₽.
    const dollars = open('?price_min=10&price_max=25', 10, 'en', 100);
    await dollars.page;
    expect(dollars.asked[0]?.price).toEqual({ min: 99_950, max: 250_049 });
    // Without a rate no dollar price is shown, and no range in dollars is kept.
    const noRate = open('?price_min=10', 10, 'en', 0);
    await noRate.page;
    expect(noRate.asked[0]?.price).toEqual({ min: null, max: null });
  });

  it('sends the spec’s "available" sort to the in-stock filter for good (301), keeping the rest', async () => {
    expect(await thrown(open('?sort=available&category=4', 10).page)).toEqual({
      status: 301,
      location: '/category/mugs?category=4&available=1',
    });
  });

  it('says a price bound that is no price was left out, and keeps the rest of the view', async () => {
    const { page, asked } = open('?price_min=abc&price_max=500', 10);
    expect(await page).toMatchObject({ priceInvalid: true, currency: 'RUB' });
    expect(asked[0]?.price).toEqual({ min: null, max: 50_000 });
  });

  it('gives the plain list its own page as canonical, with the pages before and after', async () => {
    const { page } = open('?page=2', 130);
    expect(await page).toMatchObject({
      url: `${ADDRESS}?page=2`,
      previous: ADDRESS,
      next: `${ADDRESS}?page=3`,
    });
  });

  it('points a sorted or filtered view at the plain list page, without neighbours', async () => {
    const { page } = open('?sort=asc&project=3&page=2', 130);
    const answer = await page;
    expect(answer.url).toBe(`${ADDRESS}?page=2`);
    expect(answer.previous).toBeUndefined();
    expect(answer.next).toBeUndefined();
  });

  it('redirects a page past the last one to the last one, keeping the sort', async () => {
    expect(await thrown(open('?sort=asc&page=9', 130).page)).toEqual({
      status: 302,
      location: '/category/mugs?sort=asc&page=3',
    });
    expect(await thrown(open('?page=2', 0).page)).toEqual({ status: 302, location: '/category/mugs' });
  });

  it('answers 404 for a page that names no page', async () => {
    expect(await thrown(open('?page=0', 130).page)).toEqual({ status: 404, location: null });
    expect(await thrown(open('?page=two', 130).page)).toEqual({ status: 404, location: null });
  });
});
