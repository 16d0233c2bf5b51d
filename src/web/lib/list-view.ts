import type { Locale } from '../../contract/locale.ts';
import {
  type Currency,
  formatMoney,
  type MinorUnits,
  majorToMinor,
  minorToMajor,
} from '../../contract/money.ts';
import {
  distinctIds,
  distinctSizes,
  isSort,
  LIST_SORTS,
  type ListSort,
  type ListView,
  orderOfSort,
} from '../../contract/shop.ts';

/**
 * A shop page's view: the whole list is never shown, so there is always a page. The price range is
 * in the currency the page shows (minor units: kopecks or cents), as the shopper typed it; the
 * loader turns it into kopecks (`shownRangeInKopecks`).
 */
export type PageView = Omit<ListView, 'price' | 'page'> & {
  priceMin: MinorUnits | null;
  priceMax: MinorUnits | null;
  page: number;
};

export const PLAIN_VIEW: PageView = {
  sort: 'default',
  projectIds: [],
  categoryIds: [],
  sizes: [],
  available: false,
  priceMin: null,
  priceMax: null,
  page: 1,
};

const positiveInteger = /^[1-9]\d{0,5}$/;
const sectionIds = (values: string[]) =>
  distinctIds(values.flatMap((value) => (positiveInteger.test(value) ? [Number(value)] : [])));
/** Size keys as the filter takes them; anything longer than a size's name is none. */
const sizeKeys = (values: string[]) => distinctSizes(values.filter((value) => value.trim().length <= 40));

/** Roubles or dollars as typed (`1 500`, `12,50`, `12.5`): two decimals at most, below a hundred million. */
const priceText = /^\d{1,8}([.,]\d{1,2})?$/;

/**
 * A bound of the price range from the address: null when blank, `'invalid'` when it is no price
 * (letters, a minus, more than two decimals).
 */
export function readPriceBound(value: string | null): MinorUnits | null | 'invalid' {
  const text = value?.replace(/[\s\u00a0]/g, '') ?? '';
  if (text === '') return null;
  if (!priceText.test(text)) return 'invalid';
  return majorToMinor(Number(text.replace(',', '.')));
}

/** How an address's query string reads as a view, and whether it needs a new address. */
export interface ReadView {
  view: PageView;
  /** A price bound that was no price (ignored, and said so by the price fields). */
  priceInvalid: boolean;
  /**
   * The address says the view in an old way (`sort=available`, the spec's sort, is the in-stock
   * filter now) or with the price bounds the wrong way round: the page redirects to `listHref(view)`.
   */
  outdated: boolean;
}

/**
 * The view a shop page's query string asks for (`?sort=asc&project=2&project=5&category=5&size=L&
 * available=1&price_min=1000&price_max=3000&page=3`). Repeated parameters are the values of a group
 * (what a form of checkboxes sends). Unknown sorts and filters fall back to none, as the spec's lists
 * do; a `page` that names no page that could exist (`0`, `-1`, `abc`) gives null, for a 404.
 */
export function readListView(params: URLSearchParams): ReadView | null {
  const page = params.get('page');
  if (page !== null && !positiveInteger.test(page)) return null;
  const sort = params.get('sort');
  const order = isSort(sort) ? orderOfSort(sort) : { sort: 'default' as ListSort, available: false };
  const min = readPriceBound(params.get('price_min'));
  const max = readPriceBound(params.get('price_max'));
  const priceMin = min === 'invalid' ? null : min;
  const priceMax = max === 'invalid' ? null : max;
  const swapped = priceMin !== null && priceMax !== null && priceMin > priceMax;
  return {
    view: {
      sort: order.sort,
      projectIds: sectionIds(params.getAll('project')),
      categoryIds: sectionIds(params.getAll('category')),
      sizes: sizeKeys(params.getAll('size')),
      available: order.available || params.get('available') === '1',
      priceMin: swapped ? priceMax : priceMin,
      priceMax: swapped ? priceMin : priceMax,
      page: page === null ? 1 : Number(page),
    },
    priceInvalid: min === 'invalid' || max === 'invalid',
    outdated: sort === 'available' || swapped,
  };
}

/** A bound as an address or a price field writes it: `1500`, `12.5`. */
export const priceBoundText = (bound: MinorUnits | null) =>
  bound === null ? '' : String(minorToMajor(bound));

/** The query string of `view` changed by `change`; defaults (no sort, no filter, page 1) are left out. */
export function listHref(view: PageView, change: Partial<PageView> = {}): string {
  const next = { ...view, ...change };
  const params = new URLSearchParams();
  if (next.sort !== 'default') params.set('sort', next.sort);
  for (const id of next.projectIds) params.append('project', String(id));
  for (const id of next.categoryIds) params.append('category', String(id));
  for (const size of next.sizes) params.append('size', size);
  if (next.available) params.set('available', '1');
  if (next.priceMin !== null) params.set('price_min', priceBoundText(next.priceMin));
  if (next.priceMax !== null) params.set('price_max', priceBoundText(next.priceMax));
  if (next.page > 1) params.set('page', String(next.page));
  const query = params.toString();
  return query ? `?${query}` : '?';
}

/** The view with no filter (the sort kept): what "clear all" shows. */
export const withoutFilters = (view: PageView): Partial<PageView> => ({
  ...PLAIN_VIEW,
  sort: view.sort,
});

/** True when a filter narrows the list (the sort aside). */
export const hasFilters = (view: PageView) =>
  view.projectIds.length > 0 ||
  view.categoryIds.length > 0 ||
  view.sizes.length > 0 ||
  view.available ||
  view.priceMin !== null ||
  view.priceMax !== null;

/** True when the view shows the list as it is: no sort, no filter (the view search engines index). */
export const isPlainView = (view: PageView) => view.sort === PLAIN_VIEW.sort && !hasFilters(view);

/** The sorts a page offers: availability is a filter of its own. */
export const PAGE_SORTS = LIST_SORTS;

/** A price range as a chip says it: `1 000 ₽ – 3 000 ₽`, `from $10.00`, `up to $30.00`. */
export function priceRangeText(
  view: Pick<PageView, 'priceMin' | 'priceMax'>,
  currency: Currency,
  locale: Locale,
  words: { from: (price: string) => string; upTo: (price: string) => string },
): string | null {
  const { priceMin, priceMax } = view;
  if (priceMin !== null && priceMax !== null)
    return `${formatMoney(priceMin, currency, locale)} – ${formatMoney(priceMax, currency, locale)}`;
  if (priceMin !== null) return words.from(formatMoney(priceMin, currency, locale));
  if (priceMax !== null) return words.upTo(formatMoney(priceMax, currency, locale));
  return null;
}

/** Page numbers to link around the current one: first, last, the current and its neighbours, gaps between. */
export function pageNumbers(current: number, last: number): Array<number | 'gap'> {
  const wanted = [...new Set([1, current - 1, current, current + 1, last])]
    .filter((page) => page >= 1 && page <= last)
    .sort((a, b) => a - b);
  const numbers: Array<number | 'gap'> = [];
  let previous = 0;
  for (const page of wanted) {
    // A gap of one page shows that page rather than an ellipsis standing for it.
    if (page - previous === 2) numbers.push(previous + 1);
    else if (page - previous > 2) numbers.push('gap');
    numbers.push(page);
    previous = page;
  }
  return numbers;
}
