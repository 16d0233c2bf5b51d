import { getFormProps } from '@conform-to/react';
import { Link, useFetcher } from 'react-router';
import { synonymInput } from '../../../contract/admin.ts';
import { searchStatsResponse, searchSynonymsResponse } from '../../../contract/admin-answers.ts';
import { adminApi, loadAdminAnswer } from '../../admin/api.ts';
import {
  adminWrite,
  fieldProps,
  formAlert,
  revalidateUnlessRefused,
  submitAdminForm,
  useAdminForm,
} from '../../admin/forms.ts';
import { useAdminShop } from '../../admin/text.ts';
import type { SearchStat, Synonym } from '../../admin/types.ts';
import {
  AdminErrorBoundary,
  AdminLoading,
  AdminPage,
  BusyButton,
  RequestAlert,
  useMayDelete,
} from '../../admin/ui.tsx';
import { useUnsavedChanges } from '../../admin/unsaved-changes.tsx';
import { FormField, FormSuccess } from '../../components/form-field.tsx';
import type { Route } from './+types/search';

const PERIODS = ['7', '30'] as const;
type Period = (typeof PERIODS)[number];

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const asked = new URL(request.url).searchParams.get('days');
  const days: Period = asked === '30' ? '30' : '7';
  const [{ synonyms }, stats] = await Promise.all([
    loadAdminAnswer(searchSynonymsResponse, '/search/synonyms', request),
    loadAdminAnswer(searchStatsResponse, '/search/stats', request, { days }),
  ]);
  return { days, synonyms, stats };
}

/** The synonyms' writes: a new one from the form, or a row's deletion. */
export async function clientAction({ request }: Route.ClientActionArgs) {
  const formData = await request.formData();
  const intent = formData.get('intent');
  switch (intent) {
    case 'save':
      return {
        intent,
        ...(await submitAdminForm(formData, {
          schema: synonymInput,
          send: (fields) => adminApi('POST', '/search/synonyms', { json: fields }),
          resetOnSuccess: true,
        })),
      };
    case 'delete':
      return {
        intent,
        ...(await adminWrite(() =>
          adminApi('DELETE', `/search/synonyms/${encodeURIComponent(String(formData.get('id')))}`),
        )),
      };
    default:
      throw new Response(null, { status: 400 });
  }
}

export const shouldRevalidate = revalidateUnlessRefused;

export function HydrateFallback() {
  return <AdminLoading />;
}

/**
 * Search: what shoppers search for and what finds nothing (so that the manager sees which words
 * to teach), and the synonyms that teach them.
 */
export default function SearchAdminPage({ loaderData }: Route.ComponentProps) {
  const { t } = useAdminShop();
  const { days, synonyms, stats } = loaderData;
  return (
    <AdminPage title={t('admin-search-section')}>
      <nav className="admin-card admin-periods" aria-label={t('admin-search-period')}>
        {PERIODS.map((period) => (
          <Link key={period} to={`?days=${period}`} aria-current={period === days ? 'page' : undefined}>
            {t('admin-search-days', { days: Number(period) })}
          </Link>
        ))}
      </nav>
      <div className="admin-split">
        <SearchTable id="search-top" title={t('admin-search-top')} rows={stats.top} />
        <SearchTable id="search-empty" title={t('admin-search-empty')} rows={stats.empty} />
      </div>
      <Synonyms synonyms={synonyms} />
    </AdminPage>
  );
}

function SearchTable({ id, title, rows }: { id: string; title: string; rows: SearchStat[] }) {
  const { t } = useAdminShop();
  return (
    <section className="admin-card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {rows.length === 0 ? (
        <p>{t('admin-nothing-yet')}</p>
      ) : (
        <div className="admin-table-scroll">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">{t('admin-search-query')}</th>
                <th scope="col">{t('admin-search-searches')}</th>
                <th scope="col">{t('admin-search-found')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.query}>
                  <td>
                    <a href={`/search/${encodeURIComponent(row.query)}`} target="_blank" rel="noreferrer">
                      {row.query}
                    </a>
                  </td>
                  <td>{row.searches}</td>
                  <td>{row.results}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

const FIELDS = ['term', 'meaning'];

function Synonyms({ synonyms }: { synonyms: Synonym[] }) {
  const { t } = useAdminShop();
  const save = useFetcher<typeof clientAction>();
  const remove = useFetcher<typeof clientAction>();
  const mayDelete = useMayDelete();
  const outcome = save.data?.intent === 'save' ? save.data : undefined;
  const [form, fields] = useAdminForm({
    schema: synonymInput,
    lastResult: outcome?.result,
    defaultValue: { term: '', meaning: '' },
  });
  useUnsavedChanges(form.dirty === true);
  const alert = formAlert(form);
  return (
    <div className="admin-split">
      <section className="admin-card" aria-labelledby="synonyms-heading">
        <h2 id="synonyms-heading">{t('admin-synonyms')}</h2>
        <p className="admin-muted">{t('admin-synonyms-hint')}</p>
        <RequestAlert
          message={remove.data?.intent === 'delete' ? remove.data.error : undefined}
          errors={{}}
          shownFields={[]}
        />
        {synonyms.length === 0 ? (
          <p>{t('admin-nothing-yet')}</p>
        ) : (
          <div className="admin-table-scroll">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin-synonym-term')}</th>
                  <th scope="col">{t('admin-synonym-meaning')}</th>
                  <th scope="col">{t('admin-actions')}</th>
                </tr>
              </thead>
              <tbody>
                {synonyms.map((synonym) => (
                  <tr key={synonym.id}>
                    <td>{synonym.term}</td>
                    <td>{synonym.meaning}</td>
                    <td>
                      {mayDelete ? (
                        <remove.Form method="post">
                          <input type="hidden" name="id" value={synonym.id} />
                          <button
                            type="submit"
                            name="intent"
                            value="delete"
                            className="link-button admin-danger"
                          >
                            {t('admin-delete')}
                            <span className="visually-hidden">
                              {' '}
                              {synonym.term} → {synonym.meaning}
                            </span>
                          </button>
                        </remove.Form>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <save.Form
        method="post"
        {...getFormProps(form)}
        className="admin-card admin-form"
        aria-labelledby="synonym-form-heading"
      >
        <h2 id="synonym-form-heading">{t('admin-new-synonym')}</h2>
        {outcome?.ok ? <FormSuccess>{t('admin-synonym-saved')}</FormSuccess> : null}
        <RequestAlert message={alert.message} errors={alert.errors} shownFields={FIELDS} />
        <FormField
          {...fieldProps(fields.term)}
          label={t('admin-synonym-term')}
          hint={t('admin-synonym-term-hint')}
          required
        />
        <FormField
          {...fieldProps(fields.meaning)}
          label={t('admin-synonym-meaning')}
          hint={t('admin-synonym-meaning-hint')}
          required
        />
        <div className="admin-actions">
          <BusyButton busy={save.state !== 'idle'} primary name="intent" value="save">
            {t('save')}
          </BusyButton>
        </div>
      </save.Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
