import {
  Form,
  Link,
  Navigate,
  redirect,
  useFetcher,
  useLocation,
  useNavigate,
  useNavigation,
  useRouteLoaderData,
} from 'react-router';
import { dropEdit, dropInput, dropProductsTaken, dropSaved } from '../../../contract/admin.ts';
import { dropEditorResponse } from '../../../contract/admin-answers.ts';
import { adminApi, loadAdminAnswer } from '../../admin/api.ts';
import {
  adminCall,
  adminWrite,
  type FormFields,
  fieldProps,
  formAlert,
  submitAdminForm,
  useAdminForm,
} from '../../admin/forms.ts';
import { localInputValue, localTimeZoneLabel, momentOfLocalInput } from '../../admin/local-time.ts';
import { useAdminShop } from '../../admin/text.ts';
import type { AdminDrop } from '../../admin/types.ts';
import { AdminErrorBoundary, AdminLoading, AdminPage, BusyButton, RequestAlert } from '../../admin/ui.tsx';
import { FormAlert, FormField, FormSuccess } from '../../components/form-field.tsx';
import type { Route } from './+types/drop';
import type { loader as adminLayoutLoader } from './layout.tsx';
import type { clientLoader as productsLoader } from './products.tsx';

/** The drop editor, for a new drop (/admin/drops/new) and an existing one. */
export async function clientLoader({ request, params }: Route.ClientLoaderArgs) {
  const id = 'id' in params ? params.id : undefined;
  if (id === undefined) return { drop: null };
  const { drop } = await loadAdminAnswer(dropEditorResponse, `/drops/${encodeURIComponent(id)}`, request);
  return { drop };
}

export function HydrateFallback() {
  return <AdminLoading />;
}

/** A product of the drop as the form carries it: its id is sent, the rest is shown. */
interface DropProductFields {
  id: string;
  name_ru: string;
  name_en: string;
  quantity: string;
}

type DropFields = {
  name_ru: string;
  name_en: string;
  /** The release time as the datetime-local input holds it, in the manager's time zone. */
  release_at: string;
  hold_minutes: string;
  per_customer_limit: string;
  products: DropProductFields[];
};

const fieldsOf = (drop: AdminDrop | null): DropFields => ({
  name_ru: drop?.name_ru ?? '',
  name_en: drop?.name_en ?? '',
  release_at: localInputValue(drop?.release_at),
  hold_minutes: drop?.hold_minutes === null || drop === null ? '' : String(drop.hold_minutes),
  per_customer_limit:
    drop?.per_customer_limit === null || drop === null ? '' : String(drop.per_customer_limit),
  products: (drop?.products ?? []).map((product) => ({
    id: String(product.id),
    name_ru: product.name_ru,
    name_en: product.name_en,
    quantity: String(product.quantity),
  })),
});

/** The API reads a moment and the products' ids. */
const prepare = (fields: FormFields): FormFields => ({
  ...fields,
  release_at: momentOfLocalInput(typeof fields.release_at === 'string' ? fields.release_at : ''),
  products: Array.isArray(fields.products)
    ? fields.products.map((product: { id?: unknown }) => product.id)
    : [],
});

const checksFor = (id: string | undefined) => ({ schema: id === undefined ? dropInput : dropEdit, prepare });

/** Saves the drop (a new one opens its own page), or deletes it. */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const id = 'id' in params ? params.id : undefined;
  const formData = await request.formData();
  if (formData.get('intent') === 'delete' && id !== undefined) {
    const { error } = await adminWrite(() => adminApi('DELETE', `/drops/${encodeURIComponent(id)}`));
    return error === undefined ? redirect('/admin/drops') : { deleteError: error };
  }
  return submitAdminForm(formData, {
    ...checksFor(id),
    send: (json) =>
      id === undefined
        ? adminCall(dropSaved, 'POST', '/drops', { json })
        : adminCall(dropSaved, 'PATCH', `/drops/${encodeURIComponent(id)}`, { json }),
  });
}

