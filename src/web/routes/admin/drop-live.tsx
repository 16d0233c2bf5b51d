import { useEffect } from 'react';
import { Link, useRevalidator } from 'react-router';
import { dropLiveResponse } from '../../../contract/admin-answers.ts';
import { loadAdminAnswer } from '../../admin/api.ts';
import { BarChart } from '../../admin/bar-chart.tsx';
import { useAdminShop } from '../../admin/text.ts';
import { AdminErrorBoundary, AdminLoading, AdminPage, useAdminFormat } from '../../admin/ui.tsx';
import type { Route } from './+types/drop-live';

export async function clientLoader({ request, params }: Route.ClientLoaderArgs) {
  return loadAdminAnswer(dropLiveResponse, `/drops/${encodeURIComponent(params.id)}/live`, request);
}

export function HydrateFallback() {
  return <AdminLoading />;
}

/** How often the live view loads its figures again while the tab is shown. */
const REFRESH_SECONDS = 5;

/**
 * Loads the page's data again every few seconds through React Router (its loader, its pending
 * state), skipping a beat while a load is still running or the tab is hidden.
 */
function useRefreshEvery(seconds: number) {
  const revalidator = useRevalidator();
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (revalidator.state === 'idle' && document.visibilityState === 'visible')
        void revalidator.revalidate();
    }, seconds * 1000);
    return () => window.clearInterval(timer);
  }, [revalidator, seconds]);
}

/** A drop as it sells: units left, sold and held; orders per minute; unpaid holds and when they end. */
export default function DropLivePage({ loaderData }: Route.ComponentProps) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  useRefreshEvery(REFRESH_SECONDS);
  const { drop, totals, products, ordersPerMinute, holds } = loaderData;
  const minuteLabel = (minutesAgo: number) =>
    minutesAgo === 0 ? t('admin-drop-minute-now') : t('admin-drop-minutes-ago', { count: minutesAgo });
  const expiresIn = (iso: string) =>
    Math.max(0, Math.ceil((new Date(iso).getTime() - new Date(loaderData.now).getTime()) / 60_000));

  return (
    <AdminPage
      title={t('admin-drop-live-title', { name: drop.name })}
      actions={
        <>
          <Link to={`/admin/drops/${drop.id}`} className="button">
            {t('admin-edit-drop-button')}
          </Link>
          <Link to="/admin/drops" className="button">
            {t('admin-back-to-drops')}
          </Link>
        </>
      }
    >
      <section className="admin-card" aria-labelledby="live-summary">
        <div className="admin-card__head">
          <h2 id="live-summary">
            {t(drop.state === 'upcoming' ? 'admin-drop-state-upcoming' : 'admin-drop-state-released', {
              time: format.zonedDateTime(drop.release_at),
            })}
          </h2>
          <p className="admin-muted">
            {t('admin-drop-updated', { time: format.clock(loaderData.now), seconds: REFRESH_SECONDS })}
          </p>
        </div>
        <dl className="admin-stats">
          <div>
            <dt>{t('admin-drop-units-left')}</dt>
            <dd>{totals.left}</dd>
          </div>
          <div>
            <dt>{t('admin-drop-units-sold')}</dt>
            <dd>{totals.sold}</dd>
          </div>
          <div>
            <dt>{t('admin-drop-units-held')}</dt>
            <dd>{totals.held}</dd>
          </div>
          <div>
            <dt>{t('admin-drop-unpaid-orders')}</dt>
            <dd>{holds.orders}</dd>
          </div>
        </dl>
      </section>

      <section className="admin-card" aria-labelledby="live-products">
        <h2 id="live-products">{t('admin-drop-products')}</h2>
        {products.length === 0 ? (
          <p>{t('admin-drop-no-products')}</p>
        ) : (
          <div className="admin-table-scroll">
            <table className="admin-table admin-live-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin-product')}</th>
                  <th scope="col">{t('admin-drop-left')}</th>
                  <th scope="col">{t('admin-drop-sold')}</th>
                  <th scope="col">{t('admin-drop-held')}</th>
                  <th scope="col">{t('admin-per-customer-limit')}</th>
                </tr>
              </thead>
              {products.map((product) => (
                <tbody key={product.id}>
                  <tr className="admin-live-table__product">
                    <th scope="row">
                      <Link to={`/admin/products/${product.id}`}>{product.name}</Link>
                    </th>
                    <td className={product.left === 0 ? 'admin-danger' : undefined}>{product.left}</td>
                    <td>{product.sold}</td>
                    <td>{product.held}</td>
                    <td>{product.perCustomerLimit ?? '—'}</td>
                  </tr>
                  {product.variants.length > 1 || product.variants[0]?.options
                    ? product.variants.map((variant) => (
                        <tr key={variant.id} className="admin-live-table__variant">
                          <th scope="row">
                            <span className="admin-variant-label">{variant.options ?? variant.sku}</span>
                            <span className="visually-hidden">, {product.name}</span>
                          </th>
                          <td className={variant.left === 0 ? 'admin-danger' : undefined}>{variant.left}</td>
                          <td>{variant.sold}</td>
                          <td>{variant.held}</td>
                          <td>{variant.perCustomerLimit ?? '—'}</td>
                        </tr>
                      ))
                    : null}
                </tbody>
              ))}
            </table>
          </div>
        )}
      </section>

      <section className="admin-card" aria-labelledby="live-orders">
        <h2 id="live-orders">{t('admin-drop-orders-per-minute')}</h2>
        <div className="admin-live-chart">
          <BarChart
            title={t('admin-drop-orders-per-minute-hint')}
            bars={ordersPerMinute.map((minute) => ({
              label: minuteLabel(minute.minutesAgo),
              value: minute.orders,
            }))}
            format={String}
          />
        </div>
        <table className="visually-hidden">
          <caption>{t('admin-drop-orders-per-minute')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('admin-drop-minute')}</th>
              <th scope="col">{t('admin-orders')}</th>
            </tr>
          </thead>
          <tbody>
            {ordersPerMinute.map((minute) => (
              <tr key={minute.minutesAgo}>
                <th scope="row">{minuteLabel(minute.minutesAgo)}</th>
                <td>{minute.orders}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section className="admin-card" aria-labelledby="live-holds">
        <h2 id="live-holds">{t('admin-drop-holds', { orders: holds.orders, units: holds.units })}</h2>
        {holds.list.length === 0 ? (
          <p>{t('admin-drop-holds-empty')}</p>
        ) : (
          <div className="admin-table-scroll">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin-order-number')}</th>
                  <th scope="col">{t('admin-drop-units')}</th>
                  <th scope="col">{t('admin-drop-placed')}</th>
                  <th scope="col">{t('admin-drop-expires')}</th>
                </tr>
              </thead>
              <tbody>
                {holds.list.map((hold) => (
                  <tr key={hold.id}>
                    <td>
                      <Link to={`/admin/orders/${hold.id}`}>#{hold.id}</Link>
                    </td>
                    <td>{hold.units}</td>
                    <td>
                      <time dateTime={hold.placedAt}>{format.clock(hold.placedAt)}</time>
                    </td>
                    <td>
                      <time dateTime={hold.expiresAt}>{format.clock(hold.expiresAt)}</time>{' '}
                      <span className="admin-muted">
                        ({t('admin-drop-expires-in', { count: expiresIn(hold.expiresAt) })})
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </AdminPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
