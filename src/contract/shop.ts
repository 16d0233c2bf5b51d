import type { Counts, ProductCard } from './catalog.ts';

/** Shop-list rules of spec section 4: filter by project and category, sort, count sections. */

export const SORTS = ['default', 'asc', 'desc', 'available'] as const;
export type Sort = (typeof SORTS)[number];

export const isSort = (value: unknown): value is Sort => SORTS.includes(value as Sort);

const effectivePrice = (product: ProductCard) => product.sale ?? product.price;

/** Project id 0 or category id 0 means no filter. */
export function filterProducts(
  products: ProductCard[],
  projectId: number,
  categoryId: number,
): ProductCard[] {
  return products.filter(
    (product) =>
      (projectId === 0 || product.project_id === projectId) &&
      (categoryId === 0 || product.categories.includes(categoryId)),
  );
}

/** asc and desc by the price the shopper pays; available keeps in-stock items only; else as is. */
export function sortProducts(products: ProductCard[], sort: string): ProductCard[] {
  switch (sort) {
    case 'asc':
      return [...products].sort((a, b) => effectivePrice(a) - effectivePrice(b));
    case 'desc':
      return [...products].sort((a, b) => effectivePrice(b) - effectivePrice(a));
    case 'available':
      return products.filter((product) => product.inStock > 0);
    default:
      return products;
  }
}

/** How many products of the list belong to each project and to each category. */
export function countSections(products: ProductCard[]): Counts {
  const counts: Counts = { projects: {}, categories: {} };
  for (const product of products) {
    counts.projects[product.project_id] = (counts.projects[product.project_id] ?? 0) + 1;
    for (const categoryId of product.categories) {
      counts.categories[categoryId] = (counts.categories[categoryId] ?? 0) + 1;
    }
  }
  return counts;
}

/** Selecting the selected section again clears the filter. */
export const toggleSection = (selected: number, clicked: number): number =>
  selected === clicked ? 0 : clicked;
