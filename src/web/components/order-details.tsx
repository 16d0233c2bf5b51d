import { Link } from 'react-router';
import { isDeliveryMethod, trackingUrl } from '../../contract/delivery.ts';
import { imageUrl } from '../../contract/images.ts';
import type { OrderDetail } from '../../contract/orders.ts';
import { useOrderAmounts } from '../lib/amounts.ts';
import { deliveryAddressLine, deliveryName } from '../lib/checkout.ts';
import { useShop } from '../lib/shop.ts';
import { AmountRows } from './order-amounts.tsx';
import { OrderDate } from './order-date.tsx';

/** One of the shopper's orders in full: its items, delivery, address, track code and amounts. */
export function OrderDetailsView({ order }: { order: OrderDetail & { delivery_country_name: string } }) {
  const { t } = useShop();
  // What the order was shown and charged in: its own currency at its own rate.
  const amounts = useOrderAmounts(order);
  const method = deliveryName(order.delivery_method);
  return (
    <div className="order-card__details">
      <ul className="order-items">
        {order.products.map((item, index) => (
          <li key={item.sku} className="order-item">
            {item.image ? (
              <img src={imageUrl('products', item.image, 160)} alt="" width={56} height={56} loading="lazy" />
            ) : (
              <span className="order-item__placeholder" />
            )}
            <Link to={`/product/${item.link}`}>{item.name}</Link>
            <span className="order-item__count">
              {item.options ? `${item.options} · ` : null}× {item.count}
            </span>
            <span className="order-item__price">{amounts.line(index)}</span>
          </li>
        ))}
      </ul>
      <dl className="summary-list order-card__facts">
        <div className="summary-list__wide">
          <dt>{t('delivery-method')}</dt>
          <dd>{method ? t(method) : order.delivery_method}</dd>
        </div>
        <div className="summary-list__wide">
          <dt>{t('delivery-address')}</dt>
          <dd>{deliveryAddressLine(order)}</dd>
        </div>
        <div className="summary-list__wide">
          <dt>{t('track-code')}</dt>
          <dd>
            {order.track_code && isDeliveryMethod(order.delivery_method) ? (
              <a href={trackingUrl(order.delivery_method, order.track_code)} target="_blank" rel="noreferrer">
                {order.track_code}
              </a>
            ) : (
              (order.track_code ?? t('track-code-none'))
            )}
          </dd>
        </div>
        <AmountRows
          count={order.products.reduce((sum, item) => sum + item.count, 0)}
          amounts={amounts}
          promoCode={order.promo_code}
        />
      </dl>
      {order.parcels.map((parcel) => (
        <section
          key={parcel.track_code}
          className="order-parcel"
          aria-label={t('parcel-of', { code: parcel.track_code ?? '' })}
        >
          <h3>{t('parcel-of', { code: parcel.track_code ?? '' })}</h3>
          <ol className="order-parcel__events">
            {parcel.events.map((event) => (
              <li key={`${event.occurred_at}-${event.description}`}>
                <OrderDate iso={event.occurred_at} /> {event.description}
                {event.location ? ` · ${event.location}` : null}
              </li>
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}
