import { Link } from 'react-router';
import { CUSTOMS_FIELD_LABELS, CustomsItems } from './customs-items.tsx';
import { useAdminShop } from './text.ts';
import type { AdminOrder } from './types.ts';

/**
 * The order page's customs declaration (ADR 0057): for a parcel abroad, the CN23 items and, while
 * some lack data, which items and what each lacks (the order cannot be marked ready to ship).
 */
export function OrderCustoms({ order }: { order: AdminOrder }) {
  const { t } = useAdminShop();
  if (!order.customs) return null;
  const incomplete = order.customs.filter((item) => item.missing.length > 0);
  return (
    <section className="admin-card" aria-labelledby="customs-heading">
      <h2 id="customs-heading">{t('admin-customs')}</h2>
      {incomplete.length > 0 ? (
        <div role="alert" className="admin-danger">
          <p>{t('admin-customs-incomplete')}</p>
          <ul>
            {incomplete.map((item) => (
              <li key={item.sku}>
                <Link to={`/admin/products/${item.product}`}>{item.name}</Link> ({item.sku}):{' '}
                {item.missing.map((field) => t(CUSTOMS_FIELD_LABELS[field])).join(', ')}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="admin-table-scroll">
        <CustomsItems items={order.customs} currency={order.currency} />
      </div>
    </section>
  );
}
