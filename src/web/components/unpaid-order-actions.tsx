import { Form, Link } from 'react-router';
import { useShop } from '../lib/shop.ts';
import { cancelAddressOf } from './unpaid-order.tsx';

/**
 * "Pay now" and "Cancel order" for an order awaiting payment, in the order history and on the order
 * page (ADR 0059): paying opens the order's payment page, cancelling confirms on the provider's
 * cancel page, the same ways back as from the provider. Nothing for any other status.
 */
export function UnpaidOrderActions({
  order,
}: {
  order: { id: number; status: number; payment_method: string };
}) {
  const { t } = useShop();
  if (order.status !== 0) return null;
  return (
    <div className="order-outcome__links">
      <Link
        to={`/order/payment?order=${order.id}`}
        className="button button--primary"
        aria-label={`${t('pay-now')}: ${t('order-number', { id: order.id })}`}
      >
        {t('pay-now')}
      </Link>
      <Form method="post" action={cancelAddressOf(order.id, order.payment_method)}>
        <button
          type="submit"
          className="button"
          aria-label={`${t('cancel-order')}: ${t('order-number', { id: order.id })}`}
        >
          {t('cancel-order')}
        </button>
      </Form>
    </div>
  );
}
