import { getFormProps } from '@conform-to/react';
import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { Link, useFetcher } from 'react-router';
import { orderUpdate } from '../../../contract/admin.ts';
import {
  adminOrderResponse,
  orderPaymentsResponse,
  orderShipmentsResponse,
} from '../../../contract/admin-answers.ts';
import { imageUrl } from '../../../contract/images.ts';
import { amountsIn, roublesToKopecks, unitPrice } from '../../../contract/money.ts';
import { ORDER_STATUS } from '../../../contract/order-status.ts';
import { orderTimelineResponse } from '../../../contract/order-timeline.ts';
import { adminApi, loadAdminAnswer } from '../../admin/api.ts';
import {
  adminWrite,
  fieldProps,
  formAlert,
  revalidateUnlessRefused,
  submitAdminForm,
  useAdminForm,
} from '../../admin/forms.ts';
import { useOrderMoney } from '../../admin/order-money.ts';
import { OrderPaymentsSection, refundOrder } from '../../admin/order-payments.tsx';
import { OrderReceiptsSection } from '../../admin/order-receipts.tsx';
import { createShipment, OrderCustoms, OrderShipmentsSection } from '../../admin/order-shipping.tsx';
import { OrderTimeline } from '../../admin/order-timeline.tsx';
import { addStaffNote } from '../../admin/staff-notes.tsx';
import { useAdminShop, usePaymentMethodName } from '../../admin/text.ts';
import type { AdminOrder } from '../../admin/types.ts';
import {
  AdminErrorBoundary,
  AdminLoading,
  AdminPage,
  BusyButton,
  deliveryMethodKey,
  FormRefusal,
  RequestAlert,
  useAdminFormat,
  useOrderStatusText,
} from '../../admin/ui.tsx';
import { useUnsavedChanges } from '../../admin/unsaved-changes.tsx';
import { FormField, FormSuccess, SelectField, TextAreaField } from '../../components/form-field.tsx';
import type { Route } from './+types/order';

export async function clientLoader({ request, params }: Route.ClientLoaderArgs) {
  const path = `/orders/${encodeURIComponent(params.id)}`;
  const [{ order }, { payments }, { shipments }, { timeline }] = await Promise.all([
    loadAdminAnswer(adminOrderResponse, path, request),
    loadAdminAnswer(orderPaymentsResponse, `${path}/payments`, request),
    loadAdminAnswer(orderShipmentsResponse, `${path}/shipments`, request),
    loadAdminAnswer(orderTimelineResponse, `${path}/timeline`, request),
  ]);
  return { order, payments, shipments, timeline };
}

/**
 * The order page's writes, one per `intent`: the editor's save, the shipped mail again, a parcel,
 * a refund and its check, a staff note. The page's data loads again after each one that went through.
 */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const formData = await request.formData();
  const path = `/orders/${encodeURIComponent(params.id)}`;
  const intent = formData.get('intent');
  switch (intent) {
    case 'save':
      return { intent, ...(await submitAdminForm(formData, { schema: orderEdit, send: saveOrder(path) })) };
    case 'shipped-mail':
      return { intent, ...(await adminWrite(() => adminApi('POST', `${path}/shipped-mail`))) };
    case 'shipment':
      return { intent, ...(await createShipment(formData, path)) };
    case 'refund':
      return { intent, ...(await refundOrder(formData, path)) };
    case 'check-refund':
      return {
        intent,
        ...(await adminWrite(() =>
          adminApi('POST', `${path}/refunds/${encodeURIComponent(String(formData.get('refund')))}/check`),
        )),
      };
    case 'note':
      return { intent, ...(await addStaffNote(formData, `${path}/notes`)) };
    default:
      throw new Response(null, { status: 400 });
  }
}

export type OrderAction = typeof clientAction;

export const shouldRevalidate = revalidateUnlessRefused;

export function HydrateFallback() {
  return <AdminLoading />;
}

const EDITABLE = ['track_code', 'delivery_cost_actual', 'status', 'reason'];
const CHANGEABLE = ['track_code', 'delivery_cost_actual', 'status'] as const;

