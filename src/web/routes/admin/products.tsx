import { useEffect, useRef, useState } from 'react';
import { Form, Link, useFetcher, useRouteLoaderData } from 'react-router';
import {
  BULK_PRICE_PERCENT,
  PRODUCT_LIST_SORTS,
  type ProductBulkAction,
  type ProductListSort,
} from '../../../contract/admin.ts';
import {
  adminCategoriesResponse,
  adminProductListResponse,
  adminProjectsResponse,
} from '../../../contract/admin-answers.ts';
import { imageUrl } from '../../../contract/images.ts';
import { unitPrice } from '../../../contract/money.ts';
import { AdminApiError, adminApi, type FieldErrors, loadAdminAnswer } from '../../admin/api.ts';
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

/**
 * One bulk change on the chosen products, as the confirmation dialog submits it: the API does all
 * of it or, naming each refused product, none of it.
 */
export async function clientAction({ request }: Route.ClientActionArgs) {
  const form = await request.formData();
  const action = String(form.get('action')) as ProductBulkAction;
  const ids = form.getAll('ids').map(Number);
  try {
    if (action === 'delete') await adminApi('POST', '/products/bulk-delete', { json: { ids } });
    else
      await adminApi('POST', '/products/bulk', {
        json: {
          action,
          ids,
          project: form.get('project') ?? undefined,
          category: form.get('category') ?? undefined,
          percent: form.get('percent') ?? undefined,
        },
      });
    return { done: action, count: ids.length, message: undefined, errors: {} as FieldErrors };
  } catch (error) {
    if (error instanceof AdminApiError && error.status < 500)
      return { done: undefined, count: 0, message: error.message, errors: error.fieldErrors };
    throw error;
  }
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
  const [selected, setSelected] = useState<number[]>([]);
  const [action, setAction] = useState<ProductBulkAction>('hide');
  const [target, setTarget] = useState('');

  // A page of other rows (another filter or page, or after a change) starts with nothing chosen.
  const rowIds = page.list.map((row) => row.id).join(',');
  useEffect(() => {
    setSelected((chosen) => chosen.filter((id) => rowIds.split(',').includes(String(id))));
  }, [rowIds]);
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  useEffect(() => {
    if (result?.done) setSelected([]);
  }, [result]);

  const chosen = page.list.filter((row) => selected.includes(row.id));
  const allChosen = page.list.length > 0 && chosen.length === page.list.length;
  const toggle = (id: number, on: boolean) =>
    setSelected((ids) => (on ? [...ids, id] : ids.filter((other) => other !== id)));
  const actions = BULK_ACTIONS.filter((entry) => !entry.adminOnly || role === 'admin');
  const names = chosen.map((row) => `«${nameOf(row)}»`).join(', ');
  const targetName = (list: Array<AdminProject | AdminCategory>) => {
    const found = list.find((entry) => String(entry.id) === target);
    return found ? nameOf(found) : '';
  };
  const summary = () => {
    const count = chosen.length;
    switch (action) {
      case 'hide':
        return t('admin-bulk-confirm-hide', { count, names });
      case 'show':
        return t('admin-bulk-confirm-show', { count, names });
      case 'project':
        return t('admin-bulk-confirm-project', { count, names, project: targetName(projects) });
      case 'category':
        return t('admin-bulk-confirm-category', { count, names, category: targetName(categories) });
      case 'price':
        return t('admin-bulk-confirm-price', {
          count,
          names,
          percent: `${Number(target) > 0 ? '+' : ''}${target}`,
        });
      case 'delete':
        return t('admin-bulk-confirm-delete', { count, names });
    }
  };
  const refused = Object.entries(result?.errors ?? {}).flatMap(([field, texts]) => {
    const id = Number(field.replace(/^products\./, ''));
    const row = page.list.find((entry) => entry.id === id);
    return texts.map((text) => ({ key: `${field}:${text}`, text: row ? `«${nameOf(row)}»: ${text}` : text }));
  });

  return (
    <section className="admin-card admin-products" aria-label={t('admin-products')}>
      <fetcher.Form
        method="post"
        className="admin-bulk"
        onSubmit={() => dialog.current?.close()}
        aria-label={t('admin-bulk-actions')}
      >
        {chosen.map((row) => (
          <input key={row.id} type="hidden" name="ids" value={row.id} />
        ))}
        <p className="admin-bulk__count" aria-live="polite">
          {t('admin-bulk-chosen', { count: chosen.length })}
        </p>
        <SelectField
          name="action"
          label={t('admin-bulk-action')}
          value={action}
          onChange={(event) => {
            setAction(event.target.value as ProductBulkAction);
            setTarget('');
          }}
        >
          {actions.map((entry) => (
            <option key={entry.action} value={entry.action}>
              {t(entry.label)}
            </option>
          ))}
        </SelectField>
        {action === 'project' ? (
          <SelectField
            name="project"
            label={t('admin-project')}
            required
            value={target}
            onChange={(event) => setTarget(event.target.value)}
          >
            <option value="">{t('admin-choose')}</option>
            {projects.map((project) => (
              <option key={project.id} value={project.id}>
                {nameOf(project)}
              </option>
            ))}
          </SelectField>
        ) : null}
        {action === 'category' ? (
          <SelectField
            name="category"
            label={t('admin-category')}
            required
            value={target}
            onChange={(event) => setTarget(event.target.value)}
          >
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
            name="percent"
            type="number"
            label={t('admin-bulk-percent')}
            hint={t('admin-bulk-percent-hint')}
            required
            step={1}
            min={BULK_PRICE_PERCENT.min}
            max={BULK_PRICE_PERCENT.max}
            value={target}
            onChange={(event) => setTarget(event.target.value)}
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
      {result?.done ? <FormSuccess>{t(DONE[result.done], { count: result.count })}</FormSuccess> : null}
      {result?.message ? (
        <div className="form-alert" role="alert">
          <p>{result.message}</p>
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
                    setSelected(event.target.checked ? page.list.map((row) => row.id) : [])
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
                chosen={selected.includes(product.id)}
                onChoose={(on) => toggle(product.id, on)}
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
  chosen,
  onChoose,
  name,
  project,
  money,
}: {
  product: ProductRow;
  chosen: boolean;
  onChoose: (on: boolean) => void;
  name: string;
  project: string;
  money: (roubles: number | null) => string;
}) {
  const { t } = useAdminShop();
  return (
    <tr>
      <td className="admin-product-table__choose">
        <input
          type="checkbox"
          aria-label={t('admin-bulk-choose', { name })}
          checked={chosen}
          onChange={(event) => onChoose(event.target.checked)}
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
