import { describe, expect, it } from 'vitest';
import { distinctIds, distinctSizes, isSort, orderOfSort, toggleValue } from './shop.ts';

describe('shop list rules (spec section 4)', () => {
  it('knows the four sorts and nothing else', () => {
    expect(['default', 'asc', 'desc', 'available'].every(isSort)).toBe(true);
    expect(isSort('whatever')).toBe(false);
    expect(isSort(undefined)).toBe(false);
  });

  it('reads the old "available" sort as the list order with the in-stock filter', () => {
    expect(orderOfSort('available')).toEqual({ sort: 'default', available: true });
    expect(orderOfSort('asc')).toEqual({ sort: 'asc', available: false });
  });

  it('choosing a chosen value again takes it away; other values of the group stay', () => {
    expect(toggleValue([], 5)).toEqual([5]);
    expect(toggleValue([5, 6], 5)).toEqual([6]);
    expect(toggleValue(['L'], 'XL')).toEqual(['L', 'XL']);
  });

  it('keeps each value of a group once, without the spec’s 0 for none', () => {
    expect(distinctIds([5, 0, 2, 5])).toEqual([2, 5]);
    expect(distinctSizes(['xl', 'L', ' XL ', ''])).toEqual(['L', 'xl']);
  });
});
