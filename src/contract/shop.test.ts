import { describe, expect, it } from 'vitest';
import { isSort, toggleSection } from './shop.ts';

describe('shop list rules (spec section 4)', () => {
  it('knows the four sorts and nothing else', () => {
    expect(['default', 'asc', 'desc', 'available'].every(isSort)).toBe(true);
    expect(isSort('whatever')).toBe(false);
    expect(isSort(undefined)).toBe(false);
  });

  it('selecting the selected section again clears it', () => {
    expect(toggleSection(0, 5)).toBe(5);
    expect(toggleSection(5, 5)).toBe(0);
    expect(toggleSection(5, 6)).toBe(6);
  });
});
