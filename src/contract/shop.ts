/**
 * Shop-list rules of spec section 4. Filtering, sorting, counting and paging run in SQL (see
 * `listProducts` in src/server/catalog/service.ts); this is what a list view asks for.
 */

/** asc and desc by the price the shopper pays; available keeps in-stock items only; default keeps the list's order. */
export const SORTS = ['default', 'asc', 'desc', 'available'] as const;
export type Sort = (typeof SORTS)[number];

export const isSort = (value: unknown): value is Sort => SORTS.includes(value as Sort);

/** How a shop list is shown: project id 0 or category id 0 means no filter; no page means the whole list. */
export interface ListView {
  sort: Sort;
  projectId: number;
  categoryId: number;
  /** A size's key (`L`): products with it in stock; empty for all. */
  size: string;
  page?: number | undefined;
}

export const WHOLE_LIST: ListView = { sort: 'default', projectId: 0, categoryId: 0, size: '' };

/** Selecting the selected section again clears the filter. */
export const toggleSection = (selected: number, clicked: number): number =>
  selected === clicked ? 0 : clicked;

/** The same for the size filter: the chosen size again clears it. */
export const toggleSize = (selected: string, clicked: string): string =>
  selected === clicked ? '' : clicked;
