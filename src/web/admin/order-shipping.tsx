import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { isToShipStatus } from '../../contract/order-status.ts';
import { adminApi } from './api.ts';
import { CUSTOMS_FIELD_LABELS, CustomsItems } from './customs-items.tsx';
import { useAdminShop } from './text.ts';
import type { AdminOrder, OrderShipments as OrderShipmentList } from './types.ts';
import { BusyButton, RequestAlert, useAdminFormat, useAdminRequest } from './ui.tsx';

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
      <div className="admin-table-scroll">
        <CustomsItems items={order.customs} currency={order.currency} />
      </div>
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
  const request = useAdminRequest();
  const carrier = order.delivery_method === 'russian_post' ? 'russian_post' : 'boxberry';
  const toShip = isToShipStatus(order.status);
  const names = new Map(order.products.map((item) => [item.sku, item.name]));
  const send = (items: Array<{ sku: string; count: number }>) =>
    request.run(() => adminApi('POST', `/orders/${order.id}/shipments`, { json: { items } }), {
      success: t('admin-shipment-done'),
    });
  const documents = `/api/admin/orders/${order.id}/shipments`;
  return (
    <section className="admin-card" aria-labelledby="shipments-heading" aria-live="polite">
      <h2 id="shipments-heading">{t('admin-shipments')}</h2>
      {request.done ? <p role="status">{request.done}</p> : null}
      <RequestAlert message={request.message} errors={request.errors} shownFields={[]} />
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
              <BusyButton busy={request.busy} type="button" onClick={() => void send(shipment.items)}>
                {t('admin-shipment-retry')}
              </BusyButton>
            ) : null}
          </li>
        ))}
      </ul>
      {toShip && shipments.left.length > 0 ? (
        // Counts start afresh from what is left whenever a parcel took some.
        <NewParcelForm
          key={shipments.left.map((line) => `${line.sku}*${line.count}`).join(',')}
          left={shipments.left}
          names={names}
          busy={request.busy}
          label={t('admin-shipment-create', { carrier: t(CARRIER_NAMES[carrier]) })}
          onSend={send}
        />
      ) : null}
    </section>
  );
}

/** The next parcel: how many of each item left to ship go in it (all by default). */
function NewParcelForm({
  left,
  names,
  busy,
  label,
  onSend,
}: {
  left: OrderShipmentList['left'];
  names: Map<string, string>;
  busy: boolean;
  label: string;
  onSend: (items: Array<{ sku: string; count: number }>) => Promise<unknown>;
}) {
  const { t } = useAdminShop();
  const [counts, setCounts] = useState<Record<string, string>>(() =>
    Object.fromEntries(left.map((line) => [line.sku, String(line.count)])),
  );
  const create = (event: FormEvent) => {
    event.preventDefault();
    void onSend(
      left.flatMap((line) => {
        const count = Number(counts[line.sku] ?? 0);
        return count > 0 ? [{ sku: line.sku, count }] : [];
      }),
    );
  };
  return (
    <form onSubmit={create} className="admin-form">
      <h3>{t('admin-shipment-new')}</h3>
      {left.map((line) => (
        <div className="form-field" key={line.sku}>
          <label htmlFor={`ship-${line.sku}`}>
            {names.get(line.sku) ?? line.sku} ({t('admin-shipment-left', { count: line.count })})
          </label>
          <input
            id={`ship-${line.sku}`}
            type="number"
            min={0}
            max={line.count}
            step={1}
            value={counts[line.sku] ?? ''}
            onChange={(event) => setCounts((current) => ({ ...current, [line.sku]: event.target.value }))}
          />
        </div>
      ))}
      <BusyButton busy={busy} primary>
        {label}
      </BusyButton>
    </form>
  );
}
