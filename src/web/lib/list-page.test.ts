import { describe, expect, it } from 'vitest';
import type { ProductListResponse } from '../../contract/catalog.ts';
import { loadListPage } from './list-page.ts';
import type { PageView } from './list-view.ts';

const ADDRESS = 'https://shop.example/category/mugs';

/** A list of `total` products as the service answers it for `view` (no cards: the loader does not look at them). */
function listOf(total: number) {
  const asked: PageView[] = [];
  const load = async (view: PageView) => {
    asked.push(view);
    const value: Omit<ProductListResponse, 'success'> = {
      title: 'Mugs',
      products: [],
      counts: { projects: {}, categories: {}, sizes: {} },
      projects: [],
      categories: [],
      sizes: [],
      paging: { page: view.page, pages: Math.max(1, Math.ceil(total / 48)), perPage: 48, total },
    };
    return { value };
  };
  return { load, asked };
}

const open = (query: string, total: number) => {
  const list = listOf(total);
  return {
    asked: list.asked,
    page: loadListPage(new URL(`http://127.0.0.1/category/mugs${query}`), ADDRESS, list.load),
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
    expect(asked).toEqual([{ sort: 'desc', projectId: 0, categoryId: 4, size: 'XL', page: 2 }]);
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
