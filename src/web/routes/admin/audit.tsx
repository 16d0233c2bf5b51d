import { Form, Link } from 'react-router';
import { loadAdmin } from '../../admin/api.ts';
import { useAdminShop } from '../../admin/text.ts';
import type { AuditEntity, AuditEntry, AuditPage } from '../../admin/types.ts';
import { AdminErrorBoundary, AdminLoading, AdminPage, Pager, useAdminFormat } from '../../admin/ui.tsx';
import { FormField, SelectField } from '../../components/form-field.tsx';
import type { AdminMessageKey } from '../../i18n/admin-messages.ts';
import type { Route } from './+types/audit';

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const url = new URL(request.url);
  const filter = {
    entity: url.searchParams.get('entity') ?? '',
    entityId: url.searchParams.get('entityId') ?? '',
  };
  const page = await loadAdmin<AuditPage>('/audit', request, {
    ...filter,
    page: url.searchParams.get('page'),
  });
  return { filter, page };
}

export function HydrateFallback() {
  return <AdminLoading />;
}

/** Every kind of record the audit log holds, by its name in the staff member's language. */
const ENTITIES: Record<AuditEntity, AdminMessageKey> = {
  project: 'admin-entity-project',
  category: 'admin-entity-category',
  product: 'admin-entity-product',
  order: 'admin-entity-order',
  file: 'admin-entity-file',
  folder: 'admin-entity-folder',
  partner: 'admin-entity-partner',
  feedback: 'admin-entity-feedback',
  review: 'admin-entity-review',
  'product-variants': 'admin-entity-product-variants',
  refund: 'admin-entity-refund',
  customer: 'admin-entity-customer',
  'customer-note': 'admin-entity-customer-note',
  'order-note': 'admin-entity-order-note',
  staff: 'admin-entity-staff',
  'staff-invitation': 'admin-entity-staff-invitation',
  synonym: 'admin-entity-synonym',
  drop: 'admin-entity-drop',
  'exchange-rate': 'admin-entity-exchange-rate',
  'promo-code': 'admin-entity-promo-code',
  products: 'admin-entity-products',
  'static-page': 'admin-entity-static-page',
};

const ACTIONS: Record<string, AdminMessageKey> = {
  create: 'admin-action-create',
  update: 'admin-action-update',
  delete: 'admin-action-delete',
};

/** The top-level fields whose values differ between before and after. */
function changedFields(entry: AuditEntry): string[] {
  const { before, after } = entry;
  if (typeof before !== 'object' || before === null || typeof after !== 'object' || after === null) return [];
  const old = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  return [...new Set([...Object.keys(old), ...Object.keys(now)])].filter(
    (key) => JSON.stringify(old[key]) !== JSON.stringify(now[key]),
  );
}

function EntityLink({ entry }: { entry: AuditEntry }) {
  if (entry.action !== 'delete' && (entry.entity === 'product' || entry.entity === 'product-variants'))
    return <Link to={`/admin/products/${entry.entityId}`}>#{entry.entityId}</Link>;
  if (entry.entity === 'customer')
    return <Link to={`/admin/customers/${entry.entityId}`}>#{entry.entityId}</Link>;
  if (entry.entity === 'order') return <Link to={`/admin/orders/${entry.entityId}`}>#{entry.entityId}</Link>;
  return <>{entry.entity === 'folder' ? entry.entityId : `#${entry.entityId}`}</>;
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const { filter, page } = loaderData;
  const pretty = (value: unknown) => JSON.stringify(value, null, 2);

  return (
    <AdminPage title={t('admin-audit')}>
      <Form method="get" className="admin-card admin-inline-search" key={JSON.stringify(filter)}>
        <SelectField name="entity" label={t('admin-entity')} defaultValue={filter.entity}>
          <option value="">{t('admin-any')}</option>
          {Object.entries(ENTITIES).map(([entity, label]) => (
            <option key={entity} value={entity}>
              {t(label)}
            </option>
          ))}
        </SelectField>
        <FormField name="entityId" label={t('admin-entity-id')} defaultValue={filter.entityId} />
        <button type="submit" className="button">
          {t('admin-filter')}
        </button>
      </Form>
      <section className="admin-card">
        {page.entries.length === 0 ? (
          <p>{t('admin-nothing-found')}</p>
        ) : (
          <div className="admin-table-scroll">
            <table className="admin-table admin-audit">
              <thead>
                <tr>
                  <th scope="col">{t('admin-date')}</th>
                  <th scope="col">{t('admin-actor')}</th>
                  <th scope="col">{t('admin-action')}</th>
                  <th scope="col">{t('admin-entity')}</th>
                  <th scope="col">{t('admin-changes')}</th>
                </tr>
              </thead>
              <tbody>
                {page.entries.map((entry) => {
                  const changed = changedFields(entry);
                  const entity = ENTITIES[entry.entity as AuditEntity] as AdminMessageKey | undefined;
                  const action = ACTIONS[entry.action];
                  return (
                    <tr key={entry.id}>
                      <td>{format.dateTime(entry.date)}</td>
                      <td>
                        {entry.actorName ? (
                          <>
                            {entry.actorName}
                            <br />
                            <span className="admin-muted">{entry.actor}</span>
                          </>
                        ) : (
                          (entry.actor ?? '—')
                        )}
                      </td>
                      <td>{action ? t(action) : entry.action}</td>
                      <td>
                        {entity ? t(entity) : entry.entity} <EntityLink entry={entry} />
                      </td>
                      <td>
                        <details className="admin-audit__details">
                          <summary>
                            {changed.length > 0
                              ? t('admin-changed-fields', { fields: changed.join(', ') })
                              : t('admin-show-record')}
                          </summary>
                          <div className="admin-audit__json">
                            {entry.before !== null ? (
                              <div>
                                <h3>{t('admin-before')}</h3>
                                <pre>{pretty(entry.before)}</pre>
                              </div>
                            ) : null}
                            {entry.after !== null ? (
                              <div>
                                <h3>{t('admin-after')}</h3>
                                <pre>{pretty(entry.after)}</pre>
                              </div>
                            ) : null}
                          </div>
                        </details>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        <Pager currentPage={page.currentPage} lastPage={page.lastPage} total={page.total} />
      </section>
    </AdminPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
