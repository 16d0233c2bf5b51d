import { Link, useFetcher } from 'react-router';
import { customerResponse } from '../../../contract/admin-answers.ts';
import { adminApi, loadAdminAnswer } from '../../admin/api.ts';
import { adminWrite, revalidateUnlessRefused } from '../../admin/forms.ts';
import { addStaffNote, StaffNotes } from '../../admin/staff-notes.tsx';
import { useAdminShop } from '../../admin/text.ts';
import {
  AdminErrorBoundary,
  AdminLoading,
  AdminPage,
  BusyButton,
  RequestAlert,
  useAdminFormat,
  useOrderStatusText,
} from '../../admin/ui.tsx';
import type { Route } from './+types/customer';

export async function clientLoader({ request, params }: Route.ClientLoaderArgs) {
  return loadAdminAnswer(customerResponse, `/customers/${encodeURIComponent(params.id)}`, request);
}

/** The customer page's writes: blocking or unblocking the account, and a staff note. */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const formData = await request.formData();
  const path = `/customers/${encodeURIComponent(params.id)}`;
  const intent = formData.get('intent');
  switch (intent) {
    case 'block':
      return {
        intent,
        ...(await adminWrite(() =>
          adminApi('POST', `${path}/block`, { json: { blocked: formData.get('blocked') } }),
        )),
      };
    case 'note':
      return { intent, ...(await addStaffNote(formData, `${path}/notes`)) };
    default:
      throw new Response(null, { status: 400 });
  }
}

export const shouldRevalidate = revalidateUnlessRefused;

export function HydrateFallback() {
  return <AdminLoading />;
}

/** One customer: details, orders, staff notes, and blocking the account. */
export default function Customer({ loaderData }: Route.ComponentProps) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const statusText = useOrderStatusText();
  const block = useFetcher<typeof clientAction>();
  const refusal = block.data?.intent === 'block' ? block.data.error : undefined;
  const { customer } = loaderData;
  const name = `${customer.firstName} ${customer.lastName}`.trim();
  const address = [customer.zip, format.country(customer.country), customer.city, customer.address]
    .filter(Boolean)
    .join(', ');

  return (
    <AdminPage title={name || customer.email}>
      <section className="admin-card" aria-labelledby="customer-details">
        <h2 id="customer-details" className="visually-hidden">
          {t('admin-customer')}
        </h2>
        <dl className="admin-details">
          <dt>E-mail</dt>
          <dd>
            <a href={`mailto:${customer.email}`}>{customer.email}</a>
          </dd>
          <dt>{t('phone')}</dt>
          <dd>{customer.phone || '—'}</dd>
          <dt>{t('address')}</dt>
          <dd>{address || '—'}</dd>
          <dt>{t('admin-customer-registered')}</dt>
          <dd>{format.dateTime(customer.registeredAt)}</dd>
          <dt>{t('admin-customer-spent')}</dt>
          <dd>{format.money(customer.spent)}</dd>
          {customer.blocked ? (
            <>
              <dt>{t('admin-status')}</dt>
              <dd>
                <span className="admin-status admin-status--2">{t('admin-customer-blocked')}</span>
              </dd>
            </>
          ) : null}
        </dl>
        <RequestAlert message={refusal} errors={{}} shownFields={[]} />
        <block.Form
          method="post"
          className="admin-actions"
          onSubmit={(event) => {
            if (
              !customer.blocked &&
              !window.confirm(t('admin-customer-block-confirm', { email: customer.email }))
            )
              event.preventDefault();
          }}
        >
          <input type="hidden" name="blocked" value={customer.blocked ? '0' : '1'} />
          <BusyButton busy={block.state !== 'idle'} name="intent" value="block">
            {customer.blocked ? t('admin-customer-unblock') : t('admin-customer-block')}
          </BusyButton>
        </block.Form>
      </section>

      <section className="admin-card" aria-labelledby="customer-orders">
        <h2 id="customer-orders">{t('admin-customer-orders')}</h2>
        {customer.orderList.length === 0 ? (
          <p className="admin-muted">{t('admin-customer-no-orders')}</p>
        ) : (
          <div className="admin-table-scroll">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin-order-number')}</th>
                  <th scope="col">{t('admin-date')}</th>
                  <th scope="col">{t('admin-status')}</th>
                  <th scope="col">{t('admin-total-cost')}</th>
                </tr>
              </thead>
              <tbody>
                {customer.orderList.map((order) => (
                  <tr key={order.id}>
                    <td>
                      <Link to={`/admin/orders/${order.id}`}>{t('admin-order-link', { id: order.id })}</Link>
                    </td>
                    <td>{format.dateTime(order.date)}</td>
                    <td>
                      <span className={`admin-status admin-status--${order.status}`}>
                        {statusText(order.status)}
                      </span>
                    </td>
                    <td>{format.money(order.total)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <StaffNotes notes={customer.notes} />
    </AdminPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
