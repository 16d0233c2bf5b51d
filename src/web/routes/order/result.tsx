import { useEffect, useRef, useState } from 'react';
import { type AppLoadContext, data, Link, useRevalidator } from 'react-router';
import { AmountRows, SummaryItems } from '../../components/order-amounts.tsx';
import { PrivatePageHead } from '../../components/page-head.tsx';
import { useOrderAmounts } from '../../lib/amounts.ts';
import {
  deliveryAddressLine,
  deliveryName,
  isPaymentProvider,
  providerOfReturn,
  refusalOf,
} from '../../lib/checkout.ts';
import { orderWithCountryName } from '../../lib/order-details.server.ts';
import { useShop } from '../../lib/shop.ts';
import type { Route } from './+types/result';

/** While the payment is pending the page checks again every 2 s, for up to a minute. */
const CHECK_INTERVAL_MS = 2000;
const MAX_CHECKS = 30;

/**
 * `/order/result`, `/order/result/robokassa`, `/order/result/paypal`: where the provider sends the
 * shopper back. The return parameters only say which order it is; its state comes from our database
 * (set by the provider's notification) or the provider's status service. Other sub-paths are 404.
 */
export async function loader({ context, params, url }: Route.LoaderArgs) {
  const query = url.searchParams;
  const provider = params.provider ?? providerOfReturn(query);
  if (!isPaymentProvider(provider)) throw data(null, { status: 404 });
  let result: { status: number; order: number | null; declined?: true; cancelled?: true };
  try {
    result = await context.checkout.paymentStatus(provider, Object.fromEntries(query));
  } catch (error) {
    // Parameters that name no order of ours (or a forged signature) are a failed payment.
    if (!refusalOf(error)) throw error;
    result = { status: -1, order: null };
  }
  const status = Math.sign(result.status);
  return {
    provider,
    status,
    order: result.order,
    declined: result.declined === true,
    cancelled: result.cancelled === true,
    paidOrder: status > 0 && result.order !== null ? await ownOrder(context, result.order) : null,
  };
}

/**
 * The paid order's items, address and amounts for the thank-you page: only its owner sees them
 * (orders are placed signed in, so the session that placed it is the owner's); null for anyone else.
 */
async function ownOrder(context: AppLoadContext, orderId: number) {
  try {
    return await orderWithCountryName(context, orderId);
  } catch (error) {
    if (refusalOf(error)) return null;
    throw error;
  }
}

const TITLES = {
  '0': 'invoice-pending-title',
  '1': 'invoice-success-title',
  '-1': 'invoice-fail-title',
} as const;
const titleOf = (status: number) => TITLES[String(status) as keyof typeof TITLES] ?? TITLES['-1'];

/** Re-checks a pending payment; true once the minute is over. */
function usePendingChecks(pending: boolean): boolean {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const [checks, setChecks] = useState(0);
  useEffect(() => {
    if (!pending || checks >= MAX_CHECKS) return;
    const timer = setTimeout(() => {
      setChecks((count) => count + 1);
      void revalidate.current();
    }, CHECK_INTERVAL_MS);
    return () => clearTimeout(timer);
  }, [pending, checks]);
  return checks >= MAX_CHECKS;
}

type PaidOrder = NonNullable<Route.ComponentProps['loaderData']['paidOrder']>;

/** What was paid for: the items, where they go and how, and the amounts in the order's currency. */
function PaidOrderSummary({ order }: { order: PaidOrder }) {
  const { t } = useShop();
  const amounts = useOrderAmounts(order);
  const method = deliveryName(order.delivery_method);
  return (
    <section className="order-outcome__summary" aria-labelledby="paid-order-heading">
      <h2 id="paid-order-heading">{t('order-summary')}</h2>
      <SummaryItems items={order.products.map((item) => ({ ...item, key: item.sku }))} amounts={amounts} />
      <dl className="summary-list">
        <div className="summary-list__wide">
          <dt>{t('delivery-method')}</dt>
          <dd>{method ? t(method) : order.delivery_method}</dd>
        </div>
        <div className="summary-list__wide">
          <dt>{t('delivery-address')}</dt>
          <dd>{deliveryAddressLine(order)}</dd>
        </div>
        <AmountRows count={order.products.reduce((sum, item) => sum + item.count, 0)} amounts={amounts} />
      </dl>
    </section>
  );
}

