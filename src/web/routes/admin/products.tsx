import { getFormProps } from '@conform-to/react';
import { useRef } from 'react';
import { Form, Link, useFetcher, useRouteLoaderData } from 'react-router';
import {
  BULK_PRICE_PERCENT,
  PRODUCT_LIST_SORTS,
  type ProductBulkAction,
  type ProductListSort,
  productBulkChange,
  productBulkDelete,
} from '../../../contract/admin.ts';
import {
  adminCategoriesResponse,
  adminProductListResponse,
  adminProjectsResponse,
  productBulkResponse,
} from '../../../contract/admin-answers.ts';
import { imageUrl } from '../../../contract/images.ts';
import { unitPrice } from '../../../contract/money.ts';
import { z } from '../../../contract/zod.ts';
import { loadAdminAnswer } from '../../admin/api.ts';
import { adminCall, fieldProps, formAlert, submitAdminForm, useAdminForm } from '../../admin/forms.ts';
import { useAdminShop } from '../../admin/text.ts';
import type { AdminCategory, AdminProject, ProductPage, ProductRow } from '../../admin/types.ts';
import { AdminErrorBoundary, AdminLoading, AdminPage, Pager, useAdminFormat } from '../../admin/ui.tsx';
import { FormField, FormSuccess, SelectField } from '../../components/form-field.tsx';
import type { AdminMessageKey } from '../../i18n/admin-messages.ts';
import type { Route } from './+types/products';
import type { loader as adminLayoutLoader } from './layout.tsx';

/** The list's search, filters and sort, as the URL carries them (the API reads the same names). */
const FILTERS = ['search', 'project', 'category', 'stock', 'hidden', 'envisioned', 'sort'] as const;

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const url = new URL(request.url);
  const filters = Object.fromEntries(
    FILTERS.map((name) => [name, url.searchParams.get(name) ?? '']),
  ) as Record<(typeof FILTERS)[number], string>;
  const [page, { projects }, { categories }] = await Promise.all([
    loadAdminAnswer(adminProductListResponse, '/products', request, {
      ...filters,
      page: url.searchParams.get('page'),
    }),
    loadAdminAnswer(adminProjectsResponse, '/projects', request),
    loadAdminAnswer(adminCategoriesResponse, '/categories', request),
  ]);
  return { filters, page, projects, categories };
}

export function HydrateFallback() {
  return <AdminLoading />;
}

/** The bulk form's check: one of the changes, or a deletion (an API call of its own). */
const bulkForm = z.discriminatedUnion(
  'action',
  [productBulkChange, productBulkDelete.extend({ action: z.literal('delete') })],
  { error: 'bulk-action-invalid' },
);

/**
 * One bulk change on the chosen products, as the confirmation dialog submits it: the API does all
 * of it or, naming each refused product, none of it. The answer says what was done, to how many.
 */
export async function clientAction({ request }: Route.ClientActionArgs) {
  return submitAdminForm(await request.formData(), {
    schema: bulkForm,
    send: async (json, { action }) => {
      const path = action === 'delete' ? '/products/bulk-delete' : '/products/bulk';
      const { changed } = await adminCall(productBulkResponse, 'POST', path, { json });
      return { action, changed };
    },
    // The chosen products are let go and the action is the first again.
    resetOnSuccess: true,
  });
}

const SORT_LABELS: Record<ProductListSort, AdminMessageKey> = {
  new: 'admin-sort-new',
  old: 'admin-sort-old',
  name: 'admin-sort-name',
  'price-asc': 'admin-sort-price-asc',
  'price-desc': 'admin-sort-price-desc',
  'stock-asc': 'admin-sort-stock-asc',
  'stock-desc': 'admin-sort-stock-desc',
};

const BULK_ACTIONS: Array<{ action: ProductBulkAction; label: AdminMessageKey; adminOnly?: true }> = [
  { action: 'hide', label: 'admin-bulk-hide' },
  { action: 'show', label: 'admin-bulk-show' },
  { action: 'project', label: 'admin-bulk-project' },
  { action: 'category', label: 'admin-bulk-category' },
  { action: 'price', label: 'admin-bulk-price' },
  { action: 'delete', label: 'admin-bulk-delete', adminOnly: true },
];

