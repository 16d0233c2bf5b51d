import { Link } from 'react-router';
import { packingSlipResponse } from '../../../contract/admin-answers.ts';
import { loadAdminAnswer } from '../../admin/api.ts';
import { CustomsItems } from '../../admin/customs-items.tsx';
import { useAdminShop } from '../../admin/text.ts';
import {
  AdminErrorBoundary,
  AdminLoading,
  AdminPage,
  deliveryMethodKey,
  useAdminFormat,
} from '../../admin/ui.tsx';
import type { Route } from './+types/packing-slip';

export async function clientLoader({ request, params }: Route.ClientLoaderArgs) {
  return loadAdminAnswer(
    packingSlipResponse,
    `/orders/${encodeURIComponent(params.id)}/packing-slip`,
    request,
  );
}

export function HydrateFallback() {
  return <AdminLoading />;
}

/**
 * The order's packing slip, printed to go in the parcel: the shop, the order's number and date,
 * where it goes, and what to pack (SKU, options, count), in the admin's language; a parcel abroad
 * also carries its CN23 items. On paper only the
 * slip shows (admin.css, `@media print`).
 */
export default function PackingSlipPage({ loaderData }: Route.ComponentProps) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const { shop, slip } = loaderData;
  const method = deliveryMethodKey(slip.shipTo.deliveryMethod);
  return (
    <AdminPage
      title={t('admin-packing-slip-title', { id: slip.id })}
      actions={
        <>
          <Link to={`/admin/orders/${slip.id}`} className="button">
            {t('admin-order-title', { id: slip.id })}
          </Link>
          <button type="button" className="button button--primary" onClick={() => window.print()}>
            {t('admin-print')}
          </button>
        </>
      }
    >
      <article className="admin-card packing-slip" aria-labelledby="packing-slip-heading">
        <header className="packing-slip__head">
          <p className="packing-slip__shop">
            <strong>{t('site-title')}</strong> · {shop.email}
          </p>
          <h2 id="packing-slip-heading">
            {t('admin-packing-slip')}
            <br />
            {t('admin-order-of', { id: slip.id, date: format.dateTime(slip.date) })}
          </h2>
        </header>
        <section aria-labelledby="ship-to-heading">
          <h3 id="ship-to-heading">{t('admin-ship-to')}</h3>
          <address className="packing-slip__address">
            <strong>{slip.shipTo.name}</strong>
            <br />
            {slip.shipTo.address}
            <br />
            {slip.shipTo.zip} {slip.shipTo.city}
            <br />
            {format.country(slip.shipTo.country)}
            <br />
            {slip.shipTo.phone}
          </address>
          <dl className="admin-details">
            <dt>{t('delivery-method')}</dt>
            <dd>{method ? t(method) : slip.shipTo.deliveryMethod}</dd>
            {slip.comment ? (
              <>
                <dt>{t('admin-customer-comment')}</dt>
                <dd className="admin-prewrap">{slip.comment}</dd>
              </>
            ) : null}
          </dl>
        </section>
        {/* A name or SKU with no place to break scrolls in this box on a phone, not the page. */}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus (WCAG 2.1.1) */}
        <div className="admin-table-scroll" tabIndex={0}>
          <table className="admin-table packing-slip__items">
            <caption className="visually-hidden">{t('admin-items')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('admin-product')}</th>
                <th scope="col">{t('admin-sku')}</th>
                <th scope="col">{t('admin-count')}</th>
              </tr>
            </thead>
            <tbody>
              {slip.items.map((item) => (
                <tr key={item.sku}>
                  <td>
                    {item.name}
                    {item.options ? <div className="admin-muted">{item.options}</div> : null}
                  </td>
                  <td>{item.sku}</td>
                  <td>{item.count}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={2}>
                  {t('admin-units-total')}
                </th>
                <td>{slip.units}</td>
              </tr>
            </tfoot>
          </table>
        </div>
        {slip.customs ? <CustomsItems items={slip.customs} currency={slip.currency} /> : null}
        <p className="packing-slip__signature">{t('admin-packed')}: ____________________</p>
      </article>
    </AdminPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
