import { Form, Link, useSearchParams, useSubmit } from 'react-router';
import type { Category, ProductListResponse, Project } from '../../contract/catalog.ts';
import { filterProducts, isSort, SORTS, sortProducts, toggleSection } from '../../contract/shop.ts';
import { useShop } from '../lib/shop.ts';
import { ChevronIcon } from './icons.tsx';
import { ProductGrid } from './product-card.tsx';

type ListData = Omit<ProductListResponse, 'success'>;

/** Filter and sort live in the query string, so lists can be shared and work without JavaScript. */
function useListState() {
  const [params] = useSearchParams();
  const sortParam = params.get('sort');
  return {
    params,
    sort: isSort(sortParam) ? sortParam : 'default',
    projectId: Number(params.get('project')) || 0,
    categoryId: Number(params.get('category')) || 0,
  };
}

function withParam(params: URLSearchParams, name: string, value: number | string) {
  const next = new URLSearchParams(params);
  if (value === 0 || value === 'default') next.delete(name);
  else next.set(name, String(value));
  const query = next.toString();
  return query ? `?${query}` : '?';
}

export function ShopList({ heading, data, empty }: { heading: string; data: ListData; empty: string }) {
  const { t } = useShop();
  const { sort, projectId, categoryId } = useListState();
  const products = sortProducts(filterProducts(data.products, projectId, categoryId), sort);
  return (
    <div className="shop-list">
      <div className="shop-list__head">
        <h1>{heading}</h1>
        <SortSelect sort={sort} projectId={projectId} categoryId={categoryId} />
      </div>
      <div className="shop-list__body">
        <aside className="side-sections" aria-label={t('catalogue')}>
          <SideSection
            title={t('all-projects')}
            name="project"
            items={data.projects}
            counts={data.counts.projects}
            selected={projectId}
          />
          <SideSection
            title={t('all-categories')}
            name="category"
            items={data.categories}
            counts={data.counts.categories}
            selected={categoryId}
          />
        </aside>
        <section className="shop-list__products" aria-label={t('products-count', { count: products.length })}>
          <h2 className="shop-list__count">{t('products-count', { count: products.length })}</h2>
          {products.length > 0 ? (
            <ProductGrid products={products} eagerCount={4} />
          ) : (
            <p className="empty">{empty}</p>
          )}
        </section>
      </div>
    </div>
  );
}

function SortSelect({
  sort,
  projectId,
  categoryId,
}: {
  sort: string;
  projectId: number;
  categoryId: number;
}) {
  const { t } = useShop();
  const submit = useSubmit();
  return (
    <Form method="get" className="sort-select" preventScrollReset replace>
      {projectId ? <input type="hidden" name="project" value={projectId} /> : null}
      {categoryId ? <input type="hidden" name="category" value={categoryId} /> : null}
      <label htmlFor="sort">{t('sort')}</label>
      <select
        id="sort"
        name="sort"
        value={sort}
        onChange={(event) => submit(event.currentTarget.form, { preventScrollReset: true, replace: true })}
      >
        {SORTS.map((option) => (
          <option key={option} value={option}>
            {t(`sort-${option}`)}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="button">
          {t('apply-sort')}
        </button>
      </noscript>
    </Form>
  );
}

/** A dropdown of projects or categories with counts; choosing the chosen one again clears the filter. */
function SideSection({
  title,
  name,
  items,
  counts,
  selected,
}: {
  title: string;
  name: 'project' | 'category';
  items: Array<Project | Category>;
  counts: Record<string, number>;
  selected: number;
}) {
  const { params } = useListState();
  if (items.length === 0) return null;
  return (
    <details className="side-section" open>
      <summary>
        {title}
        <ChevronIcon size={18} />
      </summary>
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            <Link
              to={withParam(params, name, toggleSection(selected, item.id))}
              preventScrollReset
              replace
              aria-current={item.id === selected ? 'true' : undefined}
              className="side-section__item"
            >
              <span>{item.name}</span>
              <span className="side-section__count">{counts[item.id] ?? 0}</span>
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}
