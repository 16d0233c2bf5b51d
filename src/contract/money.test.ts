import { describe, expect, it } from 'vitest';
import {
  amountsIn,
  centRangeInKopecks,
  centsToKopecks,
  discountPercent,
  formatMoney,
  formatPrice,
  formatRate,
  kopecksToCents,
  kopecksToRoubles,
  roublesToDollars,
  roublesToKopecks,
  shownRangeInKopecks,
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

  it('writes an amount in the reader’s language, whatever its currency', () => {
    const spaced = (text: string) => text.replace(/\s/g, ' ');
    expect(spaced(formatMoney(1_990_00, 'RUB', 'ru'))).toBe('1 990 ₽');
    expect(formatMoney(1_990_00, 'RUB', 'en')).toBe('₽1,990');
    expect(formatMoney(1_990_50, 'RUB', 'en')).toBe('₽1,990.50');
    expect(spaced(formatMoney(12_34, 'USD', 'ru'))).toBe('12,34 $');
    expect(formatMoney(12_00, 'USD', 'en')).toBe('$12.00');
    expect(formatMoney(-12_34, 'USD', 'en')).toBe('-$12.34');
  });

  it('shows kopecks on whole roubles when asked, and shortens amounts for a chart', () => {
    const spaced = (text: string) => text.replace(/\s/g, ' ');
    expect(spaced(formatMoney(1_990_00, 'RUB', 'ru', { kopecks: true }))).toBe('1 990,00 ₽');
    expect(formatMoney(1_990_00, 'RUB', 'en', { kopecks: true })).toBe('₽1,990.00');
    expect(formatMoney(123_456_00, 'RUB', 'en', { compact: true })).toBe('₽123.5k');
    expect(spaced(formatMoney(123_456_00, 'RUB', 'ru', { compact: true }))).toBe('123,5 тыс. ₽');
  });

  it('writes a dollar rate to its 4 decimals in the reader’s language', () => {
    expect(formatRate(92.5, 'en')).toBe('92.5000');
    expect(formatRate(92.5, 'ru')).toBe('92,5000');
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

  it('tells what dollars were worth in roubles at a rate, half a kopeck up', () => {
    // $62.49 at 92.5 ₽/$ = 5780.325 ₽; $81.39 at 92.5 = 7528.575 ₽.
    expect(centsToKopecks(62_49, 92.5)).toBe(5780_33);
    expect(centsToKopecks(81_39, 92.5)).toBe(7528_58);
    expect(centsToKopecks(1, 0.5)).toBe(1);
    expect(centsToKopecks(1_000_000_00, 123.4567)).toBe(123_456_700_00);
  });

  it('shows each dollar line as its unit × count ($13.95 × 2 was shown as $27.89)', () => {
    // ADR 0024 shared a converted total over the lines: the mug at $13.95 read "Sum: $13.94".
    const mug = { unit: 1269_00, count: 1 };
    const amounts = amountsIn('USD', 91, [{ unit: 384_00, count: 1 }, mug]);
    expect(amounts?.units).toEqual([422, 1395]);
    expect(amounts?.lines).toEqual([422, 1395]);
    expect(amounts?.total).toBe(1817);
    expect(amountsIn('USD', 91, [{ ...mug, count: 2 }])?.lines).toEqual([2790]);
    expect(amounts?.lines.map((cents) => formatMoney(cents, 'USD', 'en'))).toEqual(['$4.22', '$13.95']);
  });

  it('shows as the order total what the provider is asked to charge: lines plus delivery', () => {
    const amounts = amountsIn('USD', 91, [{ unit: 3494_00, count: 3 }], 300_00);
    expect(amounts).toMatchObject({ units: [3840], lines: [11_520], products: 11_520, delivery: 330 });
    expect(formatMoney(amounts?.total ?? 0, 'USD', 'en')).toBe('$118.50');
  });

  it('makes every dollar line unit × count, less its discount, for any basket', () => {
    const random = randomNumbers(2026);
    for (let basket = 0; basket < 1_000; basket += 1) {
      const usdRate = (60_0000 + random(60_0000)) / 10_000;
      const lines = Array.from({ length: 1 + random(8) }, () => ({
        unit: 1 + random(500_000),
        count: 1 + random(5),
        discount: random(2) === 0 ? 0 : random(10_000),
      }));
      const delivery = random(3) === 0 ? 0 : 100_00 + random(200_000);
      const amounts = amountsIn('USD', usdRate, lines, delivery);
      if (!amounts) throw new Error('a rate was given');
      lines.forEach((line, index) => {
        const unit = kopecksToCents(line.unit, usdRate);
        expect(amounts.units[index]).toBe(unit);
        expect(amounts.lines[index]).toBe(unit * line.count - kopecksToCents(line.discount, usdRate));
        expect(Math.abs(unit - line.unit / usdRate)).toBeLessThanOrEqual(0.5);
      });
      expect(amounts.lines.reduce((sum, cents) => sum + cents, 0)).toBe(amounts.products);
      expect(amounts.delivery).toBe(kopecksToCents(delivery, usdRate));
      expect(amounts.products + amounts.delivery).toBe(amounts.total);
    }
  });

  it('keeps roubles as they are and has no dollars without a rate', () => {
    expect(
      amountsIn(
        'RUB',
        0,
        [
          { unit: 100_50, count: 1 },
          { unit: 100_00, count: 2 },
        ],
        350_00,
      ),
    ).toEqual({
      currency: 'RUB',
      units: [100_50, 100_00],
      lines: [100_50, 200_00],
      products: 300_50,
      delivery: 350_00,
      total: 650_50,
    });
    expect(amountsIn('USD', 0, [{ unit: 100_00, count: 1 }])).toBeNull();
    expect(formatMoney(650_50, 'RUB', 'ru').replace(/\s/g, ' ')).toBe('650,50 ₽');
    expect(formatMoney(650_00, 'RUB', 'ru').replace(/\s/g, ' ')).toBe('650 ₽');
  });
});

describe('a price range in dollars, as kopecks', () => {
  it('keeps exactly the kopeck prices whose shown dollar price is within the range', () => {
    for (const rate of [92.5, 78.1234, 101.0001, 1]) {
      for (const [min, max] of [
        [1000, 2000],
        [1, 1],
        [0, 999],
        [1395, 1395],
      ] as const) {
        const range = centRangeInKopecks(min, max, rate);
        for (let kopecks = 0; kopecks < 300_000; kopecks += 7) {
          const cents = kopecksToCents(kopecks, rate);
          const inside = kopecks >= (range.min ?? 0) && kopecks <= (range.max ?? Number.MAX_SAFE_INTEGER);
          if (inside !== (cents >= min && cents <= max))
            throw new Error(`${kopecks} kopecks (${cents} cents) at ${rate}: ${inside} for ${min}..${max}`);
        }
        // The bounds themselves are shown within the range, and one kopeck beyond is not.
        if (range.min !== null && range.min > 0)
          expect(kopecksToCents(range.min - 1, rate)).toBeLessThan(min);
        if (range.max !== null) expect(kopecksToCents(range.max + 1, rate)).toBeGreaterThan(max);
      }
    }
  });

  it('leaves roubles as they are and gives no range in dollars without a rate', () => {
    expect(shownRangeInKopecks({ min: 100_000, max: null }, 'RUB', 0)).toEqual({ min: 100_000, max: null });
    expect(shownRangeInKopecks({ min: 1000, max: null }, 'USD', 0)).toBeNull();
    expect(shownRangeInKopecks({ min: 1000, max: 2000 }, 'USD', 100)).toEqual({ min: 99_950, max: 200_049 });
  });
});
