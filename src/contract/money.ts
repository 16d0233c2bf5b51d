import type { Locale } from './locale.ts';

/**
 * Money. Inside the shop every amount is integer kopecks; the API shows roubles as numbers (the
 * spec's contract), and the browser shows roubles or dollars. This module is the one place where
 * those conversions happen, and where amounts are written for people (`formatMoney`, ADR 0082).
 */
export type Kopecks = number;

export const kopecksToRoubles = (amount: Kopecks): number => amount / 100;
export const roublesToKopecks = (roubles: number): Kopecks => Math.round(roubles * 100);

/** Cents (dollars), kopecks (roubles): an amount in the minor units of its currency. */
export type MinorUnits = number;

/** Minor units ↔ the decimal amount the API and the pages use (roubles or dollars). */
export const minorToMajor = (amount: MinorUnits): number => amount / 100;
export const majorToMinor = (amount: number): MinorUnits => Math.round(amount * 100);
/** Minor units as a decimal with two places, as providers, forms and structured data take it: 1234 → "12.34". */
export const minorToDecimal = (amount: MinorUnits): string => minorToMajor(amount).toFixed(2);

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

/**
 * Cents → kopecks at `usdRate` roubles per dollar, rounded half up to the kopeck: what an amount
 * charged in dollars was worth in roubles at the order's rate (the accountant's figure).
 */
export function centsToKopecks(amount: MinorUnits, usdRate: number): Kopecks {
  const rate = rateInTenThousandths(usdRate);
  return Math.floor((amount * rate * 2 + 10_000) / 20_000);
}

/**
 * The kopecks whose dollar price (`kopecksToCents`) lies within `min`..`max` cents: the lowest
 * amount shown as `min` cents or more and the highest shown as `max` or less, so a price filter in
 * dollars keeps exactly the products whose shown dollar price is in the range. Null bounds stay null.
 */
export function centRangeInKopecks(
  min: MinorUnits | null,
  max: MinorUnits | null,
  usdRate: number,
): { min: Kopecks | null; max: Kopecks | null } {
  const rate = rateInTenThousandths(usdRate);
  // cents(k) = floor((20000k + rate) / 2rate): cents(k) ≥ m ⇔ 20000k ≥ rate(2m − 1), and
  // cents(k) ≤ m ⇔ 20000k < rate(2m + 1).
  const ceilDivide = (dividend: number, divisor: number) => Math.ceil(dividend / divisor);
  return {
    min: min === null ? null : Math.max(0, ceilDivide(rate * (2 * min - 1), 20_000)),
    max: max === null ? null : ceilDivide(rate * (2 * max + 1), 20_000) - 1,
  };
}

/**
 * A price range a shopper typed in the currency shown (minor units), as kopecks: roubles are
 * kopecks already, dollars are turned into the kopecks whose shown dollar price is within it.
 * Null when dollars are asked for and no rate is known.
 */
export function shownRangeInKopecks(
  range: { min: MinorUnits | null; max: MinorUnits | null },
  currency: Currency,
  usdRate: number,
): { min: Kopecks | null; max: Kopecks | null } | null {
  if (currency === 'RUB') return { min: range.min, max: range.max };
  if (!(usdRate > 0)) return null;
  return centRangeInKopecks(range.min, range.max, usdRate);
}

/** Dollar price = roubles / rate, rounded to 2 decimals (spec section 9). */
export const roublesToDollars = (roubles: number, usdRate: number): number =>
  kopecksToCents(roublesToKopecks(roubles), usdRate) / 100;

/**
 * What one unit costs: its sale price when it is on sale, else its price (kopecks, or roubles on
 * the wire). The SQL twin for queries is `unitPriceSql` (src/server/catalog/variants.ts).
 */
export const unitPrice = (item: { price: number; sale?: number | null }): number => item.sale ?? item.price;

/** Discount percent = round(sale / price × 100) − 100 (spec section 9), e.g. −25. */
export const discountPercent = (price: number, sale: number): number =>
  Math.round((sale / price) * 100) - 100;

export type Currency = 'RUB' | 'USD';

/** ru shows roubles; every other locale shows dollars, which need a known rate. */
export const currencyFor = (locale: Locale): Currency => (locale === 'ru' ? 'RUB' : 'USD');