const DONE: Record<ProductBulkAction, AdminMessageKey> = {
  hide: 'admin-bulk-done-hide',
  show: 'admin-bulk-done-show',
  project: 'admin-bulk-done-project',
  category: 'admin-bulk-done-category',
  price: 'admin-bulk-done-price',
  delete: 'admin-bulk-done-delete',
};

export default function ProductsPage({ loaderData }: Route.ComponentProps) {
  const { t, locale } = useAdminShop();
  const { filters, page, projects, categories } = loaderData;
  const nameOf = (entry: { name_ru: string; name_en: string }) =>
    locale === 'ru' ? entry.name_ru : entry.name_en;

  return (
    <AdminPage
      title={t('admin-products')}
      actions={
        <Link to="/admin/products/new" className="button button--primary">
          {t('admin-new-product')}
        </Link>
      }
    >
      <Form
        method="get"
        className="admin-card admin-search"
        aria-labelledby="product-filters-heading"
        key={JSON.stringify(filters)}
      >
        <h2 id="product-filters-heading" className="visually-hidden">
          {t('admin-product-filters')}
        </h2>
        <div className="admin-search__fields">
          <FormField
            name="search"
            type="search"
            label={t('admin-product-search')}
            defaultValue={filters.search}
          />
          <SelectField name="project" label={t('admin-project')} defaultValue={filters.project}>
            <option value="">{t('admin-any')}</option>
            {projects.map((project) => (
              <option key={project.id} value={project.id}>
                {nameOf(project)}
              </option>
            ))}
          </SelectField>
          <SelectField name="category" label={t('admin-category')} defaultValue={filters.category}>
            <option value="">{t('admin-any')}</option>
            {categories.map((category) => (
              <option key={category.id} value={category.id}>
                {nameOf(category)}
              </option>
            ))}
          </SelectField>
          <SelectField name="stock" label={t('admin-stock')} defaultValue={filters.stock}>
            <option value="">{t('admin-any')}</option>
            <option value="low">{t('admin-stock-low')}</option>
            <option value="out">{t('admin-stock-out')}</option>
          </SelectField>
          <SelectField name="sort" label={t('admin-sort')} defaultValue={filters.sort || 'new'}>
            {PRODUCT_LIST_SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {t(SORT_LABELS[sort])}
              </option>
            ))}
          </SelectField>
          <fieldset className="admin-search__checks">
            <legend className="visually-hidden">{t('admin-flags')}</legend>
            <label className="checkbox-row">
              <input type="checkbox" name="hidden" value="1" defaultChecked={filters.hidden === '1'} />
              {t('admin-hidden-only')}
            </label>
            <label className="checkbox-row">
              <input
                type="checkbox"
                name="envisioned"
                value="1"
                defaultChecked={filters.envisioned === '1'}
              />
              {t('admin-envisioned-only')}
            </label>
          </fieldset>
        </div>
        <div className="admin-actions">
          <button type="submit" className="button button--primary">
            {t('admin-apply-filters')}
          </button>
          <Link to="/admin/products" className="button">
            {t('admin-reset-filters')}
          </Link>
        </div>
      </Form>
      <ProductList page={page} projects={projects} categories={categories} nameOf={nameOf} />
    </AdminPage>
  );
}

/** The bulk form: its fields sit in the dialog, the products' checkboxes in the table's rows. */
const BULK_FORM = 'products-bulk';

type BulkFields = { action: string; ids: string[]; project: string; category: string; percent: string };

/** Fields the bulk form shows errors under; the API's texts for the rest (each refused product) go below it. */
const BULK_FIELDS = ['action', 'project', 'category', 'percent'];

