import type { Locale } from './locale.ts';

/**
 * Money. Inside the shop every amount is integer kopecks; the API shows roubles as numbers (the
 * spec's contract), and the browser shows roubles or dollars. This module is the one place where
 * those conversions happen.
 */
export type Kopecks = number;

export const kopecksToRoubles = (amount: Kopecks): number => amount / 100;
export const roublesToKopecks = (roubles: number): Kopecks => Math.round(roubles * 100);

/** Cents (dollars), kopecks (roubles): an amount in the minor units of its currency. */
export type MinorUnits = number;

/**
 * Rates are roubles per dollar kept to 4 decimals (`orders.usd_rate`); conversions use that
 * precision and integer arithmetic, so the browser and the server always get the same cent.
 */
const rateInTenThousandths = (usdRate: number) => Math.round(usdRate * 10_000);

/** Kopecks → cents at `usdRate` roubles per dollar, rounded half up to the cent. */
export function kopecksToCents(amount: Kopecks, usdRate: number): MinorUnits {
  const rate = rateInTenThousandths(usdRate);
  return Math.floor((amount * 20_000 + rate) / (2 * rate));
}

/** Dollar price = roubles / rate, rounded to 2 decimals (spec section 9). */
export const roublesToDollars = (roubles: number, usdRate: number): number =>
  kopecksToCents(roublesToKopecks(roubles), usdRate) / 100;

/** Discount percent = round(sale / price × 100) − 100 (spec section 9), e.g. −25. */
export const discountPercent = (price: number, sale: number): number =>
  Math.round((sale / price) * 100) - 100;

export type Currency = 'RUB' | 'USD';

/** ru shows roubles; every other locale shows dollars, which need a known rate. */
export const currencyFor = (locale: Locale): Currency => (locale === 'ru' ? 'RUB' : 'USD');

/** A basket's or an order's amounts in the currency shown or charged, in its minor units. */
export interface Amounts {
  currency: Currency;
  /** One per line (unit price × count), in the order given; they add up to `products`. */
  lines: MinorUnits[];
  products: MinorUnits;
  delivery: MinorUnits;
  /** products + delivery: what is shown as the total and what the provider is asked to charge. */
  total: MinorUnits;
}

/**
 * The one way amounts are computed (ADR 0024). Roubles are the amounts themselves. Dollars: the
 * products' rouble sum is converted once and shared out over the lines by largest remainder (each
 * line is its own conversion rounded down or up), the delivery is converted once, and the total is
 * their sum; so lines, total and the provider's charge agree to the cent. Null when dollars are
 * needed and no rate is known.
 */
export function amountsIn(
  currency: Currency,
  usdRate: number,
  lines: readonly Kopecks[],
  delivery: Kopecks = 0,
): Amounts | null {
  const products = lines.reduce((sum, line) => sum + line, 0);
  if (currency === 'RUB') {
    return { currency, lines: [...lines], products, delivery, total: products + delivery };
  }
  if (!(usdRate > 0)) return null;
  const productsInCents = kopecksToCents(products, usdRate);
  const deliveryInCents = kopecksToCents(delivery, usdRate);
  return {
    currency,
    lines: shareOut(productsInCents, lines, rateInTenThousandths(usdRate)),
    products: productsInCents,
    delivery: deliveryInCents,
    total: productsInCents + deliveryInCents,
  };
}

/**
 * Largest remainder: each line gets its exact cents (kopecks × 10,000 / rate) rounded down, then
 * the cents left of `total` go one each to the lines with the largest remainders (the first line
 * wins a tie).
 */
function shareOut(total: MinorUnits, lines: readonly Kopecks[], rate: number): MinorUnits[] {
  const exact = lines.map((line, index) => ({
    index,
    cents: Math.floor((line * 10_000) / rate),
    remainder: (line * 10_000) % rate,
  }));
  const shares = exact.map((line) => line.cents);
  const left = total - shares.reduce((sum, cents) => sum + cents, 0);
  const byRemainder = [...exact].sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const line of byRemainder.slice(0, left)) shares[line.index] = (shares[line.index] ?? 0) + 1;
  return shares;
}

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

/** Formats an amount in minor units (kopecks or cents) for display. */
export function formatAmount(amount: MinorUnits, currency: Currency): string {
  if (currency === 'USD') return dollars.format(amount / 100);
  return (amount % 100 === 0 ? roublesWhole : roublesWithKopecks).format(amount / 100);
}

/**
 * A rouble price in the currency a page in `locale` shows it in, in minor units, or null when it
 * cannot be shown (the caller then shows `price-unavailable`): the value is not a number or is
 * zero, or dollars are needed and no rate is known.
 */
export function shownPrice(
  roubles: number | null | undefined,
  locale: Locale,
  usdRate: number,
): { amount: MinorUnits; currency: Currency } | null {
  if (typeof roubles !== 'number' || !Number.isFinite(roubles) || roubles === 0) return null;
  const currency = currencyFor(locale);
  if (currency === 'USD' && !(usdRate > 0)) return null;
  const kopecks = roublesToKopecks(roubles);
  return { amount: currency === 'RUB' ? kopecks : kopecksToCents(kopecks, usdRate), currency };
}

/** Formats a rouble amount for display (see `shownPrice`), or returns null when it cannot be shown. */
export function formatPrice(
  roubles: number | null | undefined,
  locale: Locale,
  usdRate: number,
): string | null {
  const price = shownPrice(roubles, locale, usdRate);
  return price && formatAmount(price.amount, price.currency);
}
