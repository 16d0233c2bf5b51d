import type { RefObject } from 'react';
import { Form, Link } from 'react-router';
import { roublesToKopecks } from '../../contract/money.ts';
import type { OrderDetail, PaymentForm } from '../../contract/orders.ts';
import { lineKopecks, useAmounts } from '../lib/amounts.ts';
import { useShop } from '../lib/shop.ts';
import { OrderDate } from './order-date.tsx';

/** An order awaiting payment as the loaders give it (see `UnpaidOrder` on the server). */
export interface UnpaidOrderData {
  order: OrderDetail;
  expires: string;
  payment: PaymentForm;
}

/** Where the cancel page of the order's provider is, with the order as that provider names it. */
export const cancelAddress = ({ order, payment }: UnpaidOrderData) =>
  payment.method === 'paypal'
    ? `/order/cancel/paypal?order=${order.id}`
    : `/order/cancel/robokassa?InvId=${order.id}`;

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
  const amounts = useAmounts(
    order.products.map((item) => lineKopecks(item.sale ?? item.price, item.count)),
    roublesToKopecks(order.delivery_cost),
    order,
  );
  return (
    <div className="unpaid-order">
      <ul className="summary-items">
        {order.products.map((item, index) => (
          <li key={item.id}>
            <Link to={`/product/${item.link}`}>{item.name}</Link>
            <span className="summary-items__count">× {item.count}</span>
            <span className="summary-items__price">{amounts.line(index)}</span>
          </li>
        ))}
      </ul>
      <dl className="summary-list">
        <div>
          <dt>{t('products-cost', { count: order.products.reduce((sum, item) => sum + item.count, 0) })}</dt>
          <dd>{amounts.products}</dd>
        </div>
        <div>
          <dt>{t('delivery-cost')}</dt>
          <dd>{amounts.delivery}</dd>
        </div>
        <div className="summary-list__total">
          <dt>{t('order-total')}</dt>
          <dd>{amounts.total}</dd>
        </div>
      </dl>
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
