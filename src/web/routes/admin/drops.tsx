import { Link } from 'react-router';
import { dropListResponse } from '../../../contract/admin-answers.ts';
import { loadAdminAnswer } from '../../admin/api.ts';
import { useAdminShop } from '../../admin/text.ts';
import type { DropRow } from '../../admin/types.ts';
import { AdminErrorBoundary, AdminLoading, AdminPage, useAdminFormat } from '../../admin/ui.tsx';
import type { AdminMessageKey } from '../../i18n/admin-messages.ts';
import type { Route } from './+types/drops';

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  return loadAdminAnswer(dropListResponse, '/drops', request);
}

export function HydrateFallback() {
  return <AdminLoading />;
}

const STATES = [
  { state: 'live', heading: 'admin-drops-live', empty: 'admin-drops-live-empty' },
  { state: 'upcoming', heading: 'admin-drops-upcoming', empty: 'admin-drops-upcoming-empty' },
  { state: 'past', heading: 'admin-drops-past', empty: 'admin-drops-past-empty' },
] as const satisfies Array<{ state: DropRow['state']; heading: AdminMessageKey; empty: AdminMessageKey }>;

/** Drops: live ones first, then those to come (soonest first), then the past (newest first). */
export default function DropsPage({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useAdminShop();
  const format = useAdminFormat();
  const name = (drop: DropRow) => (locale === 'ru' ? drop.name_ru : drop.name_en);

  return (
    <AdminPage
      title={t('admin-drops')}
      actions={
        <Link to="/admin/drops/new" className="button button--primary">
          {t('admin-new-drop')}
        </Link>
      }
    >
      {STATES.map(({ state, heading, empty }) => {
        const list = loaderData.drops.filter((drop) => drop.state === state);
        return (
          <section key={state} className="admin-card" aria-labelledby={`drops-${state}`}>
            <h2 id={`drops-${state}`}>{t(heading)}</h2>
            {list.length === 0 ? (
              <p className="admin-muted">{t(empty)}</p>
            ) : (
              <div className="admin-table-scroll">
                <table className="admin-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('admin-name')}</th>
                      <th scope="col">{t('admin-drop-release-at')}</th>
                      <th scope="col">{t('admin-products')}</th>
                      <th scope="col">{t('admin-drop-units-left')}</th>
                      <th scope="col">{t('admin-per-customer-limit')}</th>
                      <th scope="col">{t('admin-drop-hold')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((drop) => (
                      <tr key={drop.id}>
                        <td>
                          <Link to={`/admin/drops/${drop.id}`}>{name(drop)}</Link>
                          <br />
                          <Link to={`/admin/drops/${drop.id}/live`} className="admin-muted">
                            {t('admin-drop-live-view')}
                            <span className="visually-hidden"> {name(drop)}</span>
                          </Link>
                        </td>
                        <td>
                          <time dateTime={drop.release_at}>{format.zonedDateTime(drop.release_at)}</time>
                        </td>
                        <td>{drop.products}</td>
                        <td className={drop.unitsLeft === 0 ? 'admin-danger' : undefined}>
                          {drop.unitsLeft}
                        </td>
                        <td>{drop.per_customer_limit ?? '—'}</td>
                        <td>
                          {drop.hold_minutes === null
                            ? t('admin-drop-hold-default')
                            : t('admin-minutes', { count: drop.hold_minutes })}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        );
      })}
    </AdminPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
