import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { DeliveryDays } from '../../contract/delivery.ts';
import type { useAmounts } from '../lib/amounts.ts';
import { daysText } from '../lib/checkout.ts';
import { useShop } from '../lib/shop.ts';

type Amounts = ReturnType<typeof useAmounts>;

/**
 * The lines of a checkout or order summary: name with the variant's options ("Size: L"), count and
 * the line's share of the products. `key` tells lines apart: two sizes of one product are two lines.
 */
export function SummaryItems({
  items,
  amounts,
}: {
  items: readonly {
    key: number | string;
    link: string;
    name: string;
    options: string | null;
    count: number;
  }[];
  amounts: Amounts;
}) {
  return (
    <ul className="summary-items">
      {items.map((item, index) => (
        <li key={item.key}>
          <span className="summary-items__name">
            <Link to={`/product/${item.link}`}>{item.name}</Link>
            {item.options ? <span className="summary-items__options">{item.options}</span> : null}
          </span>
          <span className="summary-items__count">× {item.count}</span>
          <span className="summary-items__price">{amounts.line(index)}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The rows every summary of a basket or an order ends with, inside the caller's `<dl>`: the
 * products (with how many), the delivery (its `<dd>` given by a caller that shows more, such as a
 * quote in progress), how long it takes when known, and the total (ADR 0024); a promo code's
 * discount first, when the lines carry one (ADR 0058).
 */
export function AmountRows({
  count,
  amounts,
  delivery = <dd>{amounts.delivery}</dd>,
  days,
  promoCode,
}: {
  count: number;
  amounts: Amounts;
  /** The promo code whose discount the amounts carry, named on its row. */
  promoCode?: string | null;
  delivery?: ReactNode;
  days?: DeliveryDays | number | null | undefined;
}) {
  const { locale, t } = useShop();
  return (
    <>
      {amounts.discount ? (
        <div>
          <dt>
            {t('promo-discount')}
            {promoCode ? ` ${promoCode}` : null}
          </dt>
          <dd>{amounts.discount}</dd>
        </div>
      ) : null}
      <div>
        <dt>{t('products-cost', { count })}</dt>
        <dd>{amounts.products}</dd>
      </div>
      <div>
        <dt>{t('delivery-cost')}</dt>
        {delivery}
      </div>
      {days ? (
        <div>
          <dt>{t('delivery-time')}</dt>
          <dd>{daysText(t, locale, days)}</dd>
        </div>
      ) : null}
      <div className="summary-list__total">
        <dt>{t('order-total')}</dt>
        <dd>{amounts.total}</dd>
      </div>
    </>
  );
}
