import { useEffect, useRef, useState } from 'react';
import { data, Link, useRevalidator } from 'react-router';
import { PrivatePageHead } from '../../components/page-head.tsx';
import { isPaymentProvider, providerOfReturn, refusalOf } from '../../lib/checkout.ts';
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
  let result: { status: number; order: number | null; declined?: true };
  try {
    result = await context.checkout.paymentStatus(provider, Object.fromEntries(query));
  } catch (error) {
    // Parameters that name no order of ours (or a forged signature) are a failed payment.
    if (!refusalOf(error)) throw error;
    result = { status: -1, order: null };
  }
  return {
    provider,
    status: Math.sign(result.status),
    order: result.order,
    declined: result.declined === true,
  };
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

export default function PaymentResultPage({ loaderData }: Route.ComponentProps) {
  const { t } = useShop();
  const { status, provider, order, declined } = loaderData;
  const gaveUp = usePendingChecks(status === 0);

  return (
    <section className="order-outcome" aria-labelledby="order-result-heading">
      <PrivatePageHead title={t(titleOf(status))} />
      <h1 id="order-result-heading">{t(titleOf(status))}</h1>
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
        <p className="form-success" role="status">
          {t('invoice-success')}
        </p>
      ) : declined && order !== null ? (
        <p className="form-alert" role="alert">
          {t('payment-declined')}
        </p>
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
