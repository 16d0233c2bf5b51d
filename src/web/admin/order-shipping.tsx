import { getFormProps } from '@conform-to/react';
import { Link, useFetcher } from 'react-router';
import { shipmentInput } from '../../contract/customs.ts';
import { isToShipStatus } from '../../contract/order-status.ts';
import type { OrderAction } from '../routes/admin/order.tsx';
import { adminApi } from './api.ts';
import { CUSTOMS_FIELD_LABELS, CustomsItems } from './customs-items.tsx';
import { type FormFields, formAlert, resultAlert, submitAdminForm, useAdminForm } from './forms.ts';
import { useAdminShop } from './text.ts';
import type { AdminOrder, OrderShipments as OrderShipmentList } from './types.ts';
import { BusyButton, RequestAlert, useAdminFormat } from './ui.tsx';

/**
 * The order page's customs declaration (ADR 0057): for a parcel abroad, the CN23 items and, while
 * some lack data, which items and what each lacks (the order cannot be marked ready to ship).
 */
export function OrderCustoms({ order }: { order: AdminOrder }) {
  const { t } = useAdminShop();
  if (!order.customs) return null;
  const incomplete = order.customs.filter((item) => item.missing.length > 0);
  return (
    <section className="admin-card" aria-labelledby="customs-heading">
      <h2 id="customs-heading">{t('admin-customs')}</h2>
      {incomplete.length > 0 ? (
        <div role="alert" className="admin-danger">
          <p>{t('admin-customs-incomplete')}</p>
          <ul>
            {incomplete.map((item) => (
              <li key={item.sku}>
                <Link to={`/admin/products/${item.product}`}>{item.name}</Link> ({item.sku}):{' '}
                {item.missing.map((field) => t(CUSTOMS_FIELD_LABELS[field])).join(', ')}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <CustomsItems items={order.customs} currency={order.currency} />
    </section>
  );
}

export const CARRIER_NAMES = {
  russian_post: 'admin-carrier-russian-post',
  boxberry: 'admin-carrier-boxberry',
} as const;
const STATE_NAMES = {
  creating: 'admin-shipment-creating',
  created: 'admin-shipment-created',
  failed: 'admin-shipment-failed',
} as const;

/** The parcel's items as posted, without those none of go in it now. */
const shippedNow = (fields: FormFields): FormFields => ({
  ...fields,
  items: (Array.isArray(fields.items) ? (fields.items as Array<{ count?: unknown }>) : []).filter(
    (item) => Number(item.count ?? 0) > 0,
  ),
});

/** The order page's action for a parcel: the items posted as `items[n].sku` and `items[n].count`. */
export const createShipment = (formData: FormData, orderPath: string) =>
  submitAdminForm(formData, {
    schema: shipmentInput,
    prepare: shippedNow,
    send: (fields) => adminApi('POST', `${orderPath}/shipments`, { json: fields }),
  });

/**
 * The order's parcels (ADR 0057): each with its carrier, track code, items and its label and CN23
 * to download; a failed one (the carrier was down) retried with the same items; and the items not
 * shipped yet, whose counts make the next parcel (some now, the rest later).
 */
export function OrderShipmentsSection({
  order,
  shipments,
}: {
  order: AdminOrder;
  shipments: OrderShipmentList;
}) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const fetcher = useFetcher<OrderAction>({ key: `shipments-${order.id}` });
  const outcome = fetcher.data?.intent === 'shipment' ? fetcher.data : undefined;
  const busy = fetcher.state !== 'idle';
  const carrier = order.delivery_method === 'russian_post' ? 'russian_post' : 'boxberry';
  const toShip = isToShipStatus(order.status);
  const names = new Map(order.products.map((item) => [item.sku, item.name]));
  const alert = resultAlert(outcome?.result);
  const documents = `/api/admin/orders/${order.id}/shipments`;
  return (
    <section className="admin-card" aria-labelledby="shipments-heading" aria-live="polite">
      <h2 id="shipments-heading">{t('admin-shipments')}</h2>
      {outcome?.ok ? <p role="status">{t('admin-shipment-done')}</p> : null}
      <RequestAlert message={alert.message} errors={alert.errors} shownFields={[]} />
      {shipments.list.length === 0 ? <p>{t('admin-shipments-empty')}</p> : null}
      <ul className="admin-shipments">
        {shipments.list.map((shipment) => (
          <li key={shipment.id}>
            <strong>{t(CARRIER_NAMES[shipment.carrier])}</strong> ·{' '}
            {t(STATE_NAMES[shipment.state as keyof typeof STATE_NAMES] ?? 'admin-shipment-creating')}
            {shipment.track_code ? (
              <>
                {' '}
                · {t('admin-track-code')}: <code>{shipment.track_code}</code>
              </>
            ) : null}
            {shipment.batch ? (
              <>
                {' '}
                · {t('admin-shipment-batch')}: <code>{shipment.batch}</code>
              </>
            ) : null}{' '}
            · {format.dateTime(shipment.created_at)}
            <div className="admin-muted">
              {shipment.items.map((item) => `${names.get(item.sku) ?? item.sku} × ${item.count}`).join(', ')}
            </div>
            {shipment.events.length > 0 ? (
              <ol className="admin-history" aria-label={t('admin-shipment-events')}>
                {shipment.events.map((event) => (
                  <li key={`${event.occurred_at}-${event.description}`}>
                    <time dateTime={event.occurred_at}>{format.dateTime(event.occurred_at)}</time>{' '}
                    {event.description}
                    {event.location ? <span className="admin-muted"> · {event.location}</span> : null}
                  </li>
                ))}
              </ol>
            ) : null}
            {shipment.state === 'created' ? (
              <p>
                <a href={`${documents}/${shipment.id}/label`} download>
                  {t('admin-shipment-label')}
                </a>
                {shipment.carrier === 'russian_post' && order.customs ? (
                  <>
                    {' · '}
                    <a href={`${documents}/${shipment.id}/cn23`} download>
                      {t('admin-shipment-cn23')}
                    </a>
                  </>
                ) : null}
              </p>
            ) : null}
            {shipment.state === 'failed' ? (
              <fetcher.Form method="post">
                {shipment.items.map((item, index) => (
                  <span key={item.sku}>
                    <input type="hidden" name={`items[${index}].sku`} value={item.sku} />
                    <input type="hidden" name={`items[${index}].count`} value={item.count} />
                  </span>
                ))}
                <BusyButton busy={busy} name="intent" value="shipment">
                  {t('admin-shipment-retry')}
                </BusyButton>
              </fetcher.Form>
            ) : null}
          </li>
        ))}
      </ul>
      {toShip && shipments.left.length > 0 ? (
        // Counts start afresh from what is left whenever a parcel took some.
        <NewParcelForm
          key={shipments.left.map((line) => `${line.sku}*${line.count}`).join(',')}
          orderId={order.id}
          left={shipments.left}
          names={names}
          label={t('admin-shipment-create', { carrier: t(CARRIER_NAMES[carrier]) })}
        />
      ) : null}
    </section>
  );
}

/** The next parcel: how many of each item left to ship go in it (all by default). */
function NewParcelForm({
  orderId,
  left,
  names,
  label,
}: {
  orderId: number;
  left: OrderShipmentList['left'];
  names: Map<string, string>;
  label: string;
}) {
  const { t } = useAdminShop();
  const fetcher = useFetcher<OrderAction>({ key: `shipments-${orderId}` });
  // The section shows what the API said; the form what its own check found.
  const [form] = useAdminForm({ schema: shipmentInput, prepare: shippedNow, lastResult: undefined });
  const alert = formAlert(form);
  return (
    <fetcher.Form method="post" {...getFormProps(form)} className="admin-form">
      <h3>{t('admin-shipment-new')}</h3>
      <RequestAlert message={alert.message} errors={alert.errors} shownFields={[]} />
      {left.map((line, index) => (
        <div className="form-field" key={line.sku}>
          <label htmlFor={`ship-${line.sku}`}>
            {names.get(line.sku) ?? line.sku} ({t('admin-shipment-left', { count: line.count })})
          </label>
          <input type="hidden" name={`items[${index}].sku`} value={line.sku} />
          <input
            id={`ship-${line.sku}`}
            name={`items[${index}].count`}
            type="number"
            min={0}
            max={line.count}
            step={1}
            defaultValue={line.count}
          />
        </div>
      ))}
      <BusyButton busy={fetcher.state !== 'idle'} primary name="intent" value="shipment">
        {label}
      </BusyButton>
    </fetcher.Form>
  );
}
