import { describe, expect, it } from 'vitest';
import { clampCount, readCount } from './basket-counts.ts';

describe('cart quantities (spec section 5)', () => {
  it('reads whole numbers from 1 up and nothing else', () => {
    expect(readCount('3')).toBe(3);
    expect(readCount(' 12 ')).toBe(12);
    expect(readCount('0')).toBeNull();
    expect(readCount('')).toBeNull();
    expect(readCount('-2')).toBeNull();
    expect(readCount('2.5')).toBeNull();
    expect(readCount('1e3')).toBeNull();
  });

  it('keeps a count between 1 and the stock, and leaves it alone when nothing is in stock', () => {
    expect(clampCount(9, 3)).toBe(3);
    expect(clampCount(0, 3)).toBe(1);
    expect(clampCount(2, 3)).toBe(2);
    expect(clampCount(4, 0)).toBe(4);
  });
});
