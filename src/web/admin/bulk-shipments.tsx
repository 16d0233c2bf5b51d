import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import type { ShipmentBulkResult as BulkResult } from '../../contract/customs.ts';
import { adminApi } from './api.ts';
import { useAdminShop } from './text.ts';
import { BusyButton, RequestAlert, useAdminRequest } from './ui.tsx';

export const BULK_SHIPMENTS_FORM = 'bulk-shipments';

/** The checkbox of one order in the list, part of the bulk form wherever the row is. */
export function ShipOrderCheckbox({ id }: { id: number }) {
  const { t } = useAdminShop();
  return (
    <input
      type="checkbox"
      name="order"
      value={id}
      form={BULK_SHIPMENTS_FORM}
      aria-label={t('admin-bulk-ship-order', { id })}
    />
  );
}

/**
 * Ships the ticked orders with their carriers at once (issue 31 point 2): the server makes each
 * order's parcel as the order page would (idempotent per order) and answers, per order, its track
 * codes or why the carrier refused, which this lists. The button shows while the page has orders
 * to tick (`offered`).
 */
export function BulkShipments({ offered }: { offered: boolean }) {
  const { t } = useAdminShop();
  const request = useAdminRequest();
  const [results, setResults] = useState<BulkResult[]>([]);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const orders = new FormData(event.currentTarget).getAll('order').map(Number);
    const answer = await request.run(() =>
      adminApi<{ results: BulkResult[] }>('POST', '/shipments', { json: { orders } }),
    );
    setResults(answer?.results ?? []);
  };
  return (
    <form id={BULK_SHIPMENTS_FORM} onSubmit={submit} className="admin-bulk-shipments" aria-live="polite">
      <RequestAlert message={request.message} errors={request.errors} shownFields={[]} />
      {offered ? <BusyButton busy={request.busy}>{t('admin-bulk-ship')}</BusyButton> : null}
      {results.length > 0 ? (
        <ul aria-label={t('admin-bulk-ship-results')}>
          {results.map((result) => (
            <li key={result.order} className={`admin-bulk-shipments__${result.outcome}`}>
              <Link to={`/admin/orders/${result.order}`}>{t('admin-order-link', { id: result.order })}</Link>
              {': '}
              {result.outcome === 'refused' ? (
                <>
                  {result.message}
                  {Object.values(result.errors)
                    .flat()
                    .filter((text) => text !== result.message)
                    .map((text) => (
                      <q key={text}> {text}</q>
                    ))}
                </>
              ) : (
                t(result.outcome === 'created' ? 'admin-bulk-ship-created' : 'admin-bulk-ship-existing', {
                  codes: result.track_codes.join(', '),
                })
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </form>
  );
}
