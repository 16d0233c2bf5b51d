import { type FormEvent, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link, useRevalidator } from 'react-router';
import { translateError } from '../../../contract/error-messages.ts';
import { imageUrl } from '../../../contract/images.ts';
import { amountsIn, roublesToKopecks, unitPrice } from '../../../contract/money.ts';
import { ORDER_STATUS } from '../../../contract/order-status.ts';
import type { OrderTimelineEvent } from '../../../contract/order-timeline.ts';
import { adminApi, loadAdmin } from '../../admin/api.ts';
import { useOrderMoney } from '../../admin/order-money.ts';
import { OrderPaymentsSection } from '../../admin/order-payments.tsx';
import { OrderReceiptsSection } from '../../admin/order-receipts.tsx';
import { OrderCustoms, OrderShipmentsSection } from '../../admin/order-shipping.tsx';
import { OrderTimeline } from '../../admin/order-timeline.tsx';
import { useAdminShop, usePaymentMethodName } from '../../admin/text.ts';
import type { AdminOrder, OrderPayments, OrderShipments as OrderShipmentList } from '../../admin/types.ts';
import {
  AdminErrorBoundary,
  AdminLoading,
  AdminPage,
  BusyButton,
  deliveryMethodKey,
  RequestAlert,
  useAdminFormat,
  useAdminRequest,
  useOrderStatusText,
} from '../../admin/ui.tsx';
import { useUnsavedChanges } from '../../admin/unsaved-changes.tsx';
import { FormField, FormSuccess, SelectField, TextAreaField } from '../../components/form-field.tsx';
import type { Route } from './+types/order';

export async function clientLoader({ request, params }: Route.ClientLoaderArgs) {
  const path = `/orders/${encodeURIComponent(params.id)}`;
  const [{ order }, { payments }, { shipments }, { timeline }] = await Promise.all([
    loadAdmin<{ order: AdminOrder }>(path, request),
    loadAdmin<{ payments: OrderPayments }>(`${path}/payments`, request),
    loadAdmin<{ shipments: OrderShipmentList }>(`${path}/shipments`, request),
    loadAdmin<{ timeline: OrderTimelineEvent[] }>(`${path}/timeline`, request),
  ]);
  return { order, payments, shipments, timeline };
}

export function HydrateFallback() {
  return <AdminLoading />;
}

const EDITABLE = ['track_code', 'delivery_cost_actual', 'status', 'reason'];
const CANCELLED = 2;

const valuesOf = (order: AdminOrder) => ({
  track_code: order.track_code ?? '',
  delivery_cost_actual: order.delivery_cost_actual === null ? '' : String(order.delivery_cost_actual),
  status: String(order.status),
});
type Values = ReturnType<typeof valuesOf>;

