import { useEffect, useRef, useState } from 'react';
import { Form, Link, redirect, useFetcher } from 'react-router';
import { orderIdBody } from '../../../contract/orders.ts';
import { AccountMenu } from '../../components/account-menu.tsx';
import { OrderDate } from '../../components/order-date.tsx';
import { OrderDetailsView } from '../../components/order-details.tsx';
import { PrivatePageHead } from '../../components/page-head.tsx';
import { UnpaidOrderActions } from '../../components/unpaid-order-actions.tsx';
import { useChargedAmounts } from '../../lib/amounts.ts';
import { orderStatusText } from '../../lib/checkout.ts';
import { parseForm, postedForm } from '../../lib/forms.ts';
import { orNotFound } from '../../lib/load.ts';
import { requireUser } from '../../lib/require-user.ts';
import { useShop } from '../../lib/shop.ts';
import type { Route } from './+types/history';
import type { loader as detailLoader } from './history-detail.tsx';

/** The signed-in user's orders, newest first; guests sign in first and come back here. */
export async function loader({ context }: Route.LoaderArgs) {
  const user = await requireUser(context, { returnTo: '/order/history' });
  const orders = await context.checkout.orders.list();
  // Until the e-mail is confirmed, only the orders to pay (ADR 0059).
  if (!user.emailConfirmed) {
    return { orders: orders.filter((order) => order.status === 0), unconfirmed: user.email };
  }
  return { orders, unconfirmed: null };
}

/**
 * Repeat order: the order's items go back in the cart (within stock), then the cart opens and
 * says which items it could not add in full.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const user = await requireUser(context, { returnTo: '/order/history' });
  if (!user.emailConfirmed) throw new Response(null, { status: 403 });
  const parsed = parseForm(orderIdBody, await postedForm(request));
  if (!parsed.ok) throw new Response(null, { status: 404 });
  await orNotFound(context.checkout.orders.repeat(parsed.data.order, context.locale));
  throw redirect('/cart');
}

type OrderSummary = Route.ComponentProps['loaderData']['orders'][number];

function OrderDetails({ id }: { id: number }) {
  const { t } = useShop();
  const fetcher = useFetcher<typeof detailLoader>();
  const load = useRef(fetcher.load);
  load.current = fetcher.load;
  useEffect(() => {
    void load.current(`/order/history/${id}`);
  }, [id]);
  const order = fetcher.data?.order;
  if (!order) {
    return (
      <p className="order-card__loading" role="status">
        <span className="spinner" aria-hidden="true" /> {t('order-details-loading')}
      </p>
    );
  }
  return <OrderDetailsView order={order} />;
}

function OrderCard({ order, repeatable }: { order: OrderSummary; repeatable: boolean }) {
  const { t } = useShop();
  const [opened, setOpened] = useState(false);
  const amounts = useChargedAmounts(order);
  return (
    <li className="order-card">
      <details onToggle={(event) => event.currentTarget.open && setOpened(true)}>
        <summary className="order-card__header">
          <span className="order-card__number">{t('order-number', { id: order.id })}</span>
          <OrderDate iso={order.date} />
          <span className={`order-status order-status--${order.status}`}>
            {t(orderStatusText(order.status))}
          </span>
          <span className="order-card__total">{amounts.total}</span>
        </summary>
        {opened ? <OrderDetails id={order.id} /> : null}
        {repeatable ? (
          <Form method="post" className="order-card__repeat">
            <input type="hidden" name="order" value={order.id} />
            <button type="submit" className="button">
              {t('repeat-order')}
            </button>
          </Form>
        ) : null}
      </details>
      <UnpaidOrderActions order={order} />
    </li>
  );
}

export default function OrderHistoryPage({ loaderData }: Route.ComponentProps) {
  const { t } = useShop();
  const { orders } = loaderData;
  return (
    <div className="account-layout">
      <PrivatePageHead title={t('order-history')} />
      <AccountMenu />
      <section className="auth-card account-card order-history" aria-labelledby="order-history-heading">
        <h1 id="order-history-heading">{t('order-history')}</h1>
        {loaderData.unconfirmed ? (
          <p className="checkout__notice" role="status">
            {t('history-unconfirmed', { email: loaderData.unconfirmed })}
          </p>
        ) : null}
        {orders.length === 0 ? (
          <div className="order-history__empty">
            <p>{t('order-history-empty')}</p>
            <Link to="/" className="button button--primary">
              {t('continue-shopping')}
            </Link>
          </div>
        ) : (
          <ul className="order-list">
            {orders.map((order) => (
              <OrderCard key={order.id} order={order} repeatable={loaderData.unconfirmed === null} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
