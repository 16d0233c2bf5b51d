import { data, Link } from 'react-router';
import { AccountMenu } from '../../components/account-menu.tsx';
import { OrderDate } from '../../components/order-date.tsx';
import { OrderDetailsView } from '../../components/order-details.tsx';
import { PrivatePageHead } from '../../components/page-head.tsx';
import { UnpaidOrderActions } from '../../components/unpaid-order-actions.tsx';
import { orderStatusText } from '../../lib/checkout.ts';
import { orNotFound } from '../../lib/load.ts';
import { orderWithCountryName } from '../../lib/order-details.server.ts';
import { requireUser } from '../../lib/require-user.ts';
import { useShop } from '../../lib/shop.ts';
import type { Route } from './+types/history-detail';

/**
 * `GET /order/history/:id`: one of the signed-in user's orders with its items. The history page
 * loads it when an order is first expanded; opened as a page, it shows the order on its own. A
 * guest signs in first and comes back; anyone else's order, or none (`/order/history/abc`), is the
 * shop's 404 page.
 */
export async function loader({ context, params, url }: Route.LoaderArgs) {
  await requireUser(context, { returnTo: url.pathname });
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0) throw data(null, { status: 404 });
  return { order: await orNotFound(orderWithCountryName(context, id)) };
}

export default function OrderPage({ loaderData }: Route.ComponentProps) {
  const { t } = useShop();
  const { order } = loaderData;
  const title = t('order-number', { id: order.id });
  return (
    <div className="account-layout">
      <PrivatePageHead title={title} />
      <AccountMenu />
      <section className="auth-card account-card order-history" aria-labelledby="order-heading">
        <h1 id="order-heading">{title}</h1>
        <p className="order-card__header">
          <OrderDate iso={order.date} />
          <span className={`order-status order-status--${order.status}`}>
            {t(orderStatusText(order.status))}
          </span>
        </p>
        <UnpaidOrderActions order={order} />
        <OrderDetailsView order={order} />
        <p>
          <Link to="/order/history">{t('order-history')}</Link>
        </p>
      </section>
    </div>
  );
}