const SEARCH_FORM = 'drop-product-search-form';

/** A new drop's page opens saying so (one object: `<Navigate>` navigates again when its state changes). */
const CREATED = { created: true };

/** Fields this form shows errors for; the API's texts for anything else go above the form. */
const FIELDS = ['name_ru', 'name_en', 'release_at', 'hold_minutes', 'per_customer_limit', 'products'];

function DropEditor({
  drop,
  actionData,
}: {
  drop: AdminDrop | null;
  actionData: Route.ComponentProps['actionData'];
}) {
  const { t, locale } = useAdminShop();
  const navigate = useNavigate();
  const location = useLocation();
  const navigation = useNavigation();
  const role = useRouteLoaderData<typeof adminLayoutLoader>('routes/admin/layout')?.role;
  const search = useFetcher<typeof productsLoader>();
  const remover = useFetcher<typeof clientAction>();
  const outcome = actionData && 'result' in actionData ? actionData : undefined;
  const [form, fields] = useAdminForm<DropFields>({
    ...checksFor(drop ? String(drop.id) : undefined),
    lastResult: outcome?.result,
    defaultValue: fieldsOf(drop),
  });
  const saved = outcome?.ok === true;
  const created = (location.state as { created?: boolean } | null)?.created === true && !saved;
  const name = (entry: { name_ru: string; name_en: string }) =>
    locale === 'ru' ? entry.name_ru : entry.name_en;
  const refusal = outcome?.ok === false ? outcome.refusal : undefined;
  const taken = dropProductsTaken.safeParse(refusal?.answer).data?.taken ?? [];
  const products = fields.products.getFieldList();
  const chosen = new Set(products.map((product) => product.value?.id));
  const found = search.data?.page.list;
  const deleteError = remover.data && 'deleteError' in remover.data ? remover.data.deleteError : undefined;
  const alert = formAlert(form);

  if (saved && drop === null) {
    return <Navigate to={`/admin/drops/${outcome.answer.drop.id}`} replace state={CREATED} />;
  }

  const remove = () => {
    if (drop && window.confirm(t('admin-drop-confirm-delete', { name: name(drop) }))) {
      remover.submit({ intent: 'delete' }, { method: 'post' });
    }
  };

  return (
    <AdminPage
      title={drop ? t('admin-edit-drop', { name: name(drop) }) : t('admin-new-drop')}
      actions={
        <>
          {drop ? (
            <Link to={`/admin/drops/${drop.id}/live`} className="button">
              {t('admin-drop-live-view')}
            </Link>
          ) : null}
          <Link to="/admin/drops" className="button">
            {t('admin-back-to-drops')}
          </Link>
        </>
      }
    >
      <Form
        method="post"
        id={form.id}
        onSubmit={form.onSubmit}
        className="admin-form admin-card"
        noValidate
        aria-label={t('admin-drop-form')}
      >
        {saved ? <FormSuccess>{t('admin-drop-saved')}</FormSuccess> : null}
        {created ? <FormSuccess>{t('admin-drop-created')}</FormSuccess> : null}
        <RequestAlert
          message={alert.message}
          errors={alert.errors}
          shownFields={FIELDS}
          // Someone else saved the drop meanwhile: their version replaces what was typed here.
          onReload={refusal?.recordChanged ? () => navigate('.', { replace: true }) : undefined}
        />
        {drop ? <input type="hidden" name="version" value={drop.version} /> : null}
        <div className="admin-form__grid">
          <FormField {...fieldProps(fields.name_ru)} label={t('admin-name-ru')} required />
          <FormField {...fieldProps(fields.name_en)} label={t('admin-name-en')} required />
        </div>
        <div className="admin-form__grid admin-form__grid--timing">
          <FormField
            {...fieldProps(fields.release_at)}
            type="datetime-local"
            label={t('admin-drop-release-at-zone', { zone: localTimeZoneLabel(locale) })}
            hint={t('admin-drop-release-hint')}
            required
          />
          <FormField
            {...fieldProps(fields.hold_minutes)}
            type="number"
            min={1}
            max={1440}
            step="1"
            inputMode="numeric"
            label={t('admin-drop-hold-minutes')}
            hint={t('admin-drop-hold-hint')}
          />
          <FormField
            {...fieldProps(fields.per_customer_limit)}
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
          {products.length === 0 ? (
            <p className="form-field__hint">{t('admin-drop-no-products')}</p>
          ) : (
            <ul className="admin-drop-products" aria-label={t('admin-drop-products')}>
              {products.map((item, index) => {
                const product = item.getFieldset();
                const shown = {
                  name_ru: product.name_ru.value ?? '',
                  name_en: product.name_en.value ?? '',
                };
                return (
                  <li key={item.key}>
                    {(['id', 'name_ru', 'name_en', 'quantity'] as const).map((part) => (
                      <input
                        key={part}
                        type="hidden"
                        name={product[part].name}
                        value={product[part].value ?? ''}
                      />
                    ))}
                    <span>
                      <Link to={`/admin/products/${product.id.value}`}>{name(shown)}</Link>
                      <span className="admin-muted">
                        {' '}
                        · {t('admin-stock-count', { count: Number(product.quantity.value) })}
                      </span>
                    </span>
                    <button
                      type="button"
                      className="link-button admin-danger"
                      onClick={() => form.remove({ name: fields.products.name, index })}
                    >
                      {t('admin-remove')}
                      <span className="visually-hidden"> {name(shown)}</span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
          <div className="admin-inline-search admin-drop-search">
            <label htmlFor="drop-product-search">{t('admin-drop-add-products')}</label>
            <input
              id="drop-product-search"
              type="search"
              name="search"
              form={SEARCH_FORM}
              placeholder={t('admin-product-search')}
              maxLength={200}
            />
            <button
              type="submit"
              form={SEARCH_FORM}
              className="button"
              disabled={search.state !== 'idle'}
              aria-busy={search.state !== 'idle'}
            >
              {t('search')}
            </button>
          </div>
          {found === undefined ? null : found.length === 0 ? (
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
                      {product.drop_id !== null && product.drop_id !== drop?.id
                        ? ` · ${t('admin-drop-in-other')}`
                        : ''}
                    </span>
                  </span>
                  <button
                    type="button"
                    className="button"
                    disabled={chosen.has(String(product.id))}
                    onClick={() =>
                      form.insert({
                        name: fields.products.name,
                        defaultValue: {
                          id: String(product.id),
                          name_ru: product.name_ru,
                          name_en: product.name_en,
                          quantity: String(product.quantity),
                        },
                      })
                    }
                  >
                    {chosen.has(String(product.id)) ? t('admin-drop-product-added') : t('admin-drop-add')}
                    <span className="visually-hidden"> {name(product)}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {fields.products.errors ? (
            <div className="form-field__error">
              <p>{fields.products.errors.join(' ')}</p>
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
          <BusyButton busy={navigation.state !== 'idle'} primary>
            {drop ? t('save') : t('admin-drop-schedule')}
          </BusyButton>
          {drop && role === 'admin' ? (
            <button type="button" className="button admin-button--danger" onClick={remove}>
              {t('admin-delete')}
            </button>
          ) : null}
        </div>
        {deleteError ? <FormAlert>{deleteError}</FormAlert> : null}
      </Form>

      {/* The product search is a form of its own; its field and button sit in the drop's form. */}
      <search.Form id={SEARCH_FORM} method="get" action="/admin/products" />
    </AdminPage>
  );
}

export default function DropPage({ loaderData, actionData }: Route.ComponentProps) {
  // A saved drop's new version resets the fields to what was stored.
  return (
    <DropEditor
      key={loaderData.drop ? `${loaderData.drop.id}:${loaderData.drop.version}` : 'new'}
      drop={loaderData.drop}
      actionData={actionData}
    />
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
