import { type FormEvent, useState } from 'react';
import { Link, useLocation, useNavigate, useRouteLoaderData } from 'react-router';
import { AdminApiError, adminApi, loadAdmin } from '../../admin/api.ts';
import { localInputValue, localTimeZoneLabel, momentOfLocalInput } from '../../admin/local-time.ts';
import { useAdminShop } from '../../admin/text.ts';
import type { AdminDrop, DropProduct, ProductPage } from '../../admin/types.ts';
import {
  AdminErrorBoundary,
  AdminLoading,
  AdminPage,
  BusyButton,
  RequestAlert,
  useAdminRequest,
} from '../../admin/ui.tsx';
import { FormAlert, FormField, FormSuccess } from '../../components/form-field.tsx';
import type { Route } from './+types/drop';
import type { loader as adminLayoutLoader } from './layout.tsx';

/** The drop editor, for a new drop (/admin/drops/new) and an existing one. */
export async function clientLoader({ request, params }: Route.ClientLoaderArgs) {
  const id = 'id' in params ? params.id : undefined;
  if (id === undefined) return { drop: null };
  const { drop } = await loadAdmin<{ drop: AdminDrop }>(`/drops/${encodeURIComponent(id)}`, request);
  return { drop };
}

export function HydrateFallback() {
  return <AdminLoading />;
}

interface Draft {
  name_ru: string;
  name_en: string;
  /** The release time as the datetime-local input holds it, in the manager's time zone. */
  release_at: string;
  hold_minutes: string;
  per_customer_limit: string;
  products: DropProduct[];
}

const draftOf = (drop: AdminDrop | null): Draft => ({
  name_ru: drop?.name_ru ?? '',
  name_en: drop?.name_en ?? '',
  release_at: localInputValue(drop?.release_at),
  hold_minutes: drop?.hold_minutes === null || drop === null ? '' : String(drop.hold_minutes),
  per_customer_limit:
    drop?.per_customer_limit === null || drop === null ? '' : String(drop.per_customer_limit),
  products: drop?.products ?? [],
});

const SEARCH_FORM = 'drop-product-search-form';

/** Fields this form shows errors for; the API's texts for anything else go above the form. */
const FIELDS = ['name_ru', 'name_en', 'release_at', 'hold_minutes', 'per_customer_limit', 'products'];

/** A product of another upcoming drop, as a refused save names it. */
interface TakenProduct {
  id: number;
  name_ru: string;
  name_en: string;
  drop: { id: number; name_ru: string; name_en: string };
}

