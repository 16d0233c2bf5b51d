import { type FormEvent, useState } from 'react';
import { Link, useRevalidator } from 'react-router';
import { type StatusReason, statusReasonOf } from '../../../contract/status-reasons.ts';
import { adminApi, loadAdmin } from '../../admin/api.ts';
import { OrderPaymentsSection } from '../../admin/order-payments.tsx';
import { OrderReceiptsSection } from '../../admin/order-receipts.tsx';
import { OrderCustoms, OrderShipmentsSection } from '../../admin/order-shipping.tsx';
import { StaffNotes } from '../../admin/staff-notes.tsx';
import { PROVIDER_NAMES, useAdminShop, usePaymentMethodName } from '../../admin/text.ts';
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
import { FormField, FormSuccess, SelectField } from '../../components/form-field.tsx';
import type { AdminMessageKey } from '../../i18n/admin-messages.ts';
import type { Route } from './+types/order';

export async function clientLoader({ request, params }: Route.ClientLoaderArgs) {
  const path = `/orders/${encodeURIComponent(params.id)}`;
  const [{ order }, { payments }, { shipments }] = await Promise.all([
    loadAdmin<{ order: AdminOrder }>(path, request),
    loadAdmin<{ payments: OrderPayments }>(`${path}/payments`, request),
    loadAdmin<{ shipments: OrderShipmentList }>(`${path}/shipments`, request),
  ]);
  return { order, payments, shipments };
}

export function HydrateFallback() {
  return <AdminLoading />;
}

const STATUS_REASON_TEXTS: Record<StatusReason, AdminMessageKey> = {
  placed: 'admin-status-reason-placed',
  replaced: 'admin-status-reason-replaced',
  paid: 'admin-status-reason-paid',
  'paid-late-restocked': 'admin-status-reason-paid-late-restocked',
  'paid-late-out-of-stock': 'admin-status-reason-paid-late-out-of-stock',
  refunded: 'admin-status-reason-refunded',
  cancelled: 'admin-status-reason-cancelled',
  expired: 'admin-status-reason-expired',
};

/** A status history entry's reason in the staff member's language (codes of contract/status-reasons.ts). */
function useStatusReasonText() {
  const { t } = useAdminShop();
  return (stored: string) => {
    const known = statusReasonOf(stored);
    if (!known) return stored;
    const provider = known.provider ? (PROVIDER_NAMES[known.provider] ?? known.provider) : '';
    return t(STATUS_REASON_TEXTS[known.reason], { provider });
  };
}

const EDITABLE = ['track_code', 'delivery_cost_actual', 'status'];

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

  // Only the fields changed here, with the values they were loaded with: a save from another
  // screen of a different field (a track code, say) is kept, not overwritten (ADR 0022).
  const save = (event: FormEvent) => {
    event.preventDefault();
    const changed = (Object.keys(values) as (keyof Values)[]).filter(
      (field) => values[field] !== loaded[field],
    );
    const pick = (source: Values) => Object.fromEntries(changed.map((field) => [field, source[field]]));
    const saving = values;
    void request
      .run(
        () =>
          adminApi('PATCH', `/orders/${order.id}`, {
            json: { ...pick(values), version: order.version, base: pick(loaded) },
          }),
        { success: t('admin-order-saved') },
      )
      .then((answer) => {
        if (answer) setLoaded(saving);
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
    </form>
  );
}

/** Whether the shipped mail went, and "send again" once it could go. */
function ShippedMail({ order }: { order: AdminOrder }) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const request = useAdminRequest();
  const ready = order.status === 5 && order.track_code !== null;
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
  const statusReasonText = useStatusReasonText();
  const paymentMethodName = usePaymentMethodName();
  const statusText = useOrderStatusText();
  const { order, payments, shipments } = loaderData;
  const revalidator = useRevalidator();
  const [generation, setGeneration] = useState(0);
  const reload = async () => {
    await revalidator.revalidate();
    setGeneration((current) => current + 1);
  };
  const method = deliveryMethodKey(order.delivery_method);
  const itemsTotal = order.products.reduce((sum, item) => sum + (item.sale ?? item.price) * item.count, 0);

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
              {order.products.map((item) => (
                <tr key={item.sku}>
                  <td>
                    <Link to={`/admin/products/${item.id}`}>{item.name}</Link>
                    {item.options ? <div>{item.options}</div> : null}
                    <div className="admin-muted">{t('admin-sku-of', { sku: item.sku })}</div>
                  </td>
                  <td>
                    {format.money(item.sale ?? item.price)}
                    {item.sale !== null ? <s className="admin-muted"> {format.money(item.price)}</s> : null}
                  </td>
                  <td>{item.count}</td>
                  <td>{format.money((item.sale ?? item.price) * item.count - item.discount)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              {order.promo_code !== null || order.discount > 0 ? (
                <tr>
                  <th scope="row" colSpan={3}>
                    {t('promo-discount')} {order.promo_code}
                  </th>
                  <td>−{format.money(order.discount)}</td>
                </tr>
              ) : null}
              <tr>
                <th scope="row" colSpan={3}>
                  {t('admin-products-cost')}
                </th>
                <td>{format.money(order.products_cost || itemsTotal)}</td>
              </tr>
              <tr>
                <th scope="row" colSpan={3}>
                  {t('admin-delivery-cost')}
                </th>
                <td>{format.money(order.delivery_cost)}</td>
              </tr>
              <tr>
                <th scope="row" colSpan={3}>
                  {t('admin-total-cost')}
                </th>
                <td>
                  <strong>{format.money(order.products_cost + order.delivery_cost)}</strong>
                </td>
              </tr>
            </tfoot>
          </table>
        </div>
      </section>

      <OrderCustoms order={order} />
      <OrderShipmentsSection
        key={`shipments-${order.id}-${shipments.list.length}`}
        order={order}
        shipments={shipments}
      />
      {/* "Load their version" starts the editor afresh from the order as saved now. */}
      <OrderEditor key={`${order.id}-${generation}`} order={order} onReload={reload} />
      <ShippedMail order={order} />
      <StaffNotes notes={order.notes} path={`/orders/${order.id}/notes`} />

      <OrderPaymentsSection key={`payments-${order.id}`} order={order} payments={payments} />
      <OrderReceiptsSection receipts={order.receipts} />

      <section className="admin-card" aria-labelledby="history-heading">
        <h2 id="history-heading">{t('admin-status-history')}</h2>
        {order.history.length === 0 ? (
          <p>{t('admin-status-history-empty')}</p>
        ) : (
          <ol className="admin-history">
            {order.history.map((entry) => (
              <li key={`${entry.date}-${entry.status}`}>
                <time dateTime={entry.date}>{format.dateTime(entry.date)}</time>{' '}
                <span className={`admin-status admin-status--${entry.status}`}>
                  {statusText(entry.status)}
                </span>
                {entry.reason ? (
                  <span className="admin-muted"> · {statusReasonText(entry.reason)}</span>
                ) : null}
                <span className="admin-muted">
                  {' · '}
                  {entry.author
                    ? t('admin-status-changed-by', { author: entry.author })
                    : t('admin-status-by-shop')}
                </span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </AdminPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
