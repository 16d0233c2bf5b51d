import { data, Link, redirect, type ShouldRevalidateFunction } from 'react-router';
import { PrivatePageHead } from '../../components/page-head.tsx';
import { isPaymentProvider, providerOfReturn } from '../../lib/checkout.ts';
import { useShop } from '../../lib/shop.ts';
import type { Route } from './+types/cancel';

/**
 * `/order/cancel`, `/order/cancel/robokassa`, `/order/cancel/paypal`: the shopper gave up paying (or
 * the payment was refused). The signed-in owner's unpaid order is cancelled and its items go back to
 * the cart; opening the link again shows the same success. Other sub-paths are 404.
 */
export async function loader({ context, params, url }: Route.LoaderArgs) {
  const provider = params.provider ?? providerOfReturn(url.searchParams);
  if (!isPaymentProvider(provider)) throw data(null, { status: 404 });
  if (!(await context.account.currentUser())) {
    throw redirect(`/login?redirectTo=${encodeURIComponent(`${url.pathname}${url.search}`)}`);
  }
  const result = await context.checkout.cancelPayment(provider, Object.fromEntries(url.searchParams));
  return { status: Math.sign(result.status), order: result.order };
}

/** Cancelling is done once, on arrival; nothing on this page needs reloading after it. */
export const shouldRevalidate: ShouldRevalidateFunction = () => false;

export default function PaymentCancelPage({ loaderData }: Route.ComponentProps) {
  const { t } = useShop();
  const { status, order } = loaderData;
  return (
    <section className="order-outcome" aria-labelledby="order-cancel-heading">
      <PrivatePageHead title={t('cancel-invoice')} />
      <h1 id="order-cancel-heading">{t('cancel-invoice')}</h1>
      {order !== null ? <p className="order-outcome__order">{t('order-number', { id: order })}</p> : null}
      {status > 0 ? (
        <p className="form-success" role="status">
          {t('cancel-invoice-success')}
        </p>
      ) : (
        <p className="form-alert" role="alert">
          {t('cancel-invoice-fail')}
        </p>
      )}
      <p className="order-outcome__links">
        <Link to="/cart" className="button button--primary">
          {t('go-to-cart')}
        </Link>
        <Link to="/order/history" className="button">
          {t('order-history')}
        </Link>
      </p>
    </section>
  );
}
