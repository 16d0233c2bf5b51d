import { Form, Link } from 'react-router';
import {
  DEFAULT_ORDER_STATUS_FILTER,
  defaultCsvSeparator,
  ORDER_FILTER_STATUSES,
  ORDER_STATUS_FILTERS,
  type OrderStatusFilter,
} from '../../../contract/admin.ts';
import { adminOrderListResponse } from '../../../contract/admin-answers.ts';
import { isToShipStatus } from '../../../contract/order-status.ts';
import { AdminApiError, adminUrl, type FieldErrors, pageLocale } from '../../admin/api.ts';
import { BulkShipments, ShipOrderCheckbox, shipOrders } from '../../admin/bulk-shipments.tsx';
import { adminCall } from '../../admin/forms.ts';
import { momentOfLocalInput } from '../../admin/local-time.ts';
import { useAdminShop } from '../../admin/text.ts';
import {
  AdminErrorBoundary,
  AdminLoading,
  AdminPage,
  capitalized,
  DELIVERY_METHODS,
  deliveryMethodKey,
  Pager,
  RequestAlert,
  useAdminFormat,
  useOrderStatusText,
} from '../../admin/ui.tsx';
import { FormField, SelectField } from '../../components/form-field.tsx';
import type { AdminMessageKey } from '../../i18n/admin-messages.ts';
import type { Route } from './+types/orders';

/** The spec's order search fields, as the URL carries them. */
const FIELDS = [
  'id',
  'email',
  'firstName',
  'lastName',
  'country',
  'deliveryMethod',
  'status',
  'from',
  'to',
  'product',
];
function searchOf(url: URL) {
  const search: Record<string, string> = {};
  for (const field of FIELDS) search[field] = url.searchParams.get(field) ?? '';
  if (!url.searchParams.has('status')) search.status = DEFAULT_ORDER_STATUS_FILTER;
  return search;
}

/**
 * The search as the API takes it: the period's ends, typed as wall-clock times of the manager's
 * zone (datetime-local, kept so in the page's address), become moments.
 */
const apiSearchOf = (search: Record<string, string>) => ({
  ...search,
  from: momentOfLocalInput(search.from ?? ''),
  to: momentOfLocalInput(search.to ?? ''),
});

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const url = new URL(request.url);
  const search = searchOf(url);
  const apiSearch = apiSearchOf(search);
  try {
    const result = await adminCall(adminOrderListResponse, 'GET', '/orders', {
      query: { ...apiSearch, page: url.searchParams.get('page') ?? undefined },
      signal: request.signal,
    });
    return { search, apiSearch, result, errors: {} as FieldErrors, message: undefined };
  } catch (error) {
    // A search the API refuses (a malformed date, a period ending before it starts) shows its
    // texts under the fields.
    if (error instanceof AdminApiError && error.status === 422) {
      return { search, apiSearch, result: undefined, errors: error.fieldErrors, message: error.message };
    }
    throw error;
  }
}

/** Ships the orders ticked in the list. */
export async function clientAction({ request }: Route.ClientActionArgs) {
  return shipOrders(await request.formData());
}

export function HydrateFallback() {
  return <AdminLoading />;
}

const STATUS_FILTER_LABELS: Record<OrderStatusFilter, AdminMessageKey> = {
  action: 'admin-status-needs-action',
  '': 'admin-status-any',
  '>2': 'admin-status-paid',
  '0': 'order-status-0',
  '1': 'order-status-1',
  '2': 'order-status-2',
  '3': 'order-status-3',
  '4': 'order-status-4',
  '5': 'order-status-5',
  '6': 'order-status-6',
};

/** The orders a filter would find, from the counts per status the search answers. */
function filterCount(filter: OrderStatusFilter, counts: Record<string, number>): number {
  const statuses = ORDER_FILTER_STATUSES[filter];
  return Object.entries(counts)
    .filter(([status]) => statuses === null || statuses.includes(Number(status)))
    .reduce((total, [, count]) => total + count, 0);
}

