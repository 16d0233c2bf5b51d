import type { ReactNode } from 'react';
import { majorToMinor } from '../../contract/money.ts';
import type { OrderTimelineEvent } from '../../contract/order-timeline.ts';
import { type StatusReason, statusReasonOf } from '../../contract/status-reasons.ts';
import type { AdminMessageKey } from '../i18n/admin-messages.ts';
import { useOrderMoney } from './order-money.ts';
import { refundStateText } from './order-payments.tsx';
import { CARRIER_NAMES } from './order-shipping.tsx';
import { StaffNoteForm } from './staff-notes.tsx';
import { STOCK_REASON_TEXTS } from './stock-history.tsx';
import { providerName, useAdminShop } from './text.ts';
import type { AdminOrder } from './types.ts';
import { useAdminFormat, useOrderStatusText } from './ui.tsx';

const STATUS_REASON_TEXTS: Record<StatusReason, AdminMessageKey> = {
  placed: 'admin-status-reason-placed',
  replaced: 'admin-status-reason-replaced',
  paid: 'admin-status-reason-paid',
  'paid-late-restocked': 'admin-status-reason-paid-late-restocked',
  'paid-late-out-of-stock': 'admin-status-reason-paid-late-out-of-stock',
  refunded: 'admin-status-reason-refunded',
  cancelled: 'admin-status-reason-cancelled',
  'cancelled-by-staff': 'admin-status-reason-cancelled-by-staff',
  expired: 'admin-status-reason-expired',
};

/** A status move's reason in the staff member's language (codes of contract/status-reasons.ts). */
function useStatusReasonText() {
  const { t } = useAdminShop();
  return (stored: string) => {
    const known = statusReasonOf(stored);
    if (!known) return stored;
    const provider = known.provider ? providerName(known.provider) : '';
    if (known.note === undefined) return t(STATUS_REASON_TEXTS[known.reason], { provider });
    return known.reason === 'refunded'
      ? t('admin-status-reason-refunded-because', { provider, note: known.note })
      : t('admin-status-reason-cancelled-by-staff', { note: known.note });
  };
}

const TRACKING_TEXTS = {
  moving: 'admin-tracking-moving',
  waiting: 'admin-tracking-waiting',
  delivered: 'admin-tracking-delivered',
  returned: 'admin-tracking-returned',
} as const satisfies Record<string, AdminMessageKey>;

const KIND_TEXTS = {
  status: 'admin-timeline-status',
  note: 'admin-timeline-note',
  payment: 'admin-timeline-payment',
  refund: 'admin-timeline-refund',
  mail: 'admin-timeline-mail',
  stock: 'admin-timeline-stock',
  shipment: 'admin-timeline-shipment',
  tracking: 'admin-timeline-tracking',
} as const satisfies Record<OrderTimelineEvent['kind'], AdminMessageKey>;

const carrierText = (carrier: string) =>
  carrier === 'russian_post' || carrier === 'boxberry' ? CARRIER_NAMES[carrier] : undefined;

/**
 * The order's timeline (ADR 0067): status moves with who made them, notes, payments, refunds,
 * mails, stock movements, parcels and the carriers' tracking events in one feed, newest first, with
 * the form that adds a note on top (as a manager reads it: what happened last, first).
 */
export function OrderTimeline({ order, events }: { order: AdminOrder; events: OrderTimelineEvent[] }) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const statusText = useOrderStatusText();
  const reasonText = useStatusReasonText();
  const money = useOrderMoney(order.currency, order.usd_rate);
  const roublesOnly = useOrderMoney('RUB', null);
  const names = new Map(order.products.map((item) => [item.sku, item.name]));
  const itemName = (sku: string) => names.get(sku) ?? sku;
  const amount = (value: string, currency: string) =>
    currency === order.currency
      ? money.both(majorToMinor(Number(value)))
      : currency === 'RUB'
        ? roublesOnly.charged(majorToMinor(Number(value)))
        : `${value} ${currency}`;

  // Who did what nobody on the staff did: the carrier, the payment provider, or the shop itself.
  const byWhom = (event: OrderTimelineEvent) => {
    if (event.kind === 'tracking') {
      const carrier = carrierText(event.carrier);
      return carrier ? t(carrier) : event.carrier;
    }
    if (event.kind === 'payment' || event.kind === 'refund') return providerName(event.provider);
    return t('admin-timeline-by-shop');
  };

  const describe = (event: OrderTimelineEvent): ReactNode => {
    switch (event.kind) {
      case 'status':
        return (
          <>
            <span className={`admin-status admin-status--${event.status}`}>{statusText(event.status)}</span>
            {event.reason ? <span className="admin-muted"> · {reasonText(event.reason)}</span> : null}
          </>
        );
      case 'note':
        return <span className="admin-timeline__body">{event.body}</span>;
      case 'payment':
        return t(event.accepted ? 'admin-timeline-paid' : 'admin-timeline-payment-refused', {
          amount: amount(event.amount, event.currency),
          provider: providerName(event.provider),
        });
      case 'refund':
        return t('admin-timeline-refunded', {
          amount: amount(event.amount, event.currency),
          provider: providerName(event.provider),
          state: refundStateText(t, event.state),
        });
      case 'mail':
        return (
          <>
            {t('admin-timeline-mailed', { to: event.to, subject: event.subject })}
            {event.sent_at ? null : <span className="admin-muted"> · {t('admin-timeline-mail-queued')}</span>}
          </>
        );
      case 'stock':
        return t('admin-timeline-stock-moved', {
          item: itemName(event.sku),
          delta: event.delta > 0 ? `+${event.delta}` : `−${-event.delta}`,
          reason: t(STOCK_REASON_TEXTS[event.reason]),
        });
      case 'shipment': {
        const carrier = carrierText(event.carrier);
        return (
          <>
            {t(event.state === 'failed' ? 'admin-timeline-parcel-failed' : 'admin-timeline-parcel', {
              carrier: carrier ? t(carrier) : event.carrier,
            })}
            {event.track_code ? (
              <>
                {' '}
                <code>{event.track_code}</code>
              </>
            ) : null}
            <span className="admin-muted">
              {' · '}
              {event.items.map((item) => `${itemName(item.sku)} × ${item.count}`).join(', ')}
            </span>
          </>
        );
      }
      case 'tracking':
        return (
          <>
            <strong>{t(TRACKING_TEXTS[event.event])}</strong> · {event.description}
            {event.location ? ` · ${event.location}` : null}
            {event.track_code ? (
              <span className="admin-muted">
                {' · '}
                <code>{event.track_code}</code>
              </span>
            ) : null}
          </>
        );
    }
  };

  return (
    <section className="admin-card" aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">{t('admin-timeline')}</h2>
      <StaffNoteForm />
      {events.length === 0 ? (
        <p className="admin-muted">{t('admin-timeline-empty')}</p>
      ) : (
        <ol className="admin-timeline admin-order-timeline">
          {events
            .map((event, index) => ({ event, key: `${event.kind}-${event.at}-${index}` }))
            .reverse()
            .map(({ event, key }) => (
              <li key={key} className={`admin-order-timeline__${event.kind}`}>
                <p className="admin-muted admin-order-timeline__meta">
                  <time dateTime={event.at}>{format.dateTime(event.at)}</time> · {t(KIND_TEXTS[event.kind])}
                  {' · '}
                  {event.by ?? byWhom(event)}
                </p>
                <p className="admin-order-timeline__what">{describe(event)}</p>
              </li>
            ))}
        </ol>
      )}
    </section>
  );
}
