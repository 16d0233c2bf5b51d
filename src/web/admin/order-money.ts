import { useMemo } from 'react';
import {
  type Currency,
  kopecksToRoubles,
  type MinorUnits,
  minorToKopecks,
  minorToMajor,
} from '../../contract/money.ts';
import { useAdminShop } from './text.ts';

/**
 * An order's money as the back office writes it: amounts in the currency the order was charged in,
 * and for a dollar order the roubles beside them at the rate fixed in the order, so staff see both
 * what the customer paid and what it is in the shop's own money.
 */
export function useOrderMoney(currency: Currency, usdRate: number | null) {
  const { locale, t } = useAdminShop();
  const money = useMemo(() => {
    const tag = locale === 'ru' ? 'ru-RU' : 'en-GB';
    const formats = {
      RUB: new Intl.NumberFormat(tag, {
        style: 'currency',
        currency: 'RUB',
        currencyDisplay: 'narrowSymbol',
      }),
      USD: new Intl.NumberFormat(tag, {
        style: 'currency',
        currency: 'USD',
        currencyDisplay: 'narrowSymbol',
      }),
    };
    const rateFormat = new Intl.NumberFormat(tag, { minimumFractionDigits: 4, maximumFractionDigits: 4 });
    const dollars = currency === 'USD' && usdRate !== null && usdRate > 0 ? usdRate : null;
    /** An amount in minor units of the order's currency, as charged. */
    const charged = (minor: MinorUnits) => formats[currency].format(minorToMajor(minor));
    /** Roubles of an amount in minor units of the order's currency (null for a rouble order). */
    const roubles = (minor: MinorUnits) =>
      dollars === null ? null : formats.RUB.format(kopecksToRoubles(minorToKopecks(minor, 'USD', dollars)));
    return {
      charged,
      roubles,
      /** "$12.34 (1 141,45 ₽)" for a dollar order, "1 141,45 ₽" for a rouble one. */
      both: (minor: MinorUnits) => {
        const inRoubles = roubles(minor);
        return inRoubles === null ? charged(minor) : `${charged(minor)} (${inRoubles})`;
      },
      rate: dollars === null ? null : rateFormat.format(dollars),
    };
  }, [locale, currency, usdRate]);
  /** "Rate of this order: 92.5000 ₽ per $1", or null for a rouble order. */
  const rateText = money.rate === null ? null : t('admin-order-rate', { rate: money.rate });
  return { ...money, rateText };
}
