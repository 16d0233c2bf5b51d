import { useState } from 'react';
import { Link } from 'react-router';
import { dashboardResponse, exchangeRateResponse } from '../../../contract/admin-answers.ts';
import { loadAdminAnswer } from '../../admin/api.ts';
import { BarChart } from '../../admin/bar-chart.tsx';
import { ExchangeRateCard, setExchangeRate } from '../../admin/exchange-rate.tsx';
import { revalidateUnlessRefused } from '../../admin/forms.ts';
import { useAdminShop } from '../../admin/text.ts';
import type { DayTotals } from '../../admin/types.ts';
import { AdminErrorBoundary, AdminLoading, AdminPage, useAdminFormat } from '../../admin/ui.tsx';
import type { Route } from './+types/dashboard';

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const [dashboard, rate] = await Promise.all([
    loadAdminAnswer(dashboardResponse, '/dashboard', request),
    loadAdminAnswer(exchangeRateResponse, '/exchange-rate', request),
  ]);
  return { ...dashboard, rate };
}

/** The dashboard's one write: the dollar rate set by hand. */
export async function clientAction({ request }: Route.ClientActionArgs) {
  const formData = await request.formData();
  if (formData.get('intent') !== 'exchange-rate') throw new Response(null, { status: 400 });
  return { intent: 'exchange-rate' as const, ...(await setExchangeRate(formData)) };
}

export const shouldRevalidate = revalidateUnlessRefused;

export function HydrateFallback() {
  return <AdminLoading />;
}

const PERIODS = [30, 90] as const;
const DAY = 24 * 3600_000;

/** Every day of the period (the API leaves out days without orders), oldest first. */
function everyDay(totals: DayTotals[], days: number, now = Date.now()) {
  const known = new Map(totals.map((entry) => [entry.day, entry]));
  const first = new Date(now - days * DAY);
  const list: DayTotals[] = [];
  for (
    let time = Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), first.getUTCDate());
    time <= now;
    time += DAY
  ) {
    const day = new Date(time).toISOString().slice(0, 10);
    list.push(known.get(day) ?? { day, orders: 0, revenue: 0 });
  }
  return list;
}

export default function DashboardPage({ loaderData }: Route.ComponentProps) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const [period, setPeriod] = useState<(typeof PERIODS)[number]>(30);
  const days = everyDay(period === 30 ? loaderData.last30 : loaderData.last90, period);
  const orders = days.reduce((sum, day) => sum + day.orders, 0);
  const revenue = days.reduce((sum, day) => sum + day.revenue, 0);
  const count = (value: number) => String(Math.round(value));

  return (
    <AdminPage title={t('admin-dashboard')}>
      <section className="admin-card" aria-labelledby="today-heading">
        <h2 id="today-heading" className="visually-hidden">
          {t('admin-dashboard')}
        </h2>
        <dl className="admin-stats">
          <div>
            <dt>{t('admin-to-ship')}</dt>
            <dd>
              <Link to="/admin/orders">{loaderData.toShip}</Link>
            </dd>
          </div>
          <div>
            <dt>{t('admin-unread-feedback')}</dt>
            <dd>
              <Link to="/admin/feedback?unread=1">{loaderData.unreadFeedback}</Link>
            </dd>
          </div>
        </dl>
      </section>

      <ExchangeRateCard status={loaderData.rate} />

      <section className="admin-card" aria-labelledby="sales-heading">
        <div className="admin-card__head">
          <h2 id="sales-heading">{t('admin-sales')}</h2>
          <fieldset className="admin-segmented">
            <legend className="visually-hidden">{t('admin-period')}</legend>
            {PERIODS.map((value) => (
              <button
                key={value}
                type="button"
                aria-pressed={period === value}
                onClick={() => setPeriod(value)}
              >
                {t('admin-last-days', { days: value })}
              </button>
            ))}
          </fieldset>
        </div>
        <dl className="admin-stats">
          <div>
            <dt>{t('admin-orders-total')}</dt>
            <dd>{orders}</dd>
          </div>
          <div>
            <dt>{t('admin-revenue-total')}</dt>
            <dd>{format.money(revenue)}</dd>
          </div>
        </dl>
        <div className="admin-charts">
          <BarChart
            title={t('admin-orders-per-day')}
            bars={days.map((day) => ({ label: format.day(day.day), value: day.orders }))}
            format={count}
          />
          <BarChart
            title={t('admin-revenue-per-day')}
            bars={days.map((day) => ({ label: format.day(day.day), value: day.revenue }))}
            format={(value) => format.money(value)}
            axisFormat={format.compactMoney}
          />
        </div>
        <table className="visually-hidden">
          <caption>{t('admin-sales-table', { days: period })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('admin-date')}</th>
              <th scope="col">{t('admin-orders')}</th>
              <th scope="col">{t('admin-revenue')}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.day}>
                <th scope="row">{format.day(day.day)}</th>
                <td>{day.orders}</td>
                <td>{format.money(day.revenue)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="admin-hint">{t('admin-revenue-hint')}</p>
      </section>

      <section className="admin-card" aria-labelledby="top-products-heading">
        <h2 id="top-products-heading">{t('admin-top-products')}</h2>
        {loaderData.topProducts.length === 0 ? (
          <p>{t('admin-top-products-empty')}</p>
        ) : (
          <div className="admin-table-scroll">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin-product')}</th>
                  <th scope="col">{t('admin-units')}</th>
                  <th scope="col">{t('admin-revenue')}</th>
                </tr>
              </thead>
              <tbody>
                {loaderData.topProducts.map((product) => (
                  <tr key={product.id}>
                    <td>
                      <Link to={`/admin/products/${product.id}`}>{product.name}</Link>
                    </td>
                    <td>{product.units}</td>
                    <td>{format.money(product.revenue)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p className="admin-hint">{t('admin-top-products-hint')}</p>
      </section>

      <section className="admin-card" aria-labelledby="low-stock-heading">
        <h2 id="low-stock-heading">{t('admin-low-stock')}</h2>
        {loaderData.lowStock.length === 0 ? (
          <p>{t('admin-low-stock-empty')}</p>
        ) : (
          <div className="admin-table-scroll">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin-product')}</th>
                  <th scope="col">{t('admin-sku')}</th>
                  <th scope="col">{t('admin-stock')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('admin-actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {loaderData.lowStock.map((product) => (
                  <tr key={product.variantId}>
                    <td>
                      {product.name}
                      {product.options ? (
                        <span className="admin-variant-label">{product.options}</span>
                      ) : null}
                    </td>
                    <td>{product.sku}</td>
                    <td className={product.quantity === 0 ? 'admin-danger' : undefined}>
                      {product.quantity}
                    </td>
                    <td>
                      <Link to={`/admin/products/${product.id}`}>
                        {t('admin-edit')}
                        <span className="visually-hidden">
                          {' '}
                          {product.name} {product.options}
                        </span>
                      </Link>
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