function DropEditor({ drop }: { drop: AdminDrop | null }) {
  const { t, locale } = useAdminShop();
  const navigate = useNavigate();
  const location = useLocation();
  const role = useRouteLoaderData<typeof adminLayoutLoader>('routes/admin/layout')?.role;
  const request = useAdminRequest();
  const search = useAdminRequest();
  const [saved, setSaved] = useState(drop);
  const [draft, setDraft] = useState(() => draftOf(drop));
  const [searchText, setSearchText] = useState('');
  const [found, setFound] = useState<ProductPage['list'] | null>(null);
  const [deleteError, setDeleteError] = useState<string | undefined>();
  const created = (location.state as { created?: boolean } | null)?.created === true && !request.done;
  const name = (entry: { name_ru: string; name_en: string }) =>
    locale === 'ru' ? entry.name_ru : entry.name_en;
  const taken = (request.answer?.taken as TakenProduct[] | undefined) ?? [];
  const chosen = new Set(draft.products.map((product) => product.id));

  const set = <Field extends keyof Draft>(field: Field, value: Draft[Field]) =>
    setDraft((current) => ({ ...current, [field]: value }));
  const text = (field: 'name_ru' | 'name_en' | 'release_at' | 'hold_minutes' | 'per_customer_limit') => ({
    name: field,
    value: draft[field],
    onChange: (event: { target: { value: string } }) => set(field, event.target.value),
    errors: request.errors[field],
  });

  const find = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await search.run(
      () => adminApi<ProductPage>('GET', '/products', { query: { search: searchText.trim() } }),
      { reload: false },
    );
    if (answer) setFound(answer.list);
  };

  const add = (product: ProductPage['list'][number]) =>
    set('products', [
      ...draft.products,
      {
        id: product.id,
        name_ru: product.name_ru,
        name_en: product.name_en,
        link: product.link,
        quantity: product.quantity,
        per_customer_limit: null,
      },
    ]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const body = {
      name_ru: draft.name_ru,
      name_en: draft.name_en,
      release_at: momentOfLocalInput(draft.release_at),
      hold_minutes: draft.hold_minutes,
      per_customer_limit: draft.per_customer_limit,
      products: draft.products.map((product) => product.id),
    };
    const answer = await request.run(
      () =>
        saved
          ? adminApi<{ drop: AdminDrop }>('PATCH', `/drops/${saved.id}`, {
              json: { ...body, version: saved.version },
            })
          : adminApi<{ drop: AdminDrop }>('POST', '/drops', { json: body }),
      { success: t('admin-drop-saved'), reload: false },
    );
    if (!answer) return;
    if (!saved) {
      navigate(`/admin/drops/${answer.drop.id}`, { replace: true, state: { created: true } });
      return;
    }
    setSaved(answer.drop);
    setDraft(draftOf(answer.drop));
  };

  /** Someone else saved the drop meanwhile: their version replaces what was typed here. */
  const reload = async () => {
    if (!saved) return;
    const answer = await request.run(() => adminApi<{ drop: AdminDrop }>('GET', `/drops/${saved.id}`), {
      reload: false,
    });
    if (!answer) return;
    setSaved(answer.drop);
    setDraft(draftOf(answer.drop));
  };

  const remove = async () => {
    if (!saved || !window.confirm(t('admin-drop-confirm-delete', { name: name(saved) }))) return;
    try {
      await adminApi('DELETE', `/drops/${saved.id}`);
      navigate('/admin/drops');
    } catch (error) {
      setDeleteError(error instanceof AdminApiError ? error.message : t('admin-request-failed'));
    }
  };

  return (
    <AdminPage
      title={saved ? t('admin-edit-drop', { name: name(saved) }) : t('admin-new-drop')}
      actions={
        <>
          {saved ? (
            <Link to={`/admin/drops/${saved.id}/live`} className="button">
              {t('admin-drop-live-view')}
            </Link>
          ) : null}
          <Link to="/admin/drops" className="button">
            {t('admin-back-to-drops')}
          </Link>
        </>
      }
    >
      <form className="admin-form admin-card" onSubmit={save} noValidate aria-label={t('admin-drop-form')}>
        {request.done ? <FormSuccess>{request.done}</FormSuccess> : null}
        {created ? <FormSuccess>{t('admin-drop-created')}</FormSuccess> : null}
        <RequestAlert
          message={request.message}
          errors={request.errors}
          shownFields={FIELDS}
          onReload={request.recordChanged ? () => void reload() : undefined}
        />
        <div className="admin-form__grid">
          <FormField {...text('name_ru')} label={t('admin-name-ru')} required />
          <FormField {...text('name_en')} label={t('admin-name-en')} required />
        </div>
        <div className="admin-form__grid admin-form__grid--timing">
          <FormField
            {...text('release_at')}
            type="datetime-local"
            label={t('admin-drop-release-at-zone', { zone: localTimeZoneLabel(locale) })}
            hint={t('admin-drop-release-hint')}
            required
          />
          <FormField
            {...text('hold_minutes')}
            type="number"
            min={1}
            max={1440}
            step="1"
            inputMode="numeric"
            label={t('admin-drop-hold-minutes')}
            hint={t('admin-drop-hold-hint')}
          />
          <FormField
            {...text('per_customer_limit')}
            type="number"
            min={1}
            step="1"
            inputMode="numeric"
            label={t('admin-per-customer-limit')}
            hint={t('admin-drop-limit-hint')}
          />
        </div>

        <fieldset className="admin-fieldset">
          <legend>{t('admin-drop-products')}</legend>
          {draft.products.length === 0 ? (
            <p className="form-field__hint">{t('admin-drop-no-products')}</p>
          ) : (
            <ul className="admin-drop-products" aria-label={t('admin-drop-products')}>
              {draft.products.map((product) => (
                <li key={product.id}>
                  <span>
                    <Link to={`/admin/products/${product.id}`}>{name(product)}</Link>
                    <span className="admin-muted">
                      {' '}
                      · {t('admin-stock-count', { count: product.quantity })}
                    </span>
                  </span>
                  <button
                    type="button"
                    className="link-button admin-danger"
                    onClick={() =>
                      set(
                        'products',
                        draft.products.filter((other) => other.id !== product.id),
                      )
                    }
                  >
                    {t('admin-remove')}
                    <span className="visually-hidden"> {name(product)}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div className="admin-inline-search admin-drop-search">
            <label htmlFor="drop-product-search">{t('admin-drop-add-products')}</label>
            <input
              id="drop-product-search"
              type="search"
              form={SEARCH_FORM}
              placeholder={t('admin-product-search')}
              value={searchText}
              onChange={(event) => setSearchText(event.target.value)}
            />
            <button
              type="submit"
              form={SEARCH_FORM}
              className="button"
              disabled={search.busy}
              aria-busy={search.busy}
            >
              {t('search')}
            </button>
          </div>
          <RequestAlert message={search.message} errors={search.errors} shownFields={[]} />
          {found === null ? null : found.length === 0 ? (
            <p>{t('admin-nothing-found')}</p>
          ) : (
            <ul className="admin-drop-products admin-drop-found" aria-label={t('admin-drop-found')}>
              {found.map((product) => (
                <li key={product.id}>
                  <span>
                    {name(product)}
                    <span className="admin-muted">
                      {' '}
                      · {t('admin-stock-count', { count: product.quantity })}
                      {product.drop_id !== null && product.drop_id !== saved?.id
                        ? ` · ${t('admin-drop-in-other')}`
                        : ''}
                    </span>
                  </span>
                  <button
                    type="button"
                    className="button"
                    disabled={chosen.has(product.id)}
                    onClick={() => add(product)}
                  >
                    {chosen.has(product.id) ? t('admin-drop-product-added') : t('admin-drop-add')}
                    <span className="visually-hidden"> {name(product)}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {request.errors.products ? (
            <div className="form-field__error">
              <p>{request.errors.products.join(' ')}</p>
              {taken.length > 0 ? (
                <ul>
                  {taken.map((product) => (
                    <li key={product.id}>
                      {t('admin-drop-taken', { product: name(product) })}{' '}
                      <Link to={`/admin/drops/${product.drop.id}`}>{name(product.drop)}</Link>
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
        </fieldset>

        <div className="admin-actions">
          <BusyButton busy={request.busy} primary>
            {saved ? t('save') : t('admin-drop-schedule')}
          </BusyButton>
          {saved && role === 'admin' ? (
            <button type="button" className="button admin-button--danger" onClick={remove}>
              {t('admin-delete')}
            </button>
          ) : null}
        </div>
        {deleteError ? <FormAlert>{deleteError}</FormAlert> : null}
      </form>

      {/* The product search is a form of its own; its field and button sit in the drop's form. */}
      <form id={SEARCH_FORM} onSubmit={find} />
    </AdminPage>
  );
}

export default function DropPage({ loaderData }: Route.ComponentProps) {
  return <DropEditor key={loaderData.drop?.id ?? 'new'} drop={loaderData.drop} />;
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
