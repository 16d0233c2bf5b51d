import { isSort, type ListView } from '../../contract/shop.ts';

/** A shop page's view: the whole list is never shown, so there is always a page. */
export type PageView = ListView & { page: number };

export const PLAIN_VIEW: PageView = { sort: 'default', projectId: 0, categoryId: 0, size: '', page: 1 };

const positiveInteger = /^[1-9]\d{0,5}$/;
const idOf = (value: string | null) => (value !== null && positiveInteger.test(value) ? Number(value) : 0);
/** A size key as the filter takes it; anything longer than a size's name is none. */
const sizeOf = (value: string | null) => {
  const size = value?.trim() ?? '';
  return size.length <= 40 ? size : '';
};

/**
 * The view a shop page's query string asks for (`?sort=asc&project=2&category=5&size=L&page=3`). Unknown
 * sorts and filters fall back to none, as the spec's lists do; a `page` that names no page that
 * could exist (`0`, `-1`, `abc`) gives null, for a 404.
 */
export function readListView(params: URLSearchParams): PageView | null {
  const page = params.get('page');
  if (page !== null && !positiveInteger.test(page)) return null;
  const sort = params.get('sort');
  return {
    sort: isSort(sort) ? sort : 'default',
    projectId: idOf(params.get('project')),
    categoryId: idOf(params.get('category')),
    size: sizeOf(params.get('size')),
    page: page === null ? 1 : Number(page),
  };
}

/** The query string of `view` changed by `change`; defaults (no sort, no filter, page 1) are left out. */
export function listHref(view: PageView, change: Partial<PageView> = {}): string {
  const next = { ...view, ...change };
  const params = new URLSearchParams();
  if (next.sort !== 'default') params.set('sort', next.sort);
  if (next.projectId) params.set('project', String(next.projectId));
  if (next.categoryId) params.set('category', String(next.categoryId));
  if (next.size) params.set('size', next.size);
  if (next.page > 1) params.set('page', String(next.page));
  const query = params.toString();
  return query ? `?${query}` : '?';
}

/** True when the view shows the list as it is: no sort, no filter (the view search engines index). */
export const isPlainView = (view: PageView) =>
  view.sort === PLAIN_VIEW.sort &&
  view.projectId === PLAIN_VIEW.projectId &&
  view.categoryId === PLAIN_VIEW.categoryId &&
  view.size === PLAIN_VIEW.size;

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
