import { describe, expect, it } from 'vitest';
import {
  amountsIn,
  discountPercent,
  formatAmount,
  formatPrice,
  kopecksToCents,
  kopecksToRoubles,
  roublesToDollars,
  roublesToKopecks,
} from './money.ts';

/** A small seeded generator, so a failing basket can be found again. */
function randomNumbers(seed: number) {
  let state = seed >>> 0;
  return (below: number) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state % below;
  };
}

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

  it('rounds half a cent up, in whole numbers, at the rate kept to 4 decimals', () => {
    expect(kopecksToCents(42_250, 100)).toBe(423);
    expect(kopecksToCents(42_249, 100)).toBe(422);
    expect(kopecksToCents(100_000, 92.123_44)).toBe(kopecksToCents(100_000, 92.1234));
  });

  it('adds the cart lines up to the cart total ($4.22 + $13.95 was shown as $18.16)', () => {
    const lines = [384_00, 1269_00];
    // Converted one by one, the lines said $4.22 and $13.95, and the converted sum said $18.16.
    expect(lines.map((line) => roublesToDollars(kopecksToRoubles(line), 91))).toEqual([4.22, 13.95]);
    expect(roublesToDollars(1653, 91)).toBe(18.16);
    const amounts = amountsIn('USD', 91, lines);
    expect(amounts?.total).toBe(1816);
    expect(amounts?.lines).toEqual([422, 1394]);
    expect(amounts?.lines.map((cents) => formatAmount(cents, 'USD'))).toEqual(['$4.22', '$13.94']);
  });

  it('shows as the order total what the provider is asked to charge ($118.48 shown, $118.49 charged)', () => {
    const amounts = amountsIn('USD', 91, [10_482_00], 300_00);
    // Products $115.19 and delivery $3.30 were charged; the total converted the rouble sum: $118.48.
    expect(roublesToDollars(10_782, 91)).toBe(118.48);
    expect(amounts).toMatchObject({ products: 11_519, delivery: 330, total: 11_849 });
    expect(formatAmount(amounts?.total ?? 0, 'USD')).toBe('$118.49');
  });

  it('shares the dollar total over any basket: each line within a cent of its own conversion', () => {
    const random = randomNumbers(2026);
    for (let basket = 0; basket < 1_000; basket += 1) {
      const usdRate = (60_0000 + random(60_0000)) / 10_000;
      const lines = Array.from({ length: 1 + random(8) }, () => (1 + random(500_000)) * (1 + random(5)));
      const delivery = random(3) === 0 ? 0 : 100_00 + random(200_000);
      const amounts = amountsIn('USD', usdRate, lines, delivery);
      if (!amounts) throw new Error('a rate was given');
      expect(amounts.lines.reduce((sum, cents) => sum + cents, 0)).toBe(amounts.products);
      expect(amounts.products + amounts.delivery).toBe(amounts.total);
      expect(amounts.products).toBe(
        kopecksToCents(
          lines.reduce((sum, line) => sum + line, 0),
          usdRate,
        ),
      );
      amounts.lines.forEach((cents, index) => {
        expect(Math.abs(cents - (lines[index] ?? 0) / usdRate)).toBeLessThan(1);
      });
    }
  });

  it('keeps roubles as they are and has no dollars without a rate', () => {
    expect(amountsIn('RUB', 0, [100_50, 200_00], 350_00)).toEqual({
      currency: 'RUB',
      lines: [100_50, 200_00],
      products: 300_50,
      delivery: 350_00,
      total: 650_50,
    });
    expect(amountsIn('USD', 0, [100_00])).toBeNull();
    expect(formatAmount(650_50, 'RUB').replace(/\s/g, ' ')).toBe('650,50 ₽');
    expect(formatAmount(650_00, 'RUB').replace(/\s/g, ' ')).toBe('650 ₽');
  });
});
