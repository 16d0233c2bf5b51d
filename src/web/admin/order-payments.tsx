import { type FormEvent, useState } from 'react';
import { majorToMinor, minorToDecimal, unitsRefundAmount } from '../../contract/money.ts';
import { isPaidStatus, ORDER_STATUS } from '../../contract/order-status.ts';
import { CheckboxField, FormField, FormSuccess } from '../components/form-field.tsx';
import { adminApi } from './api.ts';
import { useOrderMoney } from './order-money.ts';
import { providerName, useAdminShop } from './text.ts';
import type { AdminOrder, OrderPayments } from './types.ts';
import { BusyButton, RequestAlert, useAdminFormat, useAdminRequest } from './ui.tsx';
import { useUnsavedChanges } from './unsaved-changes.tsx';

/**
 * The order page's payments and refunds: what was paid and refunded, each transaction, and the
 * refund form (everything left or a part, units back to stock, one confirmation). A paid order is
 * cancelled by refunding it; an order paid after its cancellation with no stock (6) gets a
 * one-click full refund. The rules (what is left, which units may go back) are the server's; the
 * amount the ticked units and delivery fill in is the server's own rule too (`unitsRefundAmount`,
 * contract/money.ts), and a dollar order shows every amount with its roubles at the order's rate.
 */

const REFUND_FIELDS = ['amount', 'restock'];

type AdminText = ReturnType<typeof useAdminShop>['t'];

/** A refund's state at the provider in the staff member's language (also on the order timeline). */
export function refundStateText(t: AdminText, state: string): string {
  const known: Record<string, string> = {
    requested: t('admin-refund-requested'),
    pending: t('admin-refund-pending'),
    finished: t('admin-refund-finished'),
    canceled: t('admin-refund-canceled'),
    // A payment's state: Robokassa's result is `paid`; PayPal's capture keeps its own words.
    paid: t('admin-payment-received'),
    COMPLETED: t('admin-payment-received'),
    PENDING: t('admin-refund-pending'),
    DECLINED: t('admin-payment-declined'),
    FAILED: t('admin-payment-declined'),
  };
  return known[state] ?? state;
}

type RefundRequest = ReturnType<typeof useAdminRequest>;

interface RefundProps {
  order: AdminOrder;
  payments: OrderPayments;
  /** Kept by the section, so its outcome stays shown when the form starts afresh after a refund. */
  request: RefundRequest;
}

