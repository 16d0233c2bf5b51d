import { getFormProps } from '@conform-to/react';
import { type FormEvent, useMemo } from 'react';
import { useFetcher } from 'react-router';
import { orderRefund } from '../../contract/admin.ts';
import { majorToMinor, minorToDecimal, refundEndsOrder, unitsRefundAmount } from '../../contract/money.ts';
import { isPaidStatus, ORDER_STATUS } from '../../contract/order-status.ts';
import { CheckboxField, FormField, FormSuccess, TextAreaField } from '../components/form-field.tsx';
import type { OrderAction } from '../routes/admin/order.tsx';
import { adminApi } from './api.ts';
import {
  type FormFields,
  fieldProps,
  formAlert,
  resultAlert,
  submitAdminForm,
  useAdminForm,
} from './forms.ts';
import { useOrderMoney } from './order-money.ts';
import { providerName, useAdminShop } from './text.ts';
import type { AdminOrder, OrderPayments } from './types.ts';
import { BusyButton, RequestAlert, useAdminFormat } from './ui.tsx';
import { useUnsavedChanges } from './unsaved-changes.tsx';

/**
 * The order page's payments and refunds: what was paid and refunded, each transaction, and the
 * refund form (everything left or a part, units back to stock, one confirmation). A paid order is
 * cancelled by refunding it; an order paid after its cancellation with no stock (6) gets a
 * one-click full refund. The rules (what is left, which units may go back) are the server's; the
 * amount the ticked units and delivery fill in is the server's own rule too (`unitsRefundAmount`,
 * contract/money.ts), and a dollar order shows every amount with its roubles at the order's rate.
 * A refund of all that is left cancels the order, so then, and only then, the form asks why
 * (`refundEndsOrder`, the server's rule): the status history and the customer's refund mail say it.
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

/** The refund form's fields: `whole` (all or part), `amount`, per returnable item `restock[n]`, `reason`. */
interface RefundFields {
  whole?: string;
  amount?: string;
  delivery?: string;
  reason?: string;
  restock?: Array<{ variantId?: string; chosen?: string; count?: string }>;
}

/** What the API reads from the refund form: the amount only for a part, the ticked units only, the reason. */
const refundOf = (fields: FormFields): FormFields => {
  const { whole, amount, reason, restock = [] } = fields as RefundFields;
  return {
    ...(whole === 'part' ? { amount } : {}),
    ...(reason === undefined ? {} : { reason }),
    restock: restock
      .filter((item) => item.chosen !== undefined)
      .map(({ variantId, count }) => ({ variantId, count })),
  };
};

/** The order page's action for a refund (`intent=refund`). */
export const refundOrder = (formData: FormData, orderPath: string) =>
  submitAdminForm(formData, {
    schema: orderRefund,
    prepare: refundOf,
    send: (fields) => adminApi('POST', `${orderPath}/refunds`, { json: fields }),
  });

/** The refund as the form checks it before sending: one that ends the order takes the reason the customer is told. */
const refundCheck = (leftMinor: number) =>
  orderRefund.superRefine((refund, context) => {
    const amount = refund.amount === undefined ? leftMinor : majorToMinor(refund.amount);
    if (refundEndsOrder(amount, leftMinor) && !refund.reason) {
      context.addIssue({ code: 'custom', path: ['reason'], message: 'refund-cancel-reason-required' });
    }
  });

interface RefundProps {
  order: AdminOrder;
  payments: OrderPayments;
  /** Kept by the section, so its outcome stays shown when the form starts afresh after a refund. */
  fetcher: ReturnType<typeof useFetcher<OrderAction>>;
}

/** Asks before money goes back, naming the amount and the provider. */
function useRefundConfirmation(order: AdminOrder, payments: OrderPayments) {
  const { t } = useAdminShop();
  const money = useOrderMoney(payments.currency, payments.usdRate);
  return (minor: number) =>
    window.confirm(
      t('admin-refund-confirm', { amount: money.both(minor), provider: providerName(order.payment_method) }),
    );
}

