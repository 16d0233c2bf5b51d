import type { ReactNode } from 'react';
import { Form, Link, useSubmit } from 'react-router';
import type { Paging, ProductCard, ProductListResponse } from '../../contract/catalog.ts';
import { SORTS, toggleSection, toggleSize } from '../../contract/shop.ts';
import { listHref, type PageView } from '../lib/list-view.ts';
import { useShop } from '../lib/shop.ts';
import { ChevronIcon, CloseIcon } from './icons.tsx';
import { Pager } from './pager.tsx';
import { ComingSoon, ProductGrid } from './product-card.tsx';

/** One page of a list, as the server sorted, filtered and cut it. */
type ListData = Omit<ProductListResponse, 'success' | 'paging'> & { paging: Paging; view: PageView };

/**
 * Sort, filters and page live in the query string, so lists can be shared and work without
 * JavaScript; the server applies them to the whole list. Changing the sort or a filter goes back to
 * the first page.
 *
 * On a phone the sort and the side filters are a drawer (a popover, opened by the browser itself:
 * no script, Escape and a click outside close it), so the first products show without scrolling;
 * on a wide screen the same elements are laid out in place, the sort beside the heading and the
 * filters in a column. Whatever is in the side sections lands in the drawer too.
 */
export function ShopList({
  heading,
  data,
  empty,
  comingSoon = [],
}: {
  heading: string;
  data: ListData;
  empty: ReactNode;
  /** Announced products of this list, shown above its first page. */
  comingSoon?: ProductCard[];
}) {
  const { t } = useShop();
  const { view, paging } = data;
  return (
    <div className="shop-list">
      <h1 className="shop-list__heading">{heading}</h1>
      <button type="button" className="button shop-list__options-button" popoverTarget={LIST_OPTIONS_ID}>
        {t('filters-and-sort')}
      </button>
      <div id={LIST_OPTIONS_ID} className="list-options" popover="auto">
        <div className="list-options__head">
          <h2>{t('filters-and-sort')}</h2>
          <button
            type="button"
            className="icon-button"
            popoverTarget={LIST_OPTIONS_ID}
            popoverTargetAction="hide"
          >
            <CloseIcon label={t('close-filters')} />
          </button>
        </div>
        <SortSelect view={view} />
        <aside className="side-sections" aria-label={t('catalogue')}>
          <SideSection
            title={t('all-projects')}
            items={data.projects}
            counts={data.counts.projects}
            selected={view.projectId}
            hrefOf={(id) => listHref(view, { projectId: toggleSection(view.projectId, id), page: 1 })}
          />
          <SideSection
            title={t('all-categories')}
            items={data.categories}
            counts={data.counts.categories}
            selected={view.categoryId}
            hrefOf={(id) => listHref(view, { categoryId: toggleSection(view.categoryId, id), page: 1 })}
          />
          <SideSection
            title={t('all-sizes')}
            items={data.sizes.map((size) => ({ id: size.key, name: size.name }))}
            counts={data.counts.sizes}
            selected={view.size}
            hrefOf={(key) => listHref(view, { size: toggleSize(view.size, key), page: 1 })}
          />
        </aside>
        <button
          type="button"
          className="button button--primary list-options__show"
          popoverTarget={LIST_OPTIONS_ID}
          popoverTargetAction="hide"
        >
          {t('show-products', { count: paging.total })}
        </button>
      </div>
      <section className="shop-list__products" aria-label={t('products-count', { count: paging.total })}>
        {view.page === 1 ? <ComingSoon products={comingSoon} id="list-coming-soon" /> : null}
        <h2 className="shop-list__count">{t('products-count', { count: paging.total })}</h2>
        {data.products.length > 0 ? <ProductGrid products={data.products} eagerCount={4} /> : empty}
        <Pager view={view} paging={paging} />
      </section>
    </div>
  );
}

const LIST_OPTIONS_ID = 'list-options';

function SortSelect({ view }: { view: PageView }) {
  const { t } = useShop();
  const submit = useSubmit();
  return (
    <Form method="get" className="sort-select" preventScrollReset replace>
      {view.projectId ? <input type="hidden" name="project" value={view.projectId} /> : null}
      {view.categoryId ? <input type="hidden" name="category" value={view.categoryId} /> : null}
      {view.size ? <input type="hidden" name="size" value={view.size} /> : null}
      <label htmlFor="sort">{t('sort')}</label>
      <select
        id="sort"
        name="sort"
        // Uncontrolled, so the choice stays shown while the sorted list loads; the key resets it after.
        key={view.sort}
        defaultValue={view.sort}
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

/**
 * A dropdown of projects, categories or sizes, each with what choosing it would show; choosing the
 * chosen one again clears the filter.
 */
function SideSection<Id extends number | string>({
  title,
  items,
  counts,
  selected,
  hrefOf,
}: {
  title: string;
  items: Array<{ id: Id; name: string }>;
  counts: Record<string, number>;
  selected: Id;
  hrefOf: (id: Id) => string;
}) {
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
              to={hrefOf(item.id)}
              replace
              preventScrollReset
              prefetch="intent"
              aria-current={item.id === selected ? 'true' : undefined}
              className="side-section__item"
            >
              <span>{item.name}</span>
              <span className="side-section__count">{counts[String(item.id)] ?? 0}</span>
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}
