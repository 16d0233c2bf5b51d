import { getFormProps } from '@conform-to/react';
import { Link, useFetcher } from 'react-router';
import { promoCodePause } from '../../../contract/admin.ts';
import { promoCodeListResponse, promoCodeResponse } from '../../../contract/admin-answers.ts';
import { loadAdminAnswer } from '../../admin/api.ts';
import { adminCall, formAlert, resultAlert, submitAdminForm, useAdminForm } from '../../admin/forms.ts';
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

/** Pause or resume, over the version the list showed; the answer is the code as it now stands. */
export async function clientAction({ request }: Route.ClientActionArgs) {
  const formData = await request.formData();
  const id = encodeURIComponent(String(formData.get('id') ?? ''));
  return submitAdminForm(formData, {
    schema: promoCodePause,
    // The id names the code in the path; the body is what the schema checked.
    send: (_fields, pause) =>
      adminCall(promoCodeResponse, 'POST', `/promo-codes/${id}/pause`, { json: pause }),
  });
}

/** Every row's pause button sends through this one fetcher: the list shows its answer above the table. */
const PAUSE = 'promo-pause';

/** A code's pause (or resume) button, a form of its own. */
function PauseForm({ code }: { code: PromoRow }) {
  const { t } = useAdminShop();
  const pause = useFetcher<typeof clientAction>({ key: PAUSE });
  // The list shows what the API said; the form what its own check found.
  const [form] = useAdminForm({
    id: `promo-pause-${code.id}`,
    schema: promoCodePause,
    lastResult: undefined,
  });
  const alert = formAlert(form);
  return (
    <pause.Form method="post" {...getFormProps(form)}>
      <RequestAlert message={alert.message} errors={alert.errors} shownFields={[]} />
      <input type="hidden" name="id" value={code.id} />
      <input type="hidden" name="version" value={code.version} />
      <input type="hidden" name="paused" value={code.paused ? '0' : '1'} />
      <button type="submit" className="button button--compact" disabled={pause.state !== 'idle'}>
        {t(code.paused ? 'admin-promo-resume' : 'admin-promo-pause')}
        <span className="visually-hidden"> {code.code}</span>
      </button>
    </pause.Form>
  );
}

/** The list of promo codes: discount, window, uses against the limit, paid orders and their revenue, state. */
export default function PromoCodesPage({ loaderData }: Route.ComponentProps) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const value = usePromoValue();
  const pause = useFetcher<typeof clientAction>({ key: PAUSE });
  const outcome = pause.state === 'idle' ? pause.data : undefined;
  const changed = outcome?.ok ? outcome.answer.promoCode : undefined;
  const alert = resultAlert(outcome?.result);
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
      {changed ? (
        <FormSuccess>
          {t(changed.paused ? 'admin-promo-paused-done' : 'admin-promo-resumed-done', { code: changed.code })}
        </FormSuccess>
      ) : null}
      <RequestAlert message={alert.message} errors={alert.errors} shownFields={[]} />
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
                      <PauseForm code={code} />
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
