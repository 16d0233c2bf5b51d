import { currencyFor } from '../../contract/money.ts';
import { useShop } from '../lib/shop.ts';

/**
 * Why dollar prices read "Price unavailable" (ADR 0053): the shop has no dollar rate recent enough
 * to use. Shown where a shopper paying in dollars would otherwise be stuck: the cart and the steps.
 */
export function DollarsWithheldNote() {
  const { locale, t, usdRate } = useShop();
  if (currencyFor(locale) !== 'USD' || usdRate > 0) return null;
  return (
    <p className="notice" role="status">
      {t('dollars-withheld')}
    </p>
  );
}