function OrderEditor({ order, onReload }: { order: AdminOrder; onReload: () => void }) {
  const { t } = useAdminShop();
  const statusText = useOrderStatusText();
  const request = useAdminRequest();
  const [loaded, setLoaded] = useState(() => valuesOf(order));
  const [values, setValues] = useState(loaded);
  const set = (field: keyof Values) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));
  useUnsavedChanges(
    (Object.keys(values) as (keyof Values)[]).some((field) => values[field] !== loaded[field]),
  );

  // Cancelling asks why first (the customer reads it in the cancellation mail).
  const [asking, setAsking] = useState(false);
  const cancelling = values.status === String(CANCELLED) && loaded.status !== String(CANCELLED);

  // Only the fields changed here, with the values they were loaded with: a save from another
  // screen of a different field (a track code, say) is kept, not overwritten (ADR 0022).
  const save = (event: FormEvent) => {
    event.preventDefault();
    if (cancelling) setAsking(true);
    else void send();
  };
  const send = (reason?: string) => {
    const changed = (Object.keys(values) as (keyof Values)[]).filter(
      (field) => values[field] !== loaded[field],
    );
    const pick = (source: Values) => Object.fromEntries(changed.map((field) => [field, source[field]]));
    const saving = values;
    return request
      .run(
        () =>
          adminApi('PATCH', `/orders/${order.id}`, {
            json: {
              ...pick(values),
              ...(reason === undefined ? {} : { reason }),
              version: order.version,
              base: pick(loaded),
            },
          }),
        { success: t('admin-order-saved') },
      )
      .then((answer) => {
        if (answer) setLoaded(saving);
        return answer !== undefined;
      });
  };

  return (
    <form className="admin-card admin-form" onSubmit={save} noValidate aria-labelledby="order-edit-heading">
      <h2 id="order-edit-heading">{t('admin-order-handling')}</h2>
      {request.done ? <FormSuccess>{request.done}</FormSuccess> : null}
      <RequestAlert
        message={request.message}
        errors={request.errors}
        shownFields={EDITABLE}
        onReload={request.recordChanged ? onReload : undefined}
      />
      <div className="admin-form__grid">
        <SelectField
          name="status"
          label={t('admin-status')}
          value={values.status}
          onChange={set('status')}
          errors={request.errors.status}
          hint={t('admin-shipped-mail-hint')}
        >
          {[order.status, ...order.nextStatuses].map((status) => (
            <option key={status} value={status}>
              {statusText(status)}
            </option>
          ))}
        </SelectField>
        <FormField
          name="track_code"
          label={t('admin-track-code')}
          value={values.track_code}
          onChange={set('track_code')}
          errors={request.errors.track_code}
        />
        <FormField
          name="delivery_cost_actual"
          type="number"
          min={0}
          step="0.01"
          label={t('admin-delivery-cost-actual')}
          value={values.delivery_cost_actual}
          onChange={set('delivery_cost_actual')}
          errors={request.errors.delivery_cost_actual}
        />
      </div>
      <div className="admin-actions">
        <BusyButton busy={request.busy} primary>
          {t('save')}
        </BusyButton>
      </div>
      <CancelReasonDialog
        orderId={order.id}
        open={asking}
        busy={request.busy}
        serverErrors={request.errors.reason}
        onConfirm={async (reason) => {
          if (await send(reason)) setAsking(false);
        }}
        onClose={() => setAsking(false)}
      />
    </form>
  );
}

/**
 * The question before staff cancel an order: why. A modal dialog (outside the order form, in the
 * page's body) with one required field; its words go into the status history and the customer's
 * cancellation mail.
 */
function CancelReasonDialog({
  orderId,
  open,
  busy,
  serverErrors,
  onConfirm,
  onClose,
}: {
  orderId: number;
  open: boolean;
  busy: boolean;
  serverErrors: string[] | undefined;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}) {
  const { t, locale } = useAdminShop();
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    else if (!open && element.open) element.close();
  }, [open]);
  if (typeof document === 'undefined') return null;
  const confirm = (event: FormEvent) => {
    event.preventDefault();
    // The form is not the order's: the dialog sits in the page's body.
    event.stopPropagation();
    if (reason.trim() === '') {
      setMissing(true);
      return;
    }
    setMissing(false);
    onConfirm(reason.trim());
  };
  return createPortal(
    <dialog
      ref={dialog}
      className="admin-dialog admin-dialog--small"
      aria-labelledby="cancel-heading"
      onClose={onClose}
    >
      <form className="admin-form" onSubmit={confirm} noValidate>
        <header className="admin-dialog__head">
          <h2 id="cancel-heading">{t('admin-cancel-heading', { id: orderId })}</h2>
        </header>
        <TextAreaField
          name="reason"
          label={t('admin-cancel-reason')}
          hint={t('admin-cancel-reason-hint')}
          value={reason}
          onChange={(event) => {
            setReason(event.target.value);
            setMissing(false);
          }}
          errors={missing ? [translateError(locale, 'cancel-reason-required')] : serverErrors}
          maxLength={500}
          required
        />
        <footer className="admin-dialog__foot">
          <BusyButton busy={busy} primary>
            {t('admin-cancel-confirm')}
          </BusyButton>
          <button type="button" className="button" onClick={onClose}>
            {t('admin-cancel-back')}
          </button>
        </footer>
      </form>
    </dialog>,
    document.body,
  );
}