/** A line of a basket or an order: its unit price and count, and the discount the whole line carries. */
export interface PricedLine {
  unit: Kopecks;
  count: number;
  /** Kopecks off the whole line (its share of a promo code), 0 when none. */
  discount?: Kopecks;
}

/** A basket's or an order's amounts in the currency shown or charged, in its minor units. */
export interface Amounts {
  currency: Currency;
  /** Each line's unit price in the currency, in the order given. */
  units: MinorUnits[];
  /** One per line (unit price × count, less its discount), in the order given; they add up to `products`. */
  lines: MinorUnits[];
  products: MinorUnits;
  delivery: MinorUnits;
  /** products + delivery: what is shown as the total and what the provider is asked to charge. */
  total: MinorUnits;
}

/** A unit price in `currency` (converted once and rounded half up to the cent for dollars). */
export const unitAmount = (unit: Kopecks, currency: Currency, usdRate: number): MinorUnits =>
  currency === 'RUB' ? unit : kopecksToCents(unit, usdRate);

/**
 * The one way amounts are computed (ADR 0050, superseding ADR 0024's shared total). Roubles are the
 * amounts themselves. Dollars: each unit price is converted once and rounded to the cent, a line is
 * that unit × its count less its converted discount, the products are the sum of the lines, the
 * delivery is converted once, and the total is products + delivery; so what a line shows is
 * what its unit × count says, and the lines, total and the provider's charge agree to the cent.
 * Null when dollars are needed and no rate is known.
 */
export function amountsIn(
  currency: Currency,
  usdRate: number,
  lines: readonly PricedLine[],
  delivery: Kopecks = 0,
): Amounts | null {
  if (currency === 'USD' && !(usdRate > 0)) return null;
  const units = lines.map((line) => unitAmount(line.unit, currency, usdRate));
  const amounts = lines.map(
    (line, index) => (units[index] ?? 0) * line.count - unitAmount(line.discount ?? 0, currency, usdRate),
  );
  const products = amounts.reduce((sum, amount) => sum + amount, 0);
  const deliveryAmount = unitAmount(delivery, currency, usdRate);
  return {
    currency,
    units,
    lines: amounts,
    products,
    delivery: deliveryAmount,
    total: products + deliveryAmount,
  };
}

/**
 * Shares `total` kopecks over `weights` (each line's amount) by largest remainder: each share is
 * its exact part rounded down, and the kopecks left go one each to the largest remainders (the
 * earlier line on a tie). The shares add up to `total` exactly; a zero weight gets nothing.
 */
export function shareByLargestRemainder(total: Kopecks, weights: readonly Kopecks[]): Kopecks[] {
  const sum = weights.reduce((acc, weight) => acc + weight, 0);
  if (sum <= 0 || total <= 0) return weights.map(() => 0);
  const exact = weights.map((weight) => (weight * total) / sum);
  const shares = exact.map(Math.floor);
  let left = total - shares.reduce((acc, share) => acc + share, 0);
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .filter((entry) => (weights[entry.index] ?? 0) > 0)
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (left <= 0) break;
    shares[index] = (shares[index] ?? 0) + 1;
    left -= 1;
  }
  return shares;
}

/**
 * What returning `units` of a line gives back, in minor units of `currency`, when `returned` of
 * its units have already been given back: the units' price less their part of the line's discount.
 * Parts are cumulative (the first k units carry round(discount × k / count) of it), so returning
 * a line in any number of steps gives back exactly what the line was charged (`amountsIn`).
 */
export function returnedAmount(
  currency: Currency,
  usdRate: number,
  line: Required<PricedLine>,
  returned: number,
  units: number,
): MinorUnits {
  const charged = (count: number) =>
    unitAmount(line.unit, currency, usdRate) * count -
    unitAmount(Math.round((line.discount * count) / line.count), currency, usdRate);
  return charged(returned + units) - charged(returned);
}

/** An order line as a refund counts it: its variant, price, count and discount, and units already given back. */
export interface RefundLine extends Required<PricedLine> {
  variantId: number;
  /** Units earlier refunds already gave back (put back in stock). */
  returned: number;
}

