import { Link, useFetcher } from 'react-router';
import { promoCodeListResponse } from '../../../contract/admin-answers.ts';
import { AdminApiError, adminApi, type FieldErrors, loadAdminAnswer } from '../../admin/api.ts';
import { PROMO_STATES, type PromoRow, usePromoValue } from '../../admin/promo.ts';
import { useAdminShop } from '../../admin/text.ts';
import {
  AdminErrorBoundary,
  AdminLoading,
  AdminPage,
  RequestAlert,
  useAdminFormat,
} from '../../admin/ui.tsx';
import { FormSuccess } from '../../components/form-field.tsx';
import type { Route } from './+types/promo-codes';

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  return loadAdminAnswer(promoCodeListResponse, '/promo-codes', request);
}

export function HydrateFallback() {
  return <AdminLoading />;
}

/** Pause or resume, over the version the list showed. */
export async function clientAction({ request }: Route.ClientActionArgs) {
  const form = await request.formData();
  const paused = form.get('paused') === '1';
  try {
    await adminApi('POST', `/promo-codes/${Number(form.get('id'))}/pause`, {
      json: { paused, version: form.get('version') },
    });
    return {
      done: paused ? 'paused' : 'resumed',
      code: String(form.get('code')),
      message: undefined,
      errors: {},
    };
  } catch (error) {
    if (error instanceof AdminApiError && error.status < 500)
      return { done: undefined, code: '', message: error.message, errors: error.fieldErrors as FieldErrors };
    throw error;
  }
}

/** The list of promo codes: discount, window, uses against the limit, paid orders and their revenue, state. */
export default function PromoCodesPage({ loaderData }: Route.ComponentProps) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const value = usePromoValue();
  const fetcher = useFetcher<typeof clientAction>();
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  const window = (code: PromoRow) =>
    code.starts_at || code.ends_at
      ? `${code.starts_at ? format.dateTime(code.starts_at) : '…'} – ${code.ends_at ? format.dateTime(code.ends_at) : '…'}`
      : t('admin-promo-window-always');

  return (
    <AdminPage
      title={t('admin-promo-codes')}
      actions={
        <Link to="/admin/promo-codes/new" className="button button--primary">
          {t('admin-new-promo-code')}
        </Link>
      }
    >
      {result?.done ? (
        <FormSuccess>
          {t(result.done === 'paused' ? 'admin-promo-paused-done' : 'admin-promo-resumed-done', {
            code: result.code,
          })}
        </FormSuccess>
      ) : null}
      <RequestAlert message={result?.message} errors={result?.errors ?? {}} shownFields={[]} />
      <section className="admin-card" aria-labelledby="promo-codes-heading">
        <h2 id="promo-codes-heading" className="visually-hidden">
          {t('admin-promo-codes')}
        </h2>
        {loaderData.promoCodes.length === 0 ? (
          <p className="admin-muted">{t('admin-promo-codes-empty')}</p>
        ) : (
          <div className="admin-table-scroll">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin-promo-code')}</th>
                  <th scope="col">{t('admin-promo-kind')}</th>
                  <th scope="col">{t('admin-promo-window')}</th>
                  <th scope="col">{t('admin-promo-uses')}</th>
                  <th scope="col">{t('admin-promo-paid-orders')}</th>
                  <th scope="col">{t('admin-promo-revenue')}</th>
                  <th scope="col">{t('admin-promo-discount-given')}</th>
                  <th scope="col">{t('admin-promo-state')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('admin-promo-pause')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {loaderData.promoCodes.map((code) => (
                  <tr key={code.id}>
                    <td>
                      <Link to={`/admin/promo-codes/${code.id}`}>{code.code}</Link>
                    </td>
                    <td>{value(code)}</td>
                    <td>{window(code)}</td>
                    <td>
                      {code.uses}
                      {code.total_limit === null ? '' : ` / ${code.total_limit}`}
                    </td>
                    <td>{code.paid_orders}</td>
                    <td>{format.money(code.revenue)}</td>
                    <td>{format.money(code.discount_given)}</td>
                    <td>{t(PROMO_STATES[code.state])}</td>
                    <td>
                      <fetcher.Form method="post">
                        <input type="hidden" name="id" value={code.id} />
                        <input type="hidden" name="code" value={code.code} />
                        <input type="hidden" name="version" value={code.version} />
                        <input type="hidden" name="paused" value={code.paused ? '0' : '1'} />
                        <button
                          type="submit"
                          className="button button--compact"
                          disabled={fetcher.state !== 'idle'}
                        >
                          {t(code.paused ? 'admin-promo-resume' : 'admin-promo-pause')}
                          <span className="visually-hidden"> {code.code}</span>
                        </button>
                      </fetcher.Form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </AdminPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
