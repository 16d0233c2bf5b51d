import { describe, expect, it } from 'vitest';
import type { ProductCard } from './catalog.ts';
import { countSections, filterProducts, sortProducts, toggleSection } from './shop.ts';

const card = (
  id: number,
  projectId: number,
  categories: number[],
  price: number,
  sale: number | null,
  inStock: number,
): ProductCard => ({
  id,
  link: `p${id}`,
  name: `Product ${id}`,
  image: null,
  price,
  sale,
  inStock,
  envisioned: false,
  project_id: projectId,
  categories,
  status: 1,
});

const list = [
  card(1, 1, [10], 500, null, 3),
  card(2, 2, [10, 20], 300, 250, 0),
  card(3, 1, [20], 400, 100, 1),
];
const ids = (products: ProductCard[]) => products.map((product) => product.id);

describe('shop list rules (spec section 4)', () => {
  it('project 0 and category 0 mean no filter', () => {
    expect(ids(filterProducts(list, 0, 0))).toEqual([1, 2, 3]);
  });

  it('keeps products of the selected project that include the selected category', () => {
    expect(ids(filterProducts(list, 1, 0))).toEqual([1, 3]);
    expect(ids(filterProducts(list, 0, 20))).toEqual([2, 3]);
    expect(ids(filterProducts(list, 1, 20))).toEqual([3]);
  });

  it('sorts cheap first and expensive first by the price paid (sale when on sale)', () => {
    expect(ids(sortProducts(list, 'asc'))).toEqual([3, 2, 1]);
    expect(ids(sortProducts(list, 'desc'))).toEqual([1, 2, 3]);
  });

  it('"available" keeps in-stock items only; anything else keeps the order', () => {
    expect(ids(sortProducts(list, 'available'))).toEqual([1, 3]);
    expect(ids(sortProducts(list, 'default'))).toEqual([1, 2, 3]);
    expect(ids(sortProducts(list, 'whatever'))).toEqual([1, 2, 3]);
  });

  it('does not reorder the list it was given', () => {
    sortProducts(list, 'asc');
    expect(ids(list)).toEqual([1, 2, 3]);
  });

  it('counts products per project and per category', () => {
    expect(countSections(list)).toEqual({ projects: { 1: 2, 2: 1 }, categories: { 10: 2, 20: 2 } });
  });

  it('selecting the selected section again clears it', () => {
    expect(toggleSection(0, 5)).toBe(5);
    expect(toggleSection(5, 5)).toBe(0);
    expect(toggleSection(5, 6)).toBe(6);
  });
});