/** The editor's fields as the order holds them: what the form starts from, and the `base` it sends. */
const valuesOf = (order: AdminOrder) => ({
  track_code: order.track_code ?? '',
  delivery_cost_actual: order.delivery_cost_actual === null ? '' : String(order.delivery_cost_actual),
  status: String(order.status),
});

/** The save as the editor checks it: cancelling an order takes the reason the customer is told. */
const orderEdit = orderUpdate.superRefine((edit, context) => {
  if (
    edit.status === ORDER_STATUS.cancelled &&
    edit.base?.status !== ORDER_STATUS.cancelled &&
    !edit.reason
  ) {
    context.addIssue({ code: 'custom', path: ['reason'], message: 'cancel-reason-required' });
  }
});

/**
 * Only the fields changed in the editor, with the values they were loaded with: a save from
 * another screen of a different field (a track code, say) is kept, not overwritten (ADR 0022).
 */
const saveOrder = (path: string) => (fields: Record<string, unknown>) => {
  const loaded = (fields.base ?? {}) as Record<string, unknown>;
  const changed = CHANGEABLE.filter((field) => (fields[field] ?? '') !== (loaded[field] ?? ''));
  const pick = (source: Record<string, unknown>) =>
    Object.fromEntries(changed.map((field) => [field, source[field] ?? '']));
  return adminApi('PATCH', path, {
    json: {
      ...pick(fields),
      ...(fields.reason ? { reason: fields.reason } : {}),
      version: fields.version,
      base: pick(loaded),
    },
  });
};

/** The editor's save, named so that the page keeps it (and its answer) while the editor starts afresh. */
const orderSaveKey = (orderId: number) => `order-${orderId}-save`;

function OrderEditor({ order }: { order: AdminOrder }) {
  const { t } = useAdminShop();
  const statusText = useOrderStatusText();
  const fetcher = useFetcher<OrderAction>({ key: orderSaveKey(order.id) });
  const outcome = fetcher.data?.intent === 'save' ? fetcher.data : undefined;
  const loaded = valuesOf(order);
  const [form, fields] = useAdminForm({
    id: `order-${order.id}-edit`,
    schema: orderEdit,
    // A save that went through starts the editor afresh from the order as saved (its key).
    lastResult: outcome?.ok === false ? outcome.result : undefined,
    defaultValue: { ...loaded, reason: '', version: String(order.version), base: loaded },
  });
  useUnsavedChanges(form.dirty === true);
  const busy = fetcher.state !== 'idle';

  // Cancelling asks why first (the customer reads it in the cancellation mail).
  const cancelling =
    fields.status.value === String(ORDER_STATUS.cancelled) &&
    loaded.status !== String(ORDER_STATUS.cancelled);
  const dialog = useRef<HTMLDialogElement>(null);
  const formProps = getFormProps(form);
  const save = (event: React.FormEvent<HTMLFormElement>) => {
    if (cancelling && !dialog.current?.open) {
      event.preventDefault();
      dialog.current?.showModal();
      return;
    }
    formProps.onSubmit(event);
  };
  const done = outcome?.ok === true;
  useEffect(() => {
    if (done) dialog.current?.close();
  }, [done]);
  const alert = formAlert(form);

  return (
    <fetcher.Form
      method="post"
      {...formProps}
      onSubmit={save}
      className="admin-card admin-form"
      aria-labelledby="order-edit-heading"
    >
      <h2 id="order-edit-heading">{t('admin-order-handling')}</h2>
      {done ? <FormSuccess>{t('admin-order-saved')}</FormSuccess> : null}
      <FormRefusal alert={alert} outcome={outcome} shownFields={EDITABLE} />
      <input type="hidden" name="version" value={order.version} />
      {CHANGEABLE.map((field) => (
        <input key={field} type="hidden" name={`base.${field}`} value={loaded[field]} />
      ))}
      <div className="admin-form__grid">
        <SelectField
          {...fieldProps(fields.status)}
          label={t('admin-status')}
          hint={t('admin-shipped-mail-hint')}
        >
          {[order.status, ...order.nextStatuses].map((status) => (
            <option key={status} value={status}>
              {statusText(status)}
            </option>
          ))}
        </SelectField>
        <FormField {...fieldProps(fields.track_code)} label={t('admin-track-code')} />
        <FormField
          {...fieldProps(fields.delivery_cost_actual)}
          type="number"
          min={0}
          step="0.01"
          label={t('admin-delivery-cost-actual')}
        />
      </div>
      <div className="admin-actions">
        <BusyButton busy={busy} primary name="intent" value="save">
          {t('save')}
        </BusyButton>
      </div>
      <CancelReasonDialog
        dialog={dialog}
        orderId={order.id}
        formId={form.id}
        busy={busy}
        reason={fieldProps(fields.reason)}
      />
    </fetcher.Form>
  );
}