export default function OrdersPage({ loaderData }: Route.ComponentProps) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const statusText = useOrderStatusText();
  const { search, apiSearch, result, errors, message } = loaderData;
  const locale = pageLocale();
  // Paid orders waiting to be shipped on this page can be ticked and shipped at once.
  const shippable = result?.list.some((order) => isToShipStatus(order.status)) ?? false;

  return (
    <AdminPage title={t('admin-orders')}>
      <Form method="get" className="admin-card admin-search" key={JSON.stringify(search)}>
        <h2 className="visually-hidden">{t('admin-search')}</h2>
        <RequestAlert message={message} errors={errors} shownFields={FIELDS} />
        <div className="admin-search__fields">
          <FormField
            name="id"
            label={t('admin-order-number')}
            inputMode="numeric"
            defaultValue={search.id}
            errors={errors.id}
          />
          <FormField name="email" label={t('email')} defaultValue={search.email} errors={errors.email} />
          <FormField
            name="firstName"
            label={t('first-name')}
            defaultValue={search.firstName}
            errors={errors.firstName}
          />
          <FormField
            name="lastName"
            label={t('last-name')}
            defaultValue={search.lastName}
            errors={errors.lastName}
          />
          <FormField
            name="country"
            label={t('admin-country-code')}
            maxLength={2}
            autoCapitalize="characters"
            defaultValue={search.country}
            errors={errors.country}
          />
          <SelectField
            name="deliveryMethod"
            label={t('delivery-method')}
            defaultValue={search.deliveryMethod}
            errors={errors.deliveryMethod}
          >
            <option value="">{t('admin-any')}</option>
            {DELIVERY_METHODS.map((method) => (
              <option key={method.value} value={method.value}>
                {t(method.label)}
              </option>
            ))}
          </SelectField>
          <SelectField
            name="status"
            label={t('admin-status')}
            defaultValue={search.status}
            errors={errors.status}
          >
            {ORDER_STATUS_FILTERS.map((value) => (
              <option key={value} value={value}>
                {capitalized(t(STATUS_FILTER_LABELS[value]))}
                {result ? ` (${filterCount(value, result.statusCounts)})` : ''}
              </option>
            ))}
          </SelectField>
          <FormField
            name="from"
            type="datetime-local"
            label={t('admin-order-placed-from')}
            defaultValue={search.from}
            errors={errors.from}
          />
          <FormField
            name="to"
            type="datetime-local"
            label={t('admin-order-placed-before')}
            defaultValue={search.to}
            errors={errors.to}
          />
          <FormField
            name="product"
            label={t('admin-product')}
            defaultValue={search.product}
            errors={errors.product}
          />
        </div>
        <div className="admin-actions">
          <button type="submit" className="button button--primary">
            {t('search')}
          </button>
          <Link to="/admin/orders" className="button">
            {t('admin-reset-search')}
          </Link>
        </div>
        {result?.allStatuses ? <p className="admin-muted">{t('admin-orders-all-statuses')}</p> : null}
      </Form>

      {/* The file is the browser's own download of the API's answer: a plain GET form, no script. */}
      <Form
        method="get"
        action={adminUrl('/orders.csv').split('?')[0]}
        reloadDocument
        className="admin-card admin-search"
        aria-label={t('admin-orders-csv')}
      >
        {Object.entries(apiSearch).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="locale" value={locale} />
        <input type="hidden" name="timeZone" value={Intl.DateTimeFormat().resolvedOptions().timeZone} />
        <div className="admin-search__fields">
          <SelectField
            name="separator"
            label={t('admin-orders-csv-separator')}
            hint={t('admin-orders-csv-separator-hint')}
            defaultValue={defaultCsvSeparator(locale)}
          >
            <option value=";">{t('admin-orders-csv-separator-semicolon')}</option>
            <option value=",">{t('admin-orders-csv-separator-comma')}</option>
          </SelectField>
        </div>
        <div className="admin-actions">
          <button type="submit" className="button">
            {t('admin-orders-csv')}
          </button>
        </div>
      </Form>

      {result ? (
        <nav className="admin-card" aria-label={t('admin-status-counts')}>
          <ul className="admin-chips">
            {ORDER_STATUS_FILTERS.filter((value) => value !== '').map((value) => (
              <li key={value}>
                <Link
                  to={`/admin/orders?${new URLSearchParams({ ...search, status: value })}`}
                  aria-current={value === search.status ? 'true' : undefined}
                >
                  {capitalized(t(STATUS_FILTER_LABELS[value]))}: {filterCount(value, result.statusCounts)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}

      {result ? (
        <section className="admin-card" aria-labelledby="orders-found">
          <h2 id="orders-found" className="visually-hidden">
            {t('admin-search-results')}
          </h2>
          {result.list.length === 0 ? (
            <p>{t('admin-orders-empty')}</p>
          ) : (
            <div className="admin-table-scroll">
              <table className="admin-table">
                <thead>
                  <tr>
                    {shippable ? (
                      <th scope="col">
                        <span className="visually-hidden">{t('admin-bulk-ship-column')}</span>
                      </th>
                    ) : null}
                    <th scope="col">{t('admin-order-number')}</th>
                    <th scope="col">{t('admin-date')}</th>
                    <th scope="col">{t('admin-status')}</th>
                    <th scope="col">{t('admin-customer')}</th>
                    <th scope="col">{t('country')}</th>
                    <th scope="col">{t('delivery-method')}</th>
                    <th scope="col">{t('admin-items')}</th>
                    <th scope="col">{t('admin-total-cost')}</th>
                  </tr>
                </thead>
                <tbody>
                  {result.list.map((order) => {
                    const method = deliveryMethodKey(order.deliveryMethod);
                    return (
                      <tr key={order.id}>
                        {shippable ? (
                          <td>{isToShipStatus(order.status) ? <ShipOrderCheckbox id={order.id} /> : null}</td>
                        ) : null}
                        <td>
                          <Link to={`/admin/orders/${order.id}`}>
                            {t('admin-order-link', { id: order.id })}
                          </Link>
                        </td>
                        <td>{format.dateTime(order.date)}</td>
                        <td>
                          <span className={`admin-status admin-status--${order.status}`}>
                            {statusText(order.status)}
                          </span>
                        </td>
                        <td>
                          {order.firstName} {order.lastName}
                          <br />
                          <span className="admin-muted">{order.email}</span>
                        </td>
                        <td>{format.country(order.country)}</td>
                        <td>{method ? t(method) : order.deliveryMethod}</td>
                        <td>{order.productCount}</td>
                        <td>{format.money(order.productsCost + order.deliveryCost)}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
          {/* Kept mounted: its results stay listed after the list reloads without the shipped orders. */}
          <BulkShipments offered={shippable} />
          <Pager currentPage={result.currentPage} lastPage={result.lastPage} total={result.total}>
            {' · '}
            {t('admin-items-on-page', { count: result.productCount })}
          </Pager>
        </section>
      ) : null}
    </AdminPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
