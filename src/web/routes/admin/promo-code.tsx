import { Form, Link, redirect, useNavigation } from 'react-router';
import {
  adminCategoriesResponse,
  adminProjectsResponse,
  promoCodeResponse,
} from '../../../contract/admin-answers.ts';
import { AdminApiError, adminApi, type FieldErrors, loadAdminAnswer } from '../../admin/api.ts';
import { adminCall } from '../../admin/forms.ts';
import { localInputValue, localTimeZoneLabel, momentOfLocalInput } from '../../admin/local-time.ts';
import { PROMO_STATES } from '../../admin/promo.ts';
import { useAdminShop } from '../../admin/text.ts';
import {
  AdminErrorBoundary,
  AdminLoading,
  AdminPage,
  BusyButton,
  RequestAlert,
  useAdminFormat,
  useOrderStatusText,
} from '../../admin/ui.tsx';
import { CheckboxField, FormField, FormSuccess, SelectField } from '../../components/form-field.tsx';
import type { Route } from './+types/promo-code';

/** The promo code editor, for a new code (/admin/promo-codes/new) and an existing one with its orders. */
export async function clientLoader({ request, params }: Route.ClientLoaderArgs) {
  const id = 'id' in params ? params.id : undefined;
  const [promo, { projects }, { categories }] = await Promise.all([
    id === undefined
      ? null
      : loadAdminAnswer(promoCodeResponse, `/promo-codes/${encodeURIComponent(id)}`, request),
    loadAdminAnswer(adminProjectsResponse, '/projects', request),
    loadAdminAnswer(adminCategoriesResponse, '/categories', request),
  ]);
  return { promoCode: promo?.promoCode ?? null, projects, categories };
}

export function HydrateFallback() {
  return <AdminLoading />;
}

/** Saves the form through the API (the contract's schema checks it there); a new code opens its own page. */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const form = await request.formData();
  const id = 'id' in params ? params.id : undefined;
  const text = (name: string) => String(form.get(name) ?? '');
  const json = {
    code: text('code'),
    kind: text('kind'),
    value: text('value'),
    min_order: text('min_order'),
    starts_at: momentOfLocalInput(text('starts_at')),
    ends_at: momentOfLocalInput(text('ends_at')),
    total_limit: text('total_limit'),
    per_customer_limit: text('per_customer_limit'),
    applies_to_drops: form.get('applies_to_drops') === '1',
    projects: form.getAll('projects').map(String),
    categories: form.getAll('categories').map(String),
    products: text('products')
      .split(/[\s,;]+/)
      .filter(Boolean),
  };
  try {
    if (id === undefined) {
      const { promoCode } = await adminCall(promoCodeResponse, 'POST', '/promo-codes', { json });
      return redirect(`/admin/promo-codes/${promoCode.id}`);
    }
    await adminApi('PATCH', `/promo-codes/${encodeURIComponent(id)}`, {
      json: { ...json, version: text('version') },
    });
    return { saved: true, message: undefined, errors: {} as FieldErrors };
  } catch (error) {
    if (error instanceof AdminApiError && error.status < 500)
      return { saved: false, message: error.message, errors: error.fieldErrors };
    throw error;
  }
}

const FIELDS = [
  'code',
  'kind',
  'value',
  'min_order',
  'starts_at',
  'ends_at',
  'total_limit',
  'per_customer_limit',
  'projects',
  'categories',
  'products',
];

