import { data, Link } from 'react-router';
import { PrivatePageHead } from '../../components/page-head.tsx';
import { UnpaidOrder } from '../../components/unpaid-order.tsx';
import { isPaymentProvider, providerOfReturn } from '../../lib/checkout.ts';
import { requireUser } from '../../lib/require-user.ts';
import { useShop } from '../../lib/shop.ts';
import type { Route } from './+types/cancel';

/**
 * `/order/cancel`, `/order/cancel/robokassa`, `/order/cancel/paypal`: the shopper gave up paying, or
 * Robokassa declined the payment. Arriving (a GET: the provider's way back, or any link) changes
 * nothing: the page shows the unpaid order with a confirmation button, and says so when Robokassa
 * declined the payment. The confirmation (a POST, origin-checked like every page form) cancels the
 * signed-in owner's order and puts its items back in the cart; confirming again shows the same
 * success. Other sub-paths are 404.
 */
function providerOf(params: Route.LoaderArgs['params'], url: URL) {
  const provider = params.provider ?? providerOfReturn(url.searchParams);
  if (!isPaymentProvider(provider)) throw data(null, { status: 404 });
  return provider;
}

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const provider = providerOf(params, url);
  await requireUser(context, { returnTo: url });
  const state = await context.checkout.cancelPage(
    provider,
    Object.fromEntries(url.searchParams),
    context.locale,
  );
  // PayPal's cancel_url return carries its order's token: the shopper cancelled there.
  return { ...state, cancelledAtPaypal: provider === 'paypal' && url.searchParams.has('token') };
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const url = new URL(request.url);
  const provider = providerOf(params, url);
  await requireUser(context, { returnTo: url });
  const result = await context.checkout.cancelPayment(provider, Object.fromEntries(url.searchParams));
  return { status: Math.sign(result.status), order: result.order };
}

export default function PaymentCancelPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useShop();
  const { status, order } = actionData ?? loaderData;
  const unpaid = actionData ? null : loaderData.unpaid;
  return (
    <section className="order-outcome" aria-labelledby="order-cancel-heading">
      <PrivatePageHead title={t('cancel-invoice')} />
      <h1 id="order-cancel-heading">{t('cancel-invoice')}</h1>
      {order !== null ? <p className="order-outcome__order">{t('order-number', { id: order })}</p> : null}
      {status === 0 && unpaid ? (
        <>
          {loaderData.declined ? (
            <p className="form-alert" role="alert">
              {t('payment-declined')}
            </p>
          ) : loaderData.cancelledAtPaypal ? (
            <p role="status">{t('payment-cancelled-at-paypal')}</p>
          ) : null}
          <p>{t('cancel-invoice-confirm')}</p>
          <UnpaidOrder unpaid={unpaid} />
        </>
      ) : (
        <>
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
        </>
      )}
    </section>
  );
}
