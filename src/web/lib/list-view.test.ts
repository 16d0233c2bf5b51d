import { describe, expect, it } from 'vitest';
import {
  isPlainView,
  listHref,
  type PageView,
  PLAIN_VIEW,
  pageNumbers,
  priceRangeText,
  readListView,
  readPriceBound,
  withoutFilters,
} from './list-view.ts';

const read = (query: string) => readListView(new URLSearchParams(query));

describe('the view in a shop page address', () => {
  it('reads sort, filters and page, with page 1 and no filter by default', () => {
    expect(read('')?.view).toEqual(PLAIN_VIEW);
    expect(read('sort=asc&project=2&category=5&size=XL&page=3')?.view).toEqual({
      ...PLAIN_VIEW,
      sort: 'asc',
      projectIds: [2],
      categoryIds: [5],
      sizes: ['XL'],
      page: 3,
    });
  });

  it('reads repeated values as the choices of one group, in-stock and a price range', () => {
    const read_ = read(
      'project=5&project=2&project=5&size=L&size=xl&available=1&price_min=1000&price_max=2500.5',
    );
    expect(read_).toEqual({
      view: {
        ...PLAIN_VIEW,
        projectIds: [2, 5],
        sizes: ['L', 'xl'],
        available: true,
        priceMin: 100_000,
        priceMax: 250_050,
      },
      priceInvalid: false,
      outdated: false,
    });
  });

  it('reads the spec’s "available" sort as the in-stock filter, with an address of its own to go to', () => {
    const old = read('sort=available&project=2');
    expect(old?.view).toMatchObject({ sort: 'default', available: true, projectIds: [2] });
    expect(old?.outdated).toBe(true);
    expect(listHref(old?.view ?? PLAIN_VIEW)).toBe('?project=2&available=1');
  });

  it('turns a range typed the wrong way round and says when a bound is no price', () => {
    expect(read('price_min=3000&price_max=1000')).toMatchObject({
      view: { priceMin: 100_000, priceMax: 300_000 },
      outdated: true,
    });
    for (const bound of ['-5', 'abc', '1.234', '1e5'])
      expect(read(`price_min=${bound}`), bound).toMatchObject({
        view: { priceMin: null },
        priceInvalid: true,
      });
    expect(readPriceBound('12,5')).toBe(1250);
    expect(readPriceBound(' ')).toBeNull();
  });

  it('falls back to no sort and no filter for values that are none, as the spec lists do', () => {
    expect(read(`sort=cheap&project=x&category=-4&size=${'L'.repeat(41)}`)?.view).toEqual(PLAIN_VIEW);
  });

  it('has no view for a page that cannot exist, so the page answers 404', () => {
    for (const page of ['0', '-1', 'abc', '1.5', '', '01', '9999999'])
      expect(read(`page=${page}`), page).toBeNull();
  });

  it('writes links that keep the rest of the view and leave defaults out', () => {
    const view: PageView = { ...PLAIN_VIEW, sort: 'desc', projectIds: [2], page: 3 };
    expect(listHref(view, { page: 4 })).toBe('?sort=desc&project=2&page=4');
    expect(listHref(view, { sizes: ['L'], page: 1 })).toBe('?sort=desc&project=2&size=L');
    expect(listHref(view, { projectIds: [2, 7], priceMax: 1250, page: 1 })).toBe(
      '?sort=desc&project=2&project=7&price_max=12.5',
    );
    expect(listHref(view, withoutFilters(view))).toBe('?sort=desc');
    expect(isPlainView({ ...PLAIN_VIEW, sizes: ['L'] })).toBe(false);
    expect(isPlainView({ ...PLAIN_VIEW, available: true })).toBe(false);
    expect(listHref(view, { page: 1 })).toBe('?sort=desc&project=2');
    expect(listHref(PLAIN_VIEW)).toBe('?');
    expect(isPlainView(view)).toBe(false);
    expect(isPlainView({ ...PLAIN_VIEW, page: 7 })).toBe(true);
  });

  it('names a price range as a chip shows it, in the shown currency', () => {
    const words = { from: (price: string) => `from ${price}`, upTo: (price: string) => `up to ${price}` };
    expect(priceRangeText({ priceMin: 1000, priceMax: 3050 }, 'USD', 'en', words)).toBe('$10.00 – $30.50');
    expect(priceRangeText({ priceMin: 100_000, priceMax: null }, 'RUB', 'ru', words)).toBe(
      'from 1\u00a0000\u00a0₽',
    );
    expect(priceRangeText({ priceMin: null, priceMax: null }, 'RUB', 'ru', words)).toBeNull();
  });
});

describe('page numbers of the pager', () => {
  it('shows first, last, the current page and its neighbours, with gaps between', () => {
    expect(pageNumbers(1, 1)).toEqual([1]);
    expect(pageNumbers(1, 16)).toEqual([1, 2, 'gap', 16]);
    expect(pageNumbers(8, 16)).toEqual([1, 'gap', 7, 8, 9, 'gap', 16]);
    expect(pageNumbers(16, 16)).toEqual([1, 'gap', 15, 16]);
  });

  it('shows a single missing page instead of a gap standing for it', () => {
    expect(pageNumbers(4, 16)).toEqual([1, 2, 3, 4, 5, 'gap', 16]);
    expect(pageNumbers(3, 5)).toEqual([1, 2, 3, 4, 5]);
  });
});