/**
 * The question before staff cancel an order: why. A modal dialog (in the page's body, its field
 * and button the order form's) with one required field; its words go into the status history and
 * the customer's cancellation mail.
 */
function CancelReasonDialog({
  dialog,
  orderId,
  formId,
  busy,
  reason,
}: {
  dialog: React.RefObject<HTMLDialogElement | null>;
  orderId: number;
  formId: string;
  busy: boolean;
  reason: ReturnType<typeof fieldProps>;
}) {
  const { t } = useAdminShop();
  if (typeof document === 'undefined') return null;
  return createPortal(
    <dialog ref={dialog} className="admin-dialog admin-dialog--small" aria-labelledby="cancel-heading">
      <div className="admin-form">
        <header className="admin-dialog__head">
          <h2 id="cancel-heading">{t('admin-cancel-heading', { id: orderId })}</h2>
        </header>
        <TextAreaField
          {...reason}
          form={formId}
          label={t('admin-cancel-reason')}
          hint={t('admin-cancel-reason-hint')}
          maxLength={500}
          required
        />
        <footer className="admin-dialog__foot">
          <BusyButton busy={busy} primary form={formId} name="intent" value="save">
            {t('admin-cancel-confirm')}
          </BusyButton>
          <button type="button" className="button" onClick={() => dialog.current?.close()}>
            {t('admin-cancel-back')}
          </button>
        </footer>
      </div>
    </dialog>,
    document.body,
  );
}

/** Whether the shipped mail went, and "send again" once it could go. */
function ShippedMail({ order }: { order: AdminOrder }) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const fetcher = useFetcher<OrderAction>();
  const outcome = fetcher.data?.intent === 'shipped-mail' ? fetcher.data : undefined;
  const ready = order.status === ORDER_STATUS.shipped && order.track_code !== null;
  return (
    <div className="admin-card" aria-live="polite">
      {outcome && outcome.error === undefined ? (
        <FormSuccess>{t('admin-shipped-mail-queued')}</FormSuccess>
      ) : null}
      <RequestAlert message={outcome?.error} errors={{}} shownFields={[]} />
      <p>
        {order.shipped_mail_at
          ? t('admin-shipped-mail-sent', { date: format.dateTime(order.shipped_mail_at) })
          : t('admin-shipped-mail-pending')}
      </p>
      {ready && order.shipped_mail_at ? (
        <fetcher.Form method="post">
          <BusyButton busy={fetcher.state !== 'idle'} name="intent" value="shipped-mail">
            {t('admin-shipped-mail-again')}
          </BusyButton>
        </fetcher.Form>
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
  // The save outlives the editor that sent it (a saved order starts the editor afresh): its
  // "saved" stays on the screen.
  useFetcher<OrderAction>({ key: orderSaveKey(order.id) });
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
            {order.pickup_point_code ? (
              <>
                <dt>{t('admin-pickup-point-code')}</dt>
                <dd>{order.pickup_point_code}</dd>
              </>
            ) : null}
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
      {/* A saved order (this editor's save, or someone else's loaded here) starts the editor afresh. */}
      <OrderEditor key={`${order.id}-${order.version}`} order={order} />
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
