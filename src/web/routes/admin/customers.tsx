import { Form, Link } from 'react-router';
import { customerListResponse } from '../../../contract/admin-answers.ts';
import { adminUrl, loadAdminAnswer } from '../../admin/api.ts';
import { useAdminShop } from '../../admin/text.ts';
import { AdminErrorBoundary, AdminLoading, AdminPage, Pager, useAdminFormat } from '../../admin/ui.tsx';
import type { Route } from './+types/customers';

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const url = new URL(request.url);
  const search = url.searchParams.get('search') ?? '';
  const page = await loadAdminAnswer(customerListResponse, '/customers', request, {
    search: search || undefined,
    page: url.searchParams.get('page'),
  });
  return { search, page };
}

export function HydrateFallback() {
  return <AdminLoading />;
}

/** Customers: search by e-mail, name or phone; orders, money spent and last order at a glance. */
export default function Customers({ loaderData }: Route.ComponentProps) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const { search, page } = loaderData;
  const name = (row: { firstName: string; lastName: string }) => `${row.firstName} ${row.lastName}`.trim();

  return (
    <AdminPage title={t('admin-customers')}>
      <Form
        method="get"
        className="admin-card admin-inline-search"
        role="search"
        aria-label={t('admin-search-customers')}
        key={search}
      >
        <label htmlFor="customer-search">{t('admin-customers-search')}</label>
        <input id="customer-search" type="search" name="search" defaultValue={search} />
        <button type="submit" className="button">
          {t('search')}
        </button>
        <a
          className="button"
          href={adminUrl('/customers.csv', search ? { search } : {})}
          download="customers.csv"
        >
          {t('admin-customers-csv')}
        </a>
      </Form>
      <section className="admin-card">
        {page.list.length === 0 ? (
          <p>{t('admin-customers-empty')}</p>
        ) : (
          <div className="admin-table-scroll">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">E-mail</th>
                  <th scope="col">{t('admin-customer-name')}</th>
                  <th scope="col">{t('phone')}</th>
                  <th scope="col">{t('admin-customer-orders')}</th>
                  <th scope="col">{t('admin-customer-spent')}</th>
                  <th scope="col">{t('admin-customer-last-order')}</th>
                </tr>
              </thead>
              <tbody>
                {page.list.map((customer) => (
                  <tr key={customer.id}>
                    <td>
                      <Link to={`/admin/customers/${customer.id}`}>{customer.email}</Link>
                      {customer.blocked ? (
                        <span className="admin-status admin-status--2"> {t('admin-customer-blocked')}</span>
                      ) : null}
                    </td>
                    <td>{name(customer) || '—'}</td>
                    <td>{customer.phone || '—'}</td>
                    <td>{customer.orders}</td>
                    <td>{format.money(customer.spent)}</td>
                    <td>{customer.lastOrderAt ? format.dateTime(customer.lastOrderAt) : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <Pager currentPage={page.currentPage} lastPage={page.lastPage} total={page.total} />
    </AdminPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
