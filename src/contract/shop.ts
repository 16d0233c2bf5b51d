import type { Kopecks } from './money.ts';

/**
 * Shop-list rules of spec section 4. Filtering, sorting, counting and paging run in SQL (see
 * `listProducts` in src/server/catalog/service.ts); this is what a list view asks for.
 */

/**
 * The spec's sorts as the API takes them: asc and desc by the price the shopper pays; available
 * keeps in-stock items only; default keeps the list's order. "available" is a filter now (ADR
 * 0062): it still works as a sort value and means the list's order with the in-stock filter.
 */
export const SORTS = ['default', 'asc', 'desc', 'available'] as const;
export type Sort = (typeof SORTS)[number];

export const isSort = (value: unknown): value is Sort => SORTS.includes(value as Sort);

/** The orders a list can be shown in; each combines with every filter. */
export const LIST_SORTS = ['default', 'asc', 'desc'] as const;
export type ListSort = (typeof LIST_SORTS)[number];

/** A sort of the spec as an order and the in-stock filter it implies (`available` → default order, in stock). */
export const orderOfSort = (sort: Sort): { sort: ListSort; available: boolean } =>
  sort === 'available' ? { sort: 'default', available: true } : { sort, available: false };

/** Lowest and highest price a product may sell for, in kopecks; null for no bound. */
export interface KopeckRange {
  min: Kopecks | null;
  max: Kopecks | null;
}

export const NO_PRICE_RANGE: KopeckRange = { min: null, max: null };

/**
 * How a shop list is shown. Within a group the values are alternatives (a product of project 2 or
 * of project 5); the groups, the in-stock filter and the price range all apply together. Empty
 * groups filter nothing; a project or category id 0 means none, as in the spec.
 */
export interface ListView {
  sort: ListSort;
  projectIds: number[];
  categoryIds: number[];
  /** Size keys (`L`): products with one of them in stock. */
  sizes: string[];
  /** Only products that can be ordered now, with units in stock. */
  available: boolean;
  /** Products with a variant selling within the range. */
  price: KopeckRange;
  page?: number | undefined;
}

export const WHOLE_LIST: ListView = {
  sort: 'default',
  projectIds: [],
  categoryIds: [],
  sizes: [],
  available: false,
  price: NO_PRICE_RANGE,
};

/** The values of a group without repeats, none, or 0 (the spec's "no filter"), in a stable order. */
export const distinctIds = (ids: readonly number[]): number[] =>
  [...new Set(ids.filter((id) => id > 0))].sort((a, b) => a - b);

/** Size keys without repeats (case aside) and blanks, in a stable order. */
export const distinctSizes = (sizes: readonly string[]): string[] => {
  const byKey = new Map<string, string>();
  for (const size of sizes) {
    const trimmed = size.trim();
    if (trimmed && !byKey.has(trimmed.toLowerCase())) byKey.set(trimmed.toLowerCase(), trimmed);
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, size]) => size);
};

/** A group's values with `value` added, or taken away when it is there (a checkbox clicked). */
export function toggleValue<Value extends number | string>(values: readonly Value[], value: Value): Value[] {
  return values.includes(value) ? values.filter((each) => each !== value) : [...values, value];
}