/** Whether the shipped mail went, and "send again" once it could go. */
function ShippedMail({ order }: { order: AdminOrder }) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const request = useAdminRequest();
  const ready = order.status === ORDER_STATUS.shipped && order.track_code !== null;
  const sendAgain = () =>
    void request.run(() => adminApi('POST', `/orders/${order.id}/shipped-mail`), {
      success: t('admin-shipped-mail-queued'),
    });
  return (
    <div className="admin-card" aria-live="polite">
      {request.done ? <FormSuccess>{request.done}</FormSuccess> : null}
      <RequestAlert message={request.message} errors={request.errors} shownFields={[]} />
      <p>
        {order.shipped_mail_at
          ? t('admin-shipped-mail-sent', { date: format.dateTime(order.shipped_mail_at) })
          : t('admin-shipped-mail-pending')}
      </p>
      {ready && order.shipped_mail_at ? (
        <BusyButton busy={request.busy} type="button" onClick={sendAgain}>
          {t('admin-shipped-mail-again')}
        </BusyButton>
      ) : null}
    </div>
  );
}

export default function OrderPage({ loaderData }: Route.ComponentProps) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const paymentMethodName = usePaymentMethodName();
  const statusText = useOrderStatusText();
  const { order, payments, shipments, timeline } = loaderData;
  const revalidator = useRevalidator();
  const [generation, setGeneration] = useState(0);
  const reload = async () => {
    await revalidator.revalidate();
    setGeneration((current) => current + 1);
  };
  const method = deliveryMethodKey(order.delivery_method);
  const itemsTotal = order.products.reduce((sum, item) => sum + unitPrice(item) * item.count, 0);
  const money = useOrderMoney(order.currency, order.usd_rate);
  // A dollar order's amounts as charged, by the shop's one rule (ADR 0050), roubles beside them.
  const charged =
    order.currency === 'USD' && order.usd_rate !== null
      ? amountsIn(
          'USD',
          order.usd_rate,
          order.products.map((item) => ({
            unit: roublesToKopecks(unitPrice(item)),
            count: item.count,
            discount: roublesToKopecks(item.discount),
          })),
          roublesToKopecks(order.delivery_cost),
        )
      : null;
  /** Roubles as they are; for a dollar order the dollars charged first, the roubles beside. */
  const shown = (roubles: number, dollars: number | undefined) =>
    charged && dollars !== undefined
      ? `${money.charged(dollars)} (${format.money(roubles)})`
      : format.money(roubles);

  return (
    <AdminPage
      title={t('admin-order-title', { id: order.id })}
      actions={
        <>
          <Link to={`/admin/orders/${order.id}/packing-slip`} className="button">
            {t('admin-packing-slip')}
          </Link>
          <Link to="/admin/orders" className="button">
            {t('admin-back-to-orders')}
          </Link>
        </>
      }
    >
      <p className="admin-order-summary">
        <span className={`admin-status admin-status--${order.status}`}>{statusText(order.status)}</span>{' '}
        {format.dateTime(order.date)} · {t('admin-order-language', { locale: order.locale.toUpperCase() })}
      </p>
      <div className="admin-columns">
        <section className="admin-card" aria-labelledby="customer-heading">
          <h2 id="customer-heading">{t('admin-customer')}</h2>
          <dl className="admin-details">
            <dt>{t('admin-customer-name')}</dt>
            <dd>
              {order.first_name} {order.last_name}
            </dd>
            <dt>{t('email')}</dt>
            <dd>
              <a href={`mailto:${order.email}`}>{order.email}</a>
            </dd>
            <dt>{t('phone')}</dt>
            <dd>{order.phone}</dd>
            <dt>{t('admin-payment-method')}</dt>
            <dd>{paymentMethodName(order.payment_method)}</dd>
          </dl>
        </section>
        <section className="admin-card" aria-labelledby="delivery-heading">
          <h2 id="delivery-heading">{t('admin-delivery')}</h2>
          <dl className="admin-details">
            <dt>{t('delivery-method')}</dt>
            <dd>{method ? t(method) : order.delivery_method}</dd>
            <dt>{t('country')}</dt>
            <dd>{format.country(order.delivery_country)}</dd>
            <dt>{t('city')}</dt>
            <dd>{order.delivery_city}</dd>
            <dt>{t('zip')}</dt>
            <dd>{order.delivery_zip}</dd>
            <dt>{t('address')}</dt>
            <dd>{order.delivery_address}</dd>
            <dt>{t('admin-delivery-cost')}</dt>
            <dd>{format.money(order.delivery_cost)}</dd>
            {order.comment ? (
              <>
                <dt>{t('admin-customer-comment')}</dt>
                <dd className="admin-prewrap">{order.comment}</dd>
              </>
            ) : null}
          </dl>
        </section>
      </div>

      <section className="admin-card" aria-labelledby="items-heading">
        <h2 id="items-heading">{t('admin-items')}</h2>
        <div className="admin-table-scroll">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">{t('admin-product')}</th>
                <th scope="col">{t('admin-price')}</th>
                <th scope="col">{t('admin-count')}</th>
                <th scope="col">{t('admin-sum')}</th>
              </tr>
            </thead>
            <tbody>
              {order.products.map((item, index) => (
                <tr key={item.sku}>
                  <td>
                    <div className="admin-order-item">
                      {item.image ? (
                        <img
                          src={imageUrl('products', item.image, 160)}
                          alt=""
                          width={48}
                          height={48}
                          loading="lazy"
                        />
                      ) : null}
                      <div>
                        <Link to={`/admin/products/${item.id}`}>{item.name}</Link>
                        {item.options ? <div>{item.options}</div> : null}
                        <div className="admin-muted">{t('admin-sku-of', { sku: item.sku })}</div>
                      </div>
                    </div>
                  </td>
                  <td>
                    {shown(unitPrice(item), charged?.units[index])}
                    {item.sale !== null ? <s className="admin-muted"> {format.money(item.price)}</s> : null}
                  </td>
                  <td>{item.count}</td>
                  <td>{shown(unitPrice(item) * item.count - item.discount, charged?.lines[index])}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              {order.promo_code !== null || order.discount > 0 ? (
                <tr>
                  <th scope="row" colSpan={3}>
                    {t('promo-discount')} {order.promo_code}
                  </th>
                  <td>
                    −
                    {shown(
                      order.discount,
                      charged
                        ? charged.units.reduce(
                            (sum, unit, index) => sum + unit * (order.products[index]?.count ?? 0),
                            0,
                          ) - charged.products
                        : undefined,
                    )}
                  </td>
                </tr>
              ) : null}
              <tr>
                <th scope="row" colSpan={3}>
                  {t('admin-products-cost')}
                </th>
                <td>{shown(order.products_cost || itemsTotal, charged?.products)}</td>
              </tr>
              <tr>
                <th scope="row" colSpan={3}>
                  {t('admin-delivery-cost')}
                </th>
                <td>{shown(order.delivery_cost, charged?.delivery)}</td>
              </tr>
              <tr>
                <th scope="row" colSpan={3}>
                  {t('admin-total-cost')}
                </th>
                <td>
                  <strong>{shown(order.products_cost + order.delivery_cost, charged?.total)}</strong>
                </td>
              </tr>
            </tfoot>
          </table>
        </div>
        {money.rateText ? <p className="admin-muted">{money.rateText}</p> : null}
      </section>

      <OrderCustoms order={order} />
      <OrderShipmentsSection key={`shipments-${order.id}`} order={order} shipments={shipments} />
      {/* "Load their version" starts the editor afresh from the order as saved now. */}
      <OrderEditor key={`${order.id}-${generation}`} order={order} onReload={reload} />
      <ShippedMail order={order} />

      <OrderPaymentsSection key={`payments-${order.id}`} order={order} payments={payments} />
      <OrderReceiptsSection receipts={order.receipts} />

      <OrderTimeline order={order} events={timeline} />
    </AdminPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