/**
 * What refunding some units of an order gives back, in minor units of its currency: each unit's
 * price less its part of the line's promo discount, counted after the units earlier refunds gave
 * back (`returnedAmount`), and the delivery when it is refunded too. The one rule behind the
 * server's `refundForUnits` and the amount the back office's refund form fills in as units are ticked.
 */
export function unitsRefundAmount(
  currency: Currency,
  usdRate: number,
  lines: readonly RefundLine[],
  units: readonly { variantId: number; count: number }[],
  delivery: MinorUnits = 0,
): MinorUnits {
  return units.reduce((sum, wanted) => {
    const line = lines.find((candidate) => candidate.variantId === wanted.variantId);
    if (!line || !(wanted.count > 0)) return sum;
    const count = Math.max(0, Math.min(Math.floor(wanted.count), line.count - line.returned));
    return sum + returnedAmount(currency, usdRate, line, line.returned, count);
  }, delivery);
}

/**
 * Whether a refund of `amount` ends the order: it asks for all that is left of the payment, and
 * once it (and any refund still pending) is finished the order is cancelled, so staff say why.
 */
export const refundEndsOrder = (amount: MinorUnits, left: MinorUnits): boolean => amount >= left;

/** An amount in minor units of `currency` as kopecks at `usdRate` (dollars shown beside roubles). */
export const minorToKopecks = (amount: MinorUnits, currency: Currency, usdRate: number): Kopecks =>
  currency === 'RUB' ? amount : Math.round(amount * usdRate);

/**
 * How an amount is written (ADR 0082), the one formatter of the shop, its mails and the back office.
 * - In the reader's language, whatever the currency: a Russian page writes "1 990 ₽" and
 *   "12,34 $", an English one "₽1,990" and "$12.34" (the shop's English is British, as its texts).
 * - The narrow symbol (₽, $), placed where the language places it.
 * - Dollars always with cents; roubles with kopecks only when the amount has them ("1 990 ₽",
 *   "1 990,50 ₽"), or always when `kopecks` is asked for (the back office's columns and refunds,
 *   compared with payments and receipts to the kopeck).
 * - `compact` writes a chart's axis: "₽1.2k", "1,2 тыс. ₽".
 */
export interface MoneyStyle {
  /** Two decimals even on whole roubles ("1 990,00 ₽"). */
  kopecks?: boolean;
  /** Thousands and millions shortened, to one decimal ("₽12.5k"). */
  compact?: boolean;
}

const MONEY_LANGUAGE_TAGS: Record<Locale, string> = { ru: 'ru-RU', en: 'en-GB' };

type Digits = 'whole' | 'minor' | 'compact';

/**
 * Each format built once, on first use: constructing an `Intl.NumberFormat` costs far more than
 * using one, and a product list or an order mail formats dozens of amounts. At most 2 languages ×
 * 2 currencies × 3 shapes.
 */
const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(locale: Locale, currency: Currency, digits: Digits): Intl.NumberFormat {
  const key = `${locale}:${currency}:${digits}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(MONEY_LANGUAGE_TAGS[locale], {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
      ...(digits === 'compact'
        ? { notation: 'compact', maximumFractionDigits: 1 }
        : digits === 'whole'
          ? { minimumFractionDigits: 0, maximumFractionDigits: 0 }
          : { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
    });
    moneyFormats.set(key, format);
  }
  return format;
}

/** An amount in minor units (kopecks or cents) of `currency`, written for a reader of `locale`. */
export function formatMoney(
  amount: MinorUnits,
  currency: Currency,
  locale: Locale,
  style: MoneyStyle = {},
): string {
  const digits: Digits = style.compact
    ? 'compact'
    : currency === 'RUB' && !style.kopecks && amount % 100 === 0
      ? 'whole'
      : 'minor';
  return moneyFormat(locale, currency, digits).format(minorToMajor(amount));
}

const rateFormats = new Map<Locale, Intl.NumberFormat>();

/** A dollar rate (roubles per dollar) to the 4 decimals it is kept to: "92,5000", "92.5000". */
export function formatRate(usdRate: number, locale: Locale): string {
  let format = rateFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(MONEY_LANGUAGE_TAGS[locale], {
      minimumFractionDigits: 4,
      maximumFractionDigits: 4,
    });
    rateFormats.set(locale, format);
  }
  return format.format(usdRate);
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
  return price && formatMoney(price.amount, price.currency, locale);
}
