import { getFormProps } from '@conform-to/react';
import { Link, useFetcher } from 'react-router';
import { shipmentBulkInput, shipmentBulkResponse } from '../../contract/customs.ts';
import { adminCall, type FormFields, formAlert, submitAdminForm, useAdminForm } from './forms.ts';
import { useAdminShop } from './text.ts';
import { BusyButton, RequestAlert } from './ui.tsx';

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

/** The ticked orders (each checkbox sends `order`) as the API reads them. */
const tickedOrders = (fields: FormFields): FormFields => ({
  orders: [fields.order ?? []].flat(),
});

/** The orders list's action: ships the ticked orders and answers each one's outcome. */
export const shipOrders = async (formData: FormData) =>
  submitAdminForm(formData, {
    schema: shipmentBulkInput,
    prepare: tickedOrders,
    send: (fields) => adminCall(shipmentBulkResponse, 'POST', '/shipments', { json: fields }),
  });

/**
 * Ships the ticked orders with their carriers at once (issue 31 point 2): the server makes each
 * order's parcel as the order page would (idempotent per order) and answers, per order, its track
 * codes or why the carrier refused, which this lists. The button shows while the page has orders
 * to tick (`offered`).
 */
export function BulkShipments({ offered }: { offered: boolean }) {
  const { t } = useAdminShop();
  const fetcher = useFetcher<typeof shipOrders>();
  const [form] = useAdminForm({
    id: BULK_SHIPMENTS_FORM,
    schema: shipmentBulkInput,
    prepare: tickedOrders,
    lastResult: fetcher.data?.result,
  });
  const alert = formAlert(form);
  const results = fetcher.data?.ok ? fetcher.data.answer.results : [];
  return (
    <fetcher.Form method="post" {...getFormProps(form)} className="admin-bulk-shipments" aria-live="polite">
      <RequestAlert message={alert.message} errors={alert.errors} shownFields={[]} />
      {offered ? <BusyButton busy={fetcher.state !== 'idle'}>{t('admin-bulk-ship')}</BusyButton> : null}
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
    </fetcher.Form>
  );
}
