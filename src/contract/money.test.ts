import { describe, expect, it } from 'vitest';
import {
  discountPercent,
  formatPrice,
  kopecksToRoubles,
  roublesToDollars,
  roublesToKopecks,
} from './money.ts';

describe('money', () => {
  it('converts kopecks and roubles exactly', () => {
    expect(kopecksToRoubles(199_050)).toBe(1990.5);
    expect(roublesToKopecks(1990.5)).toBe(199_050);
    expect(roublesToKopecks(0.1 + 0.2)).toBe(30);
  });

  it('divides by the dollar rate and rounds to 2 decimals', () => {
    expect(roublesToDollars(2500, 92.5)).toBe(27.03);
    expect(roublesToDollars(1000, 3)).toBe(333.33);
  });

  it('computes the discount percent with the spec formula', () => {
    expect(discountPercent(2500, 1990)).toBe(-20);
    expect(discountPercent(1000, 750)).toBe(-25);
    expect(discountPercent(999, 666)).toBe(-33);
  });

  it('shows roubles for ru and dollars for en', () => {
    expect(formatPrice(2500, 'ru', 92.5)?.replace(/\s/g, ' ')).toBe('2 500 ₽');
    expect(formatPrice(2500, 'en', 92.5)).toBe('$27.03');
  });

  it('shows kopecks only when the rouble amount has them', () => {
    expect(formatPrice(1990.5, 'ru', 92.5)?.replace(/\s/g, ' ')).toBe('1 990,50 ₽');
    expect(formatPrice(1990, 'ru', 92.5)?.replace(/\s/g, ' ')).toBe('1 990 ₽');
  });

  it('has no price to show for zero, non-numbers or dollars without a rate', () => {
    expect(formatPrice(0, 'ru', 90)).toBeNull();
    expect(formatPrice(Number.NaN, 'ru', 90)).toBeNull();
    expect(formatPrice(null, 'ru', 90)).toBeNull();
    expect(formatPrice(100, 'en', 0)).toBeNull();
    expect(formatPrice(100, 'ru', 0)).not.toBeNull();
  });
});
