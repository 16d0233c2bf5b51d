import {
  type Currency,
  formatMoney,
  formatRate,
  type MinorUnits,
  minorToKopecks,
} from '../../contract/money.ts';
import { useAdminShop } from './text.ts';

/**
 * An order's money as the back office writes it: amounts in the currency the order was charged in,
 * and for a dollar order the roubles beside them at the rate fixed in the order, so staff see both
 * what the customer paid and what it is in the shop's own money. Written by `formatMoney` with
 * kopecks always shown (ADR 0082).
 */
export function useOrderMoney(currency: Currency, usdRate: number | null) {
  const { locale, t } = useAdminShop();
  const dollars = currency === 'USD' && usdRate !== null && usdRate > 0 ? usdRate : null;
  /** An amount in minor units of the order's currency, as charged. */
  const charged = (minor: MinorUnits) => formatMoney(minor, currency, locale, { kopecks: true });
  /** Roubles of an amount in minor units of the order's currency (null for a rouble order). */
  const roubles = (minor: MinorUnits) =>
    dollars === null
      ? null
      : formatMoney(minorToKopecks(minor, 'USD', dollars), 'RUB', locale, { kopecks: true });
  const rate = dollars === null ? null : formatRate(dollars, locale);
  return {
    charged,
    roubles,
    /** "$12.34 (₽1,141.45)" for a dollar order, "₽1,141.45" for a rouble one. */
    both: (minor: MinorUnits) => {
      const inRoubles = roubles(minor);
      return inRoubles === null ? charged(minor) : `${charged(minor)} (${inRoubles})`;
    },
    rate,
    /** "Rate of this order: 92.5000 ₽ per $1", or null for a rouble order. */
    rateText: rate === null ? null : t('admin-order-rate', { rate }),
  };
}
