import type { Locale } from './locale.ts';

/**
 * Money. Inside the shop every amount is integer kopecks; the API shows roubles as numbers (the
 * spec's contract), and the browser shows roubles or dollars. This module is the one place where
 * those conversions happen.
 */
export type Kopecks = number;

export const kopecksToRoubles = (amount: Kopecks): number => amount / 100;
export const roublesToKopecks = (roubles: number): Kopecks => Math.round(roubles * 100);

/** Dollar price = roubles / rate, rounded to 2 decimals (spec section 9). */
export const roublesToDollars = (roubles: number, usdRate: number): number =>
  Math.round((roubles / usdRate) * 100) / 100;

/** Discount percent = round(sale / price × 100) − 100 (spec section 9), e.g. −25. */
export const discountPercent = (price: number, sale: number): number =>
  Math.round((sale / price) * 100) - 100;

export type Currency = 'RUB' | 'USD';

/** ru shows roubles; every other locale shows dollars, which need a known rate. */
export const currencyFor = (locale: Locale): Currency => (locale === 'ru' ? 'RUB' : 'USD');

/**
 * The display formats, built once: constructing an `Intl.NumberFormat` costs far more than using
 * one, and every product card formats one or two prices.
 */
const roublesWhole = new Intl.NumberFormat('ru-RU', {
  style: 'currency',
  currency: 'RUB',
  maximumFractionDigits: 0,
});
const roublesWithKopecks = new Intl.NumberFormat('ru-RU', {
  style: 'currency',
  currency: 'RUB',
  maximumFractionDigits: 2,
});
const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/**
 * Formats a rouble amount for display, or returns null when it cannot be shown (the caller then
 * shows `price-unavailable`): the value is not a number or is zero, or dollars are needed and no
 * rate is known.
 */
export function formatPrice(
  roubles: number | null | undefined,
  locale: Locale,
  usdRate: number,
): string | null {
  if (typeof roubles !== 'number' || !Number.isFinite(roubles) || roubles === 0) return null;
  if (currencyFor(locale) === 'RUB') {
    return (roubles % 1 === 0 ? roublesWhole : roublesWithKopecks).format(roubles);
  }
  if (!(usdRate > 0)) return null;
  return dollars.format(roublesToDollars(roubles, usdRate));
}
