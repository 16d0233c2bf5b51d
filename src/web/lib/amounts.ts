import {
  amountsIn,
  type Currency,
  currencyFor,
  formatMoney,
  type Kopecks,
  type MinorUnits,
  majorToMinor,
  minorToMajor,
  type PricedLine,
  roublesToKopecks,
  unitAmount,
  unitPrice,
} from '../../contract/money.ts';
import { useShop } from './shop.ts';

/**
 * A line of a basket or an order: its unit price (roubles, as the API gives it), count and the
 * roubles of a promo discount the whole line carries (ADR 0058).
 */
export const pricedLine = (price: number, count: number, discount = 0): PricedLine => ({
  unit: roublesToKopecks(price),
  count,
  discount: roublesToKopecks(discount),
});

/**
 * A basket's or an order's amounts for display, computed together so that each line is its unit ×
 * count and the lines add up to the products, and products and delivery to the total (ADR 0050): in the shopper's currency at today's
 * rate, or, for a placed order, in the order's currency at its own rate. What cannot be shown (no
 * rate, nothing to pay) reads `price-unavailable`.
 */
export function useAmounts(
  lines: readonly PricedLine[],
  delivery: Kopecks,
  order?: { currency: Currency; usd_rate: number | null },
) {
  const { locale, t, usdRate } = useShop();
  const amounts = order
    ? amountsIn(order.currency, order.usd_rate ?? 0, lines, delivery)
    : amountsIn(currencyFor(locale), usdRate, lines, delivery);
  const show = (amount: MinorUnits | undefined) =>
    amounts && amount ? formatMoney(amount, amounts.currency, locale) : t('price-unavailable');
  const undiscounted =
    amounts &&
    amountsIn(
      amounts.currency,
      order?.usd_rate ?? usdRate,
      lines.map((line) => ({ ...line, discount: 0 })),
    );
  const discount = amounts && undiscounted ? undiscounted.products - amounts.products : 0;
  // An order charged in roubles for a shopper reading dollars (Robokassa, ADR 0051): dollars as a guide.
  const dollars =
    order?.currency === 'RUB' && locale !== 'ru'
      ? amountsIn('USD', order.usd_rate ?? 0, lines, delivery)
      : null;
  return {
    /** The promo code's discount, formatted with its minus sign; null when there is none. */
    discount: amounts && discount > 0 ? `−${formatMoney(discount, amounts.currency, locale)}` : null,
    line: (index: number) => show(amounts?.lines[index]),
    products: show(amounts?.products),
    delivery: show(amounts?.delivery),
    total: show(amounts?.total),
    /** The total as shown (roubles or dollars), which the payment step sends with the order (ADR 0059). */
    shownTotal: amounts ? minorToMajor(amounts.total) : null,
    guide: dollars ? formatMoney(dollars.total, 'USD', locale) : null,
  };
}

/** A placed order's lines, delivery and total, in the order's own currency at its own rate. */
export const useOrderAmounts = (order: {
  products: readonly { price: number; sale: number | null; count: number; discount: number }[];
  delivery_cost: number;
  currency: Currency;
  usd_rate: number | null;
}) =>
  useAmounts(
    order.products.map((item) => pricedLine(unitPrice(item), item.count, item.discount)),
    roublesToKopecks(order.delivery_cost),
    order,
  );

/**
 * A placed order's products, delivery and total as it was charged, for a list that has no lines:
 * the goods as the order recorded them (`products_amount`, in its currency), the delivery converted
 * at the order's own rate.
 */
export function useChargedAmounts(order: {
  products_amount: number;
  delivery_cost: number;
  currency: Currency;
  usd_rate: number | null;
}) {
  const { locale } = useShop();
  const products: MinorUnits = majorToMinor(order.products_amount);
  const delivery = unitAmount(roublesToKopecks(order.delivery_cost), order.currency, order.usd_rate ?? 0);
  return {
    products: formatMoney(products, order.currency, locale),
    delivery: formatMoney(delivery, order.currency, locale),
    total: formatMoney(products + delivery, order.currency, locale),
  };
}
