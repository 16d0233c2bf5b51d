import type { RefObject } from 'react';
import { Form } from 'react-router';
import type { OrderDetail, PaymentForm } from '../../contract/orders.ts';
import { useOrderAmounts } from '../lib/amounts.ts';
import { useShop } from '../lib/shop.ts';
import { AmountRows, SummaryItems } from './order-amounts.tsx';
import { OrderDate } from './order-date.tsx';

/** An order awaiting payment as the loaders give it (see `UnpaidOrder` on the server). */
export interface UnpaidOrderData {
  order: OrderDetail;
  expires: string;
  payment: PaymentForm;
}

/** Where the cancel page of the order's provider is, with the order as that provider names it. */
export const cancelAddress = ({ order, payment }: UnpaidOrderData) =>
  cancelAddressOf(order.id, payment.method);

/** The cancel page of an order paid by `paymentMethod`, naming the order as that provider does. */
export const cancelAddressOf = (orderId: number, paymentMethod: string) =>
  paymentMethod === 'paypal'
    ? `/order/cancel/paypal?order=${orderId}`
    : `/order/cancel/robokassa?InvId=${orderId}`;

/**
 * An unpaid order: its lines and total (what the provider is asked to charge), when it expires,
 * and two buttons: "Pay now" posts the provider form, "Cancel order" posts the cancel page's
 * confirmation. `payForm` lets the payment page post the provider form by itself once.
 */
export function UnpaidOrder({
  unpaid,
  payForm,
}: {
  unpaid: UnpaidOrderData;
  payForm?: RefObject<HTMLFormElement | null>;
}) {
  const { t } = useShop();
  const { order, payment } = unpaid;
  const amounts = useOrderAmounts(order);
  return (
    <div className="unpaid-order">
      <SummaryItems items={order.products.map((item) => ({ ...item, key: item.sku }))} amounts={amounts} />
      <dl className="summary-list">
        <AmountRows count={order.products.reduce((sum, item) => sum + item.count, 0)} amounts={amounts} />
      </dl>
      {amounts.guide ? (
        <p className="unpaid-order__currency">
          {t('payment-roubles-charged', { total: amounts.total, guide: amounts.guide })}
        </p>
      ) : null}
      <p className="unpaid-order__expires">
        {t('payment-expires')} <OrderDate iso={unpaid.expires} />
      </p>
      <div className="order-outcome__links">
        <form ref={payForm} method="post" action={payment.url}>
          {Object.entries(payment.fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <button type="submit" className="button button--primary">
            {t('pay-now')}
          </button>
        </form>
        <Form method="post" action={cancelAddress(unpaid)}>
          <button type="submit" className="button">
            {t('cancel-order')}
          </button>
        </Form>
      </div>
    </div>
  );
}
