import { discountPercent, formatPrice, unitPrice } from '../../contract/money.ts';
import { useShop } from '../lib/shop.ts';

/** Price and sale price in the shopper's currency, or 'price unavailable'. */
export function Price({ price, sale, large }: { price: number; sale: number | null; large?: boolean }) {
  const { locale, t, usdRate } = useShop();
  const current = formatPrice(unitPrice({ price, sale }), locale, usdRate);
  if (current === null) return <span className="price price--unavailable">{t('price-unavailable')}</span>;
  return (
    <span className={`price ${large ? 'price--large' : ''}`}>
      <span className={sale !== null ? 'price__sale' : 'price__current'}>{current}</span>
      {sale !== null ? (
        <del className="price__old">
          <span className="visually-hidden">{t('old-price')}: </span>
          {formatPrice(price, locale, usdRate)}
        </del>
      ) : null}
    </span>
  );
}

/** "from 1 990 ₽": the lowest price of a product whose variants' prices differ. */
export function PriceFrom({ price, large }: { price: number; large?: boolean }) {
  const { locale, t, usdRate } = useShop();
  const lowest = formatPrice(price, locale, usdRate);
  if (lowest === null) return <span className="price price--unavailable">{t('price-unavailable')}</span>;
  return (
    <span className={`price ${large ? 'price--large' : ''}`}>
      <span className="price__current">{t('price-from', { price: lowest })}</span>
    </span>
  );
}

export function DiscountBadge({ price, sale }: { price: number; sale: number | null }) {
  const { t } = useShop();
  if (sale === null || price <= 0) return null;
  return (
    <span className="discount-badge">
      <span className="visually-hidden">{t('discount')} </span>
      {discountPercent(price, sale)}%
    </span>
  );
}