export default function PromoCodePage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useAdminShop();
  const format = useAdminFormat();
  const statusText = useOrderStatusText();
  const navigation = useNavigation();
  const { promoCode: code, projects, categories } = loaderData;
  const errors = actionData?.errors ?? {};
  const zone = localTimeZoneLabel(locale);
  const name = (entry: { name_ru: string; name_en: string }) =>
    locale === 'ru' ? entry.name_ru : entry.name_en;

  return (
    <AdminPage
      title={code ? t('admin-edit-promo-code', { code: code.code }) : t('admin-new-promo-code')}
      actions={
        <Link to="/admin/promo-codes" className="button">
          {t('admin-back-to-promo-codes')}
        </Link>
      }
    >
      {/* A saved code's new version resets the fields to what was stored. */}
      <Form
        key={code?.version ?? 'new'}
        method="post"
        className="admin-form admin-card"
        noValidate
        aria-label={t('admin-promo-form')}
      >
        {actionData?.saved ? <FormSuccess>{t('admin-promo-saved')}</FormSuccess> : null}
        <RequestAlert message={actionData?.message} errors={errors} shownFields={FIELDS} />
        {code ? <input type="hidden" name="version" value={code.version} /> : null}
        {code ? (
          <p>
            {t('admin-promo-state')}: {t(PROMO_STATES[code.state])} · {t('admin-promo-uses')}: {code.uses}
            {code.total_limit === null ? '' : ` / ${code.total_limit}`}
          </p>
        ) : null}
        <div className="admin-form__grid">
          <FormField
            name="code"
            label={t('admin-promo-code')}
            hint={t('admin-promo-code-hint')}
            defaultValue={code?.code ?? ''}
            errors={errors.code}
            maxLength={40}
            required
          />
          <SelectField
            name="kind"
            label={t('admin-promo-kind')}
            defaultValue={code?.kind ?? 'percent'}
            errors={errors.kind}
          >
            <option value="percent">{t('admin-promo-kind-percent')}</option>
            <option value="amount">{t('admin-promo-kind-amount')}</option>
          </SelectField>
          <FormField
            name="value"
            type="number"
            min={0}
            step="0.01"
            inputMode="decimal"
            label={t('admin-promo-value')}
            defaultValue={code ? String(code.value) : ''}
            errors={errors.value}
            required
          />
          <FormField
            name="min_order"
            type="number"
            min={0}
            step="0.01"
            inputMode="decimal"
            label={t('admin-promo-min-order')}
            hint={t('admin-promo-min-order-hint')}
            defaultValue={code?.min_order ? String(code.min_order) : ''}
            errors={errors.min_order}
          />
        </div>
        <div className="admin-form__grid">
          <FormField
            name="starts_at"
            type="datetime-local"
            label={t('admin-promo-starts-at', { zone })}
            defaultValue={localInputValue(code?.starts_at)}
            errors={errors.starts_at}
          />
          <FormField
            name="ends_at"
            type="datetime-local"
            label={t('admin-promo-ends-at', { zone })}
            defaultValue={localInputValue(code?.ends_at)}
            errors={errors.ends_at}
          />
          <FormField
            name="total_limit"
            type="number"
            min={1}
            step="1"
            inputMode="numeric"
            label={t('admin-promo-total-limit')}
            hint={t('admin-promo-limit-hint')}
            defaultValue={code?.total_limit === null || !code ? '' : String(code.total_limit)}
            errors={errors.total_limit}
          />
          <FormField
            name="per_customer_limit"
            type="number"
            min={1}
            step="1"
            inputMode="numeric"
            label={t('admin-promo-per-customer-limit')}
            hint={t('admin-promo-limit-hint')}
            defaultValue={code?.per_customer_limit === null || !code ? '' : String(code.per_customer_limit)}
            errors={errors.per_customer_limit}
          />
        </div>
        <CheckboxField
          name="applies_to_drops"
          value="1"
          label={t('admin-promo-applies-to-drops')}
          defaultChecked={code?.applies_to_drops ?? false}
        />
        <fieldset className="admin-fieldset">
          <legend>{t('admin-promo-scope')}</legend>
          <p className="form-field__hint">{t('admin-promo-scope-hint')}</p>
          <fieldset className="admin-fieldset">
            <legend>{t('admin-projects')}</legend>
            {projects.map((project) => (
              <CheckboxField
                key={project.id}
                name="projects"
                value={String(project.id)}
                label={name(project)}
                defaultChecked={code?.projects.includes(project.id) ?? false}
              />
            ))}
          </fieldset>
          <fieldset className="admin-fieldset">
            <legend>{t('admin-categories')}</legend>
            {categories.map((category) => (
              <CheckboxField
                key={category.id}
                name="categories"
                value={String(category.id)}
                label={name(category)}
                defaultChecked={code?.categories.includes(category.id) ?? false}
              />
            ))}
          </fieldset>
          <FormField
            name="products"
            label={t('admin-promo-products')}
            inputMode="numeric"
            defaultValue={code?.products.join(', ') ?? ''}
            errors={errors.products}
          />
        </fieldset>
        <div className="admin-actions">
          <BusyButton busy={navigation.state === 'submitting'} primary>
            {code ? t('save') : t('admin-promo-create')}
          </BusyButton>
        </div>
      </Form>

      {code ? (
        <section className="admin-card" aria-labelledby="promo-orders-heading">
          <h2 id="promo-orders-heading">{t('admin-promo-orders')}</h2>
          {code.orders.length === 0 ? (
            <p className="admin-muted">{t('admin-promo-orders-empty')}</p>
          ) : (
            <div className="admin-table-scroll">
              <table className="admin-table">
                <thead>
                  <tr>
                    <th scope="col">{t('admin-order-number')}</th>
                    <th scope="col">{t('admin-date')}</th>
                    <th scope="col">{t('email')}</th>
                    <th scope="col">{t('admin-status')}</th>
                    <th scope="col">{t('admin-promo-discount-given')}</th>
                    <th scope="col">{t('order-total')}</th>
                  </tr>
                </thead>
                <tbody>
                  {code.orders.map((order) => (
                    <tr key={order.id}>
                      <td>
                        <Link to={`/admin/orders/${order.id}`}>{order.id}</Link>
                      </td>
                      <td>{format.dateTime(order.date)}</td>
                      <td>{order.email}</td>
                      <td>{statusText(order.status)}</td>
                      <td>{format.money(order.discount)}</td>
                      <td>{format.money(order.total)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      ) : null}
    </AdminPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