function RefundForm({ order, payments, request }: RefundProps) {
  const { t } = useAdminShop();
  const money = useOrderMoney(payments.currency, payments.usdRate);
  const leftMinor = majorToMinor(Number(payments.left));
  const [whole, setWhole] = useState(true);
  const [amount, setAmount] = useState('');
  const [delivery, setDelivery] = useState(false);
  const returnable = payments.restockable.filter((item) => item.count > 0);
  // Units go back to the variant the shopper bought: the restock is keyed by variant id.
  const [restock, setRestock] = useState<Record<number, { chosen: boolean; count: string }>>(() =>
    Object.fromEntries(
      returnable.map((item) => [item.variantId, { chosen: false, count: String(item.count) }]),
    ),
  );
  useUnsavedChanges(!whole || delivery || Object.values(restock).some((item) => item.chosen));
  const nameOf = (variantId: number) => {
    const item = order.products.find((line) => line.variant === variantId);
    if (!item) return variantId;
    return item.options ? `${item.name} (${item.options})` : item.name;
  };

  /**
   * The ticked units (and the delivery) fill the amount by the shop's one rule (unitsRefundAmount,
   * as the server counts it), at most what is left; the manager may still change it.
   */
  const fill = (units: typeof restock, withDelivery: boolean) => {
    const chosen = Object.entries(units)
      .filter(([, item]) => item.chosen)
      .map(([variantId, item]) => ({ variantId: Number(variantId), count: Number(item.count) || 0 }));
    if (chosen.length === 0 && !withDelivery) {
      setAmount('');
      return;
    }
    const filled = unitsRefundAmount(
      payments.currency,
      payments.usdRate ?? 0,
      payments.lines,
      chosen,
      withDelivery ? payments.deliveryMinor : 0,
    );
    setWhole(false);
    setAmount(minorToDecimal(Math.min(filled, leftMinor)));
  };
  const chooseUnits = (variantId: number, change: Partial<{ chosen: boolean; count: string }>) => {
    const current = restock[variantId] ?? { chosen: false, count: '0' };
    const next = { ...restock, [variantId]: { ...current, ...change } };
    setRestock(next);
    fill(next, delivery);
  };
  const chooseDelivery = (chosen: boolean) => {
    setDelivery(chosen);
    fill(restock, chosen);
  };
  const typedMinor = majorToMinor(Number(amount.replace(',', '.')) || 0);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const shown = money.both(whole ? leftMinor : typedMinor);
    if (
      !window.confirm(
        t('admin-refund-confirm', { amount: shown, provider: providerName(order.payment_method) }),
      )
    )
      return;
    const json = {
      ...(whole ? {} : { amount }),
      restock: Object.entries(restock)
        .filter(([, item]) => item.chosen)
        .map(([variantId, item]) => ({ variantId: Number(variantId), count: item.count })),
    };
    void request.run(() => adminApi('POST', `/orders/${order.id}/refunds`, { json }), {
      success: t('admin-refund-done'),
    });
  };

  return (
    <form className="admin-form" onSubmit={submit} noValidate aria-labelledby="refund-heading">
      <h3 id="refund-heading">{t('admin-refund-heading')}</h3>
      <p className="admin-muted">{t('admin-refund-hint')}</p>
      <RequestAlert message={request.message} errors={request.errors} shownFields={REFUND_FIELDS} />
      {returnable.length > 0 || payments.deliveryMinor > 0 ? (
        <fieldset className="form-field">
          <legend>{t('admin-refund-restock')}</legend>
          {returnable.map((item) => {
            const entry = restock[item.variantId] ?? { chosen: false, count: String(item.count) };
            return (
              <div key={item.variantId} className="admin-form__grid">
                <CheckboxField
                  name={`restock-${item.variantId}`}
                  label={t('admin-refund-restock-item', { name: nameOf(item.variantId), count: item.count })}
                  checked={entry.chosen}
                  onChange={(event) => chooseUnits(item.variantId, { chosen: event.target.checked })}
                />
                {entry.chosen ? (
                  <FormField
                    name={`restock-count-${item.variantId}`}
                    type="number"
                    min={1}
                    max={item.count}
                    label={t('admin-count')}
                    value={entry.count}
                    onChange={(event) => chooseUnits(item.variantId, { count: event.target.value })}
                  />
                ) : null}
              </div>
            );
          })}
          {payments.deliveryMinor > 0 ? (
            <CheckboxField
              name="refund-delivery"
              label={t('admin-refund-delivery', { amount: money.both(payments.deliveryMinor) })}
              checked={delivery}
              onChange={(event) => chooseDelivery(event.target.checked)}
            />
          ) : null}
          <p className="admin-muted">{t('admin-refund-restock-hint')}</p>
          {request.errors.restock ? <p className="field-error">{request.errors.restock.join(' ')}</p> : null}
        </fieldset>
      ) : null}
      <fieldset className="form-field">
        <legend>{t('admin-refund-heading')}</legend>
        <label className="checkbox-row">
          <input type="radio" name="refund-whole" checked={whole} onChange={() => setWhole(true)} />
          {t('admin-refund-all', { amount: money.both(leftMinor) })}
        </label>
        <label className="checkbox-row">
          <input type="radio" name="refund-whole" checked={!whole} onChange={() => setWhole(false)} />
          {t('admin-refund-part')}
        </label>
      </fieldset>
      {whole ? null : (
        <FormField
          name="amount"
          inputMode="decimal"
          label={t('admin-refund-amount', { currency: payments.currency })}
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          errors={request.errors.amount}
          hint={
            money.rateText
              ? t('admin-refund-in-roubles', {
                  roubles: money.roubles(typedMinor) ?? '',
                  rate: money.rate ?? '',
                })
              : undefined
          }
          required
        />
      )}
      <div className="admin-actions">
        <BusyButton busy={request.busy} primary>
          {t('admin-refund-submit')}
        </BusyButton>
      </div>
    </form>
  );
}