function RefundForm({ order, payments, fetcher }: RefundProps) {
  const { t } = useAdminShop();
  const money = useOrderMoney(payments.currency, payments.usdRate);
  const confirmRefund = useRefundConfirmation(order, payments);
  const leftMinor = majorToMinor(Number(payments.left));
  const returnable = payments.restockable.filter((item) => item.count > 0);
  const schema = useMemo(() => refundCheck(leftMinor), [leftMinor]);
  const [form, fields] = useAdminForm({
    schema,
    prepare: refundOf,
    lastResult: fetcher.data?.intent === 'refund' && !fetcher.data.ok ? fetcher.data.result : undefined,
    defaultValue: {
      whole: 'all',
      amount: '',
      reason: '',
      // Units go back to the variant the shopper bought: the restock is keyed by variant id.
      restock: returnable.map((item) => ({ variantId: String(item.variantId), count: String(item.count) })),
    },
  });
  const current = (form.value ?? {}) as RefundFields;
  const whole = current.whole !== 'part';
  const chosen = (index: number) => current.restock?.[index]?.chosen !== undefined;
  useUnsavedChanges(
    !whole ||
      current.delivery !== undefined ||
      Boolean(current.reason) ||
      returnable.some((_, index) => chosen(index)),
  );
  const nameOf = (variantId: number) => {
    const item = order.products.find((line) => line.variant === variantId);
    if (!item) return variantId;
    return item.options ? `${item.name} (${item.options})` : item.name;
  };
  const typedMinor = majorToMinor(Number((current.amount ?? '').replace(',', '.')) || 0);
  const endsOrder = refundEndsOrder(whole ? leftMinor : typedMinor, leftMinor);

  /**
   * The ticked units (and the delivery) fill the amount by the shop's one rule (unitsRefundAmount,
   * as the server counts it), at most what is left; the manager may still change it.
   */
  const fill = (event: FormEvent<HTMLFormElement>) => {
    const changed = event.target as HTMLInputElement;
    if (!changed.name.startsWith('restock') && changed.name !== 'delivery') return;
    const posted = new FormData(event.currentTarget);
    const units = returnable.flatMap((item, index) =>
      posted.has(`restock[${index}].chosen`)
        ? [
            {
              variantId: item.variantId,
              count: Number(posted.get(`restock[${index}].count`) ?? item.count) || 0,
            },
          ]
        : [],
    );
    const withDelivery = posted.has('delivery');
    if (units.length === 0 && !withDelivery) {
      form.update({ name: fields.amount.name, value: '' });
      return;
    }
    const filled = unitsRefundAmount(
      payments.currency,
      payments.usdRate ?? 0,
      payments.lines,
      units,
      withDelivery ? payments.deliveryMinor : 0,
    );
    form.update({ name: fields.whole.name, value: 'part' });
    form.update({ name: fields.amount.name, value: minorToDecimal(Math.min(filled, leftMinor)) });
  };

  const formProps = getFormProps(form);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    // Conform's own requests (a filled amount) go through; a refund asks first, once it has its
    // reason (a missing one is said by the form's check, with nothing to confirm yet).
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const reasonMissing = endsOrder && !current.reason?.trim();
    if (
      submitter?.getAttribute('name') === 'intent' &&
      !reasonMissing &&
      !confirmRefund(whole ? leftMinor : typedMinor)
    ) {
      event.preventDefault();
      return;
    }
    formProps.onSubmit(event);
  };
  const alert = formAlert(form);

  return (
    <fetcher.Form
      method="post"
      {...formProps}
      onSubmit={submit}
      onChange={fill}
      className="admin-form"
      aria-labelledby="refund-heading"
    >
      <h3 id="refund-heading">{t('admin-refund-heading')}</h3>
      <p className="admin-muted">{t('admin-refund-hint')}</p>
      <RequestAlert
        message={alert.message}
        errors={alert.errors}
        shownFields={endsOrder ? [...REFUND_FIELDS, 'reason'] : REFUND_FIELDS}
      />
      {returnable.length > 0 || payments.deliveryMinor > 0 ? (
        <fieldset className="form-field">
          <legend>{t('admin-refund-restock')}</legend>
          {returnable.map((item, index) => (
            <div key={item.variantId} className="admin-form__grid">
              <input type="hidden" name={`restock[${index}].variantId`} value={item.variantId} />
              <CheckboxField
                name={`restock[${index}].chosen`}
                value="1"
                label={t('admin-refund-restock-item', { name: nameOf(item.variantId), count: item.count })}
              />
              {chosen(index) ? (
                <FormField
                  name={`restock[${index}].count`}
                  type="number"
                  min={1}
                  max={item.count}
                  label={t('admin-count')}
                  defaultValue={item.count}
                />
              ) : null}
            </div>
          ))}
          {payments.deliveryMinor > 0 ? (
            <CheckboxField
              name="delivery"
              value="1"
              label={t('admin-refund-delivery', { amount: money.both(payments.deliveryMinor) })}
            />
          ) : null}
          <p className="admin-muted">{t('admin-refund-restock-hint')}</p>
          {fields.restock.errors ? <p className="field-error">{fields.restock.errors.join(' ')}</p> : null}
        </fieldset>
      ) : null}
      <fieldset className="form-field">
        <legend>{t('admin-refund-heading')}</legend>
        <label className="checkbox-row">
          <input
            key={fields.whole.key}
            type="radio"
            name={fields.whole.name}
            value="all"
            defaultChecked={whole}
          />
          {t('admin-refund-all', { amount: money.both(leftMinor) })}
        </label>
        <label className="checkbox-row">
          <input
            key={fields.whole.key}
            type="radio"
            name={fields.whole.name}
            value="part"
            defaultChecked={!whole}
          />
          {t('admin-refund-part')}
        </label>
      </fieldset>
      {whole ? null : (
        <FormField
          key={fields.amount.key}
          {...fieldProps(fields.amount)}
          inputMode="decimal"
          label={t('admin-refund-amount', { currency: payments.currency })}
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
      {endsOrder ? <CancelReasonField {...fieldProps(fields.reason)} /> : null}
      <div className="admin-actions">
        <BusyButton busy={fetcher.state !== 'idle'} primary name="intent" value="refund">
          {t('admin-refund-submit')}
        </BusyButton>
      </div>
    </fetcher.Form>
  );
}

/** Why the order is cancelled, asked when the refund returns all that is left. */
function CancelReasonField(props: ReturnType<typeof fieldProps>) {
  const { t } = useAdminShop();
  return (
    <TextAreaField
      {...props}
      label={t('admin-refund-cancel-reason')}
      hint={t('admin-refund-cancel-reason-hint')}
      maxLength={500}
      required
    />
  );
}

/**
 * One click for an order paid after its cancellation with nothing left in stock (status 6): the
 * whole payment goes back, which cancels the order again, so it takes the reason too.
 */
function RefundEverything({ order, payments, fetcher }: RefundProps) {
  const { t } = useAdminShop();
  const confirmRefund = useRefundConfirmation(order, payments);
  const outcome = fetcher.data?.intent === 'refund' ? fetcher.data : undefined;
  const alert = resultAlert(outcome?.ok === false ? outcome.result : undefined);
  return (
    <fetcher.Form
      method="post"
      className="admin-form"
      onSubmit={(event) => {
        if (!confirmRefund(majorToMinor(Number(payments.left)))) event.preventDefault();
      }}
    >
      <p>{t('admin-refund-special')}</p>
      <RequestAlert message={alert.message} errors={alert.errors} shownFields={['reason']} />
      <CancelReasonField name="reason" defaultValue="" errors={alert.errors.reason} />
      <div className="admin-actions">
        <BusyButton busy={fetcher.state !== 'idle'} primary name="intent" value="refund">
          {t('admin-refund-everything')}
        </BusyButton>
      </div>
    </fetcher.Form>
  );
}

function CheckRefund({ refundId }: { refundId: number }) {
  const { t } = useAdminShop();
  const fetcher = useFetcher<OrderAction>();
  const outcome = fetcher.data?.intent === 'check-refund' ? fetcher.data : undefined;
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="refund" value={refundId} />
      <BusyButton busy={fetcher.state !== 'idle'} name="intent" value="check-refund">
        {t('admin-refund-check')}
      </BusyButton>
      <RequestAlert message={outcome?.error} errors={{}} shownFields={[]} />
    </fetcher.Form>
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
  const refund = useFetcher<OrderAction>({ key: `refund-${order.id}` });
  const refunded = refund.data?.intent === 'refund' && refund.data.ok;

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
                        <CheckRefund refundId={row.id} />
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
      {refunded ? <FormSuccess>{t('admin-refund-done')}</FormSuccess> : null}
      {refundable && oneClick ? (
        <RefundEverything order={order} payments={payments} fetcher={refund} />
      ) : null}
      {refundable && !oneClick ? (
        // A new form after each refund: its choices start from what is left now.
        <RefundForm key={payments.list.length} order={order} payments={payments} fetcher={refund} />
      ) : null}
    </section>
  );
}
