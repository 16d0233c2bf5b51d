import { Form, Link } from 'react-router';
import { auditResponse } from '../../../contract/admin-answers.ts';
import { loadAdminAnswer } from '../../admin/api.ts';
import { AUDIT_FIELD_LABELS, auditFields, auditValueText } from '../../admin/audit-fields.ts';
import { useAdminShop } from '../../admin/text.ts';
import type { AuditEntity, AuditEntry } from '../../admin/types.ts';
import { AdminErrorBoundary, AdminLoading, AdminPage, Pager, useAdminFormat } from '../../admin/ui.tsx';
import { FormField, SelectField } from '../../components/form-field.tsx';
import type { AdminMessageKey } from '../../i18n/admin-messages.ts';
import type { Route } from './+types/audit';

/** The start of a day (`2026-03-02`) in the browser's time zone, as a moment; `days` later for an end. */
function startOfDay(day: string, days = 0): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const moment = new Date(`${day}T00:00:00`);
  moment.setDate(moment.getDate() + days);
  return Number.isNaN(moment.getTime()) ? undefined : moment.toISOString();
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const url = new URL(request.url);
  const filter = {
    entity: url.searchParams.get('entity') ?? '',
    entityId: url.searchParams.get('entityId') ?? '',
    actorId: url.searchParams.get('actorId') ?? '',
    from: url.searchParams.get('from') ?? '',
    to: url.searchParams.get('to') ?? '',
  };
  // The days are the staff member's own: from the start of `from` to the end of `to`, where they are.
  const page = await loadAdminAnswer(auditResponse, '/audit', request, {
    entity: filter.entity,
    entityId: filter.entityId,
    actorId: filter.actorId || undefined,
    from: startOfDay(filter.from),
    to: startOfDay(filter.to, 1),
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

/** An entry's fields side by side: label, before, after, in words. */
function AuditChanges({ entry }: { entry: AuditEntry }) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const words = { yes: t('admin-audit-yes'), no: t('admin-audit-no'), dateTime: format.dateTime };
  const label = (field: string) => {
    const key = AUDIT_FIELD_LABELS[field];
    return key ? t(key) : field.replace(/_/g, ' ');
  };
  const fields = auditFields(entry.before, entry.after);
  const whole = fields.length === 0 && (entry.before !== null || entry.after !== null);
  const fieldOf = (record: unknown, field: string) =>
    typeof record === 'object' && record !== null ? (record as Record<string, unknown>)[field] : undefined;
  if (fields.length === 0 && !whole) return <>{t('admin-audit-no-details')}</>;
  const rows = whole
    ? [{ field: '', label: t('admin-audit-value'), before: entry.before, after: entry.after }]
    : fields.map((field) => ({
        field,
        label: label(field),
        before: fieldOf(entry.before, field),
        after: fieldOf(entry.after, field),
      }));
  const labels = [...new Set(rows.map((row) => row.label))];
  return (
    <details className="admin-audit__details">
      <summary>
        {entry.action === 'update'
          ? t('admin-changed-fields', { fields: labels.join(', ') })
          : t('admin-show-record')}
      </summary>
      <table className="admin-table admin-audit__changes">
        <thead>
          <tr>
            <th scope="col">{t('admin-audit-field')}</th>
            {entry.before !== null ? <th scope="col">{t('admin-before')}</th> : null}
            {entry.after !== null ? <th scope="col">{t('admin-after')}</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.field}>
              <th scope="row">{row.label}</th>
              {entry.before !== null ? <td>{auditValueText(row.before, words)}</td> : null}
              {entry.after !== null ? <td>{auditValueText(row.after, words)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
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
        <SelectField name="actorId" label={t('admin-audit-person')} defaultValue={filter.actorId}>
          <option value="">{t('admin-audit-anyone')}</option>
          {page.actors.map((actor) => (
            <option key={actor.id} value={actor.id}>
              {actor.name ? `${actor.name} (${actor.email})` : actor.email}
            </option>
          ))}
        </SelectField>
        <FormField name="from" type="date" label={t('admin-audit-from')} defaultValue={filter.from} />
        <FormField name="to" type="date" label={t('admin-audit-to')} defaultValue={filter.to} />
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
                        <AuditChanges entry={entry} />
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