/** One click for an order paid after its cancellation with nothing left in stock (status 6). */
function RefundEverything({ order, payments, request }: RefundProps) {
  const { t } = useAdminShop();
  const money = useOrderMoney(payments.currency, payments.usdRate);
  const refund = () => {
    const amount = money.both(majorToMinor(Number(payments.left)));
    if (!window.confirm(t('admin-refund-confirm', { amount, provider: providerName(order.payment_method) })))
      return;
    void request.run(() => adminApi('POST', `/orders/${order.id}/refunds`, { json: { restock: [] } }), {
      success: t('admin-refund-done'),
    });
  };
  return (
    <div className="admin-form">
      <p>{t('admin-refund-special')}</p>
      <RequestAlert message={request.message} errors={request.errors} shownFields={[]} />
      <div className="admin-actions">
        <BusyButton busy={request.busy} primary type="button" onClick={refund}>
          {t('admin-refund-everything')}
        </BusyButton>
      </div>
    </div>
  );
}

function CheckRefund({ orderId, refundId }: { orderId: number; refundId: number }) {
  const { t } = useAdminShop();
  const request = useAdminRequest();
  return (
    <>
      <BusyButton
        busy={request.busy}
        type="button"
        onClick={() =>
          void request.run(() => adminApi('POST', `/orders/${orderId}/refunds/${refundId}/check`))
        }
      >
        {t('admin-refund-check')}
      </BusyButton>
      <RequestAlert message={request.message} errors={request.errors} shownFields={[]} />
    </>
  );
}

export function OrderPaymentsSection({ order, payments }: { order: AdminOrder; payments: OrderPayments }) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const money = useOrderMoney(payments.currency, payments.usdRate);
  const shown = (decimal: string) => money.both(majorToMinor(Number(decimal)));
  const refundable = isPaidStatus(order.status) && Number(payments.left) > 0;
  const holdsNoStock = payments.restockable.every((item) => item.count === 0);
  const oneClick = order.status === ORDER_STATUS.special && holdsNoStock;
  const refundRequest = useAdminRequest();

  return (
    <section className="admin-card" aria-labelledby="payments-heading">
      <h2 id="payments-heading">{t('admin-payments')}</h2>
      {payments.list.length === 0 ? (
        <p>{t('admin-payments-empty')}</p>
      ) : (
        <>
          <dl className="admin-details">
            <dt>{t('admin-paid')}</dt>
            <dd>{shown(payments.paid)}</dd>
            <dt>{t('admin-refunded')}</dt>
            <dd>{shown(payments.refunded)}</dd>
            <dt>{t('admin-refund-left')}</dt>
            <dd>{shown(payments.left)}</dd>
          </dl>
          {money.rateText ? <p className="admin-muted">{money.rateText}</p> : null}
          {/* Focusable, so a keyboard can scroll the table sideways on a phone. */}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus (WCAG 2.1.1) */}
          <div className="admin-table-scroll" tabIndex={0}>
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin-date')}</th>
                  <th scope="col">{t('admin-transaction')}</th>
                  <th scope="col">{t('admin-transaction-state')}</th>
                  <th scope="col">{t('admin-sum')}</th>
                </tr>
              </thead>
              <tbody>
                {payments.list.map((row) => (
                  <tr key={row.id}>
                    <td>{format.dateTime(row.date)}</td>
                    <td>
                      {row.kind === 'refund' ? t('admin-transaction-refund') : t('admin-transaction-payment')}{' '}
                      · {providerName(row.provider)} <span className="admin-muted">{row.externalId}</span>
                    </td>
                    <td>
                      {refundStateText(t, row.state)}
                      {row.accepted ? null : (
                        <span className="admin-muted"> · {t('admin-transaction-not-counted')}</span>
                      )}
                      {row.kind === 'refund' && row.state === 'pending' && row.provider === 'robokassa' ? (
                        <CheckRefund orderId={order.id} refundId={row.id} />
                      ) : null}
                    </td>
                    <td>
                      {row.kind === 'refund' ? '−' : ''}
                      {row.currency.toUpperCase() === payments.currency
                        ? shown(row.amount)
                        : `${row.amount} ${row.currency.toUpperCase()}`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {refundRequest.done ? <FormSuccess>{refundRequest.done}</FormSuccess> : null}
      {refundable && oneClick ? (
        <RefundEverything order={order} payments={payments} request={refundRequest} />
      ) : null}
      {refundable && !oneClick ? (
        // A new form after each refund: its choices start from what is left now.
        <RefundForm key={payments.list.length} order={order} payments={payments} request={refundRequest} />
      ) : null}
    </section>
  );
}