/** After a payment: packing, the Russian Post's month when it carries the parcel, the tracking number. */
function NextSteps({ deliveryMethod }: { deliveryMethod: string | undefined }) {
  const { t } = useShop();
  return (
    <section className="order-outcome__next" aria-labelledby="next-steps-heading">
      <h2 id="next-steps-heading">{t('thank-you-next')}</h2>
      <ol>
        <li>{t('thank-you-mail')}</li>
        <li>
          {t('thank-you-ship')}
          {deliveryMethod === 'russian_post' ? ` ${t('thank-you-russian-post')}` : null}
        </li>
        <li>{t('thank-you-track')}</li>
      </ol>
    </section>
  );
}

export default function PaymentResultPage({ loaderData }: Route.ComponentProps) {
  const { t } = useShop();
  const { status, provider, order, declined, cancelled, paidOrder } = loaderData;
  const gaveUp = usePendingChecks(status === 0);
  const title = cancelled ? 'invoice-cancelled-title' : titleOf(status);

  return (
    <section className="order-outcome" aria-labelledby="order-result-heading">
      <PrivatePageHead title={t(title)} />
      <h1 id="order-result-heading">{t(title)}</h1>
      {order !== null ? <p className="order-outcome__order">{t('order-number', { id: order })}</p> : null}
      {status === 0 ? (
        gaveUp ? (
          <p role="status">{t('invoice-pending-long')}</p>
        ) : (
          <p className="order-outcome__pending" role="status">
            <span className="spinner" aria-hidden="true" /> {t('invoice-pending')}
          </p>
        )
      ) : status > 0 ? (
        <>
          <p className="form-success" role="status">
            {t('invoice-success')}
          </p>
          {paidOrder ? <PaidOrderSummary order={paidOrder} /> : null}
          <NextSteps deliveryMethod={paidOrder?.delivery_method} />
        </>
      ) : declined && order !== null ? (
        <p className="form-alert" role="alert">
          {t('payment-declined')}
        </p>
      ) : cancelled ? (
        <p role="status">{t('invoice-cancelled')}</p>
      ) : provider === 'paypal' ? (
        <div className="order-outcome__failure" role="alert">
          <p>{t('invoice-fail-paypal-1')}</p>
          <p>{t('invoice-fail-paypal-2')}</p>
          <p>{t('invoice-fail-paypal-3')}</p>
        </div>
      ) : (
        <div className="order-outcome__failure" role="alert">
          <p>{t('invoice-fail-1')}</p>
          <p>{t('invoice-fail-2')}</p>
          <p>{t('invoice-fail-3')}</p>
        </div>
      )}
      <p className="order-outcome__links">
        {declined && order !== null ? (
          <Link to={`/order/payment?order=${order}`} className="button button--primary">
            {t('pay-now')}
          </Link>
        ) : status < 0 && provider === 'paypal' ? (
          <Link to="/cart" className="button button--primary">
            {t('go-to-cart')}
          </Link>
        ) : (
          <Link to="/order/history" className="button button--primary">
            {t('order-history')}
          </Link>
        )}
        {declined && order !== null ? (
          <Link to={`/order/cancel/robokassa?InvId=${order}`} className="button">
            {t('cancel-order')}
          </Link>
        ) : status < 0 && provider !== 'paypal' ? (
          <Link to="/feedback" className="button">
            {t('feedback')}
          </Link>
        ) : (
          <Link to="/" className="button">
            {t('continue-shopping')}
          </Link>
        )}
      </p>
    </section>
  );
}
