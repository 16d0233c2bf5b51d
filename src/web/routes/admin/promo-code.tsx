import { Form, Link, redirect, useNavigation } from 'react-router';
import { promoCodeEdit, promoCodeInput } from '../../../contract/admin.ts';
import {
  adminCategoriesResponse,
  adminProjectsResponse,
  promoCodeResponse,
} from '../../../contract/admin-answers.ts';
import { loadAdminAnswer } from '../../admin/api.ts';
import {
  adminCall,
  type FormFields,
  fieldProps,
  formAlert,
  submitAdminForm,
  useAdminForm,
  withCheckboxes,
} from '../../admin/forms.ts';
import { localInputValue, localTimeZoneLabel, momentOfLocalInput } from '../../admin/local-time.ts';
import { PROMO_STATES } from '../../admin/promo.ts';
import { useAdminShop } from '../../admin/text.ts';
import {
  AdminErrorBoundary,
  AdminLoading,
  AdminPage,
  BusyButton,
  FormRefusal,
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

type LoaderData = Route.ComponentProps['loaderData'];
type PromoCode = NonNullable<LoaderData['promoCode']>;

type PromoFields = {
  code: string;
  kind: string;
  value: string;
  min_order: string;
  /** The window's ends as the datetime-local inputs hold them, in the manager's time zone. */
  starts_at: string;
  ends_at: string;
  total_limit: string;
  per_customer_limit: string;
  applies_to_drops: string;
  projects: string[];
  categories: string[];
  /** Product ids as typed: "12, 15 31". */
  products: string;
};

const numberText = (value: number | null | undefined) =>
  value === null || value === undefined ? '' : String(value);

const fieldsOf = (code: PromoCode | null): PromoFields => ({
  code: code?.code ?? '',
  kind: code?.kind ?? 'percent',
  value: numberText(code?.value),
  min_order: code?.min_order ? String(code.min_order) : '',
  starts_at: localInputValue(code?.starts_at),
  ends_at: localInputValue(code?.ends_at),
  total_limit: numberText(code?.total_limit),
  per_customer_limit: numberText(code?.per_customer_limit),
  applies_to_drops: code?.applies_to_drops ? '1' : '',
  projects: (code?.projects ?? []).map(String),
  categories: (code?.categories ?? []).map(String),
  products: code?.products.join(', ') ?? '',
});

const typed = (value: unknown) => (typeof value === 'string' ? value : '');

/** The API reads moments, a clear box as '0' and the typed product ids one by one. */
const prepare = (fields: FormFields): FormFields => ({
  ...withCheckboxes(fields, ['applies_to_drops']),
  starts_at: momentOfLocalInput(typed(fields.starts_at)),
  ends_at: momentOfLocalInput(typed(fields.ends_at)),
  products: typed(fields.products)
    .split(/[\s,;]+/)
    .filter(Boolean),
});

const checksFor = (id: string | undefined) => ({
  schema: id === undefined ? promoCodeInput : promoCodeEdit,
  prepare,
});

/** Saves the code (the contract's schema checks it here and in the API); a new code opens its own page. */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const id = 'id' in params ? params.id : undefined;
  const outcome = await submitAdminForm(await request.formData(), {
    ...checksFor(id),
    send: (json) =>
      id === undefined
        ? adminCall(promoCodeResponse, 'POST', '/promo-codes', { json })
        : adminCall(promoCodeResponse, 'PATCH', `/promo-codes/${encodeURIComponent(id)}`, { json }),
  });
  return outcome.ok && id === undefined
    ? redirect(`/admin/promo-codes/${outcome.answer.promoCode.id}`)
    : outcome;
}

/** Fields this form shows errors for; the API's texts for anything else go above the form. */
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

