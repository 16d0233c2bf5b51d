import { data, redirect } from 'react-router';
import { refusalOf } from '../../lib/checkout.ts';
import { postedForm } from '../../lib/forms.ts';
import { requireUser } from '../../lib/require-user.ts';
import type { Route } from './+types/pay';

/**
 * `POST /order/pay/paypal` with `order=N`: "Pay now" of an unpaid PayPal order. The server creates
 * PayPal's order (checkout/paypal.ts) and the shopper goes on to PayPal to approve it; a refusal or
 * an outage goes to the order error page with its message. A GET has nothing to show: the payment page.
 */
export async function loader({ url }: Route.LoaderArgs) {
  throw redirect(
    `/order/payment${url.searchParams.has('order') ? `?order=${url.searchParams.get('order')}` : ''}`,
  );
}

export async function action({ context, params, request }: Route.ActionArgs) {
  if (params.provider !== 'paypal') throw data(null, { status: 404 });
  await requireUser(context, { returnTo: '/order/history' });
  const orderId = Number((await postedForm(request)).get('order'));
  if (!Number.isInteger(orderId) || orderId <= 0) throw data(null, { status: 404 });
  let approveUrl: string;
  try {
    approveUrl = await context.checkout.startPaypal(orderId);
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    await context.checkout.errors.set({ intlError: refusal.intlError ?? '', error: refusal.message });
    throw redirect('/order/error');
  }
  throw redirect(approveUrl);
}
