import { describe, expect, it } from 'vitest';
import { isPlainView, listHref, PLAIN_VIEW, pageNumbers, readListView } from './list-view.ts';

const read = (query: string) => readListView(new URLSearchParams(query));

describe('the view in a shop page address', () => {
  it('reads sort, filters and page, with page 1 and no filter by default', () => {
    expect(read('')).toEqual(PLAIN_VIEW);
    expect(read('sort=asc&project=2&category=5&size=XL&page=3')).toEqual({
      sort: 'asc',
      projectId: 2,
      categoryId: 5,
      size: 'XL',
      page: 3,
    });
  });

  it('falls back to no sort and no filter for values that are none, as the spec lists do', () => {
    expect(read(`sort=cheap&project=x&category=-4&size=${'L'.repeat(41)}`)).toEqual(PLAIN_VIEW);
  });

  it('has no view for a page that cannot exist, so the page answers 404', () => {
    for (const page of ['0', '-1', 'abc', '1.5', '', '01', '9999999'])
      expect(read(`page=${page}`), page).toBeNull();
  });

  it('writes links that keep the rest of the view and leave defaults out', () => {
    const view = { sort: 'desc' as const, projectId: 2, categoryId: 0, size: '', page: 3 };
    expect(listHref(view, { page: 4 })).toBe('?sort=desc&project=2&page=4');
    expect(listHref(view, { size: 'L', page: 1 })).toBe('?sort=desc&project=2&size=L');
    expect(isPlainView({ ...PLAIN_VIEW, size: 'L' })).toBe(false);
    expect(listHref(view, { page: 1 })).toBe('?sort=desc&project=2');
    expect(listHref(PLAIN_VIEW)).toBe('?');
    expect(isPlainView(view)).toBe(false);
    expect(isPlainView({ ...PLAIN_VIEW, page: 7 })).toBe(true);
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