function PromoCodeForm({
  code,
  projects,
  categories,
  actionData,
}: Pick<LoaderData, 'projects' | 'categories'> & {
  code: PromoCode | null;
  actionData: Route.ComponentProps['actionData'];
}) {
  const { t, locale } = useAdminShop();
  const navigation = useNavigation();
  const [form, fields] = useAdminForm<PromoFields>({
    ...checksFor(code ? String(code.id) : undefined),
    lastResult: actionData?.result,
    defaultValue: fieldsOf(code),
  });
  const alert = formAlert(form);
  const zone = localTimeZoneLabel(locale);
  const name = (entry: { name_ru: string; name_en: string }) =>
    locale === 'ru' ? entry.name_ru : entry.name_en;
  const ticked = (field: { initialValue?: unknown }, id: number) =>
    Array.isArray(field.initialValue) && field.initialValue.includes(String(id));
  // A refused id's text is under `products[n]` (`products.n` from the API): shown under its field.
  const productErrors = [...new Set(Object.values(fields.products.allErrors).flat())];

  return (
    <Form
      method="post"
      id={form.id}
      onSubmit={form.onSubmit}
      className="admin-form admin-card"
      noValidate
      aria-label={t('admin-promo-form')}
    >
      {actionData?.ok ? <FormSuccess>{t('admin-promo-saved')}</FormSuccess> : null}
      <FormRefusal alert={alert} outcome={actionData} shownFields={FIELDS} />
      {code ? <input type="hidden" name="version" value={code.version} /> : null}
      {code ? (
        <p>
          {t('admin-promo-state')}: {t(PROMO_STATES[code.state])} · {t('admin-promo-uses')}: {code.uses}
          {code.total_limit === null ? '' : ` / ${code.total_limit}`}
        </p>
      ) : null}
      <div className="admin-form__grid">
        <FormField
          {...fieldProps(fields.code)}
          label={t('admin-promo-code')}
          hint={t('admin-promo-code-hint')}
          maxLength={40}
          required
        />
        <SelectField {...fieldProps(fields.kind)} label={t('admin-promo-kind')}>
          <option value="percent">{t('admin-promo-kind-percent')}</option>
          <option value="amount">{t('admin-promo-kind-amount')}</option>
        </SelectField>
        <FormField
          {...fieldProps(fields.value)}
          type="number"
          min={0}
          step="0.01"
          inputMode="decimal"
          label={t('admin-promo-value')}
          required
        />
        <FormField
          {...fieldProps(fields.min_order)}
          type="number"
          min={0}
          step="0.01"
          inputMode="decimal"
          label={t('admin-promo-min-order')}
          hint={t('admin-promo-min-order-hint')}
        />
      </div>
      <div className="admin-form__grid">
        <FormField
          {...fieldProps(fields.starts_at)}
          type="datetime-local"
          label={t('admin-promo-starts-at', { zone })}
        />
        <FormField
          {...fieldProps(fields.ends_at)}
          type="datetime-local"
          label={t('admin-promo-ends-at', { zone })}
        />
        <FormField
          {...fieldProps(fields.total_limit)}
          type="number"
          min={1}
          step="1"
          inputMode="numeric"
          label={t('admin-promo-total-limit')}
          hint={t('admin-promo-limit-hint')}
        />
        <FormField
          {...fieldProps(fields.per_customer_limit)}
          type="number"
          min={1}
          step="1"
          inputMode="numeric"
          label={t('admin-promo-per-customer-limit')}
          hint={t('admin-promo-limit-hint')}
        />
      </div>
      <CheckboxField
        name={fields.applies_to_drops.name}
        value="1"
        label={t('admin-promo-applies-to-drops')}
        defaultChecked={fields.applies_to_drops.initialValue === '1'}
      />
      <fieldset className="admin-fieldset">
        <legend>{t('admin-promo-scope')}</legend>
        <p className="form-field__hint">{t('admin-promo-scope-hint')}</p>
        <fieldset className="admin-fieldset">
          <legend>{t('admin-projects')}</legend>
          {projects.map((project) => (
            <CheckboxField
              key={project.id}
              name={fields.projects.name}
              value={String(project.id)}
              label={name(project)}
              defaultChecked={ticked(fields.projects, project.id)}
            />
          ))}
        </fieldset>
        <fieldset className="admin-fieldset">
          <legend>{t('admin-categories')}</legend>
          {categories.map((category) => (
            <CheckboxField
              key={category.id}
              name={fields.categories.name}
              value={String(category.id)}
              label={name(category)}
              defaultChecked={ticked(fields.categories, category.id)}
            />
          ))}
        </fieldset>
        <FormField
          {...fieldProps(fields.products)}
          errors={productErrors.length > 0 ? productErrors : undefined}
          label={t('admin-promo-products')}
          inputMode="numeric"
        />
      </fieldset>
      <div className="admin-actions">
        <BusyButton busy={navigation.state === 'submitting'} primary>
          {code ? t('save') : t('admin-promo-create')}
        </BusyButton>
      </div>
    </Form>
  );
}

export default function PromoCodePage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const statusText = useOrderStatusText();
  const { promoCode: code } = loaderData;

  return (
    <AdminPage
      title={code ? t('admin-edit-promo-code', { code: code.code }) : t('admin-new-promo-code')}
      actions={
        <Link to="/admin/promo-codes" className="button">
          {t('admin-back-to-promo-codes')}
        </Link>
      }
    >
      {/* A saved code's new version resets the fields to what was stored; the action's answer stays the page's. */}
      <PromoCodeForm
        key={code?.version ?? 'new'}
        code={code}
        projects={loaderData.projects}
        categories={loaderData.categories}
        actionData={actionData}
      />
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
