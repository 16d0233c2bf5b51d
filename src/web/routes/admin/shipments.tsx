import { Link } from 'react-router';
import { stalledShipmentsResponse } from '../../../contract/admin-answers.ts';
import { loadAdminAnswer } from '../../admin/api.ts';
import { useAdminShop } from '../../admin/text.ts';
import { AdminErrorBoundary, AdminLoading, AdminPage, useAdminFormat } from '../../admin/ui.tsx';
import type { Route } from './+types/shipments';

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  return loadAdminAnswer(stalledShipmentsResponse, '/shipments/stalled', request);
}

export function HydrateFallback() {
  return <AdminLoading />;
}

/** Parcels sent and not delivered that have not moved for the set number of days (ADR 0057). */
export default function StalledShipmentsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const { days, shipments } = loaderData;
  return (
    <AdminPage title={t('admin-stalled-shipments')}>
      <section className="admin-card">
        <p>{t('admin-stalled-shipments-hint', { days })}</p>
        {shipments.length === 0 ? (
          <p>{t('admin-stalled-shipments-empty')}</p>
        ) : (
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">{t('admin-orders')}</th>
                <th scope="col">{t('admin-track-code')}</th>
                <th scope="col">{t('admin-stalled-since')}</th>
              </tr>
            </thead>
            <tbody>
              {shipments.map((shipment) => (
                <tr key={shipment.id}>
                  <td>
                    <Link to={`/admin/orders/${shipment.order}`}>
                      {t('admin-order-title', { id: shipment.order })}
                    </Link>
                  </td>
                  <td>
                    <code>{shipment.track_code}</code>
                  </td>
                  <td>{format.dateTime(shipment.last_event_at ?? shipment.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </AdminPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