function ProductList({
  page,
  projects,
  categories,
  nameOf,
}: {
  page: ProductPage;
  projects: AdminProject[];
  categories: AdminCategory[];
  nameOf: (entry: { name_ru: string; name_en: string }) => string;
}) {
  const { t } = useAdminShop();
  const format = useAdminFormat();
  const role = useRouteLoaderData<typeof adminLayoutLoader>('routes/admin/layout')?.role;
  const fetcher = useFetcher<typeof clientAction>();
  const dialog = useRef<HTMLDialogElement>(null);
  const [form, fields] = useAdminForm<BulkFields>({
    id: BULK_FORM,
    schema: bulkForm,
    lastResult: fetcher.data?.result,
    defaultValue: { action: 'hide' },
  });
  const outcome = fetcher.state === 'idle' ? fetcher.data : undefined;

  // The rows' checkboxes, as the form holds them: a row of another page starts unticked.
  const ticked = [form.value?.ids ?? []].flat();
  const chosen = page.list.filter((row) => ticked.includes(String(row.id)));
  const allChosen = page.list.length > 0 && chosen.length === page.list.length;
  const actions = BULK_ACTIONS.filter((entry) => !entry.adminOnly || role === 'admin');
  const action = actions.find((entry) => entry.action === fields.action.value)?.action ?? 'hide';
  const names = chosen.map((row) => `«${nameOf(row)}»`).join(', ');
  const targetName = (list: Array<AdminProject | AdminCategory>, id: string | undefined) => {
    const found = list.find((entry) => String(entry.id) === id);
    return found ? nameOf(found) : '';
  };
  const percent = fields.percent.value ?? '';
  const summary = () => {
    const count = chosen.length;
    switch (action) {
      case 'hide':
        return t('admin-bulk-confirm-hide', { count, names });
      case 'show':
        return t('admin-bulk-confirm-show', { count, names });
      case 'project':
        return t('admin-bulk-confirm-project', {
          count,
          names,
          project: targetName(projects, fields.project.value),
        });
      case 'category':
        return t('admin-bulk-confirm-category', {
          count,
          names,
          category: targetName(categories, fields.category.value),
        });
      case 'price':
        return t('admin-bulk-confirm-price', {
          count,
          names,
          percent: `${Number(percent) > 0 ? '+' : ''}${percent}`,
        });
      case 'delete':
        return t('admin-bulk-confirm-delete', { count, names });
    }
  };
  const alert = formAlert(form);
  const refused = Object.entries(alert.errors)
    .filter(([field]) => !BULK_FIELDS.includes(field))
    .flatMap(([field, texts]) => {
      const id = Number(field.replace(/^products\./, ''));
      const row = page.list.find((entry) => entry.id === id);
      return texts.map((text) => ({
        key: `${field}:${text}`,
        text: row ? `«${nameOf(row)}»: ${text}` : text,
      }));
    });
  const formProps = getFormProps(form);

  return (
    <section className="admin-card admin-products" aria-label={t('admin-products')}>
      <fetcher.Form
        method="post"
        {...formProps}
        className="admin-bulk"
        onSubmit={(event) => {
          dialog.current?.close();
          formProps.onSubmit(event);
        }}
        aria-label={t('admin-bulk-actions')}
      >
        <p className="admin-bulk__count" aria-live="polite">
          {t('admin-bulk-chosen', { count: chosen.length })}
        </p>
        <SelectField {...fieldProps(fields.action)} label={t('admin-bulk-action')}>
          {actions.map((entry) => (
            <option key={entry.action} value={entry.action}>
              {t(entry.label)}
            </option>
          ))}
        </SelectField>
        {action === 'project' ? (
          <SelectField {...fieldProps(fields.project)} label={t('admin-project')} required>
            <option value="">{t('admin-choose')}</option>
            {projects.map((project) => (
              <option key={project.id} value={project.id}>
                {nameOf(project)}
              </option>
            ))}
          </SelectField>
        ) : null}
        {action === 'category' ? (
          <SelectField {...fieldProps(fields.category)} label={t('admin-category')} required>
            <option value="">{t('admin-choose')}</option>
            {categories.map((category) => (
              <option key={category.id} value={category.id}>
                {nameOf(category)}
              </option>
            ))}
          </SelectField>
        ) : null}
        {action === 'price' ? (
          <FormField
            {...fieldProps(fields.percent)}
            type="number"
            label={t('admin-bulk-percent')}
            hint={t('admin-bulk-percent-hint')}
            required
            step={1}
            min={BULK_PRICE_PERCENT.min}
            max={BULK_PRICE_PERCENT.max}
          />
        ) : null}
        <button
          type="button"
          className="button"
          disabled={chosen.length === 0 || fetcher.state !== 'idle'}
          onClick={(event) => {
            if (event.currentTarget.form?.reportValidity()) dialog.current?.showModal();
          }}
        >
          {t('admin-bulk-run')}
        </button>
        <dialog ref={dialog} className="admin-dialog" aria-labelledby="bulk-confirm-heading">
          <h2 id="bulk-confirm-heading">{t('admin-bulk-confirm-title')}</h2>
          <p>{chosen.length > 0 ? summary() : null}</p>
          <div className="admin-actions">
            <button
              type="submit"
              className={action === 'delete' ? 'button admin-button--danger' : 'button button--primary'}
            >
              {t('admin-bulk-confirm')}
            </button>
            <button type="button" className="button" onClick={() => dialog.current?.close()}>
              {t('admin-cancel')}
            </button>
          </div>
        </dialog>
      </fetcher.Form>
      {outcome?.ok ? (
        <FormSuccess>{t(DONE[outcome.answer.action], { count: outcome.answer.changed })}</FormSuccess>
      ) : null}
      {alert.message ? (
        <div className="form-alert" role="alert">
          <p>{alert.message}</p>
          {refused.length > 0 ? (
            <ul>
              {refused.map((entry) => (
                <li key={entry.key}>{entry.text}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {page.list.length === 0 ? (
        <p>{t('admin-nothing-found')}</p>
      ) : (
        <table className="admin-table admin-table--cards admin-product-table">
          <thead>
            <tr>
              <th scope="col">
                <input
                  type="checkbox"
                  aria-label={t('admin-bulk-choose-page')}
                  checked={allChosen}
                  onChange={(event) =>
                    form.update({
                      name: fields.ids.name,
                      value: event.target.checked ? page.list.map((row) => String(row.id)) : [],
                    })
                  }
                />
              </th>
              <th scope="col">
                <span className="visually-hidden">{t('admin-picture')}</span>
              </th>
              <th scope="col">{t('admin-name')}</th>
              <th scope="col">{t('admin-project')}</th>
              <th scope="col">{t('admin-price')}</th>
              <th scope="col">{t('admin-stock')}</th>
              <th scope="col">{t('admin-flags')}</th>
            </tr>
          </thead>
          <tbody>
            {page.list.map((product) => (
              <ProductRowView
                key={product.id}
                product={product}
                name={nameOf(product)}
                project={nameOf({ name_ru: product.project_ru, name_en: product.project_en })}
                money={format.money}
              />
            ))}
          </tbody>
        </table>
      )}
      <Pager currentPage={page.currentPage} lastPage={page.lastPage} total={page.total} />
    </section>
  );
}

function ProductRowView({
  product,
  name,
  project,
  money,
}: {
  product: ProductRow;
  name: string;
  project: string;
  money: (roubles: number | null) => string;
}) {
  const { t } = useAdminShop();
  return (
    <tr>
      <td className="admin-product-table__choose">
        {/* A field of the bulk form, wherever the row is. */}
        <input
          type="checkbox"
          name="ids"
          value={product.id}
          form={BULK_FORM}
          aria-label={t('admin-bulk-choose', { name })}
        />
      </td>
      <td className="admin-product-table__picture">
        {product.image ? (
          <img src={imageUrl('products', product.image, 160)} alt="" width={48} height={48} loading="lazy" />
        ) : (
          <span className="admin-product-table__no-picture" aria-hidden="true" />
        )}
      </td>
      <td className="admin-product-table__name">
        <Link to={`/admin/products/${product.id}`}>{name}</Link>
        <br />
        <span className="admin-muted">
          #{product.id} · {product.link}
        </span>
      </td>
      <td data-label={t('admin-project')}>{project}</td>
      <td data-label={t('admin-price')}>
        {money(unitPrice(product))}
        {product.sale !== null ? <s className="admin-muted"> {money(product.price)}</s> : null}
      </td>
      <td data-label={t('admin-stock')} className={product.quantity === 0 ? 'admin-danger' : undefined}>
        {product.quantity}
      </td>
      <td className="admin-product-table__flags">
        <ul className="admin-tags">
          {product.visible ? null : <li>{t('admin-hidden')}</li>}
          {product.weekSale ? <li>{t('admin-week-sale')}</li> : null}
          {product.envisioned ? <li>{t('envisioned')}</li> : null}
        </ul>
      </td>
    </tr>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
