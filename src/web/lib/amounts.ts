import {
  amountsIn,
  type Currency,
  currencyFor,
  formatAmount,
  type Kopecks,
  type MinorUnits,
  roublesToKopecks,
} from '../../contract/money.ts';
import { useShop } from './shop.ts';

/** A line of a basket or an order: its unit price (roubles, as the API gives it) times the count. */
export const lineKopecks = (price: number, count: number): Kopecks => roublesToKopecks(price) * count;

/**
 * A basket's or an order's amounts for display, computed together so that the lines add up to the
 * products, and products and delivery to the total (ADR 0024): in the shopper's currency at today's
 * rate, or, for a placed order, in the order's currency at its own rate. What cannot be shown (no
 * rate, nothing to pay) reads `price-unavailable`.
 */
export function useAmounts(
  lines: readonly Kopecks[],
  delivery: Kopecks,
  order?: { currency: Currency; usd_rate: number | null },
) {
  const { locale, t, usdRate } = useShop();
  const amounts = order
    ? amountsIn(order.currency, order.usd_rate ?? 0, lines, delivery)
    : amountsIn(currencyFor(locale), usdRate, lines, delivery);
  const show = (amount: MinorUnits | undefined) =>
    amounts && amount ? formatAmount(amount, amounts.currency) : t('price-unavailable');
  return {
    line: (index: number) => show(amounts?.lines[index]),
    products: show(amounts?.products),
    delivery: show(amounts?.delivery),
    total: show(amounts?.total),
  };
}

/** A placed order's lines, delivery and total, in the order's own currency at its own rate. */
export const useOrderAmounts = (order: {
  products: readonly { price: number; sale: number | null; count: number }[];
  delivery_cost: number;
  currency: Currency;
  usd_rate: number | null;
}) =>
  useAmounts(
    order.products.map((item) => lineKopecks(item.sale ?? item.price, item.count)),
    roublesToKopecks(order.delivery_cost),
    order,
  );
